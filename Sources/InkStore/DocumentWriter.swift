import InkCore

/// The row-level writes of one change. Callers wrap them in a transaction; every method costs in
/// proportion to the strokes it is given, never to the size of the drawing.
struct DocumentWriter {
    let db: SQLiteDatabase

    func writePage(_ size: Size, background: RGBA, insert: Bool) throws {
        // Never write what the reader would refuse: the file must always open again.
        guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0,
              size.width <= Schema.maxPageSide, size.height <= Schema.maxPageSide else {
            throw StoreError.unstorable("page size \(size.width) × \(size.height) is outside 0…\(Int(Schema.maxPageSide))")
        }
        let sql = insert
            ? "INSERT INTO document(id, page_width, page_height, background) VALUES(1, ?, ?, ?)"
            : "UPDATE document SET page_width = ?, page_height = ?, background = ? WHERE id = 1"
        try db.statement(sql).bind(1, size.width).bind(2, size.height).bind(3, Int64(background.packed)).run()
    }

    /// Writes a stroke row (replacing one with the same id).
    func upsert(_ s: Stroke, present: Bool) throws {
        guard s.style.tool == .pen || s.style.tool == .highlighter else {
            throw StoreError.unstorable("stroke \(s.id) is drawn with the \(s.style.tool.rawValue), which leaves no ink")
        }
        guard s.style.width.isFinite, s.style.width > 0, s.style.width <= Schema.maxStrokeWidth else {
            throw StoreError.unstorable("stroke \(s.id) has width \(s.style.width); widths must be in 0…\(Int(Schema.maxStrokeWidth))")
        }
        let blob: [UInt8]
        do { blob = try PointCodec.encode(s.points.isEmpty ? [InkPoint(x: 0, y: 0)] : s.points) } catch let e as PointCodec.Failure {
            throw StoreError.unstorable("stroke \(s.id): \(e)")
        }
        guard s.id >= 1, s.id <= UInt64(Int64.max), s.order >= 1, s.order <= UInt64(Int64.max) else {
            throw StoreError.unstorable("stroke \(s.id) has order \(s.order); ids and orders must be in 1…\(Int64.max)")
        }
        let q = try db.statement("INSERT OR REPLACE INTO strokes(id, tool, rgba, width, points, present, draw_order) VALUES(?, ?, ?, ?, ?, ?, ?)")
        try q.bind(1, Int64(bitPattern: s.id)).bind(2, s.style.tool.rawValue).bind(3, Int64(s.style.color.packed))
            .bind(4, s.style.width).bind(5, blob).bind(6, Int64(present ? 1 : 0))
        // NULL (one byte) when the order is the id, as for nearly every stroke.
        if s.order != s.id { try q.bind(7, Int64(bitPattern: s.order)) }
        try q.run()
    }

    /// Marks a stroke present or not; writes the row if the file does not have it yet.
    func setPresent(_ s: Stroke, _ present: Bool) throws {
        try db.statement("UPDATE strokes SET present = ? WHERE id = ?")
            .bind(1, Int64(present ? 1 : 0)).bind(2, Int64(bitPattern: s.id)).run()
        if db.changes == 0 { try upsert(s, present: present) }
    }

    /// Applies an edit to the stored drawing.
    func applyForward(_ e: Edit, addedAreNew: Bool) throws {
        if case .clear = e {
            try db.statement("UPDATE strokes SET present = 0 WHERE present = 1").run()
        } else {
            for s in e.removed { try setPresent(s, false) }
        }
        for s in e.added {
            if addedAreNew { try upsert(s, present: true) } else { try setPresent(s, true) }
        }
    }

    /// Puts an edit on top of a stack.
    func push(_ e: Edit, on stack: Schema.Stack) throws {
        try db.statement("""
            INSERT INTO history(stack, position, kind, strokes)
            VALUES(?1, (SELECT coalesce(max(position), 0) + 1 FROM history WHERE stack = ?1), ?2, ?3)
            """).bind(1, stack.rawValue).bind(2, e.kind.rawValue).bind(3, EditStrokes(e).encoded).run()
    }

    /// Moves the top edit of one stack to the top of the other.
    func move(from: Schema.Stack, to: Schema.Stack) throws {
        let top = try db.statement("SELECT position FROM history WHERE stack = ? ORDER BY position DESC LIMIT 1")
        try top.bind(1, from.rawValue)
        guard try top.step() else { top.reset(); throw StoreError.outOfSync("the stored \(from) stack is empty") }
        let position = top.int(0)
        top.reset()
        try db.statement("""
            UPDATE history SET stack = ?1, position = (SELECT coalesce(max(position), 0) + 1 FROM history WHERE stack = ?1)
            WHERE stack = ?2 AND position = ?3
            """).bind(1, to.rawValue).bind(2, from.rawValue).bind(3, position).run()
    }

    /// A new edit empties the redo stack; `unreferenced` are the strokes only those edits knew (the caller counts
    /// references), deleted for good.
    func discardRedo(deleting unreferenced: [StrokeID]) throws {
        try db.statement("DELETE FROM history WHERE stack = ?").bind(1, Schema.Stack.redo.rawValue).run()
        for id in unreferenced {
            // A stroke a shared board knows is kept: the board may restore it.
            try db.statement("DELETE FROM strokes WHERE id = ?1 AND present = 0 AND NOT EXISTS (SELECT 1 FROM board_strokes WHERE stroke = ?1)")
                .bind(1, Int64(bitPattern: id)).run()
        }
    }
}

extension RGBA {
    /// 0xRRGGBBAA, the form stored in the database.
    var packed: UInt32 { UInt32(r) << 24 | UInt32(g) << 16 | UInt32(b) << 8 | UInt32(a) }
    init(packed v: UInt32) { self.init(r: UInt8(v >> 24), g: UInt8(v >> 16 & 0xff), b: UInt8(v >> 8 & 0xff), a: UInt8(v & 0xff)) }
}

extension Schema.Stack: CustomStringConvertible {
    var description: String { self == .undo ? "undo" : "redo" }
}
