import Foundation
import InkCore
import InkPDF

/// Reads a Xournal++ `.xopp` (gzip of XML, or the newer zip package) into a `Document`: every page, with its size
/// and background (solid colour; plain, lined, ruled, graph and dotted, the nearest of those for other styles).
///
/// - Every layer of a page in order with its name (Xournal++ 1.2's `name`; "Layer N" without), and in it its pen and highlighter strokes. Whiteout strokes
///   (`tool="eraser"`) become pen strokes in the page's background colour, which is what Xournal++ shows.
/// - Per-segment widths become pressure: the nominal width is ⅔ of the widest segment, so the widest maps to
///   pressure 1 and our shaper (width × (0.5 + p)) reproduces each segment's width down to ⅓ of the widest.
///   Files written by Oekaki use the exact inverse of our export.
/// - Strokes are drawn as written (`Trace.polyline`): straight segments, each as wide as Xournal++ draws it.
///   Files written by Oekaki mark shapes and polylines (`trace`, `shape` attributes); their other strokes are
///   smoothed pen input again.
/// - Text keeps its font, size, colour and position (Xournal++ does not wrap; a box is as wide as the page leaves it,
///   or as its longest line can be where that runs off the page).
/// - What Oekaki cannot hold yet (images, TeX, image backgrounds) is counted in one note.
/// - PDF backgrounds: the PDF is found by its recorded path, or beside the `.xopp` under the same name (or as
///   Xournal++'s attachment `NAME.xopp.FILE`), and embedded; when none exists (or it does not open)
///   those pages get plain paper and one note names the missing file.
public enum XoppImport {
    /// Largest XML we inflate (a gzip bomb stops here, quickly).
    public static let maxXMLBytes = 256 << 20

    public struct Result {
        public var document: Document
        /// The page asked for (1-based): what `drawing` is.
        public var page: Int
        /// Lines for stderr: elements not held, whiteout, repaired values, backgrounds of unknown styles.
        public var notes: [String]
        public var creator: String
        /// The root's `fileversion` (Xournal++ 1.x writes 4); 4 when absent.
        public var fileVersion: Int

        public var pageCount: Int { document.pages.count }
        /// The strokes of the page asked for.
        public var drawing: Drawing { document.pages[page - 1].flattened }
    }

    static let gzipMagic: [UInt8] = [0x1F, 0x8B]

