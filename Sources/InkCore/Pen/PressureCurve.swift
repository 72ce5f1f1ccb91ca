/// How hard a pen must press for how much ink: a monotone curve from the pen's real pressure (0…1) to the
/// pressure the stroke keeps, which `StrokeShape` turns into width. It is applied once, as a sample comes in
/// (`Editor.handle`), so a stroke stores the pressures it was drawn with: its `width` stays the base width, files,
/// boards and Xournal++ exports show it as drawn, and a replayed log (whose `tool` line names the curve) draws
/// it again exactly. Simulated pressure (mouse, touch) is never curved: it is not the hand's.
public struct PressureCurve: Hashable, Sendable {
    /// The curves a user picks by name.
    public enum Preset: String, CaseIterable, Sendable {
        /// A light touch already gives a full line.
        case soft
        case linear
        /// Ink needs a firm hand; light strokes stay thin.
        case firm
        /// Pressure is ignored: every stroke is its base width.
        case constant
    }

    /// Most control points a curve may have (a curve graph's handful, and a bound on what a log may ask for).
    public static let maxPoints = 16

    /// The control points: x (pressure in) strictly increasing, y (pressure out) never decreasing, both in 0…1.
    public let points: [Point]
    /// Hermite tangents at the points (Fritsch–Carlson), so the curve between them never overshoots.
    private let slopes: [Double]

    public static let linear = PressureCurve(checked: [Point(0, 0), Point(1, 1)])
    public static let soft = PressureCurve(checked: [Point(0, 0), Point(0.3, 0.55), Point(1, 1)])
    public static let firm = PressureCurve(checked: [Point(0, 0), Point(0.55, 0.3), Point(1, 1)])
    public static let constant = PressureCurve(checked: [Point(0, 0.5), Point(1, 0.5)])

    public init(_ preset: Preset) {
        switch preset {
        case .soft: self = .soft
        case .linear: self = .linear
        case .firm: self = .firm
        case .constant: self = .constant
        }
    }

    /// The preset this curve is, if it is one.
    public var preset: Preset? { Preset.allCases.first { PressureCurve($0) == self } }

    /// A curve through `points`; throws when they are not a monotone curve in 0…1.
    public init(points: [Point]) throws {
        guard points.count >= 2 else { throw PressureCurveError(Wording("a pressure curve needs at least 2 points, not {0}", points.count)) }
        guard points.count <= Self.maxPoints else {
            throw PressureCurveError(Wording("a pressure curve has at most {0} points, not {1}", Self.maxPoints, points.count))
        }
        for (k, p) in points.enumerated() {
            guard p.x.isFinite, p.y.isFinite, (0...1).contains(p.x), (0...1).contains(p.y) else {
                throw PressureCurveError(Wording("pressure curve point {0} is outside 0..1", k + 1))
            }
            if k > 0 {
                guard p.x > points[k - 1].x else {
                    throw PressureCurveError(Wording("pressure curve point {0} does not lie right of the one before (x must increase)", k + 1))
                }
                guard p.y >= points[k - 1].y else {
                    throw PressureCurveError(Wording("pressure curve point {0} is lower than the one before (the curve must not fall)", k + 1))
                }
            }
        }
        self.init(checked: points)
    }

    private init(checked p: [Point]) {
        points = p
        let n = p.count
        var secant: [Double] = []
        for i in 0..<(n - 1) { secant.append((p[i + 1].y - p[i].y) / (p[i + 1].x - p[i].x)) }
        var m = [Double](repeating: 0, count: n)
        m[0] = secant[0]; m[n - 1] = secant[n - 2]
        for i in 1..<(n - 1) { m[i] = secant[i - 1] * secant[i] <= 0 ? 0 : (secant[i - 1] + secant[i]) / 2 }
        // Fritsch–Carlson: flat segments stay flat, and tangents are limited so no segment overshoots its ends.
        for i in 0..<(n - 1) {
            if secant[i] == 0 { m[i] = 0; m[i + 1] = 0; continue }
            let a = m[i] / secant[i], b = m[i + 1] / secant[i]
            let s = a * a + b * b
            if s > 9 {
                let t = 3 / s.squareRoot()
                m[i] = t * a * secant[i]; m[i + 1] = t * b * secant[i]
            }
        }
        slopes = m
    }

    /// The pressure the stroke keeps for a pen's `pressure`: flat before the first point and after the last.
    public func value(at pressure: Double) -> Double {
        let x = pressure.isFinite ? Swift.min(Swift.max(pressure, 0), 1) : 0.5
        // The identity exactly (Hermite arithmetic would round 0.7 to 0.6999…): linear changes no stored pressure.
        if self == .linear { return pressure }
        guard let first = points.first, let last = points.last else { return x }
        if x <= first.x { return first.y }
        if x >= last.x { return last.y }
        // Binary search for the segment holding x.
        var lo = 0, hi = points.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if points[mid].x <= x { lo = mid } else { hi = mid }
        }
        let a = points[lo], b = points[hi], h = b.x - a.x
        let t = (x - a.x) / h, t2 = t * t, t3 = t2 * t
        let y = (2 * t3 - 3 * t2 + 1) * a.y + (t3 - 2 * t2 + t) * h * slopes[lo]
            + (-2 * t3 + 3 * t2) * b.y + (t3 - t2) * h * slopes[hi]
        // Rounding can step a hair outside the segment's values; the curve must stay monotone.
        return Swift.min(Swift.max(y, a.y), b.y)
    }

    /// The same curve with point `index` moved to `to` (a drag on the curve graph), kept monotone and in 0…1: the
    /// point stays between its neighbours, and the end points keep their x (0 and 1 stay the ends).
    public func moving(_ index: Int, to p: Point) -> PressureCurve {
        guard points.indices.contains(index), p.isFinite else { return self }
        var q = points
        let gap = 0.02
        var x = Swift.min(Swift.max(p.x, 0), 1)
        if index == 0 { x = q[0].x } else if index == q.count - 1 { x = q[index].x }
        if index > 0 { x = Swift.max(x, q[index - 1].x + gap) }
        if index < q.count - 1 { x = Swift.min(x, q[index + 1].x - gap) }
        var y = Swift.min(Swift.max(p.y, 0), 1)
        if index > 0 { y = Swift.max(y, q[index - 1].y) }
        if index < q.count - 1 { y = Swift.min(y, q[index + 1].y) }
        // Thousandths: a dragged point is kept as a person would write it.
        q[index] = Point((x * 1000).rounded() / 1000, (y * 1000).rounded() / 1000)
        return (try? PressureCurve(points: q)) ?? self
    }

    /// Read as `text` writes it (the preferences keep it so), with the event log's rules; nil when it is no curve.
    public init?(text: String) {
        if let preset = Preset(rawValue: text) { self.init(preset); return }
        let line = #"{"type":"tool","tool":"pen","pressureCurve":"# + text + "}"
        guard text.utf8.count < 4096, case .tool(_, _, _, _, _, _, let curve?, _)? = try? EventLog.event(fromLine: line) else {
            return nil
        }
        self = curve
    }

    /// Written as the event log and the preferences write it: a preset's name, or `[[x,y],…]`.
    public var text: String {
        if let p = preset { return p.rawValue }
        return "[" + points.map { "[\(JSONText.number($0.x)),\(JSONText.number($0.y))]" }.joined(separator: ",") + "]"
    }
}

/// A curve that is not a monotone curve in 0…1, worded for the person who wrote it.
public struct PressureCurveError: Error, Hashable, Sendable, CustomStringConvertible {
    public var wording: Wording
    init(_ wording: Wording) { self.wording = wording }
    public var description: String { wording.description }
}
