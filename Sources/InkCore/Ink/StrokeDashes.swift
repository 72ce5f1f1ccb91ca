/// Cuts a stroke's centre line into the dashes of a pattern, as cairo does for Xournal++: on and off lengths along
/// the line from its first point (the pattern runs on across joins and, for pressure ink, from segment to segment),
/// each dash a line of its own with the stroke's caps.
public enum StrokeDashes {
    /// More dashes than this in one stroke are drawn as a solid line (a pattern so fine it looks solid anyway, and a
    /// hostile file's "cust: 0.00001 0" must not make millions of loops).
    public static let maxPieces = 20_000

    /// The dashes of `spine` (each at least one point; a zero-length dash is one point). Radii at a cut are
    /// interpolated, or, with `perSegmentWidths`, the radius of the segment cut (a segment is as wide as its first
    /// point gives).
    public static func pieces(of sp: [StrokeShape.SpinePoint], pattern: [Double], perSegmentWidths: Bool) -> [[StrokeShape.SpinePoint]] {
        let period = pattern.reduce(0, +)
        guard sp.count > 1, !pattern.isEmpty, period > 0, period.isFinite else { return [sp] }
        var total = 0.0
        for i in 1..<sp.count { total += (sp[i].point - sp[i - 1].point).length }
        guard total.isFinite, total / period * Double(pattern.count) <= Double(maxPieces) else { return [sp] }

        var pieces: [[StrokeShape.SpinePoint]] = []
        var current: [StrokeShape.SpinePoint] = []
        var k = 0, left = pattern[0], on = true
        func point(_ i: Int, _ t: Double) -> StrokeShape.SpinePoint {
            let a = sp[i], b = sp[i + 1]
            let r = perSegmentWidths ? a.radius : a.radius + (b.radius - a.radius) * t
            return StrokeShape.SpinePoint(point: a.point + (b.point - a.point) * t, radius: r)
        }
        func advance() {
            k = (k + 1) % pattern.count
            left = pattern[k]
            on.toggle()
        }
        if on { current.append(sp[0]) }
        for i in 0..<(sp.count - 1) {
            let len = (sp[i + 1].point - sp[i].point).length
            guard len > 0 else { continue }
            var at = 0.0
            while len - at >= left {
                at += left
                let t = at / len
                let p = point(i, t)
                if on {
                    current.append(p)
                    pieces.append(current)
                    current = []
                } else {
                    current = [p]
                }
                advance()
            }
            left -= len - at
            if on {
                // The segment's end belongs to the dash (with the next segment's width from here on).
                current.append(sp[i + 1])
            }
        }
        if on, !current.isEmpty { pieces.append(current) }
        // A cut exactly on a point repeats it; dashes keep distinct points (a zero-length dash stays one point).
        return pieces.map { piece in
            var out: [StrokeShape.SpinePoint] = []
            out.reserveCapacity(piece.count)
            for p in piece where out.last?.point != p.point { out.append(p) }
            return out
        }
    }
}
