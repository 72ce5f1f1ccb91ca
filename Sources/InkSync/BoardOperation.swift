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
    }
}

/// A stroke as the log carries it.
public struct BoardStroke: Hashable, Sendable {
    public var id: BoardStrokeID
    /// For an area-eraser piece: the stroke it was cut from, whose place in the drawing order it keeps.
    public var place: BoardStrokeID?
    public var style: StrokeStyle
    public var points: [InkPoint]
    /// The shape it traces (shape tools), nil for freehand ink.
    public var shape: ShapeKind?

    public init(id: BoardStrokeID, place: BoardStrokeID? = nil, style: StrokeStyle, points: [InkPoint], shape: ShapeKind? = nil) {
        self.id = id; self.place = place; self.style = style; self.points = points; self.shape = shape
    }

    /// The stroke under a local id and drawing order.
    func stroke(local: StrokeID, order: StrokeID) -> Stroke {
        Stroke(id: local, style: style, points: points, order: order, shape: shape)
    }
}
