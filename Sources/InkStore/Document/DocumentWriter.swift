import InkCore

/// The row-level writes of one change. Callers wrap them in a transaction; every method costs in
/// proportion to the strokes it is given, never to the size of the drawing.
struct DocumentWriter {
    let db: SQLiteDatabase
    /// The bytes of the files the edits may name (`Document.files`); a file is written the first time a row
    /// refers to it.
    var files: [ContentHash: [UInt8]] = [:]

    /// Writes the file `hash` names unless the database has it already.
    func storeFile(_ hash: ContentHash) throws {
        let q = try db.statement("SELECT 1 FROM files WHERE hash = ?")
        try q.bind(1, hash.hex)
        let found = try q.step()
        q.reset()
        if found { return }
        guard let bytes = files[hash] else { throw StoreError.unstorable("the file \(hash.hex.prefix(12))… an item refers to is missing") }
        guard bytes.count <= Schema.maxFileBytes else { throw StoreError.unstorable("an embedded file of \(bytes.count) bytes is over \(Schema.maxFileBytes)") }
        try db.statement("INSERT INTO files(hash, bytes) VALUES(?, ?)").bind(1, hash.hex).bind(2, bytes).run()
    }

    /// Writes a page row (replacing one with the same id); `position` nil keeps it as a deleted page.
    func writePage(_ id: PageID, position: Int?, format: PageFormat) throws {
        // Never write what the reader would refuse: the file must always open again.
        if let size = format.size, let problem = DocumentRows.problem(with: size) { throw StoreError.unstorable(problem) }
        guard id >= 1, id <= UInt64(Int64.max) else { throw StoreError.unstorable("page id \(id) is outside 1…\(Int64.max)") }
        let b = format.background
        if let pdf = b.pdf { try storeFile(pdf.file) }
        if let picture = b.picture { try storeFile(picture) }
        let q = try db.statement("INSERT OR REPLACE INTO pages(id, position, width, height, style, paper, line, spacing, margin, pdf, picture) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try q.bind(1, Int64(bitPattern: id))
        if let position { try q.bind(2, Int64(position)) }
        if let size = format.size { try q.bind(3, size.width).bind(4, size.height) }
        if let pdf = b.pdf { try q.bind(10, ContentCodec.pdfText(pdf)) }
        if let picture = b.picture { try q.bind(11, picture.hex) }
        try q.bind(5, b.style.rawValue).bind(6, Int64(b.paper.packed)).bind(7, Int64(b.line.packed)).bind(8, b.spacing).bind(9, b.margin).run()
        if try db.integer("SELECT count(*) FROM pages") ?? 0 > 1 { try db.execute(Schema.pageIndex) }
    }

    /// Puts stroke `id` on `layer` of its page (no row: the page's own layer).
    func setLayer(_ id: StrokeID, _ layer: LayerID, page: PageID) throws {
        if layer == page {
            try db.statement("DELETE FROM stroke_layers WHERE stroke = ?").bind(1, Int64(bitPattern: id)).run()
        } else {
            guard layer >= 1, layer <= UInt64(Int64.max) else { throw StoreError.unstorable("stroke \(id) is on layer \(layer)") }
            try db.statement("INSERT OR REPLACE INTO stroke_layers(stroke, layer) VALUES(?, ?)")
                .bind(1, Int64(bitPattern: id)).bind(2, Int64(bitPattern: layer)).run()
        }
    }

    /// Writes a layer row (replacing one with the same id); `position` nil keeps it as a deleted layer.
    func writeLayer(_ l: Layer, page: PageID, position: Int?) throws {
        guard l.id >= 1, l.id <= UInt64(Int64.max) else { throw StoreError.unstorable("layer id \(l.id) is outside 1…\(Int64.max)") }
        guard l.name.count <= Layer.maxNameLength else { throw StoreError.unstorable("a layer name is over \(Layer.maxNameLength) characters") }
        let q = try db.statement("INSERT OR REPLACE INTO layers(id, page, position, name, visible, every_page) VALUES(?, ?, ?, ?, ?, ?)")
        try q.bind(1, Int64(bitPattern: l.id)).bind(2, Int64(bitPattern: page))
        if let position { try q.bind(3, Int64(position)) }
        try q.bind(4, l.name).bind(5, Int64(l.visible ? 1 : 0)).bind(6, Int64(l.everyPage ? 1 : 0)).run()
    }

    /// Gives a page written without its layers (a shared board's page) its own one layer, unless it has layers.
    func ensureLayer(_ page: PageID) throws {
        try db.statement("""
            INSERT INTO layers(id, page, position, name, visible, every_page) SELECT ?1, ?1, 0, ?2, 1, 0
            WHERE NOT EXISTS (SELECT 1 FROM layers WHERE page = ?1 AND position IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM layers WHERE id = ?1)
            """).bind(1, Int64(bitPattern: page)).bind(2, Layer.defaultName).run()
    }

    /// Items still present on a layer just deleted that its step does not name (the edit's own were marked gone
    /// before) go to the page's top layer, as `Page.apply` moves them.
    private func moveStrays(from l: Layer, page: PageID) throws {
        // A page's first layer has the page's id and its items no `stroke_layers` row.
        let q = l.id == page
            ? try db.statement("SELECT id FROM strokes WHERE page = ?1 AND present = 1 AND NOT EXISTS (SELECT 1 FROM stroke_layers WHERE stroke = strokes.id)")
            : try db.statement("SELECT s.id FROM strokes s JOIN stroke_layers sl ON sl.stroke = s.id WHERE s.page = ?1 AND s.present = 1 AND sl.layer = ?2")
        try q.bind(1, Int64(bitPattern: page))
        if l.id != page { try q.bind(2, Int64(bitPattern: l.id)) }
        var strays: [StrokeID] = []
        while try q.step() { strays.append(StrokeID(bitPattern: q.int(0))) }
        q.reset()
        guard !strays.isEmpty else { return }
        guard let to = try liveLayers(of: page).last else { return }
        for id in strays where l.drawing.stroke(id) == nil { try setLayer(id, to, page: page) }
    }

    /// Applies one layer step to the stored layers as `Page.apply` does to the page (clamped, never the last layer).
    private func apply(_ st: LayerStep) throws {
        let page = Int64(bitPattern: st.page)
        switch st {
        case .add(_, let l, let at):
            let n = try liveLayers(of: st.page).count
            let place = min(max(at, 0), n)
            try db.statement("UPDATE layers SET position = position + 1 WHERE page = ? AND position >= ?").bind(1, page).bind(2, Int64(place)).run()
            try writeLayer(l, page: st.page, position: place)
        case .delete(_, let l, _):
            guard try liveLayers(of: st.page).count > 1 else { return }
            let q = try db.statement("SELECT position FROM layers WHERE id = ? AND page = ? AND position IS NOT NULL")
            try q.bind(1, Int64(bitPattern: l.id)).bind(2, page)
            guard try q.step() else { q.reset(); return }
            let position = q.int(0)
            q.reset()
            try db.statement("UPDATE layers SET position = NULL WHERE id = ?").bind(1, Int64(bitPattern: l.id)).run()
            try db.statement("UPDATE layers SET position = position - 1 WHERE page = ? AND position > ?").bind(1, page).bind(2, position).run()
            try moveStrays(from: l, page: st.page)
        case .move(_, let from, let to):
            let n = try liveLayers(of: st.page).count
            guard from != to, (0..<n).contains(from), (0..<n).contains(to) else { return }
            try db.statement("""
                UPDATE layers SET position = CASE
                    WHEN position = ?1 THEN ?2
                    WHEN ?1 < ?2 AND position > ?1 AND position <= ?2 THEN position - 1
                    WHEN ?1 > ?2 AND position >= ?2 AND position < ?1 THEN position + 1
                    ELSE position END
                WHERE page = ?3 AND position IS NOT NULL
                """).bind(1, Int64(from)).bind(2, Int64(to)).bind(3, page).run()
        case .look(_, let id, let from, let to):
            // Only what the change changed, as `Document.apply` does.
            guard to.name.count <= Layer.maxNameLength else { throw StoreError.unstorable("a layer name is over \(Layer.maxNameLength) characters") }
            if from.name != to.name {
                try db.statement("UPDATE layers SET name = ? WHERE id = ?").bind(1, to.name).bind(2, Int64(bitPattern: id)).run()
            }
            if from.visible != to.visible {
                try db.statement("UPDATE layers SET visible = ? WHERE id = ?").bind(1, Int64(to.visible ? 1 : 0)).bind(2, Int64(bitPattern: id)).run()
            }
        case .moveItems(_, let ids, let from, let to):
            // As `Page.apply`: only between two shown layers, only the items shown on `from`.
            let live = try liveLayers(of: st.page)
            guard from != to, live.contains(from), live.contains(to) else { return }
            let q = try db.statement("SELECT coalesce((SELECT layer FROM stroke_layers WHERE stroke = ?1), page) FROM strokes WHERE id = ?1 AND present = 1")
            for id in ids {
                try q.bind(1, Int64(bitPattern: id))
                let on = try q.step() ? LayerID(bitPattern: q.int(0)) : nil
                q.reset()
                if on == from { try setLayer(id, to, page: st.page) }
            }
        }
    }

    /// Puts a page at `position`, moving the pages from there on down by one.
    /// The whole row is written, format included: the edit holds the page as it was when it was added or deleted.
    private func placePage(_ p: Page, at requested: Int) throws {
        // Clamped as `Document.apply` clamps, so the stored places stay 0…n-1.
        let position = min(max(requested, 0), try livePages())
        try db.statement("UPDATE pages SET position = position + 1 WHERE position >= ?").bind(1, Int64(position)).run()
        try writePage(p.id, position: position, format: p.format)
        for (k, l) in p.layers.enumerated() { try writeLayer(l, page: p.id, position: k) }
    }

    private func livePages() throws -> Int {
        let q = try db.statement("SELECT count(*) FROM pages WHERE position IS NOT NULL")
        defer { q.reset() }
        return try q.step() ? Int(q.int(0)) : 0
    }

    /// A page's place in the document, nil while it is deleted (or not in the file).
    private func position(ofPage page: PageID) throws -> Int64? {
        let q = try db.statement("SELECT position FROM pages WHERE id = ? AND position IS NOT NULL")
        try q.bind(1, Int64(bitPattern: page))
        defer { q.reset() }
        return try q.step() ? q.int(0) : nil
    }

    /// Takes a page out of the document (its row stays, without a place, while an edit may bring it back).
    private func unplacePage(_ p: Page) throws {
        guard let position = try position(ofPage: p.id) else { throw StoreError.outOfSync("page \(p.id) is not in the stored document") }
        try db.statement("UPDATE pages SET position = NULL WHERE id = ?").bind(1, Int64(bitPattern: p.id)).run()
        try db.statement("UPDATE pages SET position = position - 1 WHERE position > ?").bind(1, position).run()
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
        // The points as drawn; `transform` places them (a moved stroke is never re-encoded).
        let drawn = s.drawnPoints
        do { blob = try PointCodec.encode(drawn.isEmpty ? [InkPoint(x: 0, y: 0)] : drawn) } catch let e as PointCodec.Failure {
            throw StoreError.unstorable("stroke \(s.id): \(e)")
        }
        // An order below 1 is a stroke sent to the back (stored as the signed number its bits spell).
        guard s.id >= 1, s.id <= UInt64(Int64.max), s.drawKey != 0 else {
            throw StoreError.unstorable("stroke \(s.id) has order \(s.drawKey); ids must be in 1…\(Int64.max), orders not 0")
        }
        guard s.transform.isUsable else {
            throw StoreError.unstorable("stroke \(s.id) has a transform that flattens it")
        }
        guard s.page >= 1, s.page <= UInt64(Int64.max) else { throw StoreError.unstorable("stroke \(s.id) is on page \(s.page)") }
        let content: [UInt8]?
        do { content = try ContentCodec.encode(s.content) } catch let e as ContentCodec.Failure {
            throw StoreError.unstorable("item \(s.id): \(e)")
        }
        if !s.content.isInk, drawn.count != 2 { throw StoreError.unstorable("item \(s.id) is a box of \(drawn.count) points, not 2") }
        for h in s.content.image?.files ?? [] { try storeFile(h) }
        let q = try db.statement("INSERT OR REPLACE INTO strokes(id, tool, rgba, width, points, present, draw_order, page, transform, shape, content, line) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try q.bind(1, Int64(bitPattern: s.id)).bind(2, s.style.tool.rawValue).bind(3, Int64(s.style.color.packed))
            .bind(4, Schema.WidthUnits.stored(s.style.width)).bind(5, blob).bind(6, Int64(present ? 1 : 0)).bind(8, Int64(bitPattern: s.page))
        // NULL (one byte) when the order is the id, as for nearly every stroke.
        if s.order != s.id { try q.bind(7, Int64(bitPattern: s.order)) }
        if let t = PlacementCodec.encode(s.transform) { try q.bind(9, t) }
        if let shape = Schema.ShapeCode.value(s) { try q.bind(10, shape) }
        if let content { try q.bind(11, content) }
        if let line = LineLookCodec.encode(s.style) { try q.bind(12, line) }
        try q.run()
        // A row only off its page's own layer; on it, a row an earlier version of the item left goes (a board's
        // item written again on its page's first layer kept the layer it had, seed 5695 of the layer simulation).
        try setLayer(s.id, s.layer, page: s.page)
    }

    /// Marks a stroke present or not; writes the row if the file does not have it yet.
    func setPresent(_ s: Stroke, _ present: Bool) throws {
        try db.statement("UPDATE strokes SET present = ? WHERE id = ?")
            .bind(1, Int64(present ? 1 : 0)).bind(2, Int64(bitPattern: s.id)).run()
        if db.changes == 0 { try upsert(s, present: present) }
    }

    /// Applies an edit to the stored drawing.
    func applyForward(_ e: Edit, addedAreNew: Bool) throws {
        switch e {
        case .clear(let s):
            // The strokes it names: a clear takes the layers erasers reach, not always the whole page.
            let q = try db.statement("UPDATE strokes SET present = 0 WHERE id = ?")
            for x in s { try q.bind(1, Int64(bitPattern: x.id)).run() }
        case .deletePage(let p, _):
            // The last page is never taken away (see `Document.apply`).
            guard try livePages() > 1 else { return }
            try unplacePage(p)
            try db.statement("UPDATE strokes SET present = 0 WHERE present = 1 AND page = ?").bind(1, Int64(bitPattern: p.id)).run()
        case .addPage(let p, let at):
            try placePage(p, at: at)
        case .movePage(let from, let to):
            let n = try livePages()
            guard from != to, (0..<n).contains(from), (0..<n).contains(to) else { return }
            // One statement: the moved page takes `to`, the pages between shift by one towards `from`.
            try db.statement("""
                UPDATE pages SET position = CASE
                    WHEN position = ?1 THEN ?2
                    WHEN ?1 < ?2 AND position > ?1 AND position <= ?2 THEN position - 1
                    WHEN ?1 > ?2 AND position >= ?2 AND position < ?1 THEN position + 1
                    ELSE position END
                WHERE position IS NOT NULL
                """).bind(1, Int64(from)).bind(2, Int64(to)).run()
        case .setFormat(let changes):
            for c in changes {
                let f = c.to
                if let size = f.size, let problem = DocumentRows.problem(with: size) { throw StoreError.unstorable(problem) }
                if let pdf = f.background.pdf { try storeFile(pdf.file) }
                if let picture = f.background.picture { try storeFile(picture) }
                let q = try db.statement("UPDATE pages SET width = ?, height = ?, style = ?, paper = ?, line = ?, spacing = ?, margin = ?, pdf = ?, picture = ? WHERE id = ?")
                if let size = f.size { try q.bind(1, size.width).bind(2, size.height) } else { try q.bindNull(1).bindNull(2) }
                try q.bind(3, f.background.style.rawValue).bind(4, Int64(f.background.paper.packed))
                    .bind(5, Int64(f.background.line.packed)).bind(6, f.background.spacing).bind(7, f.background.margin)
                    .bind(8, f.background.pdf.map(ContentCodec.pdfText)).bind(9, f.background.picture?.hex).bind(10, Int64(bitPattern: c.page)).run()
            }
        case .transform(let t):
            let q = try db.statement("UPDATE strokes SET transform = ?, width = ? WHERE id = ?")
            for (i, id) in t.ids.enumerated() where i < t.before.count {
                let p = t.target(i)
                guard p.transform.isUsable, p.width.isFinite, p.width > 0, p.width <= Schema.maxStrokeWidth else {
                    throw StoreError.unstorable("stroke \(id) would be placed where the file cannot keep it")
                }
                if let b = PlacementCodec.encode(p.transform) { try q.bind(1, b) } else { try q.bindNull(1) }
                try q.bind(2, Schema.WidthUnits.stored(p.width)).bind(3, Int64(bitPattern: id)).run()
            }
        case .add, .remove, .replace:
            for s in e.removed { try setPresent(s, false) }
        case .layers(let steps):
            for s in e.removed { try setPresent(s, false) }
            for st in steps { try apply(st) }
        }
        var live: [PageID: [LayerID]] = [:]
        var pageShown: [PageID: Bool] = [:]
        for s in e.added {
            // As `Document.apply` ignores it: an item brought back onto a page deleted since (an undo of an erase
            // there, on a board) is kept, not shown, or the file would show it on a page it does not show.
            let shown = try pageShown[s.page] ?? (position(ofPage: s.page) != nil)
            pageShown[s.page] = shown
            if addedAreNew { try upsert(s, present: shown) } else { try setPresent(s, shown) }
            guard shown else { continue }
            // As `Page.insert` places it: an item naming a layer its page does not show (a board's ink on a layer
            // deleted here) goes on the top layer, or the reopened file would show it elsewhere than the window.
            let layers = try live[s.page] ?? liveLayers(of: s.page)
            live[s.page] = layers
            // A row brought back keeps the layer it had: the item may be back on another (its own layer restored).
            if !layers.contains(s.layer), let top = layers.last { try setLayer(s.id, top, page: s.page) } else if !addedAreNew { try setLayer(s.id, s.layer, page: s.page) }
        }
    }

    /// A page's shown layers, bottom first.
    private func liveLayers(of page: PageID) throws -> [LayerID] {
        let q = try db.statement("SELECT id FROM layers WHERE page = ? AND position IS NOT NULL ORDER BY position")
        try q.bind(1, Int64(bitPattern: page))
        defer { q.reset() }
        var out: [LayerID] = []
        while try q.step() { out.append(LayerID(bitPattern: q.int(0))) }
        return out
    }

    /// Puts an edit on top of a stack.
    func push(_ e: Edit, on stack: Schema.Stack) throws {
        let q = try db.statement("""
            INSERT INTO history(stack, position, kind, strokes, pages, placement)
            VALUES(?1, (SELECT coalesce(max(position), 0) + 1 FROM history WHERE stack = ?1), ?2, ?3, ?4, ?5)
            """)
        // A layer edit's steps go where a page edit's text goes (its kind says which).
        try q.bind(1, stack.rawValue).bind(2, e.kind.rawValue).bind(3, EditStrokes(e).encoded).bind(4, PageEditText.encode(e) ?? LayerEditText.encode(e))
        if case .transform(let t) = e { try q.bind(5, PlacementCodec.encode(t.undoes ? t.inverse : t)) }
        try q.run()
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
    func discardRedo(deleting unreferenced: [StrokeID], pages: [PageID] = []) throws {
        try db.statement("DELETE FROM history WHERE stack = ?").bind(1, Schema.Stack.redo.rawValue).run()
        for id in unreferenced {
            // A stroke a shared board knows is kept: the board may restore it.
            try db.statement("DELETE FROM strokes WHERE id = ?1 AND present = 0 AND NOT EXISTS (SELECT 1 FROM board_strokes WHERE stroke = ?1)")
                .bind(1, Int64(bitPattern: id)).run()
            if db.changes > 0 { try db.statement("DELETE FROM stroke_layers WHERE stroke = ?").bind(1, Int64(bitPattern: id)).run() }
        }
        for id in pages {
            // Kept while a stroke still names it (one a shared board knows), so every stroke has its page.
            try db.statement("DELETE FROM pages WHERE id = ?1 AND position IS NULL AND NOT EXISTS (SELECT 1 FROM strokes WHERE page = ?1)")
                .bind(1, Int64(bitPattern: id)).run()
            if db.changes > 0 { try db.statement("DELETE FROM layers WHERE page = ?").bind(1, Int64(bitPattern: id)).run() }
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
