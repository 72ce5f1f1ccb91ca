import Foundation

/// Turns stored samples into the filled outline the renderer draws: smooth the centre line (StrokeSpine.swift),
/// map pressure to width, offset both sides, round joins and caps (after perfect-freehand).
/// The outline is one closed polygon meant for the non-zero fill rule: where it overlaps itself
/// (inner side of a sharp turn, a line crossing itself) every loop winds the same way, so it stays filled
/// with one flat colour.
public enum StrokeShape {
    public struct Options: Hashable, Sendable {
        /// How strongly pressure changes the width: 0 = constant width, 1 = from 0 to 2× nominal.
        public var thinning: Double = 0.5
        /// 0…1: how far each point moves towards the centred average of its neighbours within the smoothing
        /// reach (0 = the raw input). Centred, so the line does not lag behind the pen or shift sparse shapes.
        public var streamline: Double = 1
        /// Segments used for each round cap (a half circle); joins use the same angular step.
        public var capSegments: Int = 8
        /// Points closer than this (page units) to the previous kept one are skipped.
        public var minSpacing: Double = 0
        /// Turns sharper than this (radians) get a round join on the outer side; gentler ones a mitred point.
        public var roundJoinAngle: Double = 0.35
        /// Half-length (arc length, in nominal pen widths) of the smoothing window. Jitter is small-scale:
        /// samples farther apart than this are deliberate and never pulled towards each other.
        public var smoothingReach: Double = 2
        /// Smallest window half-length (page units): device jitter (a pixel or so) is there even for hairlines.
        public var minimumSmoothingReach: Double = 4
        /// Largest window half-length (page units): jitter never spans more, so fat pens keep their corners.
        public var maximumSmoothingReach: Double = 8
        /// A sample where the line turns by more than this (radians, about 77°) is a corner: segments meet there
        /// straight, so squares and triangles stay sharp. Gentler turns (a circle of 5+ samples, the crest of a
        /// fast mouse wave) get a curve through the samples.
        public var cornerAngle: Double = 1.35
        /// Largest distance (page units) a curved segment may stray from its drawn chords; finer curves get
        /// more in-between points. About a quarter pixel at 100 %.
        public var curveTolerance: Double = 0.25
        /// At most this many in-between points per input segment (bounds the cost of fast, sparse strokes);
        /// 0 draws straight segments between the samples.
        public var maxCurvePoints: Int = 6
        /// No curve points beyond this coordinate (page units): doubles there are too coarse for a curve.
        public var curveCoordinateLimit: Double = 1e9
        /// Largest distance (page units) a curve's control points may lie off the straight segment between two
        /// sparse samples; the curve itself stays within ¾ of it (1.5 units). Ink so stays within half its width
        /// + 2 units of the polyline through the samples, whatever the sample rate: a pentagon drawn with only its
        /// corners is a pentagon with softened corners, never a dome.
        public var curveBand: Double = 2
        /// How the ends are drawn (Xournal++'s `capStyle`); joins are always round.
        public var cap: CapStyle = .round
        public init(thinning: Double = 0.5, streamline: Double = 1, capSegments: Int = 8, minSpacing: Double = 0,
                    roundJoinAngle: Double = 0.35, smoothingReach: Double = 2, minimumSmoothingReach: Double = 4,
                    maximumSmoothingReach: Double = 8, cornerAngle: Double = 1.35, curveTolerance: Double = 0.25,
                    maxCurvePoints: Int = 6, curveCoordinateLimit: Double = 1e9, curveBand: Double = 2) {
            self.thinning = thinning; self.streamline = streamline; self.capSegments = capSegments
            self.minSpacing = minSpacing; self.roundJoinAngle = roundJoinAngle
            self.smoothingReach = smoothingReach; self.minimumSmoothingReach = minimumSmoothingReach
            self.maximumSmoothingReach = maximumSmoothingReach; self.cornerAngle = cornerAngle
            self.curveTolerance = curveTolerance; self.maxCurvePoints = maxCurvePoints
            self.curveCoordinateLimit = curveCoordinateLimit; self.curveBand = curveBand
        }
        public static let pen = Options()
        /// Highlighters have one flat width, like a felt marker.
        public static let highlighter = Options(thinning: 0)
        /// Pen polylines (shapes, imports) span the widest range of widths: nominal × 2 × pressure, so an imported
        /// stroke keeps every segment's width however much they differ. A shape (pressure 0.5) is the nominal width.
        public static let polyline = Options(thinning: 1)
    }

