import InkCore

/// The checks every reader of a `.oekaki` applies to the rows it reads: nothing in the file is trusted.
/// Shared by `DocumentReader` (the whole document at once) and `StrokeStream` (one stroke at a time), so both
/// refuse the same files with the same words.
enum DocumentRows {
    /// The columns `stroke(_:)` reads, in order; version 1 files have no `present` column (every stroke is live),
    /// versions before 3 no `draw_order` (the order is the id).
    static func strokeColumns(version: Int) -> String {
        version >= 3 ? "id, tool, rgba, width, points, present, draw_order"
            : version == 2 ? "id, tool, rgba, width, points, present, NULL" : "id, tool, rgba, width, points, 1, NULL"
    }

    /// The page size and background, checked.
    static func page(_ db: SQLiteDatabase, path: String) throws -> (size: Size, background: RGBA) {
        let page = try db.statement("SELECT page_width, page_height, background FROM document WHERE id = 1")
        guard try page.step() else { page.reset(); throw StoreError.corrupt(path: path, detail: "the page settings are missing") }
        let w = page.double(0), h = page.double(1), bg = page.int(2)
        page.reset()
        guard w.isFinite, h.isFinite, w > 0, h > 0, w <= Schema.maxPageSide, h <= Schema.maxPageSide else {
            throw StoreError.corrupt(path: path, detail: "page size \(w) × \(h) is outside 0…\(Int(Schema.maxPageSide))")
        }
        guard bg >= 0, bg <= 0xFFFF_FFFF else { throw StoreError.corrupt(path: path, detail: "background colour \(bg) is not an RGBA value") }
        return (Size(width: w, height: h), RGBA(packed: UInt32(bg)))
    }

    /// One stroke row with its style checked and its point data copied but not yet decoded, so a reader can
    /// take it off the database under a lock and decode it elsewhere.
    struct StrokeRow {
        var id: StrokeID
        var style: StrokeStyle
        var blob: [UInt8]
        var present: Bool
        var order: StrokeID

        /// Decodes the points; bad point data names the stroke.
        func stroke(path: String) throws -> Stroke {
            let points: [InkPoint]
            do { points = try PointCodec.decode(blob) } catch let e as PointCodec.Failure {
                throw StoreError.corrupt(path: path, detail: "stroke \(id): \(e)")
            }
            return Stroke(id: id, style: style, points: points, order: order)
        }
    }

    /// The current row of a statement selecting `strokeColumns(version:)`, checked.
    static func stroke(_ q: SQLiteStatement, path: String) throws -> StrokeRow {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        let rawID = q.int(0)
        guard rawID > 0 else { throw bad("stroke id \(rawID) is not positive") }
        let id = StrokeID(rawID)
        guard let tool = q.text(1).flatMap(Tool.init(rawValue:)), tool == .pen || tool == .highlighter else {
            throw bad("stroke \(id) has an unknown tool '\(q.text(1) ?? "")'")
        }
        let rgba = q.int(2)
        guard rgba >= 0, rgba <= 0xFFFF_FFFF else { throw bad("stroke \(id) has colour \(rgba), not an RGBA value") }
        let width = q.double(3)
        guard width.isFinite, width > 0, width <= Schema.maxStrokeWidth else { throw bad("stroke \(id) has width \(width)") }
        let order = q.isNull(6) ? rawID : q.int(6)
        guard order > 0 else { throw bad("stroke \(id) has drawing order \(order)") }
        return StrokeRow(id: id, style: StrokeStyle(tool: tool, color: RGBA(packed: UInt32(rgba)), width: width),
                         blob: q.blob(4), present: q.int(5) != 0, order: StrokeID(order))
    }

    /// One stored edit: its stack, kind and the ids of the strokes it removed and added, checked.
    struct EditRow {
        var stack: Schema.Stack
        var kind: Schema.EditKind
        var strokes: EditStrokes
        /// Where it is stored: the edit's id in format 2, its position in its stack from format 3.
        var key: Int64
        var version: Int
        /// How messages name it (built only for a message).
        var name: String { version == 2 ? "edit \(key)" : "edit \(key) of stack \(stack.rawValue)" }
    }

