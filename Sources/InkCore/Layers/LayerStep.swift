/// One change to the layers of one page. A layer edit (`Edit.layers`) is a list of steps, so an operation on a
/// notebook layer (the layer of that name on every page) is one undo step, and deleting a page's only layer
/// (which leaves a new empty one) too. Every step has an exact inverse.
public enum LayerStep: Hashable, Sendable {
    /// A layer (with its items) put in at place `at` of the page's layers (0 is the bottom).
    case add(page: PageID, layer: Layer, at: Int)
    /// The layer at place `at` taken out with its items.
    case delete(page: PageID, layer: Layer, at: Int)
    /// The layer at place `from` moved to place `to`.
    case move(page: PageID, from: Int, to: Int)
    /// A layer renamed, hidden or shown.
    case look(page: PageID, layer: LayerID, from: LayerLook, to: LayerLook)
    /// Items moved from one layer of the page to another (same ids, same drawing order within the layer).
    case moveItems(page: PageID, items: [StrokeID], from: LayerID, to: LayerID)

    public var page: PageID {
        switch self {
        case .add(let p, _, _), .delete(let p, _, _), .move(let p, _, _), .look(let p, _, _, _), .moveItems(let p, _, _, _): return p
        }
    }

    public var inverse: LayerStep {
        switch self {
        case .add(let p, let l, let at): return .delete(page: p, layer: l, at: at)
        case .delete(let p, let l, let at): return .add(page: p, layer: l, at: at)
        case .move(let p, let f, let t): return .move(page: p, from: t, to: f)
        case .look(let p, let l, let f, let t): return .look(page: p, layer: l, from: t, to: f)
        case .moveItems(let p, let ids, let f, let t): return .moveItems(page: p, items: ids, from: t, to: f)
        }
    }
}
