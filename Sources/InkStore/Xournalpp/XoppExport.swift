import Foundation
import InkCore

/// Writes a document as a Xournal++ `.xopp` (gzip of XML, fileversion 4) that Xournal++ 1.1 opens: every page
/// with its size and background. Xournal++ pages have bounds, so an endless page becomes a page of its frame (the ink
/// with a margin), its strokes moved by the frame's corner.
/// Pen strokes carry their per-segment widths (our pressure-shaped width at each point), highlighters one width.
/// Pages on a PDF get Xournal++'s PDF background naming the file `pdfPath` (`write` puts the embedded PDF there,
/// beside the `.xopp` as `NAME.xopp.bg.pdf`, as Xournal++ keeps no PDF inside the file).
public enum XoppExport {
    public static func data(_ drawing: Drawing) throws -> [UInt8] { try data(Document(drawing: drawing)) }

    /// `jpegAsPNG`: Xournal++ 1.1 draws only PNG pictures (a JPEG `<image>` shows nothing there), so a caller that can
    /// decode gives each JPEG's PNG (its pixels as shown); without it, or when it returns nil, the JPEG goes as it is.
    /// `pictureNames`: the attachment name (`FILE` of `NAME.xopp.FILE`) of each picture background; a page whose
    /// picture has none gets its paper alone.
    public static func data(_ document: Document, pdfPath: String? = nil, pictureNames: [ContentHash: String] = [:],
                            jpegAsPNG: (([UInt8]) -> [UInt8]?)? = nil) throws -> [UInt8] {
        var files = document.files
        if let jpegAsPNG {
            for (hash, bytes) in files where bytes.starts(with: ImageHeader.jpegSignature) {
                if let png = jpegAsPNG(bytes) { files[hash] = png }
            }
        }
        var x = XMLBytes()
        x.bytes.reserveCapacity(256 + document.pointCount * 20)
        x += "<?xml version=\"1.0\" standalone=\"no\"?>\n"
        x += "<xournal creator=\"Oekaki\" fileversion=\"4\">\n"
        x += "<title>Xournal++ document - see https://github.com/xournalpp/xournalpp</title>\n"
        // Xournal++ knows one PDF per document, named on the first page showing it.
        let pdf = pdfPath == nil ? nil : document.pages.lazy.compactMap { $0.background.pdf?.file }.first
        var named = false
        // A picture's first page attaches it; later pages clone that page's, as Xournal++ writes them.
        var firstPage: [ContentHash: Int] = [:]
        for (k, page) in document.pages.enumerated() {
            var ref = page.background.pdf
            if ref?.file != pdf { ref = nil }
            var picture: Picture?
            if let h = page.background.picture, page.size != nil, let name = pictureNames[h] {
                if let first = firstPage[h] { picture = .clone(first) } else { firstPage[h] = k; picture = .attach(name) }
            }
            write(page, pdf: ref.map { r in
                defer { named = true }
                return (named ? nil : pdfPath, r.index)
            }, picture: picture, files: files, to: &x)
        }
        x += "</xournal>\n"
        return try Deflate.gzip(x.bytes, level: 3)
    }

    /// Where a page's picture background is for Xournal++: attached beside the `.xopp` under a name, or an earlier
    /// page's (0-based).
    enum Picture { case attach(String), clone(Int) }

    /// `pdf`: the page's PDF page (0-based) and, on the first such page, the PDF's path.
    private static func write(_ page: Page, pdf: (path: String?, index: Int)?, picture: Picture?, files: [ContentHash: [UInt8]], to x: inout XMLBytes) {
        let frame = page.frame
        let b = page.background
        x += "<page width=\"\(exact(frame.width))\" height=\"\(exact(frame.height))\">\n"
        if let picture {
            // Xournal++'s page has one background: the picture, stretched over the page.
            switch picture {
            case .attach(let name): x += "<background type=\"pixmap\" domain=\"attach\" filename=\""; x += xmlEscaped(name); x += "\"/>\n"
            case .clone(let k): x += "<background type=\"pixmap\" domain=\"clone\" filename=\"\(k)\"/>\n"
            }
        } else if let pdf {
            x += "<background type=\"pdf\""
            if let path = pdf.path { x += " domain=\"absolute\" filename=\""; x += xmlEscaped(path); x += "\"" }
            x += " pageno=\"\(pdf.index + 1)\"/>\n"
        } else {
            x += "<background type=\"solid\" color=\"\(b.paper.hex)\" style=\"\(b.style.rawValue)\""
            if b.style == .graph, b.margin > 0 { x += " config=\"m1=\(exact(b.margin)),rm=1\"" }
            x += "/>\n"
        }
        for layer in page.layers { write(layer, frame: frame, files: files, to: &x) }
        x += "</page>\n"
    }