    /// Reads every page; `page` (1-based) must exist and is the one `Result.drawing` gives.
    public static func read(path: String, page: Int = 1) throws -> Result {
        let raw = try readFile(path)
        let xml: [UInt8]
        do {
            if raw.starts(with: gzipMagic) {
                xml = try Deflate.inflate(raw, container: .gzip, limit: maxXMLBytes)
            } else if raw.starts(with: ZipPackage.magic) {
                xml = try ZipPackage.member("content.xml", in: raw, limit: maxXMLBytes)
            } else if raw.starts(with: Array("<?xml".utf8)) || raw.starts(with: Array("<xournal".utf8)) {
                xml = raw   // an uncompressed .xopp: Xournal++ reads those too
            } else {
                throw StoreError.badXopp(path: path, detail: "not gzip or zip data")
            }
        } catch let e as Deflate.Failure {
            switch e {
            case .tooLarge(let l): throw StoreError.badXopp(path: path, detail: "it inflates to more than \(l >> 20) MiB (a decompression bomb?)")
            case .truncated: throw StoreError.badXopp(path: path, detail: "the compressed data is truncated")
            case .corrupt(let m): throw StoreError.badXopp(path: path, detail: "the compressed data is damaged (\(m))")
            }
        } catch let e as ZipPackage.Failure {
            switch e {
            case .invalid(let m): throw StoreError.badXopp(path: path, detail: "bad zip package: \(m)")
            case .missing(let m): throw StoreError.badXopp(path: path, detail: "the zip package has no \(m)")
            case .unsupported(let m): throw StoreError.badXopp(path: path, detail: "the zip package uses \(m)")
            }
        }
        do {
            return try parse(xml, page: page, path: path, package: raw.starts(with: ZipPackage.magic) ? raw : nil)
        } catch let e as XMLSubset.Failure {
            throw StoreError.badXopp(path: path, detail: e.description)
        } catch let e as ParseFailure {
            throw StoreError.badXopp(path: path, detail: e.message)
        }
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw StoreError.notFound(path: path) }
        guard !isDir.boolValue else { throw StoreError.unrecognized(path: path, reason: "is a folder, not a drawing") }
        // Empty first: Foundation's contents(atPath:) leaks its buffer on a 0-byte file (found by fuzzing).
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.intValue
        guard size != 0 else { throw StoreError.emptyFile(path: path) }
        if let size, size > maxXMLBytes {
            throw StoreError.badXopp(path: path, detail: "the file is \(size >> 20) MiB; at most \(maxXMLBytes >> 20) MiB are read")
        }
        // Straight into the array (Data and then a copy of it was two passes over a file of tens of megabytes).
        guard let bytes = FileBytes.read(path, limit: maxXMLBytes) else { throw StoreError.io(path: path, detail: "cannot be read") }
        guard !bytes.isEmpty else { throw StoreError.emptyFile(path: path) }
        return bytes
    }

    struct ParseFailure: Error { var message: String }

    static let namedColors: [String: RGBA] = [
        "black": RGBA(r: 0, g: 0, b: 0), "blue": RGBA(r: 0x33, g: 0x33, b: 0xcc), "red": RGBA(r: 0xff, g: 0, b: 0),
        "green": RGBA(r: 0, g: 0x80, b: 0), "gray": RGBA(r: 0x80, g: 0x80, b: 0x80), "lightblue": RGBA(r: 0x00, g: 0xc0, b: 0xff),
        "lightgreen": RGBA(r: 0, g: 0xff, b: 0), "magenta": RGBA(r: 0xff, g: 0, b: 0xff), "orange": RGBA(r: 0xff, g: 0x80, b: 0),
        "yellow": RGBA(r: 0xff, g: 0xff, b: 0), "white": RGBA(r: 0xff, g: 0xff, b: 0xff),
    ]

    static func color(_ s: String?) -> RGBA? {
        guard let s = s else { return nil }
        return RGBA(hex: s) ?? namedColors[s.lowercased()]
    }

    /// One page as the XML pass found it (its strokes go to `StrokeFinishing`, which parses their numbers).
    struct PendingPage {
        var size: Size
        var background: Background
        /// The layer place of each of its strokes, texts and images, in document order.
        var strokeLayers: [Int] = []
        /// 0-based page of the document's PDF this page shows, if its background is a PDF page.
        var pdfPage: Int?
        /// Its `<layer>`s in order: the name Xournal++ 1.2 writes (nil before), and our own `visible="false"`.
        var layers: [(name: String?, visible: Bool)] = []
    }

    /// Most layers a page may have (Xournal++ notebooks have a few; a million would be a hostile file).
    static let maxLayers = 1000

    /// Most base64 text an `<image>` may hold (about 100 MB of picture).
    static let maxImageText = 140 << 20

    /// An `<image left top right bottom>` holding a base64 PNG (or JPEG): its box and picture, or nil when it is
    /// not a picture we read (bad base64 or coordinates, not a PNG/JPEG, larger than we decode).
    static func image(_ attrs: XMLSubset.Attributes, base64 text: [UInt8], files: inout [ContentHash: [UInt8]]) -> (ImageBox, Rect)? {
        guard let (bytes, frame) = element(attrs, base64: text) else { return nil }
        return picture(bytes, frame: frame, files: &files)
    }

    /// A `<teximage>` (a LaTeX formula): its picture as Xournal++ draws it, the PDF LaTeX made (Xournal++ 1.1 on;
    /// before, a PNG) stretched over its box. Kept as a picture of `texPixelsPerUnit` pixels a page unit, fewer
    /// when the box is huge, with the formula's LaTeX source and its PDF, which the `.xopp` export writes back.
    /// `budget`: pixels still to be rendered for this file's formulas (a file of thousands of huge ones stops there).
    static func texImage(_ attrs: XMLSubset.Attributes, base64 text: [UInt8], files: inout [ContentHash: [UInt8]], budget: inout Int) -> (ImageBox, Rect)? {
        guard let (bytes, frame) = element(attrs, base64: text) else { return nil }
        let source = texSource(attrs)
        guard PDFSource.looksLikePDF(bytes) else {
            guard var (box, frame) = picture(bytes, frame: frame, files: &files) else { return nil }
            box.formula = source.isEmpty ? nil : Formula(source: source)
            return (box, frame)
        }
        let side = Double(ImageLimits.maxSide)
        let scale = min(texPixelsPerUnit, (Double(texMaxPixels) / (frame.width * frame.height)).squareRoot(), side / frame.width, side / frame.height)
        let w = max(Int((frame.width * scale).rounded()), 1), h = max(Int((frame.height * scale).rounded()), 1)
        guard w * h <= budget, bytes.count <= Schema.maxFileBytes else { return nil }
        budget -= w * h
        guard let pdf = try? PDFSource(bytes: bytes), let pixels = pdf.pixels(page: 0, width: w, height: h),
              let png = PNGPicture.png(premultipliedARGB: pixels, width: w, height: h),
              var (box, frame) = picture(png, frame: frame, files: &files) else { return nil }
        let pdfHash = ContentHash(of: bytes)
        if !source.isEmpty, files[pdfHash] == nil { files[pdfHash] = bytes }
        // A formula without its source is only its picture (Xournal++ always writes one).
        box.formula = source.isEmpty ? nil : Formula(source: source, pdf: pdfHash)
        return (box, frame)
    }

    /// A `<teximage>`'s LaTeX source: `text` (Xournal++ 1.2 on reads it whole and ignores `texlength`, which
    /// 1.1 wrote beside it), cut to `Formula.maxSourceBytes` at a character boundary.
    static func texSource(_ attrs: XMLSubset.Attributes) -> String {
        let source = attrs["text"] ?? ""
        return TextBox.truncated(source, maxBytes: Formula.maxSourceBytes) ?? source
    }

    /// Sharp on a HiDPI screen at 200 %; a formula of 300 × 60 units is 1200 × 240 pixels, about 10 KB of PNG.
    static let texPixelsPerUnit = 4.0
    /// At most a 500 × 500 unit box at 4 pixels a unit; a bigger one gets fewer.
    static let texMaxPixels = 4_000_000
    /// A file's formulas together (2,500 formulas of 300 × 60 units at 4 pixels a unit): seconds of poppler at most.
    static let texFilePixels = 720_000_000

    /// An image element's bytes (its base64 text) and its box (`left`, `top`, `right`, `bottom`).
    private static func element(_ attrs: XMLSubset.Attributes, base64 text: [UInt8]) -> ([UInt8], Rect)? {
        guard text.count <= maxImageText,
              let l = attrs["left"].flatMap(Double.init), let t = attrs["top"].flatMap(Double.init),
              let r = attrs["right"].flatMap(Double.init), let b = attrs["bottom"].flatMap(Double.init),
              [l, t, r, b].allSatisfy({ $0.isFinite && abs($0) <= Schema.maxPageSide * 2 }), r > l, b > t,
              let data = Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters) else { return nil }
        return (Array(data), Rect(minX: l, minY: t, maxX: r, maxY: b))
    }

    /// A PNG or JPEG picture in `frame`, its bytes kept once in `files`.
    private static func picture(_ bytes: [UInt8], frame: Rect, files: inout [ContentHash: [UInt8]]) -> (ImageBox, Rect)? {
        guard let (hash, header) = embed(bytes, files: &files) else { return nil }
        return (ImageBox(file: hash, pixelWidth: header.width, pixelHeight: header.height), frame)
    }

    /// A PNG or JPEG within `ImageLimits` (the header reader checks them), its bytes kept once in `files`; nil for
    /// anything else.
    static func embed(_ bytes: [UInt8], files: inout [ContentHash: [UInt8]]) -> (ContentHash, ImageHeader)? {
        guard let header = try? ImageHeader(reading: bytes) else { return nil }
        let hash = ContentHash(of: bytes)
        if files[hash] == nil { files[hash] = bytes }
        return (hash, header)
    }

    /// Where a file a `.xopp` names may be: Xournal++'s attachment beside it (`NAME.xopp.FILE`, for "attach"), the
    /// path as written (a relative one from the `.xopp`'s folder), and beside the `.xopp` under the same file name
    /// (a path from another machine).
    static func sidePaths(_ name: String, domain: String?, xopp: String?) -> [String] {
        let dir = xopp.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        var out: [String] = []
        if domain == "attach", let xopp { out.append(xopp + "." + name) }
        out.append(name.hasPrefix("/") || dir.isEmpty ? name : (dir as NSString).appendingPathComponent(name))
        if !dir.isEmpty { out.append((dir as NSString).appendingPathComponent((name as NSString).lastPathComponent)) }
        return out
    }

    /// `path`: where the `.xopp` is, to find its PDF background beside it.
    /// `package`: the zip package the XML came from (Xournal++'s attachments are its members).
    static func parse(_ xml: [UInt8], page wanted: Int, path: String? = nil, package: [UInt8]? = nil) throws -> Result {
        var p = XMLSubset(xml)
        var pages: [PendingPage] = []
        var creator = ""
        var fileVersion = 4
        var inPage = false, inLayer = false
        // What Oekaki cannot hold yet, by what users call it; backgrounds drawn as the nearest style, by style.
        var notHeld: [String: Int] = [:]
        var approximated: [String: Int] = [:]
        var skipped: [String: Int] = [:]
        var whiteouts = 0, droppedPoints = 0, repairedWidths = 0, badStrokes = 0
        var current: (attrs: XMLSubset.Attributes, text: ArraySlice<UInt8>)?
        // The PDF the pages' PDF backgrounds name (Xournal++ records it on the first such background only).
        var pdfName: String?, pdfDomain: String?
        // A <text> element being read (its characters), and texts cut to the size a box holds.
        var currentText: (attrs: XMLSubset.Attributes, text: [UInt8])?
        var cutTexts = 0
        // An <image> being read (its base64 text), the pictures' bytes, and images we could not read.
        var currentImage: (attrs: XMLSubset.Attributes, text: [UInt8])?
        var files: [ContentHash: [UInt8]] = [:]
        var badImages = 0
        // A <teximage> being read, and the formulas that came in as pictures or could not be read.
        var currentTeX: (attrs: XMLSubset.Attributes, text: [UInt8])?
        var texPictures = 0, badTeX = 0, texBudget = texFilePixels
        var pictureBackgrounds = XoppPictureBackgrounds(xopp: path, package: package)
        var skipDepth = 0
        var root = true
        let finishing = StrokeFinishing()
        defer { finishing.close() }
        /// A stroke, text or image of the current page's current layer, in document order.
        func add(_ stroke: PendingStroke) {
            pages[pages.count - 1].strokeLayers.append(max(pages[pages.count - 1].layers.count - 1, 0))
            finishing.add(stroke)
        }
        func addPicture(_ box: ImageBox, _ frame: Rect) {
            add(PendingStroke(style: StrokeStyle(width: 1), isPen: false, width: [], text: [], item: .image(box), frame: frame))
        }
        while let e = try p.next() {
            switch e {
            case .start(let name, let attrs):
                if root {
                    guard name == "xournal" || name == "MrWriter" else { throw ParseFailure(message: "not a Xournal++ document (root element <\(name)>)") }
                    creator = attrs["creator"] ?? ""
                    if let v = attrs["fileversion"].flatMap({ Int($0) }), v >= 0, v < 1000 { fileVersion = v }
                    finishing.exact = creator.hasPrefix("Oekaki")
                    root = false
                    continue
                }
                if skipDepth > 0 { skipDepth += 1; continue }
                switch name {
                case "page":
                    let n = pages.count + 1
                    // Counted as they come, so a file of a million pages stops here at once.
                    guard n <= Schema.maxPages else { throw ParseFailure(message: "it has more than \(Schema.maxPages) pages; Oekaki opens at most \(Schema.maxPages)") }
                    guard let w = attrs["width"].flatMap(Double.init), let h = attrs["height"].flatMap(Double.init) else {
                        throw ParseFailure(message: "page \(n) has no valid width and height")
                    }
                    guard w.isFinite, h.isFinite, w > 0, h > 0, w <= Schema.maxPageSide, h <= Schema.maxPageSide else {
                        throw ParseFailure(message: "page \(n) is \(attrs["width"] ?? "") × \(attrs["height"] ?? ""); pages must be between 0 and \(Int(Schema.maxPageSide)) units")
                    }
                    pages.append(PendingPage(size: Size(width: w, height: h), background: .plain))
                    inPage = true
                case "background" where inPage:
                    switch attrs["type"] {
                    case "solid":
                        let paper = color(attrs["color"]) ?? .white
                        let name = attrs["style"] ?? "plain"
                        let style = Background.Style(rawValue: name) ?? .plain
                        if Background.Style(rawValue: name) == nil { approximated[name, default: 0] += 1 }
                        // `config="m1=40,rm=1"`: a graph margin (Oekaki always centres whole squares, as rm=1 does).
                        var margin = 0.0
                        for item in (attrs["config"] ?? "").split(separator: ",") {
                            let kv = item.split(separator: "=", maxSplits: 1)
                            if kv.count == 2, kv[0] == "m1", let m = Double(kv[1]), m.isFinite, m > 0 { margin = m }
                        }
                        // On dark paper Xournal++ draws its lines in a dark grey instead of blue or silver.
                        let dark = (Int(paper.r) + Int(paper.g) + Int(paper.b)) / 3 < 0x80
                        let line: RGBA? = !dark ? nil : style == .graph ? RGBA(r: 0x20, g: 0x20, b: 0x20)
                            : style == .ruled || style == .lined ? RGBA(r: 0x43, g: 0x43, b: 0x43) : nil
                        pages[pages.count - 1].background = Background(style: style, paper: paper, line: line, margin: style == .graph ? margin : 0)
                    case "pdf":
                        if pdfName == nil, let f = attrs["filename"], !f.isEmpty { pdfName = f; pdfDomain = attrs["domain"] }
                        let k = attrs["pageno"].flatMap { Int($0) } ?? pages.count
                        pages[pages.count - 1].pdfPage = k >= 1 && k <= PDFSource.maxPages ? k - 1 : nil
                    case "pixmap":
                        let before = pages.count - 1
                        pages[pages.count - 1].background.picture = pictureBackgrounds.picture(
                            domain: attrs["domain"], filename: attrs["filename"],
                            earlier: { k in k < before ? pages[k].background.picture : nil }, files: &files)
                    default: notHeld["\(attrs["type"] ?? "unknown") background", default: 0] += 1
                    }
                case "layer" where inPage:
                    guard pages[pages.count - 1].layers.count < Self.maxLayers else {
                        throw ParseFailure(message: "page \(pages.count) has more than \(Self.maxLayers) layers")
                    }
                    let name = attrs["name"].map { String($0.unicodeScalars.filter { $0.value >= 0x20 }.prefix(Layer.maxNameLength)) }
                    pages[pages.count - 1].layers.append((name?.isEmpty == false ? name : nil, attrs["visible"] != "false"))
                    inLayer = true
                case "stroke" where inPage && inLayer:
                    current = (attrs, [])
                case "text" where inPage && inLayer:
                    currentText = (attrs, [])
                case "image" where inPage && inLayer:
                    currentImage = (attrs, [])
                case "teximage" where inPage && inLayer:
                    currentTeX = (attrs, [])
                case "text" where inPage, "image" where inPage, "teximage" where inPage:
                    notHeld[name == "teximage" ? "TeX" : name, default: 0] += 1
                    skipDepth = 1
                case _ where inPage:
                    skipped[name, default: 0] += 1
                    skipDepth = 1
                default:
                    skipDepth = 1
                }
            case .text(let t):
                if currentImage != nil, currentImage!.text.count <= maxImageText { currentImage!.text.append(contentsOf: t) }
                if currentTeX != nil, currentTeX!.text.count <= maxImageText { currentTeX!.text.append(contentsOf: t) }
                // Bounded: the box keeps `TextBox.maxTextBytes`; a little more tells that it was cut.
                if currentText != nil, currentText!.text.count <= TextBox.maxTextBytes { currentText!.text += t.prefix(TextBox.maxTextBytes + 4 - currentText!.text.count) }
                if current != nil { current!.text = current!.text.isEmpty ? t : ArraySlice(Array(current!.text) + t) }
            case .end(let name):
                if skipDepth > 0 { skipDepth -= 1; continue }
                switch name {
                case "page": inPage = false
                case "layer": inLayer = false
                case "image":
                    guard let c = currentImage else { continue }
                    currentImage = nil
                    guard let (box, frame) = image(c.attrs, base64: c.text, files: &files) else { badImages += 1; continue }
                    addPicture(box, frame)
                case "teximage":
                    guard let c = currentTeX else { continue }
                    currentTeX = nil
                    guard let (box, frame) = texImage(c.attrs, base64: c.text, files: &files, budget: &texBudget) else { badTeX += 1; continue }
                    texPictures += 1
                    addPicture(box, frame)
                case "text":
                    guard let c = currentText else { continue }
                    currentText = nil
                    var text = String(decoding: c.text, as: UTF8.self)
                    if let cut = TextBox.truncated(text) { text = cut; cutTexts += 1 }
                    let n = pages.reduce(0) { $0 + $1.strokeLayers.count } + 1
                    guard let x = c.attrs["x"].flatMap(Double.init), let y = c.attrs["y"].flatMap(Double.init), x.isFinite, y.isFinite,
                          abs(x) <= Schema.maxPageSide, abs(y) <= Schema.maxPageSide else {
                        throw ParseFailure(message: "text \(n) has no valid position")
                    }
                    let size = c.attrs["size"].flatMap(Double.init) ?? 12
                    guard TextBox.sizeRange.contains(size) else { throw ParseFailure(message: "text \(n) has size \(c.attrs["size"] ?? "")") }
                    guard let rgba = color(c.attrs["color"] ?? "#000000ff") else { throw ParseFailure(message: "text \(n) has an unreadable colour '\(c.attrs["color"] ?? "")'") }
                    var font = c.attrs["font"] ?? "Sans"
                    if font.isEmpty || font.utf8.count > TextBox.maxFontBytes { font = "Sans" }
                    // Xournal++ does not wrap text: a box is as wide as the page leaves it, or as its longest line can
                    // be where that runs off the page (1.1 em a character, 3 a tab: more than a font draws), so
                    // nothing Xournal++ draws on one line wraps here (ours say their width).
                    let page = pages[pages.count - 1].size
                    let textLines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    let longest = textLines.map { line in line.reduce(0.0) { $0 + ($1 == "\t" ? 3 : 1.1) } }.max() ?? 0
                    let unwrapped = max(page.width - x, longest * size)
                    let width = min(max(c.attrs["width"].flatMap(Double.init) ?? unwrapped, 4 * size, TextBox.widthRange.lowerBound), TextBox.widthRange.upperBound)
                    // Its height until a renderer measures it: lines are a font's height apart, about 1.17 em with
                    // ascent and descent each rounded up to a whole point (Xournal++'s layout, `TextPainter`).
                    let box = TextBox(text: text, font: font, size: size, color: rgba, width: width)
                    add(PendingStroke(style: StrokeStyle(color: rgba, width: 1), isPen: false, width: [], text: [],
                                      item: .text(box), frame: Rect(x: x, y: y, width: width, height: Double(textLines.count) * (size * 1.17 + 1.5))))
                case "stroke":
                    guard let c = current else { continue }
                    current = nil
                    let tool = c.attrs["tool"] ?? "pen"
                    var style: StrokeStyle
                    switch tool {
                    case "pen": style = StrokeStyle(tool: .pen)
                    case "highlighter": style = StrokeStyle(tool: .highlighter)
                    case "eraser": style = StrokeStyle(tool: .pen); whiteouts += 1
                    default: skipped["\(tool) stroke", default: 0] += 1; continue
                    }
                    let paper = pages[pages.count - 1].background.paper
                    guard let rgba = tool == "eraser" ? paper : color(c.attrs["color"]) else {
                        throw ParseFailure(message: "stroke \(pages.reduce(0) { $0 + $1.strokeLayers.count } + 1) has an unreadable colour '\(c.attrs["color"] ?? "")'")
                    }
                    style.color = rgba
                    // Xournal++ draws every highlighter at 120/255 whatever alpha its colour says (`OPACITY_HIGHLIGHTER`).
                    if tool == "highlighter", !creator.hasPrefix("Oekaki") { style.color.a = 120 }
                    Self.readLook(c.attrs, into: &style)
                    // Ink from another program is final: drawn straight between its points, as Xournal++ draws it.
                    // Our own files say which strokes were shapes or polylines; the rest was smoothed pen input.
                    var shape: ShapeKind?
                    if creator.hasPrefix("Oekaki") {
                        style.trace = c.attrs["trace"].flatMap(Trace.init(rawValue:)) ?? .smoothed
                        shape = c.attrs["shape"].flatMap(ShapeKind.init(rawValue:))
                    } else {
                        style.trace = .polyline
                    }
                    add(PendingStroke(style: style, isPen: tool == "pen", width: c.attrs.bytes("width") ?? [], text: c.text, shape: shape))
                default: break
                }
            }
        }
        guard !pages.isEmpty else { throw ParseFailure(message: "the document has no pages") }
        guard wanted >= 1, wanted <= pages.count else {
            throw ParseFailure(message: "there is no page \(wanted) (the document has \(pages.count))")
        }
        let exact = creator.hasPrefix("Oekaki")
        // All pages' strokes, parsed during the pass and after it on all cores, are dealt back to their pages in order.
        let finished = try finishing.finished()
        var notes: [String] = []
        let pdf = pages.contains { $0.pdfPage != nil } ? backgroundPDF(named: pdfName, domain: pdfDomain, beside: path, notes: &notes) : nil
        var next = 0
        var id: StrokeID = 0
        // A page's first layer has the page's id; the others take ids after every page's.
        var nextLayerID = LayerID(pages.count)
        var out: [Page] = []
        out.reserveCapacity(pages.count)
        for (k, pending) in pages.enumerated() {
            let pageID = PageID(k + 1)
            let looks = pending.layers.isEmpty ? [(name: String?.none, visible: true)] : pending.layers
            let layerIDs = looks.indices.map { i -> LayerID in
                if i == 0 { return pageID }
                nextLayerID += 1
                return nextLayerID
            }
            var strokes = [[Stroke]](repeating: [], count: looks.count)
            for (j, r) in finished[next..<(next + pending.strokeLayers.count)].enumerated() {
                droppedPoints += r.dropped; repairedWidths += r.repaired
                guard r.points != nil else { badStrokes += 1; continue }
                let l = min(pending.strokeLayers[j], looks.count - 1)
                if let item = r.item, let frame = r.frame {
                    id += 1
                    var s = Stroke(id: id, content: item, frame: frame, page: pageID)
                    s.layer = layerIDs[l]
                    strokes[l].append(s)
                    continue
                }
                for var s in r.strokes {
                    id += 1
                    s.id = id; s.page = pageID; s.layer = layerIDs[l]
                    strokes[l].append(s)
                }
            }
            next += pending.strokeLayers.count
            var background = pending.background
            if let pdf, let k = pending.pdfPage, k < pdf.pageCount { background.pdf = PDFPageRef(file: pdf.hash, index: k) }
            // Xournal++ shows an unnamed layer as "Layer N", N its place from the bottom.
            let layers = looks.enumerated().map { i, look in
                Layer(id: layerIDs[i], name: look.name ?? "Layer \(i + 1)", visible: look.visible,
                      drawing: Drawing(pageSize: pending.size, background: pending.background.paper, strokes: strokes[i]))
            }
            out.append(Page(id: pageID, format: .fixed(pending.size, background), layers: layers))
        }
        // Each note completes "FILE …" on one line.
        func list(_ counts: [String: Int]) -> String { counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") }
        if !notHeld.isEmpty { notes.append("has what Oekaki cannot hold yet; left out \(list(notHeld))") }
        if !skipped.isEmpty { notes.append("has elements Oekaki does not draw; skipped \(list(skipped))") }
        if !approximated.isEmpty { notes.append("has backgrounds Oekaki does not know: \(list(approximated)) (drawn as plain paper)") }
        if whiteouts > 0 { notes.append("has \(whiteouts) whiteout (eraser) strokes; imported as pen strokes in the background colour") }
        if droppedPoints > 0 { notes.append("has \(droppedPoints) points with non-finite or out-of-range coordinates; dropped them") }
        if repairedWidths > 0 { notes.append(exact ? "has \(repairedWidths) invalid segment widths; used the previous width"
                                                 : "has \(repairedWidths) invalid segment widths; left those segments out, as Xournal++ does") }
        if cutTexts > 0 { notes.append("has \(cutTexts) texts longer than a text box holds (\(TextBox.maxTextBytes / 1024) KiB); kept their beginnings") }
        if badStrokes > 0 { notes.append("has \(badStrokes) strokes with an invalid width or no points; skipped them") }
        if texPictures > 0 { notes.append("has \(texPictures) TeX formulas; they came in as pictures (their LaTeX goes back into an .xopp export)") }
        if badTeX > 0 { notes.append("has \(badTeX) TeX formulas that are not a readable PDF or picture (or past \(texFilePixels / 1_000_000) megapixels of formulas in one file); left them out") }
        if pictureBackgrounds.failed > 0 {
            notes.append("has \(pictureBackgrounds.failed) image backgrounds whose picture is missing or not a readable PNG or JPEG (\(ImageLimits.wording)); those pages have plain paper")
        }
        if badImages > 0 { notes.append("has \(badImages) images that are not readable PNG or JPEG pictures (or larger than \(ImageLimits.maxSide) pixels a side or \(ImageLimits.maxPixels / 1_000_000) megapixels); left them out") }
        var document = Document(pages: out)
        document.files = files
        if let pdf { document.files[pdf.hash] = pdf.bytes }
        return Result(document: document, page: wanted, notes: notes, creator: creator, fileVersion: fileVersion)
    }

    /// The PDF a `.xopp`'s PDF backgrounds name: as Xournal++'s attachment (`NAME.xopp.FILE`), at its recorded
    /// path, or beside the `.xopp` under the same file name. Nil (and one note naming it) when none is there or it
    /// does not open. (Not `NAME.pdf` by the `.xopp`'s own name: that is where an export of it often goes.)
    static func backgroundPDF(named name: String?, domain: String?, beside xopp: String?, notes: inout [String]) -> (hash: ContentHash, bytes: [UInt8], pageCount: Int)? {
        let candidates = name.map { sidePaths($0, domain: domain, xopp: xopp) } ?? []
        let shown = name ?? "(no file name recorded)"
        var isDir: ObjCBool = false
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0, isDirectory: &isDir) && !isDir.boolValue }) else {
            notes.append("has PDF backgrounds whose file \(shown) was not found (neither at that path nor beside the .xopp); those pages have plain paper")
            return nil
        }
        do {
            let doc = try DocumentLoader.readPDF(found)
            guard let (hash, bytes) = doc.files.first else { return nil }
            return (hash, bytes, doc.pages.count)
        } catch {
            notes.append("has PDF backgrounds from \(found), which cannot be used (\(error)); those pages have plain paper")
            return nil
        }
    }
}
