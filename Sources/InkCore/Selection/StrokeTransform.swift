/// Where a stroke sits and how wide it draws: its transform and its nominal width. A move, resize or rotation
/// changes only these, never the points.
public struct Placement: Hashable, Sendable {
    public var transform: AffineMap
    public var width: Double
    public init(transform: AffineMap, width: Double) { self.transform = transform; self.width = width }
    public init(of s: Stroke) { transform = s.transform; width = s.style.width }
}

/// A move, resize or rotation of some strokes as one edit: the map applied, how their widths scale, and each
/// stroke's placement before. The placements after are computed from those (the same arithmetic every time),
/// and undo restores the stored ones bit for bit, so the edit has an exact inverse and costs a few bytes per
/// stroke whatever their points.
public struct StrokeTransform: Hashable, Sendable {
    /// The page the strokes are on.
    public var page: PageID
    public var ids: [StrokeID]
    /// Each stroke's placement before the edit, in the order of `ids`.
    public var before: [Placement]
    public var matrix: AffineMap
    /// Widths are multiplied by this (√|sx·sy| for a resize, 1 for a move, a rotation or "keep line widths").
    public var widthScale: Double
    /// Page area of the strokes' ink before and after: what to repaint when the edit is done or undone.
    public var area: Rect?
    /// True for the inverse: applying it puts every stroke back to `before`.
    public var undoes: Bool

    public init(page: PageID = Page.firstID, ids: [StrokeID], before: [Placement], matrix: AffineMap,
                widthScale: Double = 1, area: Rect? = nil, undoes: Bool = false) {
        self.page = page; self.ids = ids; self.before = before; self.matrix = matrix; self.widthScale = widthScale
        self.area = area; self.undoes = undoes
    }

    /// The placement after the edit of the stroke that was at `p`.
    public func after(_ p: Placement) -> Placement {
        Placement(transform: p.transform.then(matrix), width: p.width * widthScale)
    }

    /// Where the `i`th stroke goes when this edit is applied.
    public func target(_ i: Int) -> Placement { undoes ? before[i] : after(before[i]) }

    public var inverse: StrokeTransform {
        var t = self
        t.undoes.toggle()
        return t
    }
}
