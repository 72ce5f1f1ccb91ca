import InkCore

/// What this replica knows the board holds: every stroke and page the log has added, whether the log leaves it
/// visible, and (for strokes) its place in the drawing order and its look, (for pages) its key in the page order
/// and its format; keyed by global id and mapped to the local row id. Plus how far the log has been applied and,
/// per client, the last operation number applied (the client-side de-duplication).
public struct BoardLedger: Sendable, Equatable {
    public struct Entry: Hashable, Sendable {
        public var local: StrokeID
        public var visible: Bool
        /// The log sequence of the `add` (a piece keeps its original's), or of the last front or back.
        public var order: UInt64
        /// The local page the stroke is on.
        public var page: PageID
        /// Its look on the board (placement, width, colour).
        public var look: StrokeLook
        /// Its order before the last front, back or reorder: where an undo of that puts it back.
        public var was: UInt64?
        /// The local layer it is on on the board (its page's first layer has the page's id).
        public var layer: LayerID
        public init(local: StrokeID, visible: Bool, order: UInt64, page: PageID = Page.firstID, look: StrokeLook, was: UInt64? = nil,
                    layer: LayerID? = nil) {
            self.local = local; self.visible = visible; self.order = order; self.page = page; self.look = look; self.was = was
            self.layer = layer ?? page
        }
    }

    public struct LayerEntry: Hashable, Sendable {
        public var local: LayerID
        /// The local page it is on.
        public var page: PageID
        public var visible: Bool
        public var key: PageKey
        public var look: LayerLook
        public var everyPage: Bool
        public init(local: LayerID, page: PageID, visible: Bool = true, key: PageKey = .first, look: LayerLook = LayerLook(name: Layer.defaultName),
                    everyPage: Bool = false) {
            self.local = local; self.page = page; self.visible = visible; self.key = key; self.look = look; self.everyPage = everyPage
        }
    }

    public struct PageEntry: Hashable, Sendable {
        public var local: PageID
        public var visible: Bool
        public var key: PageKey
        public var format: PageFormat
        public init(local: PageID, visible: Bool, key: PageKey, format: PageFormat) {
            self.local = local; self.visible = visible; self.key = key; self.format = format
        }
    }

    public private(set) var entries: [BoardStrokeID: Entry] = [:]
    /// Local row id → global id, for the strokes the board has confirmed.
    public private(set) var globalIDs: [StrokeID: BoardStrokeID] = [:]
    public private(set) var pages: [BoardPageID: PageEntry] = [:]
    /// Local page id → global id, for the pages the board has confirmed.
    public private(set) var globalPageIDs: [PageID: BoardPageID] = [:]
    public private(set) var layers: [BoardLayerID: LayerEntry] = [:]
    /// Local layer id → global id, for the layers the board has confirmed.
    public private(set) var globalLayerIDs: [LayerID: BoardLayerID] = [:]
    /// The last log sequence applied.
    public var lastSequence: UInt64 = 0
    /// Highest operation number applied, per client.
    public var applied: [UInt64: UInt64] = [:]

    public init() {}

    /// Board order → the strokes at it (a piece found here names its original by that order).
    public private(set) var byOrder: [UInt64: [BoardStrokeID]] = [:]

    public subscript(id: BoardStrokeID) -> Entry? {
        get { entries[id] }
        set {
            if let old = entries[id] {
                globalIDs[old.local] = nil
                if old.order != newValue?.order {
                    byOrder[old.order]?.removeAll { $0 == id }
                    if byOrder[old.order]?.isEmpty == true { byOrder[old.order] = nil }
                }
            }
            entries[id] = newValue
            if let e = newValue {
                globalIDs[e.local] = id
                if byOrder[e.order]?.contains(id) != true { byOrder[e.order, default: []].append(id) }
            }
        }
    }

    public subscript(page id: BoardPageID) -> PageEntry? {
        get { pages[id] }
        set {
            if let old = pages[id] { globalPageIDs[old.local] = nil }
            pages[id] = newValue
            if let e = newValue { globalPageIDs[e.local] = id }
        }
    }

    public subscript(layer id: BoardLayerID) -> LayerEntry? {
        get { layers[id] }
        set {
            if let old = layers[id] { globalLayerIDs[old.local] = nil }
            layers[id] = newValue
            if let e = newValue { globalLayerIDs[e.local] = id }
        }
    }

    public func globalID(local: StrokeID) -> BoardStrokeID? { globalIDs[local] }
    public func globalLayerID(local: LayerID) -> BoardLayerID? { globalLayerIDs[local] }
    public func globalPageID(local: PageID) -> BoardPageID? { globalPageIDs[local] }
}