    /// Largest width relative to nominal that any options produce (thinning ≤ 1 → 2×).
    public static let maxWidthFactor = 2.0
    /// Smallest width relative to nominal, so a feather-light touch still leaves a visible line.
    public static let minWidthFactor = 0.05

    public static func options(for style: StrokeStyle) -> Options {
        var o: Options = style.tool == .highlighter ? .highlighter : style.trace == .polyline ? .polyline : .pen
        o.cap = style.cap
        return o
    }


    /// Width at a given pressure: nominal at 0.5, thinner below, thicker above (by `thinning`).
    public static func width(nominal: Double, pressure: Double, thinning: Double) -> Double {
        let p = pressure.isFinite ? Swift.min(Swift.max(pressure, 0), 1) : 0.5
        let t = thinning.isFinite ? Swift.min(Swift.max(thinning, 0), 1) : 0
        let n = nominal.isFinite ? Swift.max(nominal, 0) : 0
        return Swift.max(n * (1 - t + 2 * t * p), n * minWidthFactor)
    }

    /// One point of the smoothed centre line and the ink radius there.
    public struct SpinePoint: Hashable, Sendable {
        public var point: Point
        public var radius: Double
        public init(point: Point, radius: Double) { self.point = point; self.radius = radius }
    }

    /// Closed polygon (no repeated first point) to be filled with the non-zero rule.
    /// A single point gives a round dot of the pen's width; an empty stroke gives no points.
    /// With a dash pattern, every dash is a closed loop of its own, the loops chained into one polygon (see `chain`);
    /// a filled highlighter's fill area is one more loop (its ink and fill are one area at one alpha, as in Xournal++).
    public static func outline(of stroke: Stroke, options: Options? = nil) -> [Point] {
        let rings = outlineRings(of: stroke, options: options)
        return rings.count == 1 ? rings[0] : chain(rings)
    }

    /// The closed loops whose union (non-zero, all wound alike) is the ink: one for solid ink, one per dash, and a
    /// filled highlighter's fill area. Renderers that take several loops in one path get them apart.
    public static func outlineRings(of stroke: Stroke, options: Options? = nil) -> [[Point]] {
        let o = options ?? Self.options(for: stroke.style)
        let sp = spine(of: stroke, options: o)
        let style = stroke.style
        let perSegment = style.trace == .polyline && sp.first.map { r in sp.contains { $0.radius != r.radius } } == true
        var rings: [[Point]]
        if style.line.isSolid {
            rings = perSegment ? pressureOutline(spine: sp, options: o) : [outline(spine: sp, options: o)]
        } else {
            let dashes = StrokeDashes.pieces(of: sp, pattern: style.line.dashes, perSegmentWidths: perSegment)
            rings = dashes.flatMap { perSegment ? pressureOutline(spine: $0, options: o) : [outline(spine: $0, options: o)] }
        }
        if style.tool == .highlighter, style.fill != nil, let area = fillArea(of: stroke) { rings.append(area) }
        return rings.filter { !$0.isEmpty }
    }

    /// The area Xournal++ fills for a `fill`: the polygon through the stroke's points as placed (nil when it has no
    /// area to fill). Wound as the ink outlines are, so chained with them the non-zero rule gives their union.
    public static func fillArea(of stroke: Stroke) -> [Point]? {
        guard stroke.style.fill != nil, stroke.content.isInk, stroke.points.count > 2 else { return nil }
        var area = stroke.points.map(\.point)
        guard area.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        if signedArea(area) > 0 { area.reverse() }
        return area
    }

    /// Twice the signed area (shoelace; negative is the winding of every ink outline).
    static func signedArea(_ p: [Point]) -> Double {
        guard var prev = p.last else { return 0 }
        var sum = 0.0
        for q in p { sum += prev.x * q.y - q.x * prev.y; prev = q }
        return sum
    }

