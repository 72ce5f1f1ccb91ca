import InkCore

/// Vector SVG written as text: one `<path>` per stroke (its filled outline), coordinates to 2 decimals,
/// relative after the first point so a typical pen point costs about a dozen bytes.
/// Strokes are formatted on every core and joined in drawing order.
enum SVGWriter {
    /// Vector output may be zoomed, so only points closer than ~1/20 unit are dropped.
    static let shapingScale = 8.0

    /// The document as consecutive byte runs (header, strokes in slices, footer), to be written in order.
    static func document(_ drawing: Drawing, transparent: Bool) -> [[UInt8]] {
        var out: [UInt8] = []
        let w = drawing.pageSize.width, h = drawing.pageSize.height
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
        out.appendNumber(w); out.append("\" height=\""); out.appendNumber(h)
        out.append("\" viewBox=\"0 0 "); out.appendNumber(w); out.append(" "); out.appendNumber(h); out.append("\">\n")
        if !transparent, drawing.background.a > 0 {
            out.append("<rect width=\""); out.appendNumber(w); out.append("\" height=\""); out.appendNumber(h); out.append("\"")
            out.appendFill(drawing.background)
            out.append("/>\n")
        }
        out.append("<g fill-rule=\"nonzero\" stroke=\"none\">\n")
        let strokes = drawing.strokes
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

    private static func appendPath(_ stroke: Stroke, to out: inout [UInt8]) {
        guard stroke.style.color.a > 0 else { return }
        let pts = Painter.outline(of: stroke, deviceScale: shapingScale)
        guard let first = pts.first else { return }
        out.append("<path")
        out.appendFill(stroke.style.color)
        out.append(" d=\"M")
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
        out.append("z\"/>\n")
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
