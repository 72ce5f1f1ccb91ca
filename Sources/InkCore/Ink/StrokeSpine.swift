import Foundation

/// The centre line of a stroke, before it is given a width: smoothing without lag, then curves through
/// sparse samples.
///
/// 1. Samples closer than `minSpacing` are skipped (the last is always kept: the line ends where the pen lifted).
/// 2. Each sample moves towards the centred, triangle-weighted average of the samples within the smoothing
///    reach (arc length) on both sides. The window shrinks symmetrically near the ends, so both ends stay exact
///    and nothing lags. Samples farther apart than the reach have no neighbours in it: sparse, deliberate input
///    (a rectangle's corners, a fast mouse stroke) keeps its geometry exactly.
/// 3. Long segments whose ends turn gently get in-between points on a cubic curve through the samples
///    (tangent at a sample = the bisector of its two segments, handles a third of the chord but never reaching
///    more than `curveBand` off the chord), so sparse input is softened without leaving the path the pen took.
///    Corners (turns sharper than `cornerAngle`) stay sharp.
///
/// Strokes traced as `.polyline` (shapes, imports) skip steps 2 and 3: their points are joined by straight lines.
extension StrokeShape {
    /// cos 40°: turns sharper than this at two neighbouring samples make both corners (see `curved`).
    static let polygonTurnCos = cos(40 * Double.pi / 180)

    /// Smoothed centre line with a radius per point. Consecutive points are distinct and finite apart.
    public static func spine(of stroke: Stroke, options: Options) -> [SpinePoint] {
        liveSpine(of: stroke, options: options).spine
    }

    /// The spine plus how many of its leading points are final: appending samples to the stroke never changes
    /// them (smoothing looks ahead by the reach, curves by one sample). Lets a live view draw them once.
    public static func liveSpine(of stroke: Stroke, options o: Options) -> (spine: [SpinePoint], settled: Int) {
        let samples = kept(stroke, options: o)
        if stroke.style.trace == .polyline {
            // Already final: the points as they are, straight between them.
            var straight = o
            straight.maxCurvePoints = 0
            return curved(samples, options: straight)
        }
        let smoothed = smooth(samples, nominal: stroke.style.width, options: o)
        return curved(smoothed, options: o)
    }

    /// Positions and radii along a line, with how many leading entries later samples cannot change.
    struct Polyline {
        var points: [Point] = []
        var radii: [Double] = []
        var final = 0
        var count: Int { points.count }
    }

    /// Step 1: finite, distinct samples at least `minSpacing` apart, each with the radius its pressure gives.
    static func kept(_ stroke: Stroke, options o: Options) -> Polyline {
        let raw = stroke.points
        var out = Polyline()
        guard let first = raw.first else { return out }
        let spacing = Swift.max(o.minSpacing.isFinite ? o.minSpacing : 0, 0)
        let nominal = stroke.style.width, thinning = o.thinning
        out.points.reserveCapacity(raw.count); out.radii.reserveCapacity(raw.count)
        out.points.append(first.point)
        out.radii.append(width(nominal: nominal, pressure: first.pressure, thinning: thinning) / 2)
        let last = raw.count - 1
        var i = 1
        while i <= last {
            let p = raw[i]
            i += 1
            let d = p.point.distance(to: out.points[out.points.count - 1])
            guard d.isFinite, d > 0 else { continue }
            if d <= spacing && i <= last { continue }
            out.points.append(p.point)
            out.radii.append(width(nominal: nominal, pressure: p.pressure, thinning: thinning) / 2)
        }
        // The last kept sample may be replaced by the next one (spacing); all before it are final.
        out.final = out.count - 1
        return out
    }

    /// The smallest distance `kept` measures between a sample and the last one kept, when it keeps all it can
    /// (no `minSpacing`): any `minSpacing` below this drops no sample, so the stroke shapes the same with it as
    /// without. Lets a renderer reuse an outline across zooms (its `minSpacing` follows the zoom).
    public static func closestSampleGap(of stroke: Stroke) -> Double {
        let raw = stroke.points
        guard var last = raw.first?.point else { return .infinity }
        var gap = Double.infinity
        for p in raw.dropFirst() {
            let d = p.point.distance(to: last)
            guard d.isFinite, d > 0 else { continue }
            gap = Swift.min(gap, d)
            last = p.point
        }
        return gap
    }

    /// Half-length of the smoothing window for a pen of `nominal` width (0 = no smoothing).
    static func smoothingReach(nominal: Double, options o: Options) -> Double {
        let lo = o.minimumSmoothingReach.isFinite ? Swift.max(o.minimumSmoothingReach, 0) : 0
        let hi = o.maximumSmoothingReach.isFinite ? Swift.max(o.maximumSmoothingReach, lo) : lo
        let wanted = nominal * o.smoothingReach
        return wanted.isFinite ? Swift.min(Swift.max(wanted, lo), hi) : hi
    }

