import InkCore

/// What a replica document stores about its shared board (format 4 tables; see `Schema`). `InkSync` owns the
/// meaning; the store only keeps it in the same file and transactions as the drawing.
public struct BoardRecord: Sendable {
    public struct Entry: Hashable, Sendable {
        public var local: StrokeID
        public var client: UInt64
        public var number: UInt64
        public var visible: Bool
        public var order: UInt64
        public init(local: StrokeID, client: UInt64, number: UInt64, visible: Bool, order: UInt64) {
            self.local = local; self.client = client; self.number = number; self.visible = visible; self.order = order
        }
    }

    public var client: UInt64
    public var url: String
    public var lastSequence: UInt64
    public var applied: [UInt64: UInt64]
    public var entries: [Entry]
    /// Strokes the board knows that are not in the drawing (kept for a `restore`).
    public var hidden: [Stroke]

    public init(client: UInt64, url: String, lastSequence: UInt64 = 0, applied: [UInt64: UInt64] = [:],
                entries: [Entry] = [], hidden: [Stroke] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.entries = entries; self.hidden = hidden
    }
}

/// One batch of board changes to a replica document, committed in one transaction.
public struct BoardCommit: Sendable {
    public var client: UInt64
    public var url: String
    public var lastSequence: UInt64
    /// Per client, the last operation number applied (only those that changed need to be here).
    public var applied: [UInt64: UInt64]
    /// Strokes now in the drawing (new, restored or moved to the board's order).
    public var shown: [Stroke]
    /// Strokes now out of the drawing that the board knows (kept).
    public var hidden: [Stroke]
    /// Strokes now out of the drawing and unknown to the board.
    public var dropped: [StrokeID]
    public var entries: [BoardRecord.Entry]

    public init(client: UInt64, url: String, lastSequence: UInt64, applied: [UInt64: UInt64] = [:], shown: [Stroke] = [],
                hidden: [Stroke] = [], dropped: [StrokeID] = [], entries: [BoardRecord.Entry] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.shown = shown; self.hidden = hidden; self.dropped = dropped; self.entries = entries
    }
}

extension DocumentFile {
    /// The board this document is a replica of, nil if it never was one.
    public func readBoard() throws -> BoardRecord? {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        do {
            let q = try db.statement("SELECT client, url, last_seq FROM board WHERE id = 1")
            guard try q.step() else { q.reset(); return nil }
            var record = BoardRecord(client: UInt64(bitPattern: q.int(0)), url: q.text(1) ?? "", lastSequence: UInt64(bitPattern: q.int(2)))
            q.reset()
            let c = try db.statement("SELECT client, applied FROM board_clients")
            while try c.step() { record.applied[UInt64(bitPattern: c.int(0))] = UInt64(bitPattern: c.int(1)) }
            c.reset()
            let e = try db.statement("SELECT stroke, client, number, visible, board_order FROM board_strokes")
            while try e.step() {
                record.entries.append(.init(local: UInt64(bitPattern: e.int(0)), client: UInt64(bitPattern: e.int(1)),
                                            number: UInt64(bitPattern: e.int(2)), visible: e.int(3) != 0,
                                            order: UInt64(bitPattern: e.int(4))))
            }
            e.reset()
            let h = try db.statement("""
                SELECT \(DocumentRows.strokeColumns(version: Schema.currentVersion)) FROM strokes
                WHERE present = 0 AND id IN (SELECT stroke FROM board_strokes)
                """)
            while try h.step() { record.hidden.append(try DocumentRows.stroke(h, path: path).stroke(path: path)) }
            h.reset()
            return record
        } catch { throw Self.map(error, path: path) }
    }

    /// Commits a batch of board changes in one transaction; the drawing follows only after it succeeded.
    public func commitBoard(_ c: BoardCommit) throws {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        let w = DocumentWriter(db: db)
        do {
            try db.transaction {
                try db.statement("INSERT OR REPLACE INTO board(id, client, url, last_seq) VALUES(1, ?, ?, ?)")
                    .bind(1, Int64(bitPattern: c.client)).bind(2, c.url).bind(3, Int64(bitPattern: c.lastSequence)).run()
                for (client, n) in c.applied {
                    try db.statement("INSERT OR REPLACE INTO board_clients(client, applied) VALUES(?, ?)")
                        .bind(1, Int64(bitPattern: client)).bind(2, Int64(bitPattern: n)).run()
                }
                for s in c.shown { try w.upsert(s, present: true) }
                for s in c.hidden { try w.upsert(s, present: false) }
                for id in c.dropped {
                    try db.statement("UPDATE strokes SET present = 0 WHERE id = ?").bind(1, Int64(bitPattern: id)).run()
                }
                for e in c.entries {
                    try db.statement("INSERT OR REPLACE INTO board_strokes(stroke, client, number, visible, board_order) VALUES(?, ?, ?, ?, ?)")
                        .bind(1, Int64(bitPattern: e.local)).bind(2, Int64(bitPattern: e.client)).bind(3, Int64(bitPattern: e.number))
                        .bind(4, Int64(e.visible ? 1 : 0)).bind(5, Int64(bitPattern: e.order)).run()
                }
            }
        } catch { throw Self.map(error, path: path) }
        // A board is one page for now: the first.
        document.withDrawing(ofPage: 0) { drawing in
            for s in c.hidden { drawing.remove(s.id) }
            for id in c.dropped { drawing.remove(id) }
            for s in c.shown { drawing.insert(s) }
        }
    }
}
