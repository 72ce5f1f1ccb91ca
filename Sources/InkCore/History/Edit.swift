/// An undoable change to a document. Edits carry the strokes (or page) they touch, never a copy of the document,
/// so history memory grows with the size of the edits. A stroke edit is on the page its strokes name
/// (`Stroke.page`); page edits name pages by id and place.
public enum Edit: Hashable, Sendable {
    /// New strokes (a finished pen or highlighter line).
    case add([Stroke])
    /// Whole strokes taken away (stroke eraser).
    case remove([Stroke])
    /// Strokes replaced by others (area eraser: originals out, remaining pieces in).
    case replace(removed: [Stroke], added: [Stroke])
    /// Everything on one page removed at once; undoable like any other edit.
    case clear([Stroke])
    /// A page (with its strokes) put in at index `at`: a new or duplicated page.
    case addPage(Page, at: Int)
    /// The page at index `at` taken out with its strokes.
    case deletePage(Page, at: Int)
    /// The page at index `from` moved to index `to`.
    case movePage(from: Int, to: Int)
    /// New sizes or backgrounds for some pages (one, or all).
    case setFormat([FormatChange])
    /// Strokes of one page moved, resized or rotated (a selection): only their placements change, never their points.
    case transform(StrokeTransform)
    /// Layers added, deleted, moved, renamed, hidden or shown, or items moved between layers: on one page, or by
    /// name on every page (a notebook layer), as one undo step.
    case layers([LayerStep])

    /// One page's format before and after.
    public struct FormatChange: Hashable, Sendable {
        public var page: PageID
        public var from: PageFormat
        public var to: PageFormat
        public init(page: PageID, from: PageFormat, to: PageFormat) { self.page = page; self.from = from; self.to = to }
    }

    public var removed: [Stroke] {
        switch self {
        case .add, .addPage, .movePage, .setFormat, .transform: return []
        case .remove(let s), .clear(let s): return s
        case .replace(let r, _): return r
        case .deletePage(let p, _): return p.strokes
        case .layers(let steps): return steps.flatMap { st -> [Stroke] in if case .delete(_, let l, _) = st { return l.drawing.strokes }; return [] }
        }
    }
    public var added: [Stroke] {
        switch self {
        case .add(let s): return s
        case .remove, .clear, .deletePage, .movePage, .setFormat, .transform: return []
        case .replace(_, let a): return a
        case .addPage(let p, _): return p.strokes
        case .layers(let steps): return steps.flatMap { st -> [Stroke] in if case .add(_, let l, _) = st { return l.drawing.strokes }; return [] }
        }
    }
    /// The edit that undoes this one.
    public var inverse: Edit {
        switch self {
        case .add(let s): return .remove(s)
        case .remove(let s): return .add(s)
        case .clear(let s): return .add(s)
        case .replace(let r, let a): return .replace(removed: a, added: r)
        case .addPage(let p, let i): return .deletePage(p, at: i)
        case .deletePage(let p, let i): return .addPage(p, at: i)
        case .movePage(let f, let t): return .movePage(from: t, to: f)
        case .setFormat(let c): return .setFormat(c.map { FormatChange(page: $0.page, from: $0.to, to: $0.from) })
        case .transform(let t): return .transform(t.inverse)
        case .layers(let steps): return .layers(steps.reversed().map(\.inverse))
        }
    }
    /// True for edits that add, remove, move or reshape pages (the page layout changes).
    public var changesPages: Bool {
        switch self {
        case .add, .remove, .replace, .clear, .transform, .layers: return false
        case .addPage, .deletePage, .movePage, .setFormat: return true
        }
    }
    /// True for layer edits: what the pages they name show changes (the layout does not).
    public var changesLayers: Bool {
        if case .layers = self { return true }
        return false
    }
    /// The pages a layer edit touches, in the order of its steps (none for other edits).
    public var layerPages: [PageID] {
        guard case .layers(let steps) = self else { return [] }
        var seen = Set<PageID>()
        return steps.map(\.page).filter { seen.insert($0).inserted }
    }
    /// The page a stroke edit is on; nil for page edits (and a stroke edit without strokes).
    public var strokePage: PageID? {
        guard !changesPages, !changesLayers else { return nil }
        if case .transform(let t) = self { return t.page }
        return (removed.first ?? added.first)?.page
    }
    /// Area of its page whose pixels may change when this stroke edit is applied or undone (nil for page edits:
    /// they change the layout, see `changesPages`).
    public var dirtyRect: Rect? {
        guard !changesPages else { return nil }
        if case .transform(let t) = self { return t.area }
        // A layer edit repaints its pages whole (see `changesLayers`).
        if changesLayers { return nil }
        return Rect.union(of: (removed + added).lazy.compactMap(\.inkBounds))
    }
    /// Number of stored points this edit holds, the measure of its memory.
    public var pointCount: Int { (removed + added).reduce(0) { $0 + $1.points.count } }
}
