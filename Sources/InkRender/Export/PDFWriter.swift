import InkCore

/// A vector PDF written directly, a PDF page per page: each page's paper, its lines and dots (`BackgroundPainter`),
/// then each stroke as one filled path (`m`/`l`/`h`/`f`, non-zero rule); translucent colours through an ExtGState
/// `/ca`; a page's content is an array of streams, formatted and compressed (libdeflate) on every core.
/// Written by hand because cairo's PDF surface spends ~300 µs per 100-point stroke formatting numbers
/// (3 s for a 10,000-stroke page); this takes about as long as the SVG writer.
enum PDFWriter {
    static func document(_ pages: [Page], transparent: Bool) throws -> [UInt8] {
        // Opacities used anywhere, shared by every page's resources.
        var alphas = Set<UInt8>(), multiplied = Set<UInt8>()
        for p in pages {
            for s in p.shownStrokes where s.style.color.a > 0 {
                alphas.insert(s.style.inkColor.a)
                if let f = s.style.fillColor { alphas.insert(f.a) }
                if s.style.multiplies { multiplied.insert(s.style.inkColor.a) }
            }
            if !transparent, p.background.paper.a > 0 { alphas.insert(p.background.paper.a) }
            if !transparent, p.background.style != .plain { alphas.insert(p.background.line.a) }
        }
        if alphas.contains(where: { $0 < 255 }) { alphas.insert(255) }
        let useAlpha = alphas.count > 1 || alphas.contains { $0 < 255 } || !multiplied.isEmpty
        if useAlpha { alphas.insert(255) }
        // A notebook's pages are formatted on every core, each page's strokes in one go; a single page spreads its
        // strokes over the cores instead.
        let contents: [[[UInt8]]]
        if pages.count == 1 {
            contents = [try content(pages[0], transparent: transparent, useAlpha: useAlpha, parallel: true)]
        } else {
            let parts = Parallel.map(count: pages.count, parts: Parallel.cores * 4) { range in
                Result { try range.map { try content(pages[$0], transparent: transparent, useAlpha: useAlpha, parallel: false) } }
            }
            contents = try parts.flatMap { try $0.get() }
        }

        var pdf: [UInt8] = []
        var offsets: [Int] = []
        // Objects: 1 catalog, 2 page tree, 3 info, then each page followed by its content streams, then the
        // opacity states.
        var pageObjects: [Int] = []
        var next = 4
        for c in contents { pageObjects.append(next); next += 1 + c.count }
        let firstAlpha = next, firstMultiply = firstAlpha + alphas.count
        func object(_ body: (inout [UInt8]) -> Void) {
            offsets.append(pdf.count)
            pdf.appendInt(offsets.count, negative: false); pdf.append(" 0 obj\n")
            body(&pdf)
            pdf.append("\nendobj\n")
        }
        pdf.reserveCapacity(contents.reduce(1024) { $0 + $1.reduce(256) { $0 + $1.count + 64 } })
        pdf.append("%PDF-1.4\n%\u{00e2}\u{00e3}\n")
        object { $0.append("<< /Type /Catalog /Pages 2 0 R >>") }
        object { o in
            o.append("<< /Type /Pages /Kids [")
            for n in pageObjects { o.appendInt(n, negative: false); o.append(" 0 R ") }
            o.append("] /Count "); o.appendInt(pages.count, negative: false); o.append(" >>")
        }
        object { $0.append("<< /Producer (Oekaki) /Creator (Oekaki) >>") }
        let sortedAlphas = alphas.sorted(), sortedMultiplied = multiplied.sorted()
        for (k, page) in pages.enumerated() {
            let f = page.frame
            object { o in
                o.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 "); o.appendNumber(f.width); o.append(" "); o.appendNumber(f.height)
                o.append("] /Contents [")
                for i in contents[k].indices { o.appendInt(pageObjects[k] + 1 + i, negative: false); o.append(" 0 R ") }
                o.append("] /Resources << /ExtGState <<")
                for (i, a) in sortedAlphas.enumerated() {
                    o.append(" /Ga"); o.appendInt(Int(a), negative: false); o.append(" "); o.appendInt(firstAlpha + i, negative: false); o.append(" 0 R")
                }
                for (i, a) in sortedMultiplied.enumerated() {
                    o.append(" /Gm"); o.appendInt(Int(a), negative: false); o.append(" "); o.appendInt(firstMultiply + i, negative: false); o.append(" 0 R")
                }
                o.append(" >> >> >>")
            }
            for stream in contents[k] {
                object { o in
                    o.append("<< /Length "); o.appendInt(stream.count, negative: false); o.append(" /Filter /FlateDecode >>\nstream\n")
                    o.append(contentsOf: stream)
                    o.append("\nendstream")
                }
            }
        }
        for a in sortedAlphas {
            object { o in o.append("<< /Type /ExtGState /BM /Normal /ca "); o.appendNumber(Double(a) / 255, decimals: 3); o.append(" >>") }
        }
        for a in sortedMultiplied {
            object { o in o.append("<< /Type /ExtGState /BM /Multiply /ca "); o.appendNumber(Double(a) / 255, decimals: 3); o.append(" >>") }
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
        pdf.append(" /Root 1 0 R /Info 3 0 R >>\nstartxref\n"); pdf.appendInt(xref, negative: false); pdf.append("\n%%EOF\n")
        return pdf
    }

    /// libdeflate's level for the strokes' text: its level 1 is already a little smaller than zlib's level 3 on
    /// Xournal++ pressure ink (14.49 MB against 14.57 MB) at a fifth of the time.
    static let contentLevel: Int32 = 1

    /// One page's content as consecutive zlib streams (the page's `/Contents` array, which a reader joins): y-down
    /// page units from the frame's corner, paper, its lines and dots, then the strokes in drawing order. A page of
    /// many strokes is split into slices formatted and compressed on every core, each a stream of its own.
    private static func content(_ page: Page, transparent: Bool, useAlpha: Bool, parallel: Bool) throws -> [[UInt8]] {
        let f = page.frame
        let strokes = page.shownStrokes
        let background: RGBA? = !transparent && page.background.paper.a > 0 ? page.background.paper : nil
        var head: [UInt8] = []
        head.append("1 0 0 -1 "); head.appendNumber(-f.minX); head.append(" "); head.appendNumber(f.maxY); head.append(" cm\n")
        var state = GraphicsState()
        if let bg = background {
            state.set(bg, alphaStates: useAlpha, into: &head)
            head.appendNumber(f.minX); head.append(" "); head.appendNumber(f.minY); head.append(" ")
            head.appendNumber(f.width); head.append(" "); head.appendNumber(f.height); head.append(" re f\n")
        }
        if !transparent {
            let m = BackgroundPainter.marks(Paper(page), in: f)
            for l in m.lines {
                state.set(l.color, alphaStates: useAlpha, into: &head)
                head.appendNumber(l.rect.minX, decimals: 3); head.append(" "); head.appendNumber(l.rect.minY, decimals: 3); head.append(" ")
                head.appendNumber(l.rect.width, decimals: 3); head.append(" "); head.appendNumber(l.rect.height, decimals: 3); head.append(" re f\n")
            }
            if let c = m.slants.first?.color {
                // Slanted lines stroked with round caps, as Xournal++ strokes isometric paper (one colour: the paper's).
                state.set(c, alphaStates: useAlpha, into: &head)
                head.append("1 J "); head.appendNumber(m.slants[0].width, decimals: 3); head.append(" w ")
                for (i, v) in [c.r, c.g, c.b].enumerated() { head.appendNumber(Double(v) / 255, decimals: 3); head.append(i < 2 ? " " : " RG\n") }
                for l in m.slants {
                    head.appendNumber(l.from.x, decimals: 3); head.append(" "); head.appendNumber(l.from.y, decimals: 3); head.append(" m ")
                    head.appendNumber(l.to.x, decimals: 3); head.append(" "); head.appendNumber(l.to.y, decimals: 3); head.append(" l\n")
                }
                head.append("S\n")
            }
            if let c = m.dots.first?.color {
                // A dot is a zero-length line with round caps, as Xournal++ draws it.
                state.set(c, alphaStates: useAlpha, into: &head)
                head.append("1 J "); head.appendNumber(BackgroundPainter.dotDiameter, decimals: 3); head.append(" w ")
                for (i, v) in [c.r, c.g, c.b].enumerated() { head.appendNumber(Double(v) / 255, decimals: 3); head.append(i < 2 ? " " : " RG\n") }
                for d in m.dots {
                    head.appendNumber(d.center.x, decimals: 3); head.append(" "); head.appendNumber(d.center.y, decimals: 3); head.append(" m ")
                    head.appendNumber(d.center.x, decimals: 3); head.append(" "); head.appendNumber(d.center.y, decimals: 3); head.append(" l\n")
                }
                head.append("S\n")
            }
        }
        // Each slice of strokes is formatted and compressed in one go, so the text never exists all at once; the
        // first slice carries the paper. Every slice starts from the default graphics state and sets its own.
        let slices = parallel && strokes.count >= 64 ? Parallel.cores * 8 : 1
        let streams = Parallel.map(count: max(strokes.count, 1), parts: slices) { range -> Result<[UInt8], Error> in
            var out: [UInt8] = range.lowerBound == 0 ? head : []
            out.reserveCapacity(out.count + range.count * 2500)
            var st = GraphicsState()
            for i in range where i < strokes.count {
                let s = strokes[i]
                guard s.style.color.a > 0 else { continue }
                if let c = s.style.fillColor, let area = StrokeShape.fillArea(of: s) {
                    appendPolygon(area, color: c, multiply: false, state: &st, alphaStates: useAlpha, to: &out)
                }
                appendPath(Painter.rings(of: s, deviceScale: SVGWriter.shapingScale), color: s.style.inkColor,
                           multiply: s.style.multiplies, state: &st, alphaStates: useAlpha, to: &out)
            }
            return Result { try ParallelDeflate.whole(out, level: contentLevel) }
        }
        do { return try streams.map { try $0.get() } } catch {
            throw RenderError.pageTooLarge("cannot compress the PDF: \(error)")
        }
    }

    private static func appendPolygon(_ pts: [Point], color: RGBA, multiply: Bool, state st: inout GraphicsState, alphaStates: Bool,
                                      to out: inout [UInt8]) {
        appendPath([pts], color: color, multiply: multiply, state: &st, alphaStates: alphaStates, to: &out)
    }

    /// One filled path of closed loops (`m`/`l`/`h` each, then `f`: non-zero, their union). A path of many points
    /// is written from its first point's whole units (`q … cm … Q`), so its numbers are short: a pressure stroke
    /// on a 2000×3000 page so takes a sixth fewer bytes, at the same hundredths.
    private static func appendPath(_ rings: [[Point]], color: RGBA, multiply: Bool, state st: inout GraphicsState, alphaStates: Bool,
                                   to out: inout [UInt8]) {
        guard let start = rings.first(where: { !$0.isEmpty })?.first else { return }
        st.set(color, multiply: multiply, alphaStates: alphaStates, into: &out)
        let count = rings.reduce(0) { $0 + $1.count }
        var o = Point(0, 0)
        let relative = count >= 16 && abs(start.x) < 1e9 && abs(start.y) < 1e9
        if relative {
            o = Point(start.x.rounded(), start.y.rounded())
            out.append("q 1 0 0 1 "); out.appendNumber(o.x); out.append(" "); out.appendNumber(o.y); out.append(" cm\n")
        }
        for pts in rings {
            guard let first = pts.first else { continue }
            out.appendNumber(first.x - o.x); out.append(" "); out.appendNumber(first.y - o.y); out.append(" m\n")
            for p in pts.dropFirst() { out.appendNumber(p.x - o.x); out.append(" "); out.appendNumber(p.y - o.y); out.append(" l\n") }
            out.append("h\n")
        }
        out.append(relative ? "f Q\n" : "f\n")
    }

    /// Fill colour, opacity and blend last written to the content, so unchanged state is not repeated.
    private struct GraphicsState {
        var color: RGBA?
        var multiply = false

        mutating func set(_ c: RGBA, multiply: Bool = false, alphaStates: Bool, into out: inout [UInt8]) {
            let opaque = RGBA(r: c.r, g: c.g, b: c.b)
            if color.map({ RGBA(r: $0.r, g: $0.g, b: $0.b) }) != opaque {
                for v in [c.r, c.g, c.b] { out.appendNumber(Double(v) / 255, decimals: 3); out.append(" ") }
                out.append("rg\n")
            }
            if alphaStates, color?.a != c.a || self.multiply != multiply {
                out.append(multiply ? "/Gm" : "/Ga"); out.appendInt(Int(c.a), negative: false); out.append(" gs\n")
            }
            color = c
            self.multiply = multiply
        }
    }
}
