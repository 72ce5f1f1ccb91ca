/// Live strokes by pointer id: every finger (or pen, or mouse) draws its own line at the same time.
public struct TouchTracker: Sendable {
    public private(set) var live: [PointerID: Stroke] = [:]
    /// When each live pointer went down; a counter, so beginning and ending stay O(1) however many are live.
    private var sequence: [PointerID: UInt64] = [:]
    private var nextSequence: UInt64 = 0
    /// How pressure is made up for devices that report none.
    public var simulation = SimulatedPressure()
    /// Pressure simulation state (the smoothed value) for devices without pressure.
    private var simulated: [PointerID: Double] = [:]

    public init(simulation: SimulatedPressure = SimulatedPressure()) { self.simulation = simulation }

    /// Order in which the live pointers went down, so live strokes draw in a stable order.
    public var order: [PointerID] { sequence.sorted { $0.value < $1.value }.map(\.key) }
    public var liveStrokes: [Stroke] { order.compactMap { live[$0] } }
    public func isLive(_ id: PointerID) -> Bool { live[id] != nil }

    public mutating func begin(_ id: PointerID, stroke: Stroke) {
        live[id] = stroke
        sequence[id] = nextSequence
        nextSequence += 1
        simulated[id] = nil
    }

    /// Appends a sample; returns the page area the new segment covers, or nil if nothing was added.
    @discardableResult
    public mutating func append(_ id: PointerID, _ point: InkPoint, hasPressure: Bool) -> Rect? {
        // Mutate in place through the index: copying the stroke out and back would copy its points every time.
        guard let slot = live.index(forKey: id) else { return nil }
        let style = live.values[slot].style
        let before = live.values[slot].points.last
        var p = point
        if !hasPressure {
            let (value, state) = simulation.next(previous: before, sample: p, state: simulated[id], width: style.width)
            p.pressure = value
            if before != nil && p.point == before?.point { /* a repeat adds nothing; keep the state */ } else { simulated[id] = state }
        }
        guard live.values[slot].append(p) else { return nil }
        let r = style.width * StrokeShape.maxWidthFactor / 2 + 1
        var dirty = Rect(around: p.point, radius: r)
        if let b = before { dirty = dirty.union(Rect(around: b.point, radius: r)) }
        return dirty
    }

    /// Swaps the live stroke of `id` for another (a shape being dragged, a snapped shape, or the ink back).
    public mutating func replace(_ id: PointerID, with stroke: Stroke) {
        guard live[id] != nil else { return }
        live[id] = stroke
    }

    /// Removes and returns the live stroke of `id`.
    public mutating func end(_ id: PointerID) -> Stroke? {
        sequence[id] = nil
        simulated[id] = nil
        return live.removeValue(forKey: id)
    }
}

/// Pressure made up from speed for mouse and touch: fast movement thins the line, slow movement thickens it,
/// like ink from a real nib. Uses timestamps when both samples have them, else distance per sample.
public struct SimulatedPressure: Hashable, Sendable {
    /// Speed (page units per millisecond) at which the line is thinnest.
    public var fastSpeed: Double = 2.5
    /// Without timestamps: distance per sample, in pen widths, at which the line is thinnest.
    public var fastStep: Double = 4
    /// 0…1: how quickly the simulated pressure follows a change of speed (low = smoother).
    public var responsiveness: Double = 0.3
    /// Pressure of the first sample (a tap draws a dot of exactly the nominal width at 0.5).
    public var initial: Double = 0.5
    /// Range the simulated pressure is kept in, so simulation never makes a line vanish or blot.
    public var lowest: Double = 0.2
    public var highest: Double = 0.8

    public init(fastSpeed: Double = 2.5, fastStep: Double = 4, responsiveness: Double = 0.3, initial: Double = 0.5,
                lowest: Double = 0.2, highest: Double = 0.8) {
        self.fastSpeed = fastSpeed; self.fastStep = fastStep; self.responsiveness = responsiveness
        self.initial = initial; self.lowest = lowest; self.highest = highest
    }

    /// The pressure for `sample` and the new smoothing state (nil state = first sample of the stroke).
    public func next(previous: InkPoint?, sample: InkPoint, state: Double?, width: Double) -> (pressure: Double, state: Double) {
        guard let prev = previous, let last = state else { return (clamp(initial), 0.5) }
        let dist = prev.point.distance(to: sample.point)
        let dt = sample.time - prev.time
        var speed: Double
        if dt > 0 && dt.isFinite {
            speed = dist / dt / Swift.max(fastSpeed, 1e-9)
        } else {
            speed = dist / Swift.max(width * fastStep, 1)
        }
        if !speed.isFinite { speed = 1 }
        let target = 1 - Swift.min(Swift.max(speed, 0), 1)
        let k = Swift.min(Swift.max(responsiveness, 0), 1)
        let s = last + (target - last) * k
        // `s` runs 0 (fast) … 1 (slow); map into lowest…highest.
        return (clamp(lowest + (highest - lowest) * s), s)
    }

    private func clamp(_ p: Double) -> Double { p.isFinite ? Swift.min(Swift.max(p, 0), 1) : 0.5 }
}