    /// One `<layer>` with its name (Xournal++ 1.2 reads and shows it). Xournal++ keeps no visibility in its files: a
    /// hidden layer is written whole, with `visible="false"`, which Xournal++ ignores (it shows the layer) and our
    /// import reads back.
    private static func write(_ layer: Layer, frame: Rect, files: [ContentHash: [UInt8]], to x: inout XMLBytes) {
        x += "<layer name=\""; x += xmlEscaped(layer.name); x += "\""
        if !layer.visible { x += " visible=\"false\"" }
        x += ">\n"
        for s in layer.drawing.strokes where !s.points.isEmpty {
            if case .image(let box) = s.content {
                writeImage(box, of: s, frame: frame, files: files, to: &x)
                continue
            }
            if let box = s.content.text, let corners = s.shownCorners {
                writeText(box, at: corners[0], scale: s.transform.widthScale, frame: frame, to: &x)
                continue
            }
            guard s.content.isInk else { continue }
            let tool = s.style.tool == .highlighter ? "highlighter" : "pen"
            x += "<stroke tool=\"\(tool)\" color=\"\(s.style.color.hex)\" width=\"\(exact(s.style.width))"
            var pts = s.points
            // Xournal++ draws a dot as a two-point stroke.
            if pts.count == 1 { pts.append(pts[0]) }
            if s.style.tool == .pen {
                // Xournal++ keeps one width per segment: the width our shaper gives the segment's first point.
                let o = StrokeShape.options(for: s.style)
                for p in pts.dropLast() {
                    x.space()
                    x.number(StrokeShape.width(nominal: s.style.width, pressure: p.pressure, thinning: o.thinning))
                }
            }
            x += "\""
            // As Xournal++ writes them: fill only when filled, capStyle always, style only when dashed.
            if let f = s.style.fill { x += " fill=\"\(f)\"" }
            x += " capStyle=\"\(s.style.cap.rawValue)\""
            if let name = s.style.line.name { x += " style=\""; x += xmlEscaped(name); x += "\"" }
            // Ours alone (Xournal++ ignores them): how the stroke is drawn and what shape it is, for a round trip.
            if s.style.trace == .polyline { x += " trace=\"polyline\"" }
            if let k = s.shape { x += " shape=\"\(k.rawValue)\"" }
            x += ">"
            for (i, p) in pts.enumerated() {
                if i > 0 { x.space() }
                x.number(p.x - frame.minX); x.space(); x.number(p.y - frame.minY)
            }
            x += "</stroke>\n"
        }
        x += "</layer>\n"
    }

