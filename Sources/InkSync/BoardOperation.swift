import InkCore

/// One entry of a board's log. Its id (client, number) is unique: the client numbers its own operations, so a
/// copy published twice (a retry, a reconnect) is recognised and applied once.
public struct BoardOperation: Hashable, Sendable {
    public var client: UInt64
    public var number: UInt64
    public var change: Change

    public init(client: UInt64, number: UInt64, change: Change) {
        self.client = client; self.number = number; self.change = change
    }

    /// JetStream's de-duplication key for this operation.
    public var messageID: String { "\(String(client, radix: 16))-\(number)" }

    public enum Change: Hashable, Sendable {
        /// A new stroke; it draws at the place of this operation in the log.
        case add(BoardStroke)
        /// Strokes taken away (eraser, clear, or undo of my own add).
        case remove([BoardStrokeID])
        /// Strokes brought back (undo of my own erase).
        case restore([BoardStrokeID])
        /// An area-eraser cut: `removed` out, `added` pieces in, each piece at the place of the original it was cut
        /// from (`BoardStroke.place`). Applies per original, only while that original is still visible.
        case replace(removed: [BoardStrokeID], added: [BoardStroke])
        /// A selection moved, resized, turned or restyled: per stroke, the parts of its look that changed
        /// (each part last writer wins).
        case look([LookChange])
        /// Strokes brought to the front (in this order, the last on top) or sent to the back (the first at the
        /// bottom): they take the place of this operation in the log; the last such operation wins.
        case front([BoardStrokeID])
        case back([BoardStrokeID])
        /// Strokes put back where they were before the last front, back or reorder (an undo of it); a stroke moved
        /// since (its previous order is another) stays.
        case reorder([BoardStrokeID: UInt64])
        /// A new page (added, duplicated, or on the first contact of a document with several pages).
        case addPage(BoardPage)
        /// Pages deleted and brought back: last writer wins, like strokes.
        case deletePages([BoardPageID])
        case restorePages([BoardPageID])
        /// Pages moved: each takes its new key in the page order.
        case movePages([BoardPageID: PageKey])
        /// New sizes or backgrounds.
        case formatPages([BoardPageID: PageFormat])
        /// A new layer on a page (one entry per page for a notebook layer).
        case addLayer(BoardLayer)
        /// Layers deleted and brought back: last writer wins, like pages (their items travel as strokes).
        case deleteLayers([BoardLayerID])
        case restoreLayers([BoardLayerID])
        /// Layers moved among their page's layers: each takes its new key.
        case moveLayers([BoardLayerID: PageKey])
        /// Layers renamed, hidden or shown.
        case lookLayers([BoardLayerID: LayerLook])
        /// Items moved to another layer of their page: last writer wins per item.
        case moveItems([BoardStrokeID: BoardLayerID])
    }

    /// True for changes that only a log entry of version 2 can carry.
    var needsVersion2: Bool {
        switch change {
        case .add(let s): return !s.isVersion1
        case .replace(_, let a): return !a.allSatisfy(\.isVersion1)
        case .remove, .restore: return false
        case .look, .front, .back, .reorder, .addPage, .deletePages, .restorePages, .movePages, .formatPages: return true
        case .addLayer, .deleteLayers, .restoreLayers, .moveLayers, .lookLayers, .moveItems: return true
        }
    }
}

/// A stroke as the log carries it.
public struct BoardStroke: Hashable, Sendable {
    public var id: BoardStrokeID
    /// For an area-eraser piece: the stroke it was cut from, whose place in the drawing order it keeps.
    public var place: BoardStrokeID?
    /// The page it is on (the board's first page in entries from before pages were shared).
    public var page: BoardPageID
    public var style: StrokeStyle
    /// The points as drawn; `transform` places them.
    public var points: [InkPoint]
    public var transform: AffineMap
    /// The shape it traces (shape tools), nil for freehand ink.
    public var shape: ShapeKind?
    /// Ink, or a text box or an image (the image's bytes are not on the log; see SHARING.md).
    public var content: StrokeContent
    /// The layer it is on; nil: its page's first layer (a piece of a cut: its original's layer).
    public var layer: BoardLayerID?

    public init(id: BoardStrokeID, place: BoardStrokeID? = nil, page: BoardPageID = .first, style: StrokeStyle, points: [InkPoint],
                transform: AffineMap = .identity, shape: ShapeKind? = nil, content: StrokeContent = .ink, layer: BoardLayerID? = nil) {
        self.id = id; self.place = place; self.page = page; self.style = style; self.points = points
        self.transform = transform; self.shape = shape; self.content = content; self.layer = layer
    }

    /// What an entry of version 1 can say: ink on the first page's first layer, never moved.
    var isVersion1: Bool { page == .first && transform.isIdentity && content == .ink && layer == nil }

    /// The stroke under a local id, page and drawing order.
    func stroke(local: StrokeID, page: PageID, order: StrokeID, layer: LayerID? = nil) -> Stroke {
        var s = Stroke(id: local, style: style, points: points, order: order, shape: shape, page: page, transform: transform, content: content)
        if let layer { s.layer = layer }
        return s
    }
}

/// A slice of a log entry too large for one message; the entry is applied when its last part arrives.
public struct OperationPart: Hashable, Sendable {
    public var client: UInt64
    /// The whole entry's operation number.
    public var number: UInt64
    public var index: Int
    public var count: Int
    public var bytes: [UInt8]
    public init(client: UInt64, number: UInt64, index: Int, count: Int, bytes: [UInt8]) {
        self.client = client; self.number = number; self.index = index; self.count = count; self.bytes = bytes
    }
}
