import Foundation
import InkCore

/// Writes a drawing as a one-page Xournal++ `.xopp` (gzip of XML, fileversion 4) that Xournal++ 1.1 opens.
/// Pen strokes carry their per-segment widths (our pressure-shaped width at each point), highlighters one width.
public enum XoppExport {
    public static func data(_ drawing: Drawing) throws -> [UInt8] {
        var x = ""
        x.reserveCapacity(64 + drawing.pointCount * 24)
        x += "<?xml version=\"1.0\" standalone=\"no\"?>\n"
        x += "<xournal creator=\"Oekaki\" fileversion=\"4\">\n"
        x += "<title>Xournal++ document - see https://github.com/xournalpp/xournalpp</title>\n"
        x += "<page width=\"\(num(drawing.pageSize.width))\" height=\"\(num(drawing.pageSize.height))\">\n"
        x += "<background type=\"solid\" color=\"\(drawing.background.hex)\" style=\"plain\"/>\n<layer>\n"
        for s in drawing.strokes where !s.points.isEmpty {
            let tool = s.style.tool == .highlighter ? "highlighter" : "pen"
            x += "<stroke tool=\"\(tool)\" color=\"\(s.style.color.hex)\" width=\"\(exact(s.style.width))"
            var pts = s.points
            // Xournal++ draws a dot as a two-point stroke.
            if pts.count == 1 { pts.append(pts[0]) }
            if s.style.tool == .pen {
                let o = StrokeShape.options(for: s.style)
                for p in pts.dropLast() {
                    x += " " + num(StrokeShape.width(nominal: s.style.width, pressure: p.pressure, thinning: o.thinning))
                }
            }
            x += "\" capStyle=\"round\">"
            var first = true
            for p in pts {
                if !first { x += " " }
                first = false
                x += num(p.x); x += " "; x += num(p.y)
            }
            x += "</stroke>\n"
        }
        x += "</layer>\n</page>\n</xournal>\n"
        return try Deflate.gzip(Array(x.utf8))
    }

    public static func write(_ drawing: Drawing, to path: String) throws {
        let bytes = try data(drawing)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StoreError.io(path: path, detail: "cannot write: \(error.localizedDescription)")
        }
    }

    /// The shortest text that reads back to the same value (nominal widths must survive a round trip).
    static func exact(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
    }

    /// Up to 4 decimals, no trailing zeros: exact enough for 1/20-unit data, short in the file.
    static func num(_ v: Double) -> String {
        let scaled = (v * 10000).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return "0" }
        let i = Int64(scaled)
        let neg = i < 0
        let a = neg ? -i : i
        var s = String(a / 10000)
        var frac = a % 10000
        if frac != 0 {
            var digits = String(frac)
            digits = String(repeating: "0", count: 4 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            s += "." + digits
            frac = 0
        }
        return neg ? "-" + s : s
    }
}
