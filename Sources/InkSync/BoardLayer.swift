import InkCore

/// A layer's name on a board, the same on every replica: the client that added it and that client's own id for it.
/// A page's own first layer is named like its page (`init(page:)`), so adding a page brings its first layer along.
public struct BoardLayerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var client: UInt64
    public var number: UInt64

    public init(client: UInt64, number: UInt64) { self.client = client; self.number = number }
    /// The first layer every page has from its start.
    public init(page: BoardPageID) { client = page.client; number = page.number }

    public static func < (a: Self, b: Self) -> Bool { (a.client, a.number) < (b.client, b.number) }
    public var description: String { "l\(String(client, radix: 16))-\(number)" }
}

/// A layer as the log carries it when it is added: its id, its page, its place among the page's layers (a key,
/// as pages have in the page order), its name and visibility, and whether it is a notebook layer.
public struct BoardLayer: Hashable, Sendable {
    public var id: BoardLayerID
    public var page: BoardPageID
    public var key: PageKey
    public var look: LayerLook
    public var everyPage: Bool
    public init(id: BoardLayerID, page: BoardPageID, key: PageKey, look: LayerLook, everyPage: Bool = false) {
        self.id = id; self.page = page; self.key = key; self.look = look; self.everyPage = everyPage
    }
}