    /// Step 2: zero-lag smoothing (see the type comment). Radii are averaged with the same weights,
    /// which also calms speed-simulated pressure.
    static func smooth(_ line: Polyline, nominal: Double, options o: Options) -> Polyline {
        let n = line.count
        let strength = o.streamline.isFinite ? Swift.min(Swift.max(o.streamline, 0), 1) : 0
        let reach = smoothingReach(nominal: nominal, options: o)
        guard n >= 3, strength > 0, reach > 0 else { return line }
        let pts = line.points, radii = line.radii
        var s = [Double](repeating: 0, count: n)
        for i in 1..<n { s[i] = s[i - 1] + pts[i].distance(to: pts[i - 1]) }
        let total = s[n - 1]
        // Beyond this every difference of points could overflow; such strokes are not drawn by hand anyway.
        guard total.isFinite else { return line }
        var out = line
        for i in 1..<(n - 1) {
            let h = Swift.min(reach, s[i], total - s[i])
            guard h > 0 else { continue }
            let c = pts[i], cr = radii[i], si = s[i], inv = 1 / h
            // Offsets from the centre sample, so huge coordinates keep their precision.
            var sx = 0.0, sy = 0.0, sr = 0.0, sw = 1.0
            var j = i - 1
            while j >= 0 {
                let w = 1 - (si - s[j]) * inv
                if w <= 0 { break }
                sx += (pts[j].x - c.x) * w; sy += (pts[j].y - c.y) * w; sr += (radii[j] - cr) * w; sw += w
                j -= 1
            }
            j = i + 1
            while j < n {
                let w = 1 - (s[j] - si) * inv
                if w <= 0 { break }
                sx += (pts[j].x - c.x) * w; sy += (pts[j].y - c.y) * w; sr += (radii[j] - cr) * w; sw += w
                j += 1
            }
            let k = strength / sw
            let q = Point(c.x + sx * k, c.y + sy * k)
            if q.isFinite { out.points[i] = q; out.radii[i] = cr + sr * k }
        }
        // A sample is final once the last final sample lies a full reach beyond it: its window can no
        // longer grow or shrink, and every neighbour it can reach is already there.
        let settledLength = s[line.final > 0 ? line.final - 1 : 0]
        var final = 1
        while final < line.final - 1, s[final] + reach <= settledLength { final += 1 }
        out.final = Swift.min(final, line.final)
        return out
    }

    /// Step 3: drops points the smoothing made coincide, adds curve points on long gentle segments.
    static func curved(_ line: Polyline, options o: Options) -> (spine: [SpinePoint], settled: Int) {
        // Distinct consecutive points (smoothing can make neighbours meet); the last stays exact.
        var pts: [Point] = [], radii: [Double] = []
        pts.reserveCapacity(line.count); radii.reserveCapacity(line.count)
        var finalDistinct = 0
        for i in 0..<line.count {
            let p = line.points[i]
            if let prev = pts.last {
                let d = p.distance(to: prev)
                if !(d.isFinite && d > 0) {
                    if i == line.count - 1, d == 0 { radii[radii.count - 1] = line.radii[i] }
                    continue
                }
            }
            pts.append(p); radii.append(line.radii[i])
            if i < line.final { finalDistinct = pts.count }
        }
        let n = pts.count
        guard n >= 2 else {
            return (zip(pts, radii).map { SpinePoint(point: $0, radius: $1) }, n)
        }
        var dirs: [Point] = [], lengths: [Double] = []
        dirs.reserveCapacity(n - 1); lengths.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            let d = pts[i + 1] - pts[i]
            let len = d.length
            lengths.append(len)
            dirs.append(len > 0 && len.isFinite ? d * (1 / len) : (dirs.last ?? Point(1, 0)))
        }
        let extra = Swift.min(Swift.max(o.maxCurvePoints, 0), 64)
        let tolerance = o.curveTolerance.isFinite && o.curveTolerance > 0 ? o.curveTolerance : .infinity
        let limit = o.curveCoordinateLimit.isFinite ? o.curveCoordinateLimit : 0
        let band = o.curveBand.isFinite ? Swift.max(o.curveBand, 0) : 0
        let cosCorner = cos(Swift.min(Swift.max(o.cornerAngle.isFinite ? o.cornerAngle : 0, 0), Double.pi))
        // A loop that ends where it began (a circle, a rectangle) is smooth across its seam too. Only the end
        // decides this, so closing a loop re-shapes its first segment once (a live view redraws it then).
        let closed = n >= 4 && pts[0].distance(to: pts[n - 1]) <= Swift.min(radii[0], radii[n - 1])
        /// The turn at point `k`: the cosine and the cross product of its two segments' directions (nil at an
        /// open end).
        func turn(_ k: Int) -> (cos: Double, cross: Double)? {
            let a: Point, b: Point
            if k > 0, k < n - 1 { a = dirs[k - 1]; b = dirs[k] } else if closed, k == 0 || k == n - 1 { a = dirs[n - 2]; b = dirs[0] } else { return nil }
            return (a.x * b.x + a.y * b.y, a.x * b.y - a.y * b.x)
        }
        /// Tangent at point `k` from its two segments, or nil at a corner or an open end (then the segment leaves
        /// along its chord: mirroring the neighbour's tangent there overshoots as often as it helps). A turn of
        /// more than 40° next to another such turn the same way is a corner too: sparse input turning hard at
        /// sample after sample is a polygon (a fast mouse pentagon or octagon given only its corners), whose
        /// sides would bow out off its path; a wave's crest turns hard once, between gentler turns, and stays
        /// a curve.
        func tangent(_ k: Int) -> Point? {
            guard let here = turn(k), here.cos >= cosCorner else { return nil }
            if here.cos < Self.polygonTurnCos {
                for j in [k - 1, k + 1] {
                    if let next = turn(closed ? (j + n - 1) % (n - 1) : j), next.cos < Self.polygonTurnCos, next.cross * here.cross > 0 { return nil }
                }
            }
            let a = dirs[k > 0 && k < n - 1 ? k - 1 : n - 2], b = dirs[k > 0 && k < n - 1 ? k : 0]
            let t = a + b, len = t.length
            return len > 1e-9 ? t * (1 / len) : nil
        }

