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
/// - Text keeps its font, size, colour and position (Xournal++ does not wrap; a box is as wide as the page leaves it).
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
        /// Lines for stderr: elements not held, whiteout, repaired values, approximated backgrounds.
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
            return try parse(xml, page: page, path: path)
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
        guard let d = FileManager.default.contents(atPath: path) else { throw StoreError.io(path: path, detail: "cannot be read") }
        guard !d.isEmpty else { throw StoreError.emptyFile(path: path) }
        return [UInt8](d)
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

    /// Xournal++ background styles Oekaki draws as the nearest of its own.
    static let nearestStyle: [String: Background.Style] = [
        "isodotted": .dotted, "isograph": .graph, "staves": .ruled,
    ]

    /// One page as the XML pass found it; its strokes' numbers are parsed afterwards.
    struct PendingPage {
        var size: Size
        var background: Background
        var strokes: [PendingStroke] = []
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
    static func image(_ attrs: [String: String], base64 text: [UInt8], files: inout [ContentHash: [UInt8]]) -> (ImageBox, Rect)? {
        guard text.count <= maxImageText,
              let l = attrs["left"].flatMap(Double.init), let t = attrs["top"].flatMap(Double.init),
              let r = attrs["right"].flatMap(Double.init), let b = attrs["bottom"].flatMap(Double.init),
              [l, t, r, b].allSatisfy({ $0.isFinite && abs($0) <= Schema.maxPageSide * 2 }), r > l, b > t,
              let data = Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters) else { return nil }
        let bytes = Array(data)
        guard let header = try? ImageHeader(reading: bytes) else { return nil }
        let hash = ContentHash(of: bytes)
        if files[hash] == nil { files[hash] = bytes }
        return (ImageBox(file: hash, pixelWidth: header.width, pixelHeight: header.height), Rect(minX: l, minY: t, maxX: r, maxY: b))
    }

    /// `path`: where the `.xopp` is, to find its PDF background beside it.
    static func parse(_ xml: [UInt8], page wanted: Int, path: String? = nil) throws -> Result {
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
        var current: (attrs: [String: String], text: ArraySlice<UInt8>)?
        // The PDF the pages' PDF backgrounds name (Xournal++ records it on the first such background only).
        var pdfName: String?, pdfDomain: String?
        // A <text> element being read (its characters), and texts cut to the size a box holds.
        var currentText: (attrs: [String: String], text: [UInt8])?
        var cutTexts = 0
        // An <image> being read (its base64 text), the pictures' bytes, and images we could not read.
        var currentImage: (attrs: [String: String], text: [UInt8])?
        var files: [ContentHash: [UInt8]] = [:]
        var badImages = 0
        var skipDepth = 0
        var root = true
        while let e = try p.next() {
            switch e {
            case .start(let name, let attrs):
                if root {
                    guard name == "xournal" || name == "MrWriter" else { throw ParseFailure(message: "not a Xournal++ document (root element <\(name)>)") }
                    creator = attrs["creator"] ?? ""
                    if let v = attrs["fileversion"].flatMap({ Int($0) }), v >= 0, v < 1000 { fileVersion = v }
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
                        let style = Background.Style(rawValue: name) ?? nearestStyle[name] ?? .plain
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
                    case "pixmap": notHeld["image background", default: 0] += 1
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
                    pages[pages.count - 1].strokes.append(PendingStroke(style: StrokeStyle(width: 1), isPen: false, width: "", text: [],
                                                                       item: .image(box), frame: frame, layer: max(pages[pages.count - 1].layers.count - 1, 0)))
                case "text":
                    guard let c = currentText else { continue }
                    currentText = nil
                    var text = String(decoding: c.text, as: UTF8.self)
                    if let cut = TextBox.truncated(text) { text = cut; cutTexts += 1 }
                    let n = pages.reduce(0) { $0 + $1.strokes.count } + 1
                    guard let x = c.attrs["x"].flatMap(Double.init), let y = c.attrs["y"].flatMap(Double.init), x.isFinite, y.isFinite,
                          abs(x) <= Schema.maxPageSide, abs(y) <= Schema.maxPageSide else {
                        throw ParseFailure(message: "text \(n) has no valid position")
                    }
                    let size = c.attrs["size"].flatMap(Double.init) ?? 12
                    guard TextBox.sizeRange.contains(size) else { throw ParseFailure(message: "text \(n) has size \(c.attrs["size"] ?? "")") }
                    guard let rgba = color(c.attrs["color"] ?? "#000000ff") else { throw ParseFailure(message: "text \(n) has an unreadable colour '\(c.attrs["color"] ?? "")'") }
                    var font = c.attrs["font"] ?? "Sans"
                    if font.isEmpty || font.utf8.count > TextBox.maxFontBytes { font = "Sans" }
                    // Xournal++ does not wrap text: a box is as wide as the page leaves it (ours say their width).
                    let page = pages[pages.count - 1].size
                    let width = min(max(c.attrs["width"].flatMap(Double.init) ?? (page.width - x), 4 * size, TextBox.widthRange.lowerBound), TextBox.widthRange.upperBound)
                    // Its height until a renderer measures it: Pango's line height is about 1.17 em.
                    let lines = Double(text.reduce(1) { $1 == "\n" ? $0 + 1 : $0 })
                    let box = TextBox(text: text, font: font, size: size, color: rgba, width: width)
                    pages[pages.count - 1].strokes.append(PendingStroke(style: StrokeStyle(color: rgba, width: 1), isPen: false, width: "", text: [],
                                                                       item: .text(box), frame: Rect(x: x, y: y, width: width, height: lines * size * 1.17),
                                                                       layer: max(pages[pages.count - 1].layers.count - 1, 0)))
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
                        throw ParseFailure(message: "stroke \(pages.reduce(0) { $0 + $1.strokes.count } + 1) has an unreadable colour '\(c.attrs["color"] ?? "")'")
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
                    pages[pages.count - 1].strokes.append(PendingStroke(style: style, isPen: tool == "pen", width: c.attrs["width"] ?? "", text: c.text, shape: shape,
                                                                       layer: max(pages[pages.count - 1].layers.count - 1, 0)))
                default: break
                }
            }
        }
        guard !pages.isEmpty else { throw ParseFailure(message: "the document has no pages") }
        guard wanted >= 1, wanted <= pages.count else {
            throw ParseFailure(message: "there is no page \(wanted) (the document has \(pages.count))")
        }
        let exact = creator.hasPrefix("Oekaki")
        // All pages' strokes are parsed together (on all cores), then dealt back to their pages in order.
        let finished = try finish(pages.flatMap(\.strokes), exact: exact)
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
            for (j, r) in finished[next..<(next + pending.strokes.count)].enumerated() {
                droppedPoints += r.dropped; repairedWidths += r.repaired
                guard r.points != nil else { badStrokes += 1; continue }
                let l = min(pending.strokes[j].layer, looks.count - 1)
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
            next += pending.strokes.count
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
        if !approximated.isEmpty { notes.append("has backgrounds Oekaki draws as the nearest it has: \(list(approximated)) (dotted, graph or ruled)") }
        if whiteouts > 0 { notes.append("has \(whiteouts) whiteout (eraser) strokes; imported as pen strokes in the background colour") }
        if droppedPoints > 0 { notes.append("has \(droppedPoints) points with non-finite or out-of-range coordinates; dropped them") }
        if repairedWidths > 0 { notes.append(exact ? "has \(repairedWidths) invalid segment widths; used the previous width"
                                                 : "has \(repairedWidths) invalid segment widths; left those segments out, as Xournal++ does") }
        if cutTexts > 0 { notes.append("has \(cutTexts) texts longer than a text box holds (\(TextBox.maxTextBytes / 1024) KiB); kept their beginnings") }
        if badStrokes > 0 { notes.append("has \(badStrokes) strokes with an invalid width or no points; skipped them") }
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
        let dir = xopp.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        var candidates: [String] = []
        if let name {
            if domain == "attach", let xopp { candidates.append(xopp + "." + name) }
            candidates.append(name.hasPrefix("/") || dir.isEmpty ? name : (dir as NSString).appendingPathComponent(name))
            if !dir.isEmpty { candidates.append((dir as NSString).appendingPathComponent((name as NSString).lastPathComponent)) }
        }
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

    /// Xournal++'s `fill` (-1 or absent: none; above 255 is opaque), `style` (a pattern Xournal++ does not know is
    /// solid, as there) and `capStyle` (round unless butt or square).
    static func readLook(_ attrs: [String: String], into style: inout StrokeStyle) {
        if let f = attrs["fill"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), f >= 0 { style.fill = UInt8(min(f, 255)) }
        if let name = attrs["style"] { style.line = LineStyle(name: name) ?? .solid }
        if let cap = attrs["capStyle"].flatMap(CapStyle.init(rawValue:)) { style.cap = cap }
    }

    /// A stroke's element as read by the XML pass; its numbers are parsed afterwards, on all cores.
    struct PendingStroke {
        var style: StrokeStyle
        var isPen: Bool
        var width: String
        var text: ArraySlice<UInt8>
        var shape: ShapeKind?
        /// A text box (or image): its content and box, already final.
        var item: StrokeContent? = nil
        var frame: Rect? = nil
        /// Its layer's place in its page.
        var layer = 0
    }

    struct FinishedStroke {
        var style: StrokeStyle
        var width: Double = 0
        /// nil: an invalid width or no points (skipped and counted).
        var points: [InkPoint]?
        var dropped = 0, repaired = 0
        var shape: ShapeKind?
        /// Further pieces, where a foreign stroke had segments Xournal++ does not draw.
        var more: [[InkPoint]] = []
        var item: StrokeContent? = nil
        var frame: Rect? = nil
        /// The ink as strokes (the first piece, then `more`), numbered and placed on their page later: made in
        /// the parallel pass, since making a stroke walks its points (duplicates, pressure, bounds).
        var strokes: [Stroke] = []

        mutating func makeStrokes() {
            guard item == nil, let points else { return }
            var style = self.style
            style.width = width
            strokes = [Stroke(id: 0, style: style, points: points, shape: shape)] + more.map { Stroke(id: 0, style: style, points: $0) }
            // The strokes hold their own copies; nil would mean a skipped stroke.
            self.points = []
            more = []
        }
    }

    /// Parses the pending strokes' coordinates and widths in parallel chunks; results keep document order,
    /// and the first failure in document order is the one thrown, as in a sequential read.
    static func finish(_ pending: [PendingStroke], exact: Bool) throws -> [FinishedStroke] {
        let chunks = pending.isEmpty ? 0 : min(64, max(1, pending.count / 32))
        var results = [[FinishedStroke]](repeating: [], count: chunks)
        var failures = [ParseFailure?](repeating: nil, count: chunks)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            let range = (pending.count * c / chunks)..<(pending.count * (c + 1) / chunks)
            var out: [FinishedStroke] = []
            out.reserveCapacity(range.count)
            var failure: ParseFailure?
            for k in range {
                do {
                    var f = try finish(pending[k], exact: exact)
                    f.makeStrokes()
                    out.append(f)
                } catch let e as ParseFailure { failure = e; break } catch { break }
            }
            lock.lock(); results[c] = out; failures[c] = failure; lock.unlock()
        }
        if let first = failures.compactMap({ $0 }).first { throw first }
        return results.flatMap { $0 }
    }

    static func finish(_ p: PendingStroke, exact: Bool) throws -> FinishedStroke {
        var r = FinishedStroke(style: p.style, shape: p.shape)
        if let item = p.item, let frame = p.frame {
            r.item = item; r.frame = frame; r.points = []
            return r
        }
        let widths = numbers(Array(p.width.utf8)[...]).values
        guard let nominal = widths.first, nominal.isFinite, nominal > 0, nominal <= Schema.maxStrokeWidth else { return r }
        var points = try coordinates(p.text, dropped: &r.dropped)
        guard !points.isEmpty else { return r }
        var segment = Array(widths.dropFirst())
        // Xournal++ uses per-segment widths only when there is one for every segment; otherwise the stroke has
        // its one width.
        if !exact, segment.count + 1 < points.count { segment = [] }
        if p.isPen, !segment.isEmpty, points.count > 1 {
            var valid = [Bool](repeating: true, count: segment.count)
            if exact {
                // Our own files: a damaged width takes the last good one.
                var last = nominal
                for k in 0..<segment.count {
                    if segment[k].isFinite, segment[k] > 0, segment[k] <= Schema.maxStrokeWidth { last = segment[k] } else { segment[k] = last; r.repaired += 1 }
                }
            } else {
                // Xournal++ draws nothing for a segment whose width is zero, negative or not a number: the stroke
                // is cut there (the pieces keep their widths).
                for k in 0..<segment.count where !(segment[k].isFinite && segment[k] > 0 && segment[k] <= Schema.maxStrokeWidth) {
                    valid[k] = false; r.repaired += 1
                }
            }
            var widest = 0.0
            for k in 0..<min(points.count - 1, segment.count) where valid[k] { widest = max(widest, segment[k]) }
            guard widest > 0 else { return r }
            // Polylines (everything not ours) take width = nominal × 2 × pressure, so any ratio of widths fits.
            let polyline = p.style.trace == .polyline
            let n = exact ? nominal : (polyline ? widest / 2 : widest * 2 / 3)
            r.width = n
            func pressure(_ w: Double) -> Double { min(max(polyline ? w / (2 * n) : w / n - 0.5, 0), 1) }
            // Runs of drawn segments; each point takes the width of the segment it starts (the last point of a
            // run, the width of the segment it ends).
            var pieces: [[InkPoint]] = []
            var piece: [InkPoint] = []
            for k in 0..<(points.count - 1) {
                let seg = min(k, segment.count - 1)
                guard valid[seg] else {
                    if !piece.isEmpty { pieces.append(piece); piece = [] }
                    continue
                }
                var a = points[k], b = points[k + 1]
                a.pressure = pressure(segment[seg]); b.pressure = a.pressure
                if piece.isEmpty { piece.append(a) } else { piece[piece.count - 1].pressure = a.pressure }
                piece.append(b)
            }
            if !piece.isEmpty { pieces.append(piece) }
            pieces = pieces.filter { $0.count >= 2 }
            guard let first = pieces.first else { return r }
            r.points = first
            r.more = Array(pieces.dropFirst())
            return r
        } else {
            r.width = nominal
        }
        r.points = points
        return r
    }

    /// Whitespace-separated decimals, without a String per number (an unreadable one is NaN).
    /// `overlong` says a token exceeded 64 bytes; it is NaN too.
    static func numbers(_ text: ArraySlice<UInt8>) -> (values: [Double], overlong: Bool) {
        var values: [Double] = []
        values.reserveCapacity(text.count / 8)
        var overlong = false
        var k = text.startIndex
        let n = text.endIndex
        while k < n {
            while k < n, text[k] == 0x20 || text[k] == 0x0A || text[k] == 0x09 || text[k] == 0x0D { k += 1 }
            let s = k
            while k < n, !(text[k] == 0x20 || text[k] == 0x0A || text[k] == 0x09 || text[k] == 0x0D) { k += 1 }
            if k > s {
                if k - s > 64 { overlong = true; values.append(.nan); continue }
                values.append(fastDouble(text, s, k) ?? Double(String(decoding: text[s..<k], as: UTF8.self)) ?? .nan)
            }
        }
        return (values, overlong)
    }

    /// "x y x y …" → points; non-finite or absurd coordinates are dropped (and counted), an odd count is an error.
    static func coordinates(_ text: ArraySlice<UInt8>, dropped: inout Int) throws -> [InkPoint] {
        let (values, overlong) = numbers(text)
        guard !overlong else { throw ParseFailure(message: "a coordinate is longer than 64 characters") }
        guard values.count / 2 <= PointCodec.maxPoints else {
            throw ParseFailure(message: "a stroke has \(values.count / 2) points (at most \(PointCodec.maxPoints) are allowed)")
        }
        guard values.count % 2 == 0 else { throw ParseFailure(message: "a stroke has an odd number of coordinates (\(values.count))") }
        var out: [InkPoint] = []
        out.reserveCapacity(values.count / 2)
        for j in stride(from: 0, to: values.count, by: 2) {
            let x = values[j], y = values[j + 1]
            guard x.isFinite, y.isFinite, abs(x) <= PointCodec.maxCoordinate, abs(y) <= PointCodec.maxCoordinate else { dropped += 1; continue }
            out.append(InkPoint(x: x, y: y, pressure: 0.5, time: 0))
        }
        return out
    }

    private static let powersOf10: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

    /// Plain decimals ("-12.345", "7", "1.5e3") parsed without a String; correctly rounded because the mantissa
    /// and the power of ten are both exact doubles. Anything else (nan, inf, huge) returns nil for the slow path.
    static func fastDouble(_ t: ArraySlice<UInt8>, _ from: Int, _ to: Int) -> Double? {
        var i = from
        var negative = false
        if t[i] == 0x2D { negative = true; i += 1 } else if t[i] == 0x2B { i += 1 }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        var sawDot = false, anyDigit = false
        while i < to {
            let c = t[i]
            if c >= 0x30 && c <= 0x39 {
                anyDigit = true
                if digits >= 15 { return nil }
                mantissa = mantissa * 10 + UInt64(c - 0x30)
                if mantissa > 0 || sawDot { digits += mantissa > 0 ? 1 : 0 }
                if sawDot { fraction += 1 }
            } else if c == 0x2E && !sawDot {
                sawDot = true
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < to {
            guard t[i] == 0x65 || t[i] == 0x45 else { return nil }
            i += 1
            var eneg = false
            if i < to, t[i] == 0x2D { eneg = true; i += 1 } else if i < to, t[i] == 0x2B { i += 1 }
            guard i < to else { return nil }
            while i < to {
                let c = t[i]
                guard c >= 0x30 && c <= 0x39, exponent < 1000 else { return nil }
                exponent = exponent * 10 + Int(c - 0x30)
                i += 1
            }
            if eneg { exponent = -exponent }
        }
        guard i == to, anyDigit else { return nil }
        let e = exponent - fraction
        guard abs(e) <= 22 else { return nil }
        var v = Double(mantissa)
        v = e >= 0 ? v * powersOf10[e] : v / powersOf10[-e]
        return negative ? -v : v
    }
}
