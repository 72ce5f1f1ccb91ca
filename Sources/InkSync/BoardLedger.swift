import InkCore

/// What this replica knows the board holds: every stroke the log has added, whether the log leaves it visible,
/// and its place in the drawing order, keyed by global id and mapped to the local row id. Plus how far the
/// log has been applied and, per client, the last operation number applied (the client-side de-duplication).
public struct BoardLedger: Sendable, Equatable {
    public struct Entry: Hashable, Sendable {
        public var local: StrokeID
        public var visible: Bool
        /// The log sequence of the `add` (a piece keeps its original's).
        public var order: UInt64
        public init(local: StrokeID, visible: Bool, order: UInt64) { self.local = local; self.visible = visible; self.order = order }
    }

    public private(set) var entries: [BoardStrokeID: Entry] = [:]
    /// Local row id → global id, for the strokes the board has confirmed.
    public private(set) var globalIDs: [StrokeID: BoardStrokeID] = [:]
    /// The last log sequence applied.
    public var lastSequence: UInt64 = 0
    /// Highest operation number applied, per client.
    public var applied: [UInt64: UInt64] = [:]

    public init() {}

    public subscript(id: BoardStrokeID) -> Entry? {
        get { entries[id] }
        set {
            if let old = entries[id] { globalIDs[old.local] = nil }
            entries[id] = newValue
            if let e = newValue { globalIDs[e.local] = id }
        }
    }

    public func globalID(local: StrokeID) -> BoardStrokeID? { globalIDs[local] }
}
