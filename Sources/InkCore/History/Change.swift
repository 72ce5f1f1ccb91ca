/// A committed change to the document, in the order it happened. The store mirrors these one by one,
/// so the file holds exactly the drawing and the history the editor has.
public enum Change: Hashable, Sendable {
    case did(Edit)
    case undid(Edit)
    case redid(Edit)
}

/// What one editor call changed: the area of the current page to repaint, whether the pages themselves changed,
/// and the changes to persist.
public struct Update: Sendable {
    /// Area of the current page whose pixels changed (live strokes included); nil when nothing visible changed.
    public var dirty: Rect?
    /// True when pages were added, removed, moved or reformatted, or the current page changed: the view lays
    /// the pages out again and repaints.
    public var pagesChanged: Bool
    /// Changes to commit to the file, oldest first.
    public var changes: [Change]

    public init(dirty: Rect? = nil, pagesChanged: Bool = false, changes: [Change] = []) {
        self.dirty = dirty; self.pagesChanged = pagesChanged; self.changes = changes
    }
    public static let none = Update()

    public mutating func merge(_ o: Update) {
        if let d = o.dirty { dirty = dirty.map { $0.union(d) } ?? d }
        pagesChanged = pagesChanged || o.pagesChanged
        changes += o.changes
    }
}
