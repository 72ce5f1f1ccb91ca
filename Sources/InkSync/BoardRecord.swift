import InkCore
import InkStore

/// What a replica document stores about its shared board, in tables of its own in the document (`board`,
/// `board_clients`, `board_strokes`, `board_pages`: formats 4 and 10 made them; `board_outbox`, `board_layers` and
/// `board_stroke_layers` are made here), read
/// and written through the store's `StoreRows` in the document's transactions. The store does not know them.
public struct BoardRecord: Sendable {
    public struct Entry: Hashable, Sendable {
        public var local: StrokeID
        public var client: UInt64
        public var number: UInt64
        public var visible: Bool
        public var order: UInt64
        /// The board's look of the stroke (the stored stroke may have been edited since); nil in a replica of format
        /// 8, which had none: then the stored stroke's own.
        public var look: StrokeLook?
        /// The board order before the last front or back (where an undo puts it), if any.
        public var was: UInt64?
        /// The local layer it is on on the board; nil: its page's first layer.
        public var layer: LayerID?
        public init(local: StrokeID, client: UInt64, number: UInt64, visible: Bool, order: UInt64, look: StrokeLook? = nil, was: UInt64? = nil,
                    layer: LayerID? = nil) {
            self.local = local; self.client = client; self.number = number; self.visible = visible; self.order = order; self.look = look
            self.was = was; self.layer = layer
        }
    }

    /// A layer the board knows (`board_layers`).
    public struct LayerEntry: Hashable, Sendable {
        public var local: LayerID
        public var client: UInt64
        public var number: UInt64
        public var page: PageID
        public var visible: Bool
        public var key: [UInt16]
        public var look: LayerLook
        public var everyPage: Bool
        public init(local: LayerID, client: UInt64, number: UInt64, page: PageID, visible: Bool, key: [UInt16], look: LayerLook, everyPage: Bool) {
            self.local = local; self.client = client; self.number = number; self.page = page; self.visible = visible; self.key = key
            self.look = look; self.everyPage = everyPage
        }
    }

    public struct PageEntry: Hashable, Sendable {
        public var local: PageID
        public var client: UInt64
        public var number: UInt64
        public var visible: Bool
        public var key: [UInt16]
        public var format: PageFormat
        public init(local: PageID, client: UInt64, number: UInt64, visible: Bool, key: [UInt16], format: PageFormat) {
            self.local = local; self.client = client; self.number = number; self.visible = visible; self.key = key; self.format = format
        }
    }

    public var client: UInt64
    public var url: String
    public var lastSequence: UInt64
    public var applied: [UInt64: UInt64]
    public var entries: [Entry]
    /// Strokes the board knows that are not shown (kept for a `restore`, or on a page deleted here).
    public var hidden: [Stroke]
    public var pages: [PageEntry]
    /// Pages the board knows that are deleted here (their strokes are among `hidden`).
    public var parkedPages: [(id: PageID, format: PageFormat)]
    public var layers: [LayerEntry] = []

    public init(client: UInt64, url: String, lastSequence: UInt64 = 0, applied: [UInt64: UInt64] = [:],
                entries: [Entry] = [], hidden: [Stroke] = [], pages: [PageEntry] = [], parkedPages: [(id: PageID, format: PageFormat)] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.entries = entries; self.hidden = hidden; self.pages = pages; self.parkedPages = parkedPages
    }
}

/// One batch of board changes to a replica document, committed in one transaction with the edits they made.
public struct BoardCommit: Sendable {
    public var client: UInt64
    public var url: String
    public var lastSequence: UInt64
    /// Per client, the last operation number applied (only those that changed need to be here).
    public var applied: [UInt64: UInt64]
    /// Strokes out of the drawing that the board knows (kept for a restore), changed.
    public var hidden: [Stroke]
    public var entries: [BoardRecord.Entry]
    /// Local strokes that no longer stand for a board stroke (a restyled copy took over its global id).
    public var unmapped: [StrokeID]
    /// The pages parked (deleted here, known to the board), when the pages changed.
    public var parkedPages: [(id: PageID, format: PageFormat)]
    public var pageEntries: [BoardRecord.PageEntry]
    /// Every layer the board knows, when the pages or layers changed.
    public var layerEntries: [BoardRecord.LayerEntry] = []
    /// What the board changed in the document, in order: the file and the editor apply exactly these.
    public var edits: [Edit]
    /// The outbox rows the board has caught up with (all up to this one go); 0: none.
    public var outboxDone: Int64 = 0

    public init(client: UInt64, url: String, lastSequence: UInt64, applied: [UInt64: UInt64] = [:], hidden: [Stroke] = [],
                entries: [BoardRecord.Entry] = [], unmapped: [StrokeID] = [], parkedPages: [(id: PageID, format: PageFormat)] = [],
                pageEntries: [BoardRecord.PageEntry] = [], edits: [Edit] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.hidden = hidden; self.entries = entries; self.unmapped = unmapped
        self.parkedPages = parkedPages; self.pageEntries = pageEntries; self.edits = edits
    }
}