    /// Calls `body` with the history's rows, undo stack then redo stack, each bottom first; every edit has a known
    /// kind on a known stack and names strokes in the roles its kind has. Whether those strokes exist is up to
    /// `body`. From format 3 the rows are read one at a time, never all held.
    static func forEachEdit(_ db: SQLiteDatabase, path: String, version: Int, _ body: (EditRow) throws -> Void) throws {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        if version < 2 { return }
        if version == 2 { for row in try editsVersion2(db, path: path) { try body(row) }; return }
        let q = try db.statement("SELECT stack, position, kind, strokes FROM history ORDER BY stack, position")
        defer { q.reset() }
        while try q.step() {
            guard let stack = Schema.Stack(rawValue: q.int(0)), let kind = Schema.EditKind(rawValue: q.int(2)) else {
                throw bad("edit \(q.int(1)) of stack \(q.int(0)) has kind \(q.int(2))")
            }
            var row = EditRow(stack: stack, kind: kind, strokes: EditStrokes(removed: [], added: []), key: q.int(1), version: version)
            do {
                row.strokes = try EditStrokes(decoding: q.blob(3))
            } catch let e as EditStrokes.Failure { throw bad("\(row.name): \(e)") }
            switch kind {
            case .add: guard row.strokes.removed.isEmpty else { throw bad("\(row.name) adds strokes but also removes some") }
            case .remove, .clear: guard row.strokes.added.isEmpty else { throw bad("\(row.name) removes strokes but also adds some") }
            case .replace: break
            }
            try body(row)
        }
    }

    /// Format 2 kept an edit's strokes in their own table, one row each.
    private static func editsVersion2(_ db: SQLiteDatabase, path: String) throws -> [EditRow] {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        var rows: [EditRow] = []
        var byID: [Int64: Int] = [:]
        let e = try db.statement("SELECT id, stack, kind FROM edits ORDER BY stack, position")
        while try e.step() {
            guard let kind = Schema.EditKind(rawValue: e.int(2)), let stack = Schema.Stack(rawValue: e.int(1)) else {
                // Read the row before resetting the statement (after it every column reads 0).
                let message = "edit \(e.int(0)) has kind \(e.int(2)) on stack \(e.int(1))"
                e.reset(); throw bad(message)
            }
            byID[e.int(0)] = rows.count
            rows.append(EditRow(stack: stack, kind: kind, strokes: EditStrokes(removed: [], added: []), key: e.int(0), version: 2))
        }
        e.reset()
        let r = try db.statement("SELECT edit, role, stroke FROM edit_strokes ORDER BY edit, role, seq")
        defer { r.reset() }
        while try r.step() {
            guard let i = byID[r.int(0)] else { throw bad("an edit stroke refers to missing edit \(r.int(0))") }
            guard r.int(2) > 0 else { throw bad("edit \(r.int(0)) refers to missing stroke \(r.int(2))") }
            switch Schema.Role(rawValue: r.int(1)) {
            case .removed: rows[i].strokes.removed.append(StrokeID(r.int(2)))
            case .added: rows[i].strokes.added.append(StrokeID(r.int(2)))
            case nil: throw bad("edit \(r.int(0)) has stroke role \(r.int(1))")
            }
        }
        return rows
    }

    /// The history's rows, checked the way `DocumentReader` checks them when it builds the `History`, but
    /// without holding any stroke: every stroke an edit names exists.
    static func checkHistory(_ db: SQLiteDatabase, path: String, version: Int) throws {
        let q = try db.statement("SELECT 1 FROM strokes WHERE id = ?")
        var seen = Set<StrokeID>()
        try forEachEdit(db, path: path, version: version) { row in
            for list in [row.strokes.removed, row.strokes.added] {
                for id in list where seen.insert(id).inserted {
                    try q.bind(1, Int64(bitPattern: id))
                    let found = try q.step()
                    q.reset()
                    guard found else { throw StoreError.corrupt(path: path, detail: "\(row.name) refers to missing stroke \(id)") }
                }
            }
        }
    }
}
