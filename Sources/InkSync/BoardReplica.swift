import InkCore

/// One replica of a board, as pure state: the local drawing (what the user sees, including edits not yet on
/// the board), strokes known but not visible (so a `restore` can bring them back) and the ledger of what the
/// board holds. No network, no file: the sync engine loads it from a document and stores what `touched` names;
/// the property tests run many of them against a simulated log.
///
/// Convergence: every replica applies the log in sequence order with the rules in `receive`, so the board
/// state is the same everywhere. The local drawing is that state plus this replica's unpublished edits, and
/// the outbox is exactly the difference between the two (`outbox()`): an edit is its own outbox entry, so it
/// cannot be lost between committing it and queueing it.
public struct BoardReplica: Sendable {
    public let client: UInt64
    public private(set) var drawing: Drawing
    public private(set) var hidden: [StrokeID: Stroke]
    public private(set) var ledger: BoardLedger
    /// Local ids whose stroke, visibility or ledger entry changed since `takeTouched()`: what to store.
    public private(set) var touched: Set<StrokeID> = []
    /// What `receive` skipped, for the log (hostile or stale entries never stop a replica).
    public private(set) var notes: [String] = []

    /// Drawing order on a board: an `add` at sequence s draws at s << pieceBits; the pieces cut from it take the
    /// free slots above (in the order the log confirms them), so they keep the original's place and every
    /// confirmed stroke has its own order, the same on every replica. Local strokes not yet on the board get ids
    /// (= orders) above all of these, so new ink is on top until the board places it.
    public static let pieceBits: UInt64 = 20
    private static let pieceMask: UInt64 = (1 << pieceBits) - 1
    /// Pieces placed so far per original order (recomputed from the ledger on load).
    private var piecesPlaced: [UInt64: UInt64] = [:]
    /// Shared with an editor on another thread (the app); nil: the drawing numbers strokes itself.
    public var numbers: StrokeNumbers? {
        didSet { numbers?.reserve(through: max(drawing.nextStrokeID - 1, Self.topOrder(ledger.lastSequence))) }
    }

    private mutating func makeLocalID() -> StrokeID {
        guard let n = numbers else { return drawing.makeStrokeID() }
        let id = n.make()
        drawing.reserveStrokeIDs(through: id)
        return id
    }

    private mutating func reserve(through id: StrokeID) {
        drawing.reserveStrokeIDs(through: id)
        numbers?.reserve(through: id)
    }

    public init(client: UInt64, drawing: Drawing, hidden: [StrokeID: Stroke] = [:], ledger: BoardLedger = BoardLedger()) {
        self.client = client; self.drawing = drawing; self.hidden = hidden; self.ledger = ledger
        self.drawing.reserveStrokeIDs(through: Self.topOrder(ledger.lastSequence))
        for e in ledger.entries.values where e.order & Self.pieceMask != 0 {
            let root = e.order & ~Self.pieceMask
            piecesPlaced[root] = max(piecesPlaced[root] ?? 0, e.order & Self.pieceMask)
        }
        // A local undo puts strokes back with the order they had when the edit was made; the board's order wins.
        for e in ledger.entries.values where drawing.stroke(e.local).map({ $0.order != e.order }) == true {
            place(e.local, order: e.order)
        }
    }

    private static func topOrder(_ sequence: UInt64) -> UInt64 { sequence << pieceBits | pieceMask }

    /// A fresh local stroke id (the simulation's editor; the app's `Editor` numbers from the same drawing).
    public mutating func newStrokeID() -> StrokeID { makeLocalID() }

    public mutating func takeTouched() -> Set<StrokeID> { defer { touched = [] }; return touched }
    public mutating func takeNotes() -> [String] { defer { notes = [] }; return notes }

    /// The number the next operation of this client gets.
    public var nextOperationNumber: UInt64 { (ledger.applied[client] ?? 0) + 1 }

    // MARK: local edits (the app's and the simulation's path; the CLI's edits are already in the file)

    /// Applies a local edit: removed strokes are kept hidden for a later restore.
    public mutating func perform(_ edit: Edit) {
        let gone: [Stroke]
        if case .clear = edit { gone = drawing.strokes } else { gone = edit.removed.compactMap { drawing.stroke($0.id) } }
        drawing.apply(edit)
        for s in gone { hidden[s.id] = s; touched.insert(s.id) }
        for s in edit.added {
            hidden[s.id] = nil; touched.insert(s.id)
            // Back in the drawing at the board's place if the board knows it.
            if let g = ledger.globalID(local: s.id), let e = ledger[g], e.order != s.order { place(s.id, order: e.order) }
        }
    }

    // MARK: the log

    /// Applies the log entry at `sequence`. Entries must come in sequence order; an old sequence or an operation
    /// number already applied for its client (a duplicate) is skipped.
    public mutating func receive(_ op: BoardOperation, sequence: UInt64) {
        guard sequence > ledger.lastSequence else { return }
        ledger.lastSequence = sequence
        reserve(through: Self.topOrder(sequence))
        guard op.number > (ledger.applied[op.client] ?? 0) else { notes.append("entry \(sequence): duplicate of operation \(op.messageID), skipped"); return }
        ledger.applied[op.client] = op.number
        let own = op.client == client
        switch op.change {
        case .add(let s):
            addConfirmed(s, order: sequence << Self.pieceBits, own: own)
        case .remove(let ids):
            for id in ids { setVisible(id, false, own: own) }
        case .restore(let ids):
            for id in ids { setVisible(id, true, own: own) }
        case .replace(let removed, let added):
            // Per original: the cut applies only while the original is still visible.
            var cut: [BoardStrokeID: UInt64] = [:]
            for id in removed { if let e = ledger[id], e.visible { cut[id] = e.order } }
            for id in cut.keys { setVisible(id, false, own: own) }
            for s in added {
                if let p = s.place, let order = cut[p] {
                    let root = order & ~Self.pieceMask
                    let n = min((piecesPlaced[root] ?? 0) + 1, Self.pieceMask)
                    piecesPlaced[root] = n
                    addConfirmed(s, order: root | n, own: own)
                } else if own, s.id.client == client, ledger[s.id] == nil {
                    // My piece of a stroke that was gone when my cut reached the board: it does not exist.
                    if drawing.remove(s.id.number) != nil { touched.insert(s.id.number) }
                }
            }
        }
    }