        var out: [SpinePoint] = []
        out.reserveCapacity(n + n / 2)
        var settled = 0
        out.append(SpinePoint(point: pts[0], radius: radii[0]))
        // A segment is final when the two points after its end are final (the end's tangent looks at the
        // turn after it).
        let lastFinalEnd = finalDistinct - 3
        if lastFinalEnd <= 0 { settled = Swift.min(finalDistinct, 1) }
        var nextTangent = tangent(0)
        for k in 0..<(n - 1) {
            let a = pts[k], b = pts[k + 1], u = dirs[k], len = lengths[k]
            let t0 = nextTangent ?? u
            nextTangent = tangent(k + 1)
            let t1 = nextTangent ?? u
            if extra > 0, limit > 0, Swift.max(abs(a.x), abs(a.y), abs(b.x), abs(b.y)) <= limit {
                // How far the curve strays from the chord: about a quarter chord times the sine of the turn.
                let sin0 = abs(u.x * t0.y - u.y * t0.x), sin1 = abs(u.x * t1.y - u.y * t1.x)
                // Handles a third of the chord, shortened so the control points (and so the curve, which
                // stays in their hull) keep within `curveBand` of the chord: a pentagon drawn with only its
                // corners stays a pentagon with softened corners, never a dome.
                let sinMax = Swift.max(sin0, sin1)
                var handle = len / 3
                if sinMax * handle > band { handle = band / sinMax }
                let stray = 0.75 * handle * sinMax
                if stray > tolerance {
                    // Chord error falls with the square of the pieces.
                    let pieces = Swift.min(Int((stray / tolerance).squareRoot().rounded(.up)), extra + 1)
                    let c1 = a + t0 * handle, c2 = b - t1 * handle
                    // Stay inside the box of the samples the curve depends on: that keeps it inside the
                    // stroke's ink bounds (dirty areas, spatial index) and final once those samples are.
                    var box = Rect(minX: a.x, minY: a.y, maxX: a.x, maxY: a.y)
                    for q in pts[Swift.max(k - 1, 0)...Swift.min(k + 2, n - 1)] { box.include(q) }
                    for j in 1..<Swift.max(pieces, 1) {
                        let t = Double(j) / Double(pieces), m = 1 - t
                        let w0 = m * m * m, w1 = 3 * m * m * t, w2 = 3 * m * t * t, w3 = t * t * t
                        var p = Point(a.x * w0 + c1.x * w1 + c2.x * w2 + b.x * w3,
                                      a.y * w0 + c1.y * w1 + c2.y * w2 + b.y * w3)
                        p = Point(Swift.min(Swift.max(p.x, box.minX), box.maxX), Swift.min(Swift.max(p.y, box.minY), box.maxY))
                        guard p.isFinite, p != out[out.count - 1].point, p != b else { continue }
                        out.append(SpinePoint(point: p, radius: radii[k] + (radii[k + 1] - radii[k]) * t))
                    }
                }
            }
            out.append(SpinePoint(point: b, radius: radii[k + 1]))
            if k + 1 == lastFinalEnd { settled = out.count }
        }
        return (out, Swift.min(settled, out.count))
    }
}
