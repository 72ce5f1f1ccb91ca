import InkCore
import InkStore

/// The board's tables in a replica document, through the store's `StoreRows`, always in the document's own
/// transactions: the state (`board`, `board_clients`, `board_strokes`, `board_pages`) with each batch of board
/// entries, and the outbox (`board_outbox`) with each local change, in the change's transaction.
enum BoardTables {
    /// The outbox: one row per committed local change, naming what it changed (strokes with their page, whether
    /// pages changed). Publishing compares only these with the board; a row goes once the board has caught up
    /// with it. It survives restarts, so an offline edit waits here until it is on the board.
    static func create(_ r: StoreRows) throws {
        try r.execute("""
            CREATE TABLE IF NOT EXISTS board_outbox(
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                strokes BLOB NOT NULL,
                pages INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS board_layers(
                layer INTEGER PRIMARY KEY,
                client INTEGER NOT NULL,
                number INTEGER NOT NULL,
                page INTEGER NOT NULL,
                visible INTEGER NOT NULL,
                key BLOB NOT NULL,
                name TEXT NOT NULL,
                shown INTEGER NOT NULL,
                every_page INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS board_stroke_layers(
                stroke INTEGER PRIMARY KEY,
                layer INTEGER NOT NULL);
            """)
    }

    /// Appends what `change` names to the outbox (called inside the change's transaction).
    static func append(_ change: Change, _ r: StoreRows) throws {
        let e: Edit
        switch change {
        case .did(let x), .redid(let x): e = x
        case .undid(let x): e = x.inverse
        }
        try r.run("INSERT INTO board_outbox(strokes, pages) VALUES(?1, ?2)", [.blob(named(e)), .int(e.changesPages || e.changesLayers ? 1 : 0)])
    }

    /// Stroke id and page id pairs, 16 bytes each, little-endian.
    private static func named(_ e: Edit) -> [UInt8] {
        var pairs: [(StrokeID, PageID)] = (e.removed + e.added).map { ($0.id, $0.page) }
        if case .transform(let t) = e { pairs += t.ids.map { ($0, t.page) } }
        if case .layers(let steps) = e {
            for case .moveItems(let p, let ids, _, _) in steps { pairs += ids.map { ($0, p) } }
        }
        var b = ByteWriter(capacity: pairs.count * 16)
        for (s, p) in pairs { b.littleEndian(s); b.littleEndian(p) }
        return b.bytes
    }

    /// The outbox as stored: what its rows name, and the last row's number (0 when empty). Untrusted: a row of
    /// the wrong shape names nothing (the full comparison at start covers it anyway).
    static func outbox(_ r: StoreRows) throws -> (strokes: [StrokeID: PageID], pages: Bool, last: Int64, rows: Int) {
        var strokes: [StrokeID: PageID] = [:], pages = false, last: Int64 = 0, rows = 0
        guard try r.hasTable("board_outbox") else { return ([:], false, 0, 0) }
        try r.query("SELECT seq, strokes, pages FROM board_outbox ORDER BY seq") { row in
            last = row.int(0); rows += 1
            if row.int(2) != 0 { pages = true }
            var b = ByteReader(row.blob(1), endsEarly: BadRow(), tooLarge: BadRow())
            guard b.remaining % 16 == 0 else { return }
            while !b.atEnd { strokes[try b.littleEndian(StrokeID.self)] = try b.littleEndian(PageID.self) }
        }
        return (strokes, pages, last, rows)
    }

    /// A blob shorter than its length said (cannot happen once its length is checked).
    private struct BadRow: Error {}

    // MARK: the board's state

