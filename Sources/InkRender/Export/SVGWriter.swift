import InkCore

/// Vector SVG written as text: one `<path>` per stroke (its filled outline), coordinates to 2 decimals,
/// relative after the first point so a typical pen point costs about a dozen bytes.
/// Strokes are formatted on every core and joined in drawing order.
enum SVGWriter {
    /// Vector output may be zoomed, so only points closer than ~1/20 unit are dropped.
    static let shapingScale = 8.0

    /// The document as consecutive byte runs (header, strokes in slices, footer), to be written in order.
    /// The page's frame (its viewBox is the frame, so an endless page's ink keeps its coordinates).
    /// `backdrop`: the page's PDF page, embedded as a PNG of it (`backdropImage`) over the paper, under the items.
    static func document(_ page: Page, transparent: Bool, backdrop: PDFBackdrop? = nil) -> [[UInt8]] {
        var out: [UInt8] = []
        let f = page.frame
        let w = f.width, h = f.height
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
        out.appendNumber(w); out.append("\" height=\""); out.appendNumber(h)
        out.append("\" viewBox=\""); out.appendNumber(f.minX); out.append(" "); out.appendNumber(f.minY); out.append(" ")
        out.appendNumber(w); out.append(" "); out.appendNumber(h); out.append("\">\n")
        if !transparent, page.background.paper.a > 0 {
            out.append("<rect")
            if f.minX != 0 || f.minY != 0 { out.append(" x=\""); out.appendNumber(f.minX); out.append("\" y=\""); out.appendNumber(f.minY); out.append("\"") }
            out.append(" width=\""); out.appendNumber(w); out.append("\" height=\""); out.appendNumber(h); out.append("\"")
            out.appendFill(page.background.paper)
            out.append("/>\n")
        }
        if !transparent, let picture = page.background.picture, let size = page.size {
            SVGImage.append(bytes: ImagePainter.shared.bytes(picture), box: Rect(x: 0, y: 0, width: size.width, height: size.height),
                            transform: .identity, to: &out)
        }
        if !transparent { appendPattern(Paper(page), to: &out) }
        if let backdrop, let size = page.size, let png = backdropImage(backdrop, pageSize: size) {
            SVGImage.append(bytes: png, box: Rect(x: 0, y: 0, width: size.width, height: size.height), transform: .identity, to: &out)
        }
        out.append("<g fill-rule=\"nonzero\" stroke=\"none\">\n")
        let strokes = page.shownStrokes
        let parts = Parallel.map(count: strokes.count, parts: Parallel.cores * 8) { range -> [UInt8] in
            var buf: [UInt8] = []
            buf.reserveCapacity(range.count * 1500)
            for i in range { appendPath(strokes[i], to: &buf) }
            return buf
        }
        var end: [UInt8] = []
        end.append("</g>\n</svg>\n")
        return [out] + parts + [end]
    }

    /// Pixels per page unit of the embedded PDF page: 150 dpi (page units are points), enough to read and print
    /// small text, a few hundred KB of PNG for an A4 page.
    static let backdropScale = 150.0 / 72
    /// Largest side of that PNG, in pixels (a poster-sized page is rendered at a lower resolution).
    static let maxBackdropSide = 4096.0

    /// The PDF page rendered whole to a PNG, nil when it cannot be (the page then shows its paper only).
    /// An SVG has no way to hold a PDF page's vectors without converting them, so it gets a raster of it.
    static func backdropImage(_ backdrop: PDFBackdrop, pageSize size: Size) -> [UInt8]? {
        let scale = min(backdropScale, maxBackdropSide / max(size.width, size.height))
        let w = max(1, Int((size.width * scale).rounded())), h = max(1, Int((size.height * scale).rounded()))
        guard let image = try? backdrop.raster(width: w, height: h),
              let chunks = try? PNGEncoder.chunks(image, opaque: false) else { return nil }
        return Array(chunks.joined())
    }

    /// The paper's lines as one path per colour (thin rectangles), its dots as circles.
    private static func appendPattern(_ paper: Paper, to out: inout [UInt8]) {
        let m = BackgroundPainter.marks(paper, in: paper.frame)
        var byColor: [RGBA: [Rect]] = [:]
        for l in m.lines { byColor[l.color, default: []].append(l.rect) }
        for (c, rects) in byColor.sorted(by: { $0.key.hex < $1.key.hex }) {
            out.append("<path"); out.appendFill(c); out.append(" d=\"")
            for r in rects {
                out.append("M"); out.appendNumber(r.minX, decimals: 3); out.append(" "); out.appendNumber(r.minY, decimals: 3)
                out.append("H"); out.appendNumber(r.maxX, decimals: 3); out.append("V"); out.appendNumber(r.maxY, decimals: 3)
                out.append("H"); out.appendNumber(r.minX, decimals: 3); out.append("z")
            }
            out.append("\"/>\n")
        }
        if let l0 = m.slants.first {
            // Slanted lines (isometric paper, one colour) as one stroked path with round caps.
            out.append("<path fill=\"none\" stroke=\"#")
            for v in [l0.color.r, l0.color.g, l0.color.b] { out.appendHex(v) }
            out.append("\" stroke-width=\"")
            out.appendNumber(l0.width, decimals: 3); out.append("\" stroke-linecap=\"round\" d=\"")
            for l in m.slants {
                out.append("M"); out.appendNumber(l.from.x, decimals: 3); out.append(" "); out.appendNumber(l.from.y, decimals: 3)
                out.append("L"); out.appendNumber(l.to.x, decimals: 3); out.append(" "); out.appendNumber(l.to.y, decimals: 3)
            }
            out.append("\"/>\n")
        }
        if let c = m.dots.first?.color {
            out.append("<g"); out.appendFill(c); out.append(">\n")
            for d in m.dots {
                out.append("<circle cx=\""); out.appendNumber(d.center.x, decimals: 3); out.append("\" cy=\""); out.appendNumber(d.center.y, decimals: 3)
                out.append("\" r=\""); out.appendNumber(BackgroundPainter.dotDiameter / 2, decimals: 3); out.append("\"/>\n")
            }
            out.append("</g>\n")
        }
    }

