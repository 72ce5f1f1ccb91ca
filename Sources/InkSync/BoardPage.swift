import InkCore

/// A page's name on a board, the same on every replica: the client that added it and that client's own number
/// for it (its local page id). Every board starts with one page, `first`, which each replica's first page is.
public struct BoardPageID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var client: UInt64
    public var number: UInt64

    public init(client: UInt64, number: UInt64) { self.client = client; self.number = number }

    /// The page every board has from the start (the only page of boards made before pages were shared).
    public static let first = BoardPageID(client: 0, number: 0)

    public static func < (a: Self, b: Self) -> Bool { (a.client, a.number) < (b.client, b.number) }
    public var description: String { "p\(String(client, radix: 16))-\(number)" }
}

/// A page as the log carries it when it is added: its id, its place in the page order and its format.
public struct BoardPage: Hashable, Sendable {
    public var id: BoardPageID
    public var key: PageKey
    public var format: PageFormat
    public init(id: BoardPageID, key: PageKey, format: PageFormat) { self.id = id; self.key = key; self.format = format }
}

/// How a stroke looks where it is: placement (a selection's move, resize or turn), width and colour. On a board each
/// is its own last-writer-wins value per stroke, so a move and a recolour made at once both stay.
public struct StrokeLook: Hashable, Sendable {
    public var transform: AffineMap
    public var width: Double
    public var color: RGBA

    public init(transform: AffineMap, width: Double, color: RGBA) { self.transform = transform; self.width = width; self.color = color }
    public init(of s: Stroke) { transform = s.transform; width = s.style.width; color = s.style.color }

    /// `s` looking like this.
    func applied(to s: Stroke) -> Stroke {
        var s = s
        s.setTransform(transform)
        s.style.width = width
        s.style.color = color
        return s
    }
}

/// A change to some of a stroke's look: the fields that are set change, the others stay.
public struct LookChange: Hashable, Sendable {
    public var id: BoardStrokeID
    public var transform: AffineMap?
    public var width: Double?
    public var color: RGBA?

    public init(id: BoardStrokeID, transform: AffineMap? = nil, width: Double? = nil, color: RGBA? = nil) {
        self.id = id; self.transform = transform; self.width = width; self.color = color
    }
}

extension BoardReplica {
    /// A page deleted here (by this user or by the board) that the board knows: kept with its strokes so a
    /// restore brings it back as the board has it.
    public struct ParkedPage: Sendable {
        /// The page as it was, its layers and items included.
        public var page: Page
        public var format: PageFormat {
            get { page.format }
            set { page.format = newValue }
        }
        public init(_ page: Page) { self.page = page }
    }
}