    /// Closed loops joined into one polygon for the non-zero rule: each loop closes on its first point, the next
    /// starts there, and the way back runs through the loops' first points in reverse, so every joining edge is
    /// crossed once each way and adds nothing: the fill is exactly the loops' union when they wind alike.
    public static func chain(_ loops: [[Point]]) -> [Point] {
        let loops = loops.filter { !$0.isEmpty }
        guard loops.count > 1 else { return loops.first ?? [] }
        var poly: [Point] = []
        poly.reserveCapacity(loops.reduce(2 * loops.count) { $0 + $1.count })
        for loop in loops { poly.append(contentsOf: loop); poly.append(loop[0]) }
        for loop in loops.dropFirst().dropLast().reversed() { poly.append(loop[0]) }
        return poly
    }

    /// A polyline whose segments have their own widths as Xournal++ draws it, the slow way: every segment a capsule
    /// as wide as its first point gives (the reference `pressureOutline` is checked against). The capsules (all wound the same way) are chained into one polygon;
    /// the short edges from one capsule's start to the next run there and back (forward between the capsules,
    /// backward at the end), so the non-zero fill shows exactly their union.
    public static func segmentOutline(spine sp: [SpinePoint], options o: Options) -> [Point] {
        guard sp.count > 1 else { return outline(spine: sp, options: o) }
        let caps = Swift.min(Swift.max(o.capSegments, 2), 64)
        let rot = Rotation(angle: Double.pi / Double(caps)).inverse
        var poly: [Point] = [], starts: [Point] = []
        poly.reserveCapacity((sp.count - 1) * (2 * caps + 4))
        for i in 0..<(sp.count - 1) {
            let a = sp[i].point, b = sp[i + 1].point, r = sp[i].radius
            let d = b - a, len = d.length
            guard len > 0, len.isFinite else { continue }
            let n = normal(d * (1 / len))
            // Same winding as `outline`: left side forward, round the end, right side back, round the start.
            poly.append(a + n * r)
            poly.append(b + n * r)
            halfCircle(into: &poly, center: b, start: n * r, rotation: rot, segments: caps)
            poly.append(b - n * r)
            poly.append(a - n * r)
            halfCircle(into: &poly, center: a, start: n * -r, rotation: rot, segments: caps)
            poly.append(a + n * r)
            starts.append(a + n * r)
        }
        // Back along the chain of starts to the first (the closing edge returns to it).
        poly.append(contentsOf: starts.dropLast().reversed())
        return poly
    }

    public static func outline(spine sp: [SpinePoint], options o: Options) -> [Point] {
        guard let first = sp.first else { return [] }
        let caps = Swift.min(Swift.max(o.capSegments, 2), 64)
        let step = Double.pi / Double(caps)
        let rot = Rotation(angle: step)
        if sp.count == 1 {
            // A zero-length dash: a dot with round caps, a square with square ones (as cairo draws them), else nothing.
            var out: [Point] = []
            let r = first.radius
            switch o.cap {
            case .butt: return []
            case .square: return [first.point + Point(-r, r), first.point + Point(r, r), first.point + Point(r, -r), first.point + Point(-r, -r)]
            case .round: break
            }
            out.reserveCapacity(2 * caps)
            var v = Point(r, 0)
            // Wound as every other outline (clockwise on screen).
            for _ in 0..<(2 * caps) { out.append(first.point + v); v = rot.inverse.apply(v) }
            return out
        }
        let n = sp.count
        // Unit direction of every segment (spine guarantees non-zero, finite lengths).
        var dirs: [Point] = []
        dirs.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            let d = sp[i + 1].point - sp[i].point
            let len = d.length
            dirs.append(len > 0 && len.isFinite ? d * (1 / len) : (dirs.last ?? Point(1, 0)))
        }
        let cosJoin = cos(Swift.min(Swift.max(o.roundJoinAngle.isFinite ? o.roundJoinAngle : 0.35, 0), Double.pi))
        var left: [Point] = [], right: [Point] = []
        left.reserveCapacity(n + 8); right.reserveCapacity(n + 8)

