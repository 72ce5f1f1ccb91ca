/// Live strokes by pointer id: every finger (or pen, or mouse) draws its own line at the same time.
public struct TouchTracker: Sendable {
    public private(set) var live: [PointerID: Stroke] = [:]
    /// Order in which pointers went down, so live strokes draw in a stable order.
    public private(set) var order: [PointerID] = []
    /// Pressure simulation state for devices without pressure.
    private var simulated: [PointerID: Double] = [:]

    public init() {}

    public var liveStrokes: [Stroke] { order.compactMap { live[$0] } }
    public func isLive(_ id: PointerID) -> Bool { live[id] != nil }

    public mutating func begin(_ id: PointerID, stroke: Stroke) {
        live[id] = stroke
        order.removeAll { $0 == id }
        order.append(id)
        simulated[id] = nil
    }

    /// Appends a sample; returns the page area the new segment covers, or nil if nothing was added.
    @discardableResult
    public mutating func append(_ id: PointerID, _ point: InkPoint, hasPressure: Bool) -> Rect? {
        guard var s = live[id] else { return nil }
        var p = point
        if !hasPressure { p.pressure = simulatedPressure(id, previous: s.points.last, next: p, width: s.style.width) }
        let before = s.points.last
        guard s.append(p) else { return nil }
        live[id] = s
        let r = s.style.width * StrokeShape.maxWidthFactor / 2 + 1
        var dirty = Rect(around: p.point, radius: r)
        if let b = before { dirty = dirty.union(Rect(around: b.point, radius: r)) }
        return dirty
    }

    /// Removes and returns the live stroke of `id`.
    public mutating func end(_ id: PointerID) -> Stroke? {
        order.removeAll { $0 == id }
        simulated[id] = nil
        return live.removeValue(forKey: id)
    }

    /// Fast movement thins the line, slow movement thickens it, like ink from a real nib.
    private mutating func simulatedPressure(_ id: PointerID, previous: InkPoint?, next: InkPoint, width: Double) -> Double {
        guard let prev = previous else { simulated[id] = 0.5; return 0.5 }
        let dist = prev.point.distance(to: next.point)
        // Distance relative to the pen width stands in for speed: timestamps are often missing or coarse.
        let speed = Swift.min(dist / Swift.max(width * 4, 1), 1)
        let target = 1 - speed
        let last = simulated[id] ?? 0.5
        let p = last + (target - last) * 0.3
        simulated[id] = p
        return Swift.min(Swift.max(p * 0.6 + 0.2, 0), 1)
    }
}
