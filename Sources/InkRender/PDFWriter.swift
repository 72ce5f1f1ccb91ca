import InkCore

/// A one-page vector PDF written directly: each stroke is one filled path (`m`/`l`/`h`/`f`, non-zero rule),
/// translucent colours through an ExtGState `/ca`, the content stream formatted and deflated on every core.
/// Written by hand because cairo's PDF surface spends ~300 µs per 100-point stroke formatting numbers
/// (3 s for a 10,000-stroke page); this takes about as long as the SVG writer.
enum PDFWriter {
    static func document(_ drawing: Drawing, transparent: Bool) throws -> [UInt8] {
        let page = drawing.pageSize
        let strokes = drawing.strokes
        let background: RGBA? = !transparent && drawing.background.a > 0 ? drawing.background : nil

        var alphas = Set(strokes.lazy.map(\.style.color.a).filter { $0 > 0 })
        if let bg = background { alphas.insert(bg.a) }
        if alphas.contains(where: { $0 < 255 }) { alphas.insert(255) }

        let useAlpha = alphas.count > 1 || alphas.contains { $0 < 255 }
        // Content: flip to y-down page units, then paper, then strokes in drawing order.
        var head: [UInt8] = []
        head.append("1 0 0 -1 0 "); head.appendNumber(page.height); head.append(" cm\n")
        var state = GraphicsState()
        if let bg = background {
            state.set(bg, alphaStates: useAlpha, into: &head)
            head.append("0 0 "); head.appendNumber(page.width); head.append(" "); head.appendNumber(page.height); head.append(" re f\n")
        }
        // Each slice of strokes is formatted and deflated in one go, so the text never exists all at once.
        let body = Parallel.map(count: strokes.count, parts: Parallel.cores * 8) { range -> Result<ParallelDeflate.Piece, Error> in
            var out: [UInt8] = []
            out.reserveCapacity(range.count * 2500)
            var st = GraphicsState()
            for i in range {
                let s = strokes[i]
                guard s.style.color.a > 0 else { continue }
                let pts = Painter.outline(of: s, deviceScale: SVGWriter.shapingScale)
                guard let first = pts.first else { continue }
                st.set(s.style.color, alphaStates: useAlpha, into: &out)
                out.appendNumber(first.x); out.append(" "); out.appendNumber(first.y); out.append(" m\n")
                for p in pts.dropFirst() { out.appendNumber(p.x); out.append(" "); out.appendNumber(p.y); out.append(" l\n") }
                out.append("h f\n")
            }
            return Result { try ParallelDeflate.piece(out, last: range.upperBound == strokes.count) }
        }
        let pieces: [ParallelDeflate.Piece]
        do { pieces = try [ParallelDeflate.piece(head, last: strokes.isEmpty)] + body.map { try $0.get() } } catch {
            throw RenderError.pageTooLarge("cannot compress the PDF: \(error)")
        }
        let contentLength = ParallelDeflate.header.count + pieces.reduce(0) { $0 + $1.data.count } + 4

        var pdf: [UInt8] = []
        var offsets: [Int] = []
        func object(_ body: (inout [UInt8]) -> Void) {
            offsets.append(pdf.count)
            pdf.appendInt(offsets.count, negative: false); pdf.append(" 0 obj\n")
            body(&pdf)
            pdf.append("\nendobj\n")
        }
        pdf.append("%PDF-1.4\n%\u{00e2}\u{00e3}\n")
        object { $0.append("<< /Type /Catalog /Pages 2 0 R >>") }
        object { $0.append("<< /Type /Pages /Kids [3 0 R] /Count 1 >>") }
        let sortedAlphas = alphas.sorted()
        object { o in
            o.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 "); o.appendNumber(page.width); o.append(" "); o.appendNumber(page.height)
            o.append("] /Contents 4 0 R /Resources << /ExtGState <<")
            for (i, a) in sortedAlphas.enumerated() {
                o.append(" /Ga"); o.appendInt(Int(a), negative: false); o.append(" "); o.appendInt(6 + i, negative: false); o.append(" 0 R")
            }
            o.append(" >> >> >>")
        }
        object { o in
            o.append("<< /Length "); o.appendInt(contentLength, negative: false); o.append(" /Filter /FlateDecode >>\nstream\n")
            o.append(contentsOf: ParallelDeflate.header)
            for p in pieces { o.append(contentsOf: p.data) }
            o.append(contentsOf: ParallelDeflate.trailer(pieces))
            o.append("\nendstream")
        }
        object { $0.append("<< /Producer (Oekaki) /Creator (Oekaki) >>") }
        for a in sortedAlphas {
            object { o in o.append("<< /Type /ExtGState /ca "); o.appendNumber(Double(a) / 255, decimals: 3); o.append(" >>") }
        }
        let xref = pdf.count
        pdf.append("xref\n0 "); pdf.appendInt(offsets.count + 1, negative: false); pdf.append("\n0000000000 65535 f \n")
        for off in offsets {
            // Each entry is exactly 20 bytes: 10-digit offset, generation, 'n', space + newline.
            let digits = Array(String(off).utf8)
            pdf.append(contentsOf: [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 10 - digits.count)) + digits)
            pdf.append(" 00000 n \n")
        }
        pdf.append("trailer\n<< /Size "); pdf.appendInt(offsets.count + 1, negative: false)
        pdf.append(" /Root 1 0 R /Info 5 0 R >>\nstartxref\n"); pdf.appendInt(xref, negative: false); pdf.append("\n%%EOF\n")
        return pdf
    }

    /// Fill colour and opacity last written to the content, so unchanged state is not repeated.
    private struct GraphicsState {
        var color: RGBA?

        mutating func set(_ c: RGBA, alphaStates: Bool, into out: inout [UInt8]) {
            let opaque = RGBA(r: c.r, g: c.g, b: c.b)
            if color.map({ RGBA(r: $0.r, g: $0.g, b: $0.b) }) != opaque {
                for v in [c.r, c.g, c.b] { out.appendNumber(Double(v) / 255, decimals: 3); out.append(" ") }
                out.append("rg\n")
            }
            if alphaStates, color?.a != c.a {
                out.append("/Ga"); out.appendInt(Int(c.a), negative: false); out.append(" gs\n")
            }
            color = c
        }
    }
}
