import InkCore

/// "Fingers navigate": two or more fingers pan with their centroid and pinch-zoom with their spread; a lone
/// finger (a resting palm, the first finger of a pinch) does nothing. Pure geometry on view points, so it is
/// tested without a touchscreen.
struct FingerNavigation {
    /// What one finger move does to the view: pan first, then zoom around `anchor` (both in view units).
    struct Step: Equatable {
        var pan: Point
        var zoom: Double
        var anchor: Point
    }

    private(set) var fingers: [PointerID: Point] = [:]

    mutating func down(_ id: PointerID, at v: Point) { fingers[id] = v }
    mutating func up(_ id: PointerID) { fingers[id] = nil }
    mutating func reset() { fingers = [:] }

    /// Moves one finger; nil when the view should not move: the finger is not down, or it is alone (its
    /// position is still followed, so a second finger joining starts from where it is now).
    mutating func move(_ id: PointerID, to v: Point) -> Step? {
        guard let old = fingers[id], v.isFinite else { return nil }
        fingers[id] = v
        guard fingers.count >= 2 else { return nil }
        let others = fingers.filter { $0.key != id }.map(\.value)
        let n = Double(fingers.count)
        let sum = others.reduce(Point(0, 0), +)
        let c0 = (sum + old) * (1 / n), c1 = (sum + v) * (1 / n)
        let spread0 = others.reduce(0.0) { $0 + $1.distance(to: c0) } + old.distance(to: c0)
        let spread1 = others.reduce(0.0) { $0 + $1.distance(to: c1) } + v.distance(to: c1)
        // Fingers almost on top of each other give no usable ratio: pan only.
        let zoom = spread0 > 1 && spread1 > 1 ? spread1 / spread0 : 1
        return Step(pan: c1 - c0, zoom: zoom, anchor: c1)
    }
}
