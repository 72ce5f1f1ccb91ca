/// The document model: page, background and the strokes in drawing order (oldest first).
/// Stroke ids grow monotonically, so drawing order is id order and restoring a stroke puts it back in place.
public struct Drawing: Sendable {
    public static let defaultPageSize = Size(width: 1920, height: 1080)

    public var pageSize: Size
    public var background: RGBA
    public private(set) var strokes: [Stroke] = []
    public private(set) var index = SpatialIndex()
    /// The id the next new stroke gets; never reused within a document.
    public private(set) var nextStrokeID: StrokeID = 1

    public init(pageSize: Size = Drawing.defaultPageSize, background: RGBA = .white, strokes: [Stroke] = []) {
        self.pageSize = pageSize; self.background = background
        for s in strokes { insert(s) }
    }

    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// Min/max of all stored point coordinates, nil when empty.
    public var bounds: Rect? {
        Rect.union(of: strokes.lazy.compactMap(\.bounds))
    }

    public mutating func makeStrokeID() -> StrokeID {
        defer { nextStrokeID += 1 }
        return nextStrokeID
    }

    /// Lets a loader continue numbering after the ids it found (history may hold removed ids too).
    public mutating func reserveStrokeIDs(through id: StrokeID) {
        if id >= nextStrokeID { nextStrokeID = id + 1 }
    }

    private func position(of id: StrokeID) -> (found: Bool, index: Int) {
        var lo = 0, hi = strokes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if strokes[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return (lo < strokes.count && strokes[lo].id == id, lo)
    }

    public func stroke(_ id: StrokeID) -> Stroke? {
        let p = position(of: id)
        return p.found ? strokes[p.index] : nil
    }

    /// Inserts in id order; a stroke with an id already present replaces it.
    public mutating func insert(_ s: Stroke) {
        reserveStrokeIDs(through: s.id)
        let p = position(of: s.id)
        if p.found { index.remove(s.id); strokes[p.index] = s } else { strokes.insert(s, at: p.index) }
        if let b = s.inkBounds { index.insert(s.id, bounds: b) }
    }

    @discardableResult
    public mutating func remove(_ id: StrokeID) -> Stroke? {
        let p = position(of: id)
        guard p.found else { return nil }
        index.remove(id)
        return strokes.remove(at: p.index)
    }

    @discardableResult
    public mutating func removeAll() -> [Stroke] {
        defer { strokes = []; index.removeAll() }
        return strokes
    }

    /// Applies an edit forward. Removing a missing stroke is ignored so replayed edits stay idempotent.
    public mutating func apply(_ edit: Edit) {
        if case .clear = edit { removeAll(); return }
        for s in edit.removed { remove(s.id) }
        for s in edit.added { insert(s) }
    }

    /// Strokes whose ink bounds intersect `rect`, in drawing order. Uses the index, not a scan.
    public func strokes(in rect: Rect) -> [Stroke] {
        var stats = HitTestStats()
        return strokes(in: rect, stats: &stats)
    }

    /// Same, counting the index query and the strokes it made us examine into `stats`.
    public func strokes(in rect: Rect, stats: inout HitTestStats) -> [Stroke] {
        let ids = index.candidates(in: rect)
        stats.queries += 1
        stats.examined += ids.count
        return ids.sorted().compactMap { id in
            guard let s = stroke(id), let b = s.inkBounds, b.intersects(rect) else { return nil }
            return s
        }
    }
}