    /// A text box as `<text>` naming its font, one `<tspan>` per line as Pango broke them (so the SVG wraps as
    /// the page does), placed by the item's transform.
    private static func appendText(_ stroke: Stroke, to out: inout [UInt8]) {
        guard let box = stroke.content.text, let frame = stroke.drawnBox, box.color.a > 0, !box.text.isEmpty else { return }
        out.append("<text")
        let t = stroke.transform
        if !t.isIdentity {
            out.append(" transform=\"matrix(")
            for (i, v) in [t.a, t.b, t.c, t.d, t.tx, t.ty].enumerated() {
                if i > 0 { out.append(" ") }
                out.appendNumber(v, decimals: 6)
            }
            out.append(")\"")
        }
        let face = TextPainter.face(of: box.font)
        out.append(" font-family=\""); appendEscaped(face.family, to: &out)
        if face.weight != 400 { out.append("\" font-weight=\""); out.appendNumber(Double(face.weight), decimals: 0) }
        if face.italic { out.append("\" font-style=\"italic") }
        out.append("\" font-size=\""); out.appendNumber(box.size, decimals: 3); out.append("\" xml:space=\"preserve\"")
        out.appendFill(box.color)
        out.append(">")
        for line in TextPainter.lines(box) {
            let text = line.text.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
            guard !text.isEmpty else { continue }
            out.append("<tspan x=\""); out.appendNumber(frame.minX + line.x, decimals: 3)
            out.append("\" y=\""); out.appendNumber(frame.minY + line.baseline, decimals: 3); out.append("\">")
            appendEscaped(text, to: &out)
            out.append("</tspan>")
        }
        out.append("</text>\n")
    }

    /// XML character data: markup characters escaped, and control characters XML 1.0 cannot hold dropped.
    private static func appendEscaped(_ s: String, to out: inout [UInt8]) {
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "&"): out.append("&amp;")
            case UInt8(ascii: "<"): out.append("&lt;")
            case UInt8(ascii: ">"): out.append("&gt;")
            case UInt8(ascii: "\""): out.append("&quot;")
            case 0x09, 0x0A, 0x0D: out.append(b)
            case 0..<0x20: break
            default: out.append(b)
            }
        }
    }

    private static func appendPath(_ stroke: Stroke, to out: inout [UInt8]) {
        if stroke.content.text != nil { return appendText(stroke, to: &out) }
        if case .image(let box) = stroke.content, let rect = stroke.drawnBox {
            return SVGImage.append(bytes: ImagePainter.shared.bytes(box.file), box: rect, transform: stroke.transform, to: &out)
        }
        guard stroke.style.color.a > 0 else { return }
        let style = stroke.style
        // A pen's fill under its ink; highlighters multiply (librsvg and browsers blend by `mix-blend-mode`).
        if let c = style.fillColor, let area = StrokeShape.fillArea(of: stroke) { appendPolygon(area, color: c, multiply: false, to: &out) }
        appendPath(Painter.rings(of: stroke, deviceScale: shapingScale), color: style.inkColor, multiply: style.multiplies, to: &out)
    }

    private static func appendPolygon(_ pts: [Point], color: RGBA, multiply: Bool, to out: inout [UInt8]) {
        appendPath([pts], color: color, multiply: multiply, to: &out)
    }

    /// One `<path>` of closed loops (non-zero: their union).
    private static func appendPath(_ rings: [[Point]], color: RGBA, multiply: Bool, to out: inout [UInt8]) {
        guard rings.contains(where: { !$0.isEmpty }) else { return }
        out.append("<path")
        out.appendFill(color)
        if multiply { out.append(" style=\"mix-blend-mode:multiply\"") }
        out.append(" d=\"")
        for pts in rings { appendRing(pts, to: &out) }
        out.append("\"/>\n")
    }

    private static func appendRing(_ pts: [Point], to out: inout [UInt8]) {
        guard let first = pts.first else { return }
        out.append("M")
        // Deltas between rounded absolute positions, so rounding never drifts along the path.
        var qx = Int((first.x * 100).rounded()), qy = Int((first.y * 100).rounded())
        out.appendCentis(qx); out.appendSeparated(qy)
        out.append("l")
        var firstDelta = true
        for p in pts.dropFirst() {
            let nx = Int((p.x * 100).rounded()), ny = Int((p.y * 100).rounded())
            if nx == qx && ny == qy { continue }
            if firstDelta { out.appendCentis(nx - qx); firstDelta = false } else { out.appendSeparated(nx - qx) }
            out.appendSeparated(ny - qy)
            qx = nx; qy = ny
        }
        if firstDelta { out.append("0 0") }
        out.append("z")
    }
}

private extension Array where Element == UInt8 {
    mutating func appendFill(_ c: RGBA) {
        append(" fill=\"#")
        for v in [c.r, c.g, c.b] { appendHex(v) }
        append("\"")
        if c.a < 255 {
            append(" fill-opacity=\"")
            appendNumber((Double(c.a) / 255 * 1000).rounded() / 1000, decimals: 3)
            append("\"")
        }
    }
}