        // Start: offsets of the first segment.
        let n0 = normal(dirs[0])
        left.append(sp[0].point + n0 * sp[0].radius)
        right.append(sp[0].point - n0 * sp[0].radius)
        for i in 1..<(n - 1) {
            let d0 = dirs[i - 1], d1 = dirs[i]
            let c = sp[i].point, r = sp[i].radius
            let na = normal(d0), nb = normal(d1)
            let dot = d0.x * d1.x + d0.y * d1.y
            if dot >= cosJoin {
                // Gentle turn: one mitred point per side (at most ~1.5 % wider than the radius).
                var m = na + nb
                let ml = m.length
                m = ml > 1e-12 ? m * (1 / ml) : nb
                let scale = 1 / Swift.max(m.x * nb.x + m.y * nb.y, 0.5)
                left.append(c + m * (r * scale))
                right.append(c - m * (r * scale))
                continue
            }
            // Sharp turn: the outer side goes round the corner, the inner side takes both offsets
            // (the small loop this makes winds like the rest, so the non-zero fill keeps it solid).
            let cross = d0.x * d1.y - d0.y * d1.x
            if cross > 0 {
                // Turning towards the left normal: left is inner, right is outer.
                left.append(c + na * r); left.append(c + nb * r)
                arc(into: &right, center: c, from: na * -r, to: nb * -r, turn: 1, step: step)
            } else {
                right.append(c - na * r); right.append(c - nb * r)
                arc(into: &left, center: c, from: na * r, to: nb * r, turn: -1, step: step)
            }
        }
        let ne = normal(dirs[n - 2]), end = sp[n - 1]
        left.append(end.point + ne * end.radius)
        right.append(end.point - ne * end.radius)

        var poly = left
        poly.reserveCapacity(left.count + right.count + 2 * caps)
        // End cap: from the left offset round the front to the right offset.
        cap(into: &poly, center: end.point, start: ne * end.radius, direction: dirs[n - 2], style: o.cap, rotation: rot.inverse, segments: caps)
        poly.append(contentsOf: right.reversed())
        // Start cap: from the right offset round the back to the left offset.
        cap(into: &poly, center: first.point, start: n0 * -first.radius, direction: dirs[0] * -1, style: o.cap, rotation: rot.inverse, segments: caps)
        return poly
    }

    /// The points of an end between the offset `center + start` and its opposite: half a circle, nothing (butt), or
    /// the two corners of a square reaching the radius beyond the end (square).
    static func cap(into out: inout [Point], center: Point, start: Point, direction: Point, style: CapStyle, rotation: Rotation, segments: Int) {
        switch style {
        case .round: halfCircle(into: &out, center: center, start: start, rotation: rotation, segments: segments)
        case .butt: break
        case .square:
            let ahead = direction * start.length
            out.append(center + start + ahead)
            out.append(center - start + ahead)
        }
    }

    /// Left normal of a unit direction.
    @inline(__always) static func normal(_ d: Point) -> Point { Point(-d.y, d.x) }

    /// Interior points of a half circle starting at `center + start`, turning by `rotation` each step.
    static func halfCircle(into out: inout [Point], center: Point, start: Point, rotation: Rotation, segments: Int) {
        var v = rotation.apply(start)
        for _ in 1..<segments { out.append(center + v); v = rotation.apply(v) }
    }

    /// Points from `center + from` to `center + to` (both included), turning in the sign of `turn`
    /// (explicit, so a full reversal still goes round the outside of the corner).
    static func arc(into out: inout [Point], center: Point, from: Point, to: Point, turn: Double, step: Double) {
        let cross = from.x * to.y - from.y * to.x, dot = from.x * to.x + from.y * to.y
        let angle = abs(atan2(cross, dot)) * (turn < 0 ? -1 : 1)
        let k = Swift.max(Int((abs(angle) / step).rounded(.up)), 1)
        let rot = Rotation(angle: angle / Double(k))
        var v = from
        out.append(center + v)
        for _ in 1..<k { v = rot.apply(v); out.append(center + v) }
        out.append(center + to)
    }

    /// A fixed rotation, applied by multiplication so caps and joins need no trigonometry per point.
    struct Rotation {
        var c: Double, s: Double
        init(angle: Double) { c = cos(angle); s = sin(angle) }
        init(c: Double, s: Double) { self.c = c; self.s = s }
        var inverse: Rotation { Rotation(c: c, s: -s) }
        @inline(__always) func apply(_ v: Point) -> Point { Point(v.x * c - v.y * s, v.x * s + v.y * c) }
    }
}
