import InkCore

/// What a replica document stores about its shared board (format 4 and 9 tables; see `Schema`). `InkSync` owns
/// the meaning; the store only keeps it in the same file and transactions as the drawing.
public struct BoardRecord: Sendable {
    /// A stroke's placement, width and colour on the board.
    public struct Look: Hashable, Sendable {
        public var transform: AffineMap
        public var width: Double
        public var color: RGBA
        public init(transform: AffineMap, width: Double, color: RGBA) { self.transform = transform; self.width = width; self.color = color }
    }

    public struct Entry: Hashable, Sendable {
        public var local: StrokeID
        public var client: UInt64
        public var number: UInt64
        public var visible: Bool
        public var order: UInt64
        /// The board's look of the stroke (the stored stroke may have been edited since); nil in a replica of format
        /// 8, which had none: then the stored stroke's own.
        public var look: Look?
        /// The board order before the last front or back (where an undo puts it), if any.
        public var was: UInt64?
        public init(local: StrokeID, client: UInt64, number: UInt64, visible: Bool, order: UInt64, look: Look? = nil, was: UInt64? = nil) {
            self.local = local; self.client = client; self.number = number; self.visible = visible; self.order = order; self.look = look
            self.was = was
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

    public init(client: UInt64, url: String, lastSequence: UInt64 = 0, applied: [UInt64: UInt64] = [:],
                entries: [Entry] = [], hidden: [Stroke] = [], pages: [PageEntry] = [], parkedPages: [(id: PageID, format: PageFormat)] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.entries = entries; self.hidden = hidden; self.pages = pages; self.parkedPages = parkedPages
    }
}

/// One batch of board changes to a replica document, committed in one transaction.
public struct BoardCommit: Sendable {
    public var client: UInt64
    public var url: String
    public var lastSequence: UInt64
    /// Per client, the last operation number applied (only those that changed need to be here).
    public var applied: [UInt64: UInt64]
    /// Strokes now in the drawing (new, restored, moved to the board's order or restyled).
    public var shown: [Stroke]
    /// Strokes now out of the drawing that the board knows (kept).
    public var hidden: [Stroke]
    /// Strokes now out of the drawing and unknown to the board.
    public var dropped: [StrokeID]
    public var entries: [BoardRecord.Entry]
    /// Local strokes that no longer stand for a board stroke (a restyled copy took over its global id).
    public var unmapped: [StrokeID]
    /// When the pages changed: the shown pages in order with their formats, and the pages parked (deleted here,
    /// known to the board); nil when they did not.
    public var pages: [(id: PageID, format: PageFormat)]?
    public var parkedPages: [(id: PageID, format: PageFormat)]
    public var pageEntries: [BoardRecord.PageEntry]