    /// An entry that could not be read (hostile or from a newer version): it counts as applied, so the replica
    /// moves on instead of stalling on it.
    public mutating func skip(sequence: UInt64, because reason: String) {
        guard sequence > ledger.lastSequence else { return }
        ledger.lastSequence = sequence
        reserve(through: Self.topOrder(sequence))
        notes.append("entry \(sequence) skipped: \(reason)")
    }

    private mutating func addConfirmed(_ s: BoardStroke, order: UInt64, own: Bool) {
        guard ledger[s.id] == nil else { notes.append("add of \(s.id), which exists, ignored"); return }
        if own && s.id.client == client {
            // My stroke: it is already here (or was erased here since, an edit still to publish).
            let local = s.id.number
            ledger[s.id] = .init(local: local, visible: true, order: order)
            if drawing.stroke(local) != nil {
                place(local, order: order)
            } else if hidden[local] == nil {
                hidden[local] = s.stroke(local: local, order: order)
            }
            touched.insert(local)
            return
        }
        let local = makeLocalID()
        ledger[s.id] = .init(local: local, visible: true, order: order)
        drawing.insert(s.stroke(local: local, order: order))
        touched.insert(local)
    }

    /// Last writer wins: the log's later entry decides. Locally, a stroke follows the board unless this replica
    /// has its own unpublished change to it (then that change is published later and wins in turn).
    private mutating func setVisible(_ id: BoardStrokeID, _ visible: Bool, own: Bool) {
        guard var e = ledger[id] else { return }
        let before = e.visible
        e.visible = visible
        ledger[id] = e
        touched.insert(e.local)
        guard !own, before != visible else { return }
        let here = drawing.stroke(e.local) != nil
        guard here == before else { return }
        if visible {
            if let s = hidden.removeValue(forKey: e.local) { drawing.insert(withOrder(s, e.order)) }
        } else if let s = drawing.remove(e.local) {
            hidden[e.local] = s
        }
    }

    private func withOrder(_ s: Stroke, _ order: UInt64) -> Stroke {
        var s = s
        s.order = order
        return s
    }

    private mutating func place(_ local: StrokeID, order: UInt64) {
        guard let s = drawing.stroke(local), s.order != order else { return }
        drawing.insert(withOrder(s, order))
        touched.insert(local)
    }

    // MARK: the outbox

    /// What this replica holds that the board does not: the operations that make the board's state equal the
    /// local drawing. Adds come first, in drawing order; a cut is a `replace` of the original it came from;
    /// a clear or erase is a `remove` of exactly the strokes that were visible here.
    public func outbox(chunk: Int = 10_000) -> [BoardOperation.Change] {
        var removes: [BoardStrokeID] = [], restores: [BoardStrokeID] = []
        var gone: [UInt64: BoardStrokeID] = [:]   // board order → confirmed stroke no longer drawn here
        for (gid, e) in ledger.entries {
            let here = drawing.stroke(e.local) != nil
            if e.visible && !here { removes.append(gid) }
            if !e.visible && here { restores.append(gid) }
            if !here { gone[e.order] = gone[e.order].map { Swift.min($0, gid) } ?? gid }
        }
        var adds: [BoardOperation.Change] = []
        var pieces: [BoardStrokeID: [BoardStroke]] = [:]
        for s in drawing.strokes where ledger.globalID(local: s.id) == nil {
            let gid = BoardStrokeID(client: client, number: s.id)
            let board = BoardStroke(id: gid, style: s.style, points: s.points, shape: s.shape)
            // A piece of a stroke the board knows: its order is that stroke's board order.
            if s.order != s.id, let original = gone[s.order] {
                var p = board
                p.place = original
                pieces[original, default: []].append(p)
            } else {
                adds.append(.add(board))
            }
        }
        var out = adds
        var cutOriginals = Set<BoardStrokeID>()
        for original in pieces.keys.sorted() {
            out.append(.replace(removed: [original], added: pieces[original]!))
            cutOriginals.insert(original)
        }
        removes = removes.filter { !cutOriginals.contains($0) }.sorted()
        for i in stride(from: 0, to: removes.count, by: chunk) { out.append(.remove(Array(removes[i..<min(i + chunk, removes.count)]))) }
        restores.sort()
        for i in stride(from: 0, to: restores.count, by: chunk) { out.append(.restore(Array(restores[i..<min(i + chunk, restores.count)]))) }
        return out
    }

    /// Numbers outbox changes as this client's next operations.
    public func operations(_ changes: [BoardOperation.Change]) -> [BoardOperation] {
        let first = nextOperationNumber
        return changes.enumerated().map { BoardOperation(client: client, number: first + UInt64($0.offset), change: $0.element) }
    }
}
