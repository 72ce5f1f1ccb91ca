/// Hit testing and cutting for the two erasers, as pure functions of a stroke and the swept eraser area.
public enum StrokeEraser {
    /// True when the capsule touches the stroke's inked area: the distance from the eraser's path to the
    /// stroke's centre line is at most the eraser radius plus the stroke's radius there.
    public static func touches(_ stroke: Stroke, _ eraser: Capsule) -> Bool {
        guard let ink = stroke.inkBounds, ink.intersects(eraser.bounds) else { return false }
        let spine = StrokeShape.spine(of: stroke, options: StrokeShape.options(for: stroke.style))
        guard let first = spine.first else { return false }
        let path = Segment(eraser.from, eraser.to)
        if spine.count == 1 { return path.distance(to: first.point) <= eraser.radius + first.radius }
        let reach = eraser.bounds
        for i in 0..<(spine.count - 1) {
            let a = spine[i], b = spine[i + 1]
            let r = Swift.max(a.radius, b.radius)
            // Cheap box test first: most segments of a candidate are far from the eraser.
            if Swift.min(a.point.x, b.point.x) - r > reach.maxX || Swift.max(a.point.x, b.point.x) + r < reach.minX
                || Swift.min(a.point.y, b.point.y) - r > reach.maxY || Swift.max(a.point.y, b.point.y) + r < reach.minY {
                continue
            }
            let near = Segment(a.point, b.point).nearest(to: path)
            let local = a.radius + (b.radius - a.radius) * near.t
            if near.distance <= eraser.radius + local { return true }
        }
        return false
    }
}

public enum AreaEraser {
    /// Cuts the part of the stroke's centre line inside the capsule out of it.
    /// Returns nil when the stroke is untouched, else the remaining pieces (empty when all of it is erased).
    /// Pieces keep the original samples and pressures; each cut ends at a point interpolated on the eraser's
    /// boundary. Slivers shorter than `minimumPiece` (page units) are dropped.
    public static func cut(_ stroke: Stroke, by eraser: Capsule, minimumPiece: Double = 1e-6) -> [[InkPoint]]? {
        let pts = stroke.points
        guard let b = stroke.bounds, b.intersects(eraser.bounds), let first = pts.first else { return nil }
        if pts.count == 1 {
            return eraser.spineDistance(to: first.point) <= eraser.radius ? [] : nil
        }
        var pieces: [[InkPoint]] = []
        var current: [InkPoint] = []
        var touched = false
        func close() {
            if current.count >= 2, length(current) > minimumPiece { pieces.append(current) }
            current = []
        }
        if eraser.spineDistance(to: first.point) > eraser.radius { current.append(first) }
        for k in 0..<(pts.count - 1) {
            let p = pts[k], q = pts[k + 1]
            guard let (t0, t1) = eraser.inside(p.point, q.point), (t1 - t0) * p.point.distance(to: q.point) > 1e-9
                    || (t0 == 0 && t1 == 1) else {
                if current.isEmpty { current.append(p) }
                current.append(q)
                continue
            }
            touched = true
            if t0 > 0 {
                if current.isEmpty { current.append(p) }
                current.append(lerp(p, q, t0))
            }
            close()
            if t1 < 1 { current.append(lerp(p, q, t1)); current.append(q) }
        }
        close()
        return touched ? pieces : nil
    }

    private static func lerp(_ a: InkPoint, _ b: InkPoint, _ t: Double) -> InkPoint {
        InkPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
                 pressure: a.pressure + (b.pressure - a.pressure) * t, time: a.time + (b.time - a.time) * t)
    }

    private static func length(_ pts: [InkPoint]) -> Double {
        var l = 0.0
        for i in 1..<pts.count { l += pts[i - 1].point.distance(to: pts[i].point) }
        return l
    }
}
