/// A committed change to the document, in the order it happened. The store mirrors these one by one,
/// so the file holds exactly the drawing and the history the editor has.
public enum Change: Hashable, Sendable {
    case did(Edit)
    case undid(Edit)
    case redid(Edit)
}

/// What one editor call changed: the page area to repaint and the changes to persist.
public struct Update: Sendable {
    /// Page area whose pixels changed (live strokes included); nil when nothing visible changed.
    public var dirty: Rect?
    /// Changes to commit to the file, oldest first.
    public var changes: [Change]

    public init(dirty: Rect? = nil, changes: [Change] = []) { self.dirty = dirty; self.changes = changes }
    public static let none = Update()

    public mutating func merge(_ o: Update) {
        if let d = o.dirty { dirty = dirty.map { $0.union(d) } ?? d }
        changes += o.changes
    }
}