    /// The board this document is a replica of, nil if it never was one.
    static func read(_ file: DocumentFile) throws -> BoardRecord? {
        func bad(_ detail: String) -> Error { StoreError.corrupt(path: file.path, detail: detail) }
        var record: BoardRecord?
        try file.rows { r in
            try r.query("SELECT client, url, last_seq FROM board WHERE id = 1") { q in
                record = BoardRecord(client: UInt64(bitPattern: q.int(0)), url: q.text(1) ?? "", lastSequence: UInt64(bitPattern: q.int(2)))
            }
            guard record != nil else { return }
            try r.query("SELECT client, applied FROM board_clients") { c in
                record!.applied[UInt64(bitPattern: c.int(0))] = UInt64(bitPattern: c.int(1))
            }
            try r.query("SELECT stroke, client, number, visible, board_order, look FROM board_strokes") { e in
                var look: StrokeLook?
                var was: UInt64?
                if !e.isNull(5) {
                    // Width and colour (12 bytes), after the six numbers of the placement unless it is the identity
                    // (60), then the order before the last front or back when there is one (8 more).
                    var b = e.blob(5)
                    guard [12, 60, 20, 68].contains(b.count) else { throw bad("a board stroke look of \(b.count) bytes") }
                    if b.count == 20 || b.count == 68 {
                        var w = ByteReader(b, at: b.count - 8, endsEarly: BadRow(), tooLarge: BadRow())
                        was = try w.littleEndian(UInt64.self)
                        b.removeLast(8)
                    }
                    var numbers = ByteReader(b, endsEarly: BadRow(), tooLarge: BadRow())
                    let v = try (0..<(b.count - 4) / 8).map { _ in try numbers.double() }
                    let t = v.count == 7 ? AffineMap(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]) : .identity
                    let width = v[v.count - 1], c = b.count - 4
                    guard t.isUsable, width.isFinite, width > 0, width <= DocumentFile.maxStrokeWidth else { throw bad("a board stroke look that is not usable") }
                    look = .init(transform: t, width: width, color: RGBA(r: b[c], g: b[c + 1], b: b[c + 2], a: b[c + 3]))
                }
                record!.entries.append(.init(local: UInt64(bitPattern: e.int(0)), client: UInt64(bitPattern: e.int(1)),
                                             number: UInt64(bitPattern: e.int(2)), visible: e.int(3) != 0,
                                             order: UInt64(bitPattern: e.int(4)), look: look, was: was))
            }
            try r.query("SELECT page, client, number, visible, key, format FROM board_pages") { p in
                let k = p.blob(4)
                guard k.count % 2 == 0, k.count <= 512 else { throw bad("a board page key of \(k.count) bytes") }
                let key = stride(from: 0, to: k.count, by: 2).map { UInt16(k[$0]) << 8 | UInt16(k[$0 + 1]) }
                let format: PageFormat
                do { format = try PageFormat(storedText: p.text(5) ?? "") } catch { throw bad("board page format: \(error)") }
                record!.pages.append(.init(local: UInt64(bitPattern: p.int(0)), client: UInt64(bitPattern: p.int(1)),
                                           number: UInt64(bitPattern: p.int(2)), visible: p.int(3) != 0, key: key, format: format))
            }
        }
        if record != nil, try file.rows({ try $0.hasTable("board_layers") }) { try readLayers(file, into: &record!) }
        guard var record else { return nil }
        let known = Set(record.pages.map(\.local))
        record.parkedPages = try file.deletedPages().filter { known.contains($0.id) }
        record.hidden = try file.keptStrokes(Set(record.entries.map(\.local)))
        return record
    }

    /// The layers the board knows, and the layer of each board stroke off its page's first layer.
    private static func readLayers(_ file: DocumentFile, into record: inout BoardRecord) throws {
        func bad(_ detail: String) -> Error { StoreError.corrupt(path: file.path, detail: detail) }
        var strokeLayers: [StrokeID: LayerID] = [:]
        try file.rows { r in
            try r.query("SELECT layer, client, number, page, visible, key, name, shown, every_page FROM board_layers") { l in
                let k = l.blob(5)
                guard k.count % 2 == 0, k.count <= 512 else { throw bad("a board layer key of \(k.count) bytes") }
                let key = stride(from: 0, to: k.count, by: 2).map { UInt16(k[$0]) << 8 | UInt16(k[$0 + 1]) }
                let name = l.text(6) ?? ""
                guard !name.isEmpty, name.count <= Layer.maxNameLength else { throw bad("a board layer name of \(name.count) characters") }
                record.layers.append(.init(local: UInt64(bitPattern: l.int(0)), client: UInt64(bitPattern: l.int(1)), number: UInt64(bitPattern: l.int(2)),
                                           page: UInt64(bitPattern: l.int(3)), visible: l.int(4) != 0, key: key,
                                           look: LayerLook(name: name, visible: l.int(7) != 0), everyPage: l.int(8) != 0))
            }
            try r.query("SELECT stroke, layer FROM board_stroke_layers") { q in strokeLayers[UInt64(bitPattern: q.int(0))] = UInt64(bitPattern: q.int(1)) }
        }
        guard !strokeLayers.isEmpty else { return }
        for i in record.entries.indices { record.entries[i].layer = strokeLayers[record.entries[i].local] }
    }

    /// Writes a batch's board state (called inside the transaction that commits its edits).
    static func write(_ c: BoardCommit, _ r: StoreRows) throws {
        try r.run("INSERT OR REPLACE INTO board(id, client, url, last_seq) VALUES(1, ?1, ?2, ?3)",
                  [.int(Int64(bitPattern: c.client)), .text(c.url), .int(Int64(bitPattern: c.lastSequence))])
        for (client, n) in c.applied {
            try r.run("INSERT OR REPLACE INTO board_clients(client, applied) VALUES(?1, ?2)", [.int(Int64(bitPattern: client)), .int(Int64(bitPattern: n))])
        }
        for e in c.pageEntries {
            let key = e.key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
            try r.run("INSERT OR REPLACE INTO board_pages(page, client, number, visible, key, format) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                      [.int(Int64(bitPattern: e.local)), .int(Int64(bitPattern: e.client)), .int(Int64(bitPattern: e.number)),
                       .int(e.visible ? 1 : 0), .blob(key), .text(e.format.storedText)])
        }
        for e in c.layerEntries {
            let key = e.key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
            try r.run("INSERT OR REPLACE INTO board_layers(layer, client, number, page, visible, key, name, shown, every_page) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                      [.int(Int64(bitPattern: e.local)), .int(Int64(bitPattern: e.client)), .int(Int64(bitPattern: e.number)),
                       .int(Int64(bitPattern: e.page)), .int(e.visible ? 1 : 0), .blob(key), .text(e.look.name), .int(e.look.visible ? 1 : 0),
                       .int(e.everyPage ? 1 : 0)])
        }
        // Most boards have every item on its page's first layer: then the table stays empty and costs nothing.
        var offFirst = false
        try r.query("SELECT 1 FROM board_stroke_layers LIMIT 1") { _ in offFirst = true }
        for id in c.unmapped {
            try r.run("DELETE FROM board_strokes WHERE stroke = ?1", [.int(Int64(bitPattern: id))])
            if offFirst { try r.run("DELETE FROM board_stroke_layers WHERE stroke = ?1", [.int(Int64(bitPattern: id))]) }
        }
        for e in c.entries {
            if let l = e.layer {
                try r.run("INSERT OR REPLACE INTO board_stroke_layers(stroke, layer) VALUES(?1, ?2)", [.int(Int64(bitPattern: e.local)), .int(Int64(bitPattern: l))])
            } else if offFirst {
                try r.run("DELETE FROM board_stroke_layers WHERE stroke = ?1", [.int(Int64(bitPattern: e.local))])
            }
        }
        for e in c.entries {
            var look: StoreRows.Value = .null
            if let l = e.look {
                var b = ByteWriter()
                let t = l.transform
                if !t.isIdentity { b.matrix(t) }
                b.double(l.width)
                b.append(contentsOf: [l.color.r, l.color.g, l.color.b, l.color.a])
                if let w = e.was { b.littleEndian(w) }
                look = .blob(b.bytes)
            }
            try r.run("INSERT OR REPLACE INTO board_strokes(stroke, client, number, visible, board_order, look) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
                      [.int(Int64(bitPattern: e.local)), .int(Int64(bitPattern: e.client)), .int(Int64(bitPattern: e.number)),
                       .int(e.visible ? 1 : 0), .int(Int64(bitPattern: e.order)), look])
        }
        if c.outboxDone > 0 { try r.run("DELETE FROM board_outbox WHERE seq <= ?1", [.int(c.outboxDone)]) }
    }

    /// Commits a batch: the edits the board made (through `Document.apply`, in the file as in memory), the strokes
    /// and pages kept out of the drawing, and the board's state, in one transaction.
    static func commit(_ c: BoardCommit, to file: DocumentFile) throws {
        try file.follow(c.edits, keeping: c.hidden, keepingPages: c.parkedPages) { r in
            try create(r)
            try write(c, r)
        }
    }
}
