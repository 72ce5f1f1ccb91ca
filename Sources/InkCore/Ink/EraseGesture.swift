/// One eraser gesture in progress (all eraser pointers that are down together share it).
/// It edits the drawing live so the view shows the erasing, and remembers just enough to turn the whole
/// gesture into one undoable edit on release, or to put everything back on cancel.
struct EraseGesture: Sendable {
    /// The page being erased (the current page when the first eraser pointer went down).
    let page: PageID
    init(page: PageID) { self.page = page }

    struct Pointer: Sendable {
        var tool: Tool
        var radius: Double
        var last: Point
    }
    var pointers: [PointerID: Pointer] = [:]
    /// Strokes that were in the drawing before the gesture and that it removed or cut, by id.
    var originals: [StrokeID: Stroke] = [:]
    /// Pieces the gesture created that are still in the drawing.
    var pieces: Set<StrokeID> = []

    /// Takes `stroke` out of the page for the gesture, remembering it if it predates the gesture.
    mutating func remove(_ stroke: Stroke, from page: inout Page) {
        page.remove(stroke.id, hint: stroke.layer)
        if pieces.remove(stroke.id) == nil, originals[stroke.id] == nil { originals[stroke.id] = stroke }
    }

    mutating func add(_ stroke: Stroke, to page: inout Page) {
        page.insert(stroke)
        pieces.insert(stroke.id)
    }

    /// The single edit the gesture amounts to, nil when it changed nothing.
    func edit(in page: Page) -> Edit? {
        let removed = originals.values.sorted { $0.id < $1.id }
        let added = pieces.sorted().compactMap { page.stroke($0) }
        if removed.isEmpty && added.isEmpty { return nil }
        return added.isEmpty ? .remove(removed) : .replace(removed: removed, added: added)
    }

    /// Puts the page back as it was before the gesture; returns the area that changed.
    func restore(_ page: inout Page) -> Rect? {
        var dirty: [Rect] = []
        for id in pieces { if let s = page.remove(id), let b = s.inkBounds { dirty.append(b) } }
        for s in originals.values { page.insert(s); if let b = s.inkBounds { dirty.append(b) } }
        return Rect.union(of: dirty)
    }
}

/// What the erasers' hit tests cost: how many strokes they looked at, for tests and benchmarks.
public struct HitTestStats: Hashable, Sendable {
    /// Spatial-index queries made.
    public var queries = 0
    /// Strokes whose geometry was examined (the index's candidates).
    public var examined = 0
    /// Strokes the eraser actually touched.
    public var hits = 0
    public init() {}
}