    /// Xournal++'s `<image left top right bottom>` with the picture's bytes in base64. Xournal++ images do not
    /// turn, so a turned picture is written as the upright box around it.
    /// A LaTeX formula is a `<teximage>` as Xournal++ writes one: its source (and `texlength`, its UTF-8 bytes,
    /// which Xournal++ 1.1 reads the source by) and the PDF LaTeX made, so Xournal++ draws it as before and can
    /// edit it; a formula that came as a picture (Xournal++ before 1.1) goes back as that picture.
    private static func writeImage(_ box: ImageBox, of item: Stroke, frame: Rect, files: [ContentHash: [UInt8]], to x: inout XMLBytes) {
        // Empty: a shared board's file that has not arrived; nothing to write.
        guard let picture = files[box.file], !picture.isEmpty, let corners = item.shownCorners, let r = Rect(bounding: corners) else { return }
        let place = "left=\"\(exact(r.minX - frame.minX))\" top=\"\(exact(r.minY - frame.minY))\" right=\"\(exact(r.maxX - frame.minX))\" bottom=\"\(exact(r.maxY - frame.minY))\">"
        if let f = box.formula {
            x += "<teximage text=\"\(escaped(f.source, attribute: true))\" texlength=\"\(f.source.utf8.count)\" "; x += place
            x.bytes.append(contentsOf: Data(f.pdf.flatMap { files[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? picture).base64EncodedData())
            x += "</teximage>\n"
        } else {
            x += "<image "; x += place
            x.bytes.append(contentsOf: Data(picture).base64EncodedData())
            x += "</image>\n"
        }
    }

    /// Xournal++'s `<text>`: top-left corner, font, size (page units, as ours), colour. Xournal++ does not wrap
    /// or rotate text: the text keeps its lines, a moved box its place and a scaled one its scaled size. `width`
    /// (ours alone) brings the wrap width back.
    private static func writeText(_ box: TextBox, at p: Point, scale: Double, frame: Rect, to x: inout XMLBytes) {
        let size = box.size * (scale.isFinite && scale > 0 ? scale : 1)
        x += "<text font=\"\(escaped(box.font))\" size=\"\(exact(size))\" x=\"\(num(p.x - frame.minX))\" y=\"\(num(p.y - frame.minY))\""
        x += " color=\"\(box.color.hex)\" width=\"\(exact(box.width * (scale.isFinite && scale > 0 ? scale : 1)))\">\(escaped(box.text))</text>\n"
    }

    /// XML character data or attribute value: markup escaped, characters XML 1.0 cannot hold dropped. In an
    /// `attribute`, line breaks and tabs are character references (a reader turns literal ones into spaces).
    static func escaped(_ s: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": if attribute { out += "&#10;" } else { out.unicodeScalars.append(c) }
            case "\t": if attribute { out += "&#9;" } else { out.unicodeScalars.append(c) }
            case "\r": out += "&#13;"
            default: if c.value >= 0x20 && c.value != 0xFFFE && c.value != 0xFFFF { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    public static func write(_ drawing: Drawing, to path: String) throws { try write(Document(drawing: drawing), to: path) }

    public static func write(_ document: Document, to path: String, jpegAsPNG: (([UInt8]) -> [UInt8]?)? = nil) throws {
        // The PDF the pages are on goes beside the .xopp (absolute path: Xournal++ resolves it from anywhere).
        var pdfPath: String?
        if let hash = document.pages.lazy.compactMap({ $0.background.pdf?.file }).first, let bytes = document.files[hash], !bytes.isEmpty {
            let side = URL(fileURLWithPath: path + ".bg.pdf").standardizedFileURL.path
            do { try Data(bytes).write(to: URL(fileURLWithPath: side), options: .atomic) } catch {
                throw StoreError.io(path: side, detail: "cannot write the PDF background: \(error.localizedDescription)")
            }
            pdfPath = side
        }
        // Each picture background goes beside it too, as `NAME.xopp.bg_K.png` (Xournal++'s own names; it reads a JPEG
        // by its content whatever the name). Pictures are PNG here when `jpegAsPNG` can make them.
        var pictureNames: [ContentHash: String] = [:]
        for page in document.pages where page.size != nil {
            guard let h = page.background.picture, pictureNames[h] == nil, let original = document.files[h], !original.isEmpty else { continue }
            let name = "bg_\(pictureNames.count + 1).png"
            let bytes = original.starts(with: ImageHeader.jpegSignature) ? jpegAsPNG?(original) ?? original : original
            let side = path + "." + name
            do { try Data(bytes).write(to: URL(fileURLWithPath: side), options: .atomic) } catch {
                throw StoreError.io(path: side, detail: "cannot write a page's picture: \(error.localizedDescription)")
            }
            pictureNames[h] = name
        }
        let bytes = try data(document, pdfPath: pdfPath, pictureNames: pictureNames, jpegAsPNG: jpegAsPNG)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StoreError.io(path: path, detail: "cannot write: \(error.localizedDescription)")
        }
    }

    static func xmlEscaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The shortest text that reads back to the same value (nominal widths must survive a round trip).
    static func exact(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    /// Up to 4 decimals, no trailing zeros (exact enough for 1/20-unit data, short in the file).
    static func num(_ v: Double) -> String {
        var x = XMLBytes()
        x.number(v)
        return String(decoding: x.bytes, as: UTF8.self)
    }
}

/// A byte buffer for writing XML quickly (numbers are formatted without going through String).
struct XMLBytes {
    var bytes: [UInt8] = []

    static func += (x: inout XMLBytes, s: String) { x.bytes.append(contentsOf: s.utf8) }
    mutating func space() { bytes.append(0x20) }

    mutating func number(_ v: Double) {
        let scaled = (v * 10000).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { bytes.append(0x30); return }
        var a = Int64(scaled)
        if a < 0 { bytes.append(0x2D); a = -a }
        var frac = Int(a % 10000)
        var whole = a / 10000
        var digits: [UInt8] = []
        repeat { digits.append(UInt8(0x30 + whole % 10)); whole /= 10 } while whole > 0
        bytes.append(contentsOf: digits.reversed())
        guard frac != 0 else { return }
        bytes.append(0x2E)
        var div = 1000
        while frac != 0 {
            bytes.append(UInt8(0x30 + frac / div))
            frac %= div
            div /= 10
        }
    }
}
