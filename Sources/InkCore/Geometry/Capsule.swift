/// The area an eraser sweeps between two samples: every point within `radius` of the segment `from`–`to`.
/// A single sample is a capsule whose ends coincide (a disc).
public struct Capsule: Hashable, Sendable {
    public var from: Point
    public var to: Point
    public var radius: Double

    public init(from: Point, to: Point, radius: Double) {
        self.from = from; self.to = to; self.radius = Swift.max(radius, 0)
    }
    public init(center: Point, radius: Double) { self.init(from: center, to: center, radius: radius) }

    public var bounds: Rect {
        Rect(minX: Swift.min(from.x, to.x) - radius, minY: Swift.min(from.y, to.y) - radius,
             maxX: Swift.max(from.x, to.x) + radius, maxY: Swift.max(from.y, to.y) + radius)
    }

    /// Distance from `p` to the capsule's centre segment.
    public func spineDistance(to p: Point) -> Double { Segment(from, to).distance(to: p) }

    /// The part of the segment `a`–`b` inside the capsule, as parameters `t0 ≤ t1` in 0…1, or nil when it misses.
    /// The capsule is convex, so the inside part is one interval: the union of what the two end discs and the
    /// middle rectangle cut from the line.
    public func inside(_ a: Point, _ b: Point) -> (t0: Double, t1: Double)? {
        // Work relative to `from` so huge coordinates keep their precision.
        let p = a - from, d = b - a, e = to - from
        var lo = Double.infinity, hi = -Double.infinity
        func take(_ iv: (Double, Double)?) {
            guard let (s, t) = iv else { return }
            let s0 = Swift.max(s, 0), t1 = Swift.min(t, 1)
            if s0 <= t1 { lo = Swift.min(lo, s0); hi = Swift.max(hi, t1) }
        }
        take(Capsule.disc(p, d, center: Point(0, 0), radius: radius))
        let len = e.length
        if len > 0 && len.isFinite {
            take(Capsule.disc(p, d, center: e, radius: radius))
            // Rectangle: 0 ≤ (q·u) ≤ len and |q·n| ≤ radius, with q = p + t·d.
            let u = e * (1 / len), n = Point(-u.y, u.x)
            var s = -Double.infinity, t = Double.infinity
            func clip(_ value: Double, _ slope: Double, _ min: Double, _ max: Double) {
                // min ≤ value + slope·t ≤ max
                if slope == 0 {
                    if value < min || value > max { s = 1; t = 0 }
                    return
                }
                var t0 = (min - value) / slope, t1 = (max - value) / slope
                if t0 > t1 { swap(&t0, &t1) }
                s = Swift.max(s, t0); t = Swift.min(t, t1)
            }
            clip(p.x * u.x + p.y * u.y, d.x * u.x + d.y * u.y, 0, len)
            clip(p.x * n.x + p.y * n.y, d.x * n.x + d.y * n.y, -radius, radius)
            if s <= t { take((s, t)) }
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// Where the line p + t·d lies inside the disc, as an unclamped parameter interval.
    private static func disc(_ p: Point, _ d: Point, center c: Point, radius r: Double) -> (Double, Double)? {
        let f = p - c
        let a = d.x * d.x + d.y * d.y
        let cc = f.x * f.x + f.y * f.y - r * r
        if a == 0 || !a.isFinite { return cc <= 0 ? (0, 1) : nil }
        let b = f.x * d.x + f.y * d.y
        let disc = b * b - a * cc
        guard disc >= 0, disc.isFinite else { return nil }
        let q = disc.squareRoot()
        return ((-b - q) / a, (-b + q) / a)
    }
}

/// A straight piece of line between two points.
public struct Segment: Hashable, Sendable {
    public var a: Point
    public var b: Point
    public init(_ a: Point, _ b: Point) { self.a = a; self.b = b }

    /// Parameter 0…1 of the point on the segment nearest to `p`.
    public func nearestParameter(to p: Point) -> Double {
        let d = b - a
        let l2 = d.x * d.x + d.y * d.y
        guard l2 > 0, l2.isFinite else { return 0 }
        let t = ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / l2
        return t.isFinite ? Swift.min(Swift.max(t, 0), 1) : 0
    }

    public func point(at t: Double) -> Point { a + (b - a) * t }

    public func distance(to p: Point) -> Double { point(at: nearestParameter(to: p)).distance(to: p) }

    /// Nearest points of two segments: the distance and the parameter on `self` where it is reached.
    public func nearest(to o: Segment) -> (distance: Double, t: Double) {
        if intersects(o) {
            // Crossing segments touch at distance 0; the parameter is where o crosses self.
            let d = b - a, e = o.b - o.a
            let den = d.x * e.y - d.y * e.x
            if den != 0 {
                let t = ((o.a.x - a.x) * e.y - (o.a.y - a.y) * e.x) / den
                if t.isFinite { return (0, Swift.min(Swift.max(t, 0), 1)) }
            }
        }
        // Otherwise the minimum is reached at an end point of one of them.
        var best = (distance: Double.infinity, t: 0.0)
        for (t, p) in [(0.0, a), (1.0, b)] {
            let dist = o.distance(to: p)
            if dist < best.distance { best = (dist, t) }
        }
        for p in [o.a, o.b] {
            let t = nearestParameter(to: p)
            let dist = point(at: t).distance(to: p)
            if dist < best.distance { best = (dist, t) }
        }
        return best
    }

    /// True when the segments share a point (proper crossing or touching).
    public func intersects(_ o: Segment) -> Bool {
        func orient(_ p: Point, _ q: Point, _ r: Point) -> Double {
            (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)
        }
        let d1 = orient(o.a, o.b, a), d2 = orient(o.a, o.b, b)
        let d3 = orient(a, b, o.a), d4 = orient(a, b, o.b)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return false
    }
}
