/// An undoable change to a drawing. Edits carry the strokes they touch, never a copy of the drawing,
/// so history memory grows with the size of the edits.
public enum Edit: Hashable, Sendable {
    /// New strokes (a finished pen or highlighter line).
    case add([Stroke])
    /// Whole strokes taken away (stroke eraser).
    case remove([Stroke])
    /// Strokes replaced by others (area eraser: originals out, remaining pieces in).
    case replace(removed: [Stroke], added: [Stroke])
    /// Everything removed at once; undoable like any other edit.
    case clear([Stroke])

    public var removed: [Stroke] {
        switch self {
        case .add: return []
        case .remove(let s), .clear(let s): return s
        case .replace(let r, _): return r
        }
    }
    public var added: [Stroke] {
        switch self {
        case .add(let s): return s
        case .remove, .clear: return []
        case .replace(_, let a): return a
        }
    }
    /// The edit that undoes this one.
    public var inverse: Edit {
        switch self {
        case .add(let s): return .remove(s)
        case .remove(let s): return .add(s)
        case .clear(let s): return .add(s)
        case .replace(let r, let a): return .replace(removed: a, added: r)
        }
    }
    /// Page area whose pixels may change when this edit is applied or undone.
    public var dirtyRect: Rect? {
        Rect.union(of: (removed + added).lazy.compactMap(\.inkBounds))
    }
    /// Number of stored points this edit holds, the measure of its memory.
    public var pointCount: Int { (removed + added).reduce(0) { $0 + $1.points.count } }
}
