/// Steadies a shaky hand while it draws, as Xournal++'s "arithmetic mean" stabilizer does
/// (`src/core/control/tools/StrokeStabilizer.cpp`): each new sample is drawn at the mean of the last few samples,
/// so the line follows the filtered position live and its points are ordinary stored points. The mean lags
/// behind the pen, so at lift the line is finished with a short curve from the last filtered point, along its
/// direction, to the pen's last sample (Xournal++'s "finalize stroke"): no jump, and the stroke ends where the pen
/// did.
public struct Stabilizer: Hashable, Sendable {
    /// How strongly: the number of samples averaged.
    public enum Level: String, CaseIterable, Sendable {
        case off, low, high

        /// Samples in the mean (1: the raw input). Jitter falls as one over the square root of it: high leaves
        /// about a quarter.
        public var window: Int {
            switch self {
            case .off: return 1
            case .low: return 5
            case .high: return 16
            }
        }
    }

    public let level: Level
    /// The last `window` samples (a ring): the mean grows over the first ones, so the first sample's own shake
    /// is not carried for a whole window (as filling the window with copies of it would).
    private var recent: [InkPoint] = []
    private var next = 0
    /// The last two points drawn (the curve at lift leaves along their direction).
    public private(set) var drawn: [InkPoint] = []

    public init(level: Level) { self.level = level }

    /// The point to draw for `sample` (the first sample is drawn where it is).
    public mutating func filter(_ sample: InkPoint) -> InkPoint {
        let n = level.window
        if recent.count < n {
            recent.append(sample)
        } else {
            recent[next] = sample
            next = (next + 1) % n
        }
        var x = 0.0, y = 0.0
        for p in recent { x += p.x; y += p.y }
        let k = Double(recent.count)
        // The pen's own pressure and time: the mean steadies where the line goes, not how wide it is.
        return remember(InkPoint(x: x / k, y: y / k, pressure: sample.pressure, time: sample.time))
    }

    /// The points that finish the stroke at the pen's last sample: a quadratic curve leaving the last drawn point
    /// along the line's direction, ending exactly on `last` (empty when the line is already there).
    public func finish(at last: InkPoint) -> [InkPoint] {
        guard let b = drawn.last else { return [last] }
        let gap = b.point.distance(to: last.point)
        guard gap > 0.01 else { return [] }
        // The control point lies ahead of the last drawn point along its direction, at most half the gap away, so
        // the curve stays near its ends (as Xournal++ limits its spline).
        var control = Point((b.x + last.x) / 2, (b.y + last.y) / 2)
        if drawn.count == 2 {
            let a = drawn[0]
            let d = b.point - a.point, len = d.length
            if len > 1e-9 {
                let ahead = d * (1 / len)
                let toward = (last.point - b.point)
                let along = Swift.max(0, Swift.min(toward.x * ahead.x + toward.y * ahead.y, gap / 2))
                control = b.point + ahead * along
            }
        }
        // Enough pieces that each is about 2 units, but few: they carry the pen's last jitter.
        let pieces = Swift.min(Swift.max(Int((gap / 2).rounded(.up)), 1), 8)
        var out: [InkPoint] = []
        for k in 1...pieces {
            let t = Double(k) / Double(pieces), u = 1 - t
            let p = b.point * (u * u) + control * (2 * u * t) + last.point * (t * t)
            let pressure = b.pressure * u + last.pressure * t
            out.append(InkPoint(x: p.x, y: p.y, pressure: pressure, time: b.time * u + last.time * t))
        }
        out[out.count - 1] = last
        return out
    }

    private mutating func remember(_ p: InkPoint) -> InkPoint {
        if let b = drawn.last, b.x == p.x, b.y == p.y { return p }
        drawn.append(p)
        if drawn.count > 2 { drawn.removeFirst() }
        return p
    }
}
