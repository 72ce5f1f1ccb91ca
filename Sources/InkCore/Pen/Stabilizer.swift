/// Steadies a shaky hand while it draws, as Xournal++'s "arithmetic mean" stabilizer does
/// (`src/core/control/tools/StrokeStabilizer.cpp`): each new sample is drawn at the mean of the last few samples,
/// so the line follows the filtered position live and its points are ordinary stored points.
///
/// The mean lags half a window behind the pen, and over the first samples it averages only a few of them: left
/// alone, a short stroke would be mostly ramp-in (the pen-down sample drawn as it is, then means of 2, 3… samples)
/// and catch-up (Xournal++ finishes with a curve to the last sample, which carries that sample's whole shake). So
/// at lift, with every sample known, both ends are finished from the samples around them: the samples before the
/// first full window's mean and after the last one are moved onto the straight line fitted through that window
/// (least squares, by sample order), each keeping its place along the stroke. The middle stays exactly what was
/// drawn live; the ends change by a fraction of the shake, the line ends within `endGap` of the pen's last sample
/// and starts within it of its first. A stroke shorter than the window is one fit: a jittery short line comes out
/// straight. Straight lines stay straight whatever the speed or spacing (every point is an affine mix of samples).
public struct Stabilizer: Hashable, Sendable {
    /// How strongly: the number of samples averaged.
    public enum Level: String, CaseIterable, Sendable {
        case off, low, high

        /// Samples in the mean (1: the raw input). Shake falls as one over the square root of it: high leaves about
        /// a fifth (Xournal++'s default buffer is 20; Krita's stabilizer 15).
        public var window: Int {
            switch self {
            case .off: return 1
            case .low: return 5
            case .high: return 24
            }
        }
    }

    /// How far the finished ends may lie from the pen's first and last samples (page units).
    public static let endGap = 1.5

    public let level: Level
    /// Every sample of the stroke so far (the ends are finished from them at lift).
    public private(set) var samples: [InkPoint] = []
    /// The point drawn for each sample.
    public private(set) var drawn: [InkPoint] = []
    /// The sum of the last `window` samples' coordinates.
    private var sumX = 0.0, sumY = 0.0

    public init(level: Level) { self.level = level }

    /// The point to draw for `sample` (the first sample is drawn where it is). The mean grows over the first
    /// samples, so the first sample's own shake is not carried for a whole window.
    public mutating func filter(_ sample: InkPoint) -> InkPoint {
        let n = level.window
        samples.append(sample)
        sumX += sample.x; sumY += sample.y
        if samples.count > n {
            let old = samples[samples.count - 1 - n]
            sumX -= old.x; sumY -= old.y
        }
        let k = Double(Swift.min(samples.count, n))
        // The pen's own pressure and time: the mean steadies where the line goes, not how wide it is.
        let p = InkPoint(x: sumX / k, y: sumY / k, pressure: sample.pressure, time: sample.time)
        drawn.append(p)
        return p
    }

    /// The whole stroke once the pen lifted at `last` (its last sample): the ends finished from the samples around
    /// them, the middle as drawn.
    public func finished(at last: InkPoint) -> [InkPoint] {
        var st = self
        _ = st.filter(last)
        return st.finish()
    }

    private func finish() -> [InkPoint] {
        let m = samples.count, n = level.window
        guard n > 1, m > 1 else { return samples }
        let w = Swift.min(n, m)
        let head = Fit(samples[0..<w]), tail = Fit(samples[(m - w)..<m])
        var start: [InkPoint] = [], middle: [InkPoint] = [], end: [InkPoint] = []
        if m >= n {
            // Before the first full window's mean, along its line: those samples moved onto it; after the last
            // one's: the same with the last window. The pen's first and last samples always (a hook that turns
            // back still ends near the pen).
            start = [head.place(samples[0])] + samples[1..<w].compactMap { p in head.along(p) < 0 ? head.place(p) : nil }
            middle = Array(drawn[(n - 1)...])
            end = samples[(m - w)..<(m - 1)].compactMap { p in tail.along(p) > 0 ? tail.place(p) : nil } + [tail.place(samples[m - 1])]
        } else {
            // One window: every sample moved onto its line, the halves pulled toward the pen's first and last.
            for (j, p) in samples.enumerated() {
                let q = head.place(p)
                if Double(j) < head.centre { start.append(q) } else if Double(j) > head.centre { end.append(q) } else { middle.append(q) }
            }
        }
        return Self.pulled(start, toward: samples[0], fromEnd: false) + middle + Self.pulled(end, toward: samples[m - 1], fromEnd: true)
    }

    /// Moves the outermost point of `run` to within `endGap` of the pen's sample `pen`, the points before it less
    /// and less (a quadratic ramp, so the line bends into the correction without a kink).
    private static func pulled(_ run: [InkPoint], toward pen: InkPoint, fromEnd: Bool) -> [InkPoint] {
        guard let outer = fromEnd ? run.last : run.first else { return run }
        let d = pen.point - outer.point, gap = d.length
        guard gap > endGap, gap.isFinite else { return run }
        let shift = d * (1 - endGap / gap)
        let k = Double(run.count)
        return run.enumerated().map { i, p in
            let t = fromEnd ? Double(i + 1) / k : Double(run.count - i) / k
            var q = p
            q.x += shift.x * t * t; q.y += shift.y * t * t
            return q
        }
    }

    /// The least-squares line through a window of samples, position against sample order: through their mean,
    /// along their mean velocity.
    private struct Fit {
        let mean: Point
        /// The line's direction (nil when the samples did not move: then every sample goes to their mean).
        let direction: Point?
        /// The window's middle, in samples from its first.
        let centre: Double

        init(_ window: ArraySlice<InkPoint>) {
            let k = Double(window.count)
            centre = (k - 1) / 2
            var mx = 0.0, my = 0.0
            for p in window { mx += p.x; my += p.y }
            mean = Point(mx / k, my / k)
            var vx = 0.0, vy = 0.0
            for (j, p) in window.enumerated() {
                let u = Double(j) - centre
                vx += u * (p.x - mean.x); vy += u * (p.y - mean.y)
            }
            let v = Point(vx, vy), len = v.length
            direction = len > 1e-12 && len.isFinite ? v * (1 / len) : nil
        }

        /// Where `p` lies along the line, from the mean (0 when the samples did not move).
        func along(_ p: InkPoint) -> Double {
            guard let a = direction else { return 0 }
            return (p.x - mean.x) * a.x + (p.y - mean.y) * a.y
        }

        /// `p` moved onto the line, keeping its place along it, its pressure and time.
        func place(_ p: InkPoint) -> InkPoint {
            var q = p
            let t = along(p), a = direction ?? Point(0, 0)
            q.x = mean.x + a.x * t; q.y = mean.y + a.y * t
            return q
        }
    }
}
