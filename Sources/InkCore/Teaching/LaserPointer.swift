/// The laser pointer's ink: it glows while drawn and fades away after the pen lifts. It is never part of the
/// document: no edit, no history, nothing stored or exported. Strokes drawn in one go stay together: a laser
/// stroke begun while earlier ones still show in full keeps them until it lifts, and then they fade together
/// (circling two things and underlining a third reads as one gesture).
public struct LaserPointer: Sendable {
    /// One stroke of laser ink; `liftedAt` (the events' clock, ms) is nil while it is drawn or held.
    public struct Trail: Hashable, Sendable {
        public var stroke: Stroke
        public var liftedAt: Double?

        public init(stroke: Stroke, liftedAt: Double?) { self.stroke = stroke; self.liftedAt = liftedAt }

        /// How much of the glow shows at `now` (1 until `hold` after the lift, then down to 0 at `lifetime`).
        public func opacity(at now: Double) -> Double {
            guard let t = liftedAt else { return 1 }
            let age = now - t
            if !(age > LaserPointer.hold) { return 1 }
            return Swift.max(0, 1 - (age - LaserPointer.hold) / (LaserPointer.lifetime - LaserPointer.hold))
        }
    }

    /// How long (ms) laser ink shows in full after the pen lifts, and when it is gone.
    public static let hold = 900.0
    public static let lifetime = 1500.0

    /// Every laser stroke showing, oldest first.
    public private(set) var trails: [Trail] = []
    private var live: [PointerID: StrokeID] = [:]
    /// Laser ink gets ids far above any document's (the live strokes of a board use 1 << 62).
    private var nextID: StrokeID = 1 << 61

    public init() {}

    public var isEmpty: Bool { trails.isEmpty }
    public func isLive(_ id: PointerID) -> Bool { live[id] != nil }
    /// True while some ink has lifted and is due to fade: the view redraws on a timer only then.
    public var isFading: Bool { trails.contains { $0.liftedAt != nil } }

    /// Starts a laser stroke for `id`; returns the area to repaint.
    mutating func begin(_ id: PointerID, at p: InkPoint, style: StrokeStyle, page: PageID) -> Rect? {
        // Ink that has not started fading is held with the new stroke.
        for i in trails.indices {
            if let t = trails[i].liftedAt, p.time - t <= Self.hold { trails[i].liftedAt = nil }
        }
        var s = Stroke(id: nextID, style: style, page: page)
        nextID += 1
        _ = s.append(p)
        live[id] = s.id
        trails.append(Trail(stroke: s, liftedAt: nil))
        return s.inkBounds
    }

    mutating func add(_ id: PointerID, _ p: InkPoint) -> Rect? {
        guard let sid = live[id], let i = trails.lastIndex(where: { $0.stroke.id == sid }), p.point.isFinite else { return nil }
        let before = trails[i].stroke.points.last?.point
        guard trails[i].stroke.append(p) else { return nil }
        let r = trails[i].stroke.style.width * StrokeShape.maxWidthFactor / 2 + 1
        var dirty = Rect(around: p.point, radius: r)
        if let b = before { dirty = dirty.union(Rect(around: b, radius: r)) }
        return dirty
    }

    /// The pen lifted at `time`: when no other laser pointer is down, everything shown starts its fade.
    mutating func lift(_ id: PointerID, at time: Double) {
        guard live.removeValue(forKey: id) != nil, live.isEmpty else { return }
        // A lift without a usable time fades at once rather than never.
        let t = time.isFinite ? time : -Double.infinity
        for i in trails.indices where trails[i].liftedAt == nil { trails[i].liftedAt = t }
    }

    /// A cancelled laser stroke simply goes; returns the area it covered.
    mutating func cancel(_ id: PointerID) -> Rect? {
        guard let sid = live.removeValue(forKey: id), let i = trails.lastIndex(where: { $0.stroke.id == sid }) else { return nil }
        return trails.remove(at: i).stroke.inkBounds
    }

    /// Every stroke being drawn goes (Escape); ink already lifted fades as it would.
    mutating func cancelLive() -> Rect? {
        Rect.union(of: Array(live.keys).compactMap { cancel($0) })
    }

    /// Drops the ink that has faded away by `now` (the events' clock, ms); returns the area it covered.
    public mutating func expire(at now: Double) -> Rect? {
        var dirty: Rect?
        trails.removeAll { t in
            guard let lifted = t.liftedAt, now - lifted >= Self.lifetime else { return false }
            if let b = t.stroke.inkBounds { dirty = dirty.map { $0.union(b) } ?? b }
            return true
        }
        return dirty
    }

    /// Everything goes at once (Escape, another document).
    mutating func clear() -> Rect? {
        live = [:]
        defer { trails = [] }
        return Rect.union(of: trails.compactMap(\.stroke.inkBounds))
    }
}
