import InkCore
import InkRender

/// PDFs with known content for tests and benchmarks, made with cairo's PDF surface: on every page a blue band
/// across the top (pixels to look for) and a line of text (words for `pdftotext` to find).
public enum SamplePDF {
    /// The band's colour and place (points from the top-left corner).
    public static let bandColor = RGBA(r: 0x20, g: 0x40, b: 0xc0)
    public static let band = Rect(x: 40, y: 40, width: 200, height: 30)

    /// `pageCount` pages of `size` points; page k (0-based) says `text(k)`: with cairo's own text at the baseline
    /// (40, 120), or when `font` is given laid out by Pango in that font (any script: "IPAGothic" for Japanese)
    /// from the top-left corner (40, 100), wrapped to 500 points. `outline` becomes the PDF's bookmarks.
    public static func make(pageCount: Int, size: Size = Size(width: 595, height: 842),
                            text: (Int) -> String = { "Sample page \($0 + 1)" }, font: String? = nil,
                            outline: [OutlineEntry] = []) throws -> [UInt8] {
        let surface = try PDFSurface(size: size)
        let ctx = surface.context()
        for k in 0..<pageCount {
            let u = bandColor.unit
            ctx.setSource(red: u.r, green: u.g, blue: u.b, alpha: u.a)
            ctx.rectangle(band)
            ctx.fill()
            if let font {
                TextPainter.draw(TextBox(text: text(k), font: font, size: 18, width: 500), at: Point(40, 100), in: ctx)
            } else {
                ctx.showText(text(k), at: Point(40, 120), size: 18)
            }
            surface.showPage(ctx)
        }
        func add(_ entries: [OutlineEntry], under parent: Int32) {
            for e in entries { add(e.children, under: surface.addOutline(e.title, page: e.page, top: e.top ?? 0, parent: parent)) }
        }
        add(outline, under: 0)
        return try surface.finish()
    }
}

extension SamplePDF {
    /// A hand-written PDF of `pageCount` empty pages of 100×100 points sharing one page tree (a 100,000-page
    /// file is a few MB: what a reader must refuse quickly).
    public static func emptyPages(_ pageCount: Int) -> [UInt8] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
        let kids = (0..<pageCount).map { "\($0 + 3) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pageCount) >>")
        for _ in 0..<pageCount { objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>") }
        return handWritten(objects)
    }

    /// A one-page PDF whose standard security handler wants a user password no one knows (its /O and /U
    /// entries match no password): readers must ask for one.
    public static func encrypted() -> [UInt8] {
        let junk = "<" + String(repeating: "4f", count: 32) + ">"
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                       "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
                       "<< /Filter /Standard /V 1 /R 2 /Length 40 /P -4 /O \(junk) /U \(junk) >>"]
        return handWritten(objects, trailer: "/Encrypt 4 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]")
    }

    /// Objects 1…n (1 the catalog) with a correct cross-reference table.
    public static func handWritten(_ objects: [String], trailer: String = "") -> [UInt8] {
        var out = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(i + 1) 0 obj\n\(o)\nendobj\n".utf8)
        }
        let xref = out.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for off in offsets {
            let digits = String(off)
            table += String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(trailer) >>\nstartxref\n\(xref)\n%%EOF\n"
        return out + Array(table.utf8)
    }
}