    public init(client: UInt64, url: String, lastSequence: UInt64, applied: [UInt64: UInt64] = [:], shown: [Stroke] = [],
                hidden: [Stroke] = [], dropped: [StrokeID] = [], entries: [BoardRecord.Entry] = [], unmapped: [StrokeID] = [],
                pages: [(id: PageID, format: PageFormat)]? = nil, parkedPages: [(id: PageID, format: PageFormat)] = [],
                pageEntries: [BoardRecord.PageEntry] = []) {
        self.client = client; self.url = url; self.lastSequence = lastSequence; self.applied = applied
        self.shown = shown; self.hidden = hidden; self.dropped = dropped; self.entries = entries; self.unmapped = unmapped
        self.pages = pages; self.parkedPages = parkedPages; self.pageEntries = pageEntries
    }
}

extension DocumentFile {
    /// The board this document is a replica of, nil if it never was one.
    public func readBoard() throws -> BoardRecord? {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        do {
            let q = try db.statement("SELECT client, url, last_seq FROM board WHERE id = 1")
            guard try q.step() else { q.reset(); return nil }
            var record = BoardRecord(client: UInt64(bitPattern: q.int(0)), url: q.text(1) ?? "", lastSequence: UInt64(bitPattern: q.int(2)))
            q.reset()
            let c = try db.statement("SELECT client, applied FROM board_clients")
            while try c.step() { record.applied[UInt64(bitPattern: c.int(0))] = UInt64(bitPattern: c.int(1)) }
            c.reset()
            let e = try db.statement("SELECT stroke, client, number, visible, board_order, look FROM board_strokes")
            while try e.step() {
                var look: BoardRecord.Look?
                var was: UInt64?
                if !e.isNull(5) {
                    // Width and colour (12 bytes), after the six numbers of the placement unless it is the identity
                    // (60), then the order before the last front or back when there is one (8 more).
                    var b = e.blob(5)
                    guard [12, 60, 20, 68].contains(b.count) else { throw bad("a board stroke look of \(b.count) bytes") }
                    if b.count == 20 || b.count == 68 {
                        was = (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[b.count - 8 + $1]) << (8 * UInt64($1)) }
                        b.removeLast(8)
                    }
                    let v = (0..<(b.count - 4) / 8).map { i in Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[i * 8 + $1]) << (8 * UInt64($1)) }) }
                    let t = v.count == 7 ? AffineMap(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]) : .identity
                    let width = v[v.count - 1], c = b.count - 4
                    guard t.isUsable, width.isFinite, width > 0, width <= Schema.maxStrokeWidth else { throw bad("a board stroke look that is not usable") }
                    look = .init(transform: t, width: width, color: RGBA(r: b[c], g: b[c + 1], b: b[c + 2], a: b[c + 3]))
                }
                record.entries.append(.init(local: UInt64(bitPattern: e.int(0)), client: UInt64(bitPattern: e.int(1)),
                                            number: UInt64(bitPattern: e.int(2)), visible: e.int(3) != 0,
                                            order: UInt64(bitPattern: e.int(4)), look: look, was: was))
            }
            e.reset()
            let p = try db.statement("SELECT page, client, number, visible, key, format FROM board_pages")
            while try p.step() {
                let k = p.blob(4)
                guard k.count % 2 == 0, k.count <= 512 else { throw bad("a board page key of \(k.count) bytes") }
                let key = stride(from: 0, to: k.count, by: 2).map { UInt16(k[$0]) << 8 | UInt16(k[$0 + 1]) }
                let format: PageFormat
                do { format = try PageEditText.readFormat(p.text(5) ?? "") } catch { throw bad("board page format: \(error)") }
                record.pages.append(.init(local: UInt64(bitPattern: p.int(0)), client: UInt64(bitPattern: p.int(1)),
                                          number: UInt64(bitPattern: p.int(2)), visible: p.int(3) != 0, key: key, format: format))
            }
            p.reset()
            let known = Set(record.pages.map(\.local))
            record.parkedPages = try DocumentRows.pages(db, path: path, version: Schema.currentVersion).deleted
                .filter { known.contains($0.id) }.map { (id: $0.id, format: $0.format) }
            let h = try db.statement("""
                SELECT \(DocumentRows.strokeColumns(version: Schema.currentVersion)) FROM strokes
                WHERE present = 0 AND id IN (SELECT stroke FROM board_strokes)
                """)
            while try h.step() { record.hidden.append(try DocumentRows.stroke(h, path: path).stroke(path: path)) }
            h.reset()
            return record
        } catch { throw Self.map(error, path: path) }
    }

    /// Commits a batch of board changes in one transaction; the document follows only after it succeeded.
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
                if let pages = c.pages {
                    for (i, p) in pages.enumerated() { try w.writePage(p.id, position: i, format: p.format) }
                    for p in c.parkedPages { try w.writePage(p.id, position: nil, format: p.format) }
                }
                for e in c.pageEntries {
                    let key = e.key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
                    try db.statement("INSERT OR REPLACE INTO board_pages(page, client, number, visible, key, format) VALUES(?, ?, ?, ?, ?, ?)")
                        .bind(1, Int64(bitPattern: e.local)).bind(2, Int64(bitPattern: e.client)).bind(3, Int64(bitPattern: e.number))
                        .bind(4, Int64(e.visible ? 1 : 0)).bind(5, key).bind(6, PageEditText.format(e.format)).run()
                }
                for s in c.shown { try w.upsert(s, present: true) }
                for s in c.hidden { try w.upsert(s, present: false) }
                for id in c.dropped {
                    try db.statement("UPDATE strokes SET present = 0 WHERE id = ?").bind(1, Int64(bitPattern: id)).run()
                }
                for id in c.unmapped {
                    try db.statement("DELETE FROM board_strokes WHERE stroke = ?").bind(1, Int64(bitPattern: id)).run()
                }
                for e in c.entries {
                    let q = try db.statement("INSERT OR REPLACE INTO board_strokes(stroke, client, number, visible, board_order, look) VALUES(?, ?, ?, ?, ?, ?)")
                    try q.bind(1, Int64(bitPattern: e.local)).bind(2, Int64(bitPattern: e.client)).bind(3, Int64(bitPattern: e.number))
                        .bind(4, Int64(e.visible ? 1 : 0)).bind(5, Int64(bitPattern: e.order))
                    if let l = e.look {
                        var b = ByteWriter()
                        let t = l.transform
                        for v in (t.isIdentity ? [] : [t.a, t.b, t.c, t.d, t.tx, t.ty]) + [l.width] { b.double(v) }
                        b.append(contentsOf: [l.color.r, l.color.g, l.color.b, l.color.a])
                        if let w = e.was { b.littleEndian(w) }
                        try q.bind(6, b.bytes)
                    }
                    try q.run()
                }
            }
        } catch { throw Self.map(error, path: path) }
        if let pages = c.pages {
            let old = Dictionary(document.pages.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            document.follow(pages: pages.map { p in
                old[p.id].map { Page(id: p.id, format: p.format, layers: $0.layers) } ?? Page(id: p.id, format: p.format)
            })
        }
        var index: [PageID: Int] = [:]
        for (i, p) in document.pages.enumerated() { index[p.id] = i }
        for s in c.hidden { if let i = index[s.page] { document.withPage(i) { _ = $0.remove(s.id) } } }
        for id in c.dropped {
            for i in document.pages.indices where document.withPage(i, { $0.remove(id) }) != nil { break }
        }
        for s in c.shown { if let i = index[s.page] { document.withPage(i) { $0.insert(s) } } }
    }
}
