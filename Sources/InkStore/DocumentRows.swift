import InkCore

/// The checks every reader of a `.oekaki` applies to the rows it reads: nothing in the file is trusted.
/// Shared by `DocumentReader` (the whole document at once) and `StrokeStream` (one stroke at a time), so both
/// refuse the same files with the same words.
enum DocumentRows {
    /// The columns `stroke(_:)` reads, in order; version 1 files have no `present` column (every stroke is live).
    static func strokeColumns(version: Int) -> String {
        version >= 2 ? "id, tool, rgba, width, points, present" : "id, tool, rgba, width, points, 1"
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

        /// Decodes the points; bad point data names the stroke.
        func stroke(path: String) throws -> Stroke {
            let points: [InkPoint]
            do { points = try PointCodec.decode(blob) } catch let e as PointCodec.Failure {
                throw StoreError.corrupt(path: path, detail: "stroke \(id): \(e)")
            }
            return Stroke(id: id, style: style, points: points)
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
        return StrokeRow(id: id, style: StrokeStyle(tool: tool, color: RGBA(packed: UInt32(rgba)), width: width),
                         blob: q.blob(4), present: q.int(5) != 0)
    }

    /// The history's rows, checked the way `DocumentReader` checks them when it builds the `History`, but
    /// without holding any stroke: every edit has a known kind on a known stack, and every stroke an edit names
    /// belongs to an existing edit, has a known role and exists.
    static func checkHistory(_ db: SQLiteDatabase, path: String, version: Int) throws {
        guard version >= 2 else { return }
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        let e = try db.statement("SELECT id, stack, kind FROM edits ORDER BY stack, position")
        defer { e.reset() }
        while try e.step() {
            guard Schema.EditKind(rawValue: e.int(2)) != nil, e.int(1) == 0 || e.int(1) == 1 else {
                throw bad("edit \(e.int(0)) has kind \(e.int(2)) on stack \(e.int(1))")
            }
        }
        let r = try db.statement("""
            SELECT es.edit, es.role, es.stroke, e.id IS NOT NULL, s.id IS NOT NULL FROM edit_strokes es
            LEFT JOIN edits e ON e.id = es.edit LEFT JOIN strokes s ON s.id = es.stroke
            ORDER BY es.edit, es.role, es.seq
            """)
        defer { r.reset() }
        while try r.step() {
            guard r.int(3) != 0 else { throw bad("an edit stroke refers to missing edit \(r.int(0))") }
            guard r.int(2) > 0, r.int(4) != 0 else { throw bad("edit \(r.int(0)) refers to missing stroke \(r.int(2))") }
            guard r.int(1) == 0 || r.int(1) == 1 else { throw bad("edit \(r.int(0)) has stroke role \(r.int(1))") }
        }
    }
}
