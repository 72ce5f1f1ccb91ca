import InkCore

/// The checks every reader of a `.oekaki` applies to the rows it reads: nothing in the file is trusted.
/// Shared by `DocumentReader` (the whole document at once) and `StrokeStream` (one stroke at a time), so both
/// refuse the same files with the same words.
enum DocumentRows {
    /// The columns `stroke(_:)` reads, in order; version 1 files have no `present` column (every stroke is live),
    /// versions before 3 no `draw_order` (the order is the id), versions before 5 no `page` (all on page 1); from
    /// version 11 the width is stored in sixteenths.
    static func strokeColumns(version: Int) -> String {
        let width = Schema.WidthUnits.column(version: version)
        return (version >= 3 ? "id, tool, rgba, \(width), points, present, draw_order"
            : version == 2 ? "id, tool, rgba, \(width), points, present, NULL" : "id, tool, rgba, \(width), points, 1, NULL")
            + (version >= Schema.pagesVersion ? ", page" : ", 1")
            + (version >= Schema.transformVersion ? ", transform" : ", NULL")
            + (version >= Schema.shapesVersion ? ", shape" : ", NULL")
            + (version >= Schema.elementsVersion ? ", content" : ", NULL")
            + (version >= Schema.lineStyleVersion ? ", line" : ", NULL")
            + (version >= Schema.layersVersion ? ", (SELECT layer FROM stroke_layers WHERE stroke = strokes.id)" : ", NULL")
    }

    /// One layer row: its page, place (nil while deleted) and look.
    struct LayerRow {
        var id: LayerID
        var page: PageID
        var position: Int?
        var name: String
        var visible: Bool
        var everyPage: Bool
        func layer(_ drawing: Drawing = Drawing()) -> Layer { Layer(id: id, name: name, visible: visible, everyPage: everyPage, drawing: drawing) }
    }

    /// Every layer row (none before format 13: each page then has its own one layer), checked: a positive id and
    /// page, a name of at most `Layer.maxNameLength` characters.
    static func layers(_ db: SQLiteDatabase, path: String, version: Int) throws -> [LayerRow] {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        guard version >= Schema.layersVersion else { return [] }
        var rows: [LayerRow] = []
        let q = try db.statement("SELECT id, page, position, name, visible, every_page FROM layers ORDER BY page, position, id")
        defer { q.reset() }
        while try q.step() {
            guard rows.count < 100 * Schema.maxPages else { throw bad("more than \(100 * Schema.maxPages) layer rows") }
            let id = q.int(0), page = q.int(1)
            guard id > 0, page > 0 else { throw bad("layer \(id) of page \(page) has an id that is not positive") }
            guard let name = q.text(3), name.count <= Layer.maxNameLength else { throw bad("layer \(id) has no name or one over \(Layer.maxNameLength) characters") }
            var position: Int?
            if !q.isNull(2) {
                guard q.int(2) >= 0, q.int(2) < 1_000_000 else { throw bad("layer \(id) is at place \(q.int(2))") }
                position = Int(q.int(2))
            }
            rows.append(LayerRow(id: LayerID(id), page: PageID(page), position: position, name: name, visible: q.int(4) != 0, everyPage: q.int(5) != 0))
        }
        return rows
    }

    /// Why a page of this size cannot be stored, or nil when it can.
    static func problem(with size: Size) -> String? {
        let w = size.width, h = size.height
        guard w.isFinite, h.isFinite, w > 0, h > 0, w <= Schema.maxPageSide, h <= Schema.maxPageSide else {
            return "page size \(w) × \(h) is outside 0…\(Int(Schema.maxPageSide))"
        }
        return nil
    }

    /// Every stroke is on a page the file has: what `DocumentReader` checks row by row, in one pass over the page
    /// index for readers that do not read every row. (One shown on a deleted page stays with that page.)
    static func checkStrokePages(_ db: SQLiteDatabase, path: String, version: Int) throws {
        guard version >= Schema.pagesVersion else { return }
        let q = try db.statement("""
            SELECT s.id, s.page, p.id IS NULL FROM strokes s LEFT JOIN pages p ON p.id = s.page
            WHERE p.id IS NULL ORDER BY s.id LIMIT 1
            """)
        defer { q.reset() }
        guard try q.step() else { return }
        throw StoreError.corrupt(path: path, detail: "stroke \(q.int(0)) is on page \(q.int(1)), which the file does not have")
    }

    /// One page row: its id, its place (nil while deleted) and its format.
    struct PageRow {
        var id: PageID
        var position: Int?
        var format: PageFormat
    }

    /// Every page row, checked: the live pages have the places 0…n-1 (n from 1 to `Schema.maxPages`), and come
    /// first, in order; deleted ones (kept for undo) follow. Before format 5 the one page is in `document`.
    static func pages(_ db: SQLiteDatabase, path: String, version: Int) throws -> (live: [PageRow], deleted: [PageRow]) {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        func colour(_ v: Int64, _ what: String) throws -> RGBA {
            guard v >= 0, v <= 0xFFFF_FFFF else { throw bad("\(what) colour \(v) is not an RGBA value") }
            return RGBA(packed: UInt32(v))
        }
        guard version >= Schema.pagesVersion else {
            let page = try db.statement("SELECT page_width, page_height, background FROM document WHERE id = 1")
            guard try page.step() else { page.reset(); throw bad("the page settings are missing") }
            let size = Size(width: page.double(0), height: page.double(1)), bg = page.int(2)
            page.reset()
            if let p = problem(with: size) { throw bad(p) }
            let format = PageFormat.fixed(size, Background(paper: try colour(bg, "background")))
            return ([PageRow(id: Page.firstID, position: 0, format: format)], [])
        }
        var live: [PageRow] = [], deleted: [PageRow] = []
        let q = try db.statement("SELECT id, position, width, height, style, paper, line, spacing, \(version >= Schema.marginVersion ? "margin" : "0"), \(version >= Schema.elementsVersion ? "pdf" : "NULL"), \(version >= Schema.pictureVersion ? "picture" : "NULL") FROM pages ORDER BY position, id")
        defer { q.reset() }
        while try q.step() {
            guard live.count + deleted.count < 2 * Schema.maxPages else { throw bad("more than \(2 * Schema.maxPages) page rows") }
            let id = q.int(0)
            guard id > 0 else { throw bad("page id \(id) is not positive") }
            let size: Size?
            if q.isNull(2) && q.isNull(3) { size = nil } else {
                let s = Size(width: q.double(2), height: q.double(3))
                if let p = problem(with: s) { throw bad("page \(id): \(p)") }
                size = s
            }
            guard let style = q.text(4).flatMap(Background.Style.init(rawValue:)) else { throw bad("page \(id) has an unknown background '\(q.text(4) ?? "")'") }
            let spacing = q.double(7)
            guard Background.spacingRange.contains(spacing) else { throw bad("page \(id) has background spacing \(spacing)") }
            let margin = q.double(8)
            guard margin.isFinite, margin >= 0, margin <= Background.spacingRange.upperBound else { throw bad("page \(id) has margin \(margin)") }
            var pdf: PDFPageRef?
            if let t = q.text(9) {
                do { pdf = try ContentCodec.pdf(Substring(t)) } catch let e as ContentCodec.Failure { throw bad("page \(id): \(e)") }
            }
            var picture: ContentHash?
            if let t = q.text(10) {
                do { picture = try ContentCodec.picture(Substring(t)) } catch let e as ContentCodec.Failure { throw bad("page \(id): \(e)") }
            }
            let bg = Background(style: style, paper: try colour(q.int(5), "paper"), line: try colour(q.int(6), "line"), spacing: spacing, margin: margin,
                                pdf: pdf, picture: picture)
            var row = PageRow(id: PageID(id), position: nil, format: PageFormat(size: size, background: bg))
            if q.isNull(1) { deleted.append(row); continue }
            // Sorted by place, so live pages must count up from 0 with no gap or repeat.
            guard q.int(1) == Int64(live.count) else { throw bad("page \(id) is at place \(q.int(1)), expected \(live.count)") }
            guard live.count < Schema.maxPages else { throw bad("more than \(Schema.maxPages) pages") }
            row.position = live.count
            live.append(row)
        }
        guard !live.isEmpty else { throw bad("the document has no page") }
        return (live, deleted)
    }

    /// One stroke row with its style checked and its point data copied but not yet decoded, so a reader can
    /// take it off the database under a lock and decode it elsewhere.
    struct StrokeRow {
        var id: StrokeID
        var style: StrokeStyle
        var blob: [UInt8]
        var present: Bool
        var order: StrokeID
        var page: PageID
        var transform: AffineMap = .identity
        var shape: ShapeKind?
        var content: StrokeContent = .ink
        /// Nil: the page's own layer.
        var layer: LayerID? = nil

        /// Decodes an ink stroke's points into `columns` (no times); bad point data names the stroke, as in `stroke(path:)`.
        func points(into columns: inout PointColumns, path: String) throws {
            do { try PointCodec.decode(blob, into: &columns) } catch let e as PointCodec.Failure {
                throw StoreError.corrupt(path: path, detail: "stroke \(id): \(e)")
            }
        }

        /// Decodes the points; bad point data names the stroke.
        func stroke(path: String) throws -> Stroke {
            let points: [InkPoint]
            do { points = try PointCodec.decode(blob) } catch let e as PointCodec.Failure {
                throw StoreError.corrupt(path: path, detail: "stroke \(id): \(e)")
            }
            // A text box or image is placed by exactly its two corners.
            if !content.isInk, points.count != 2 { throw StoreError.corrupt(path: path, detail: "stroke \(id) holds a box of \(points.count) points, not 2") }
            return Stroke(id: id, style: style, points: points, order: order, shape: shape, page: page, layer: layer, transform: transform, content: content)
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
        // Below 1 only for strokes sent to the back; never 0.
        guard order != 0 else { throw bad("stroke \(id) has drawing order \(order)") }
        let page = q.int(7)
        guard page > 0 else { throw bad("stroke \(id) is on page \(page)") }
        var transform = AffineMap.identity
        if !q.isNull(8) {
            do { transform = try PlacementCodec.decodeTransform(q.blob(8)) } catch let e as PlacementCodec.Failure {
                throw bad("stroke \(id) has \(e)")
            }
        }
        guard let (trace, shape) = Schema.ShapeCode.decode(q.isNull(9) ? nil : q.int(9)) else {
            throw bad("stroke \(id) has an unknown shape \(q.int(9))")
        }
        var content = StrokeContent.ink
        if !q.isNull(10) {
            do { content = try ContentCodec.decode(q.blob(10)) } catch let e as ContentCodec.Failure { throw bad("stroke \(id): \(e)") }
        }
        var style = StrokeStyle(tool: tool, color: RGBA(packed: UInt32(rgba)), width: width, trace: trace)
        if !q.isNull(11), let text = q.text(11) {
            do { try LineLookCodec.decode(text, into: &style) } catch let e as LineLookCodec.Failure { throw bad("stroke \(id) has \(e)") }
        }
        var layer: LayerID?
        if !q.isNull(12) {
            guard q.int(12) > 0 else { throw bad("stroke \(id) is on layer \(q.int(12))") }
            layer = LayerID(q.int(12))
        }
        return StrokeRow(id: id, style: style,
                         blob: q.blob(4), present: q.int(5) != 0, order: StrokeID(bitPattern: order), page: PageID(page),
                         transform: transform, shape: shape, content: content, layer: layer)
    }

    /// One stored edit: its stack, kind and the ids of the strokes it removed and added, checked.
    struct EditRow {
        var stack: Schema.Stack
        var kind: Schema.EditKind
        var strokes: EditStrokes
        /// What a page edit did to pages (nil for stroke edits).
        var pages: PageChange?
        /// A transform edit's map and placements (`PlacementCodec`), nil for other kinds.
        var placement: [UInt8]? = nil
        /// A layer edit's steps (`LayerEditText`), nil for other kinds.
        var layers: [LayerEditText.Step]? = nil
        /// Where it is stored: the edit's id in format 2, its position in its stack from format 3.
        var key: Int64
        var version: Int
        /// How messages name it (built only for a message).
        var name: String { version == 2 ? "edit \(key)" : "edit \(key) of stack \(stack.rawValue)" }
    }

    /// The page side of a stored page edit, checked (`PageEditText`).
    enum PageChange {
        case page(id: PageID, at: Int, format: PageFormat)
        case move(from: Int, to: Int)
        case formats([(page: PageID, from: PageFormat, to: PageFormat)])
    }

    /// Calls `body` with the history's rows, undo stack then redo stack, each bottom first; every edit has a known
    /// kind on a known stack and names strokes in the roles its kind has. Whether those strokes exist is up to
    /// `body`. From format 3 the rows are read one at a time, never all held.
    static func forEachEdit(_ db: SQLiteDatabase, path: String, version: Int, _ body: (EditRow) throws -> Void) throws {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        if version < 2 { return }
        if version == 2 { for row in try editsVersion2(db, path: path) { try body(row) }; return }
        let q = try db.statement("SELECT stack, position, kind, strokes, \(version >= Schema.pagesVersion ? "pages" : "NULL"), \(version >= Schema.transformVersion ? "placement" : "NULL") FROM history ORDER BY stack, position")
        defer { q.reset() }
        while try q.step() {
            guard let stack = Schema.Stack(rawValue: q.int(0)), let kind = Schema.EditKind(rawValue: q.int(2)) else {
                throw bad("edit \(q.int(1)) of stack \(q.int(0)) has kind \(q.int(2))")
            }
            var row = EditRow(stack: stack, kind: kind, strokes: EditStrokes(removed: [], added: []), pages: nil, key: q.int(1), version: version)
            do {
                row.strokes = try EditStrokes(decoding: q.blob(3))
            } catch let e as EditStrokes.Failure { throw bad("\(row.name): \(e)") }
            let text = q.text(4)
            do {
                switch kind {
                case .add, .remove, .replace, .clear: break
                case .transform:
                    guard row.strokes.removed.isEmpty, !q.isNull(5) else { throw bad("\(row.name) moves strokes but holds no placements") }
                    row.placement = q.blob(5)
                case .addPage, .deletePage: row.pages = try text.map(PageEditText.page).map { .page(id: $0.id, at: $0.at, format: $0.format) }
                case .movePage: row.pages = try text.map(PageEditText.move).map { .move(from: $0.from, to: $0.to) }
                case .setFormat: row.pages = try text.map(PageEditText.formats).map { .formats($0) }
                case .layers:
                    guard let t = text else { throw bad("\(row.name) edits layers but does not say how") }
                    do { row.layers = try LayerEditText.decode(t) } catch let e as LayerEditText.Failure { throw bad("\(row.name): \(e)") }
                }
            } catch let e as PageEditText.Failure { throw bad("\(row.name): \(e)") }
            switch kind {
            case .add, .addPage: guard row.strokes.removed.isEmpty else { throw bad("\(row.name) adds strokes but also removes some") }
            case .remove, .clear, .deletePage: guard row.strokes.added.isEmpty else { throw bad("\(row.name) removes strokes but also adds some") }
            case .replace, .transform, .layers: break
            case .movePage, .setFormat: guard row.strokes.added.isEmpty, row.strokes.removed.isEmpty else { throw bad("\(row.name) changes pages but names strokes") }
            }
            switch kind {
            case .add, .remove, .replace, .clear, .transform: guard text == nil else { throw bad("\(row.name) edits strokes but names pages") }
            case .layers: break
            case .addPage, .deletePage, .movePage, .setFormat: guard row.pages != nil else { throw bad("\(row.name) edits pages but does not say how") }
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
            rows.append(EditRow(stack: stack, kind: kind, strokes: EditStrokes(removed: [], added: []), pages: nil, key: e.int(0), version: 2))
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
        // The ids are gathered first and looked up together: a lookup per id was most of the time a thumbnail took
        // to open a drawing with a long history. The messages, and which one comes first, are a walk's that stops
        // at the first edit naming a missing stroke (or at an edit that is damaged itself, if that comes first).
        var named: [(id: StrokeID, stack: Schema.Stack, key: Int64)] = []
        var damaged: Error?
        do {
            try forEachEdit(db, path: path, version: version) { row in
                for id in row.strokes.removed { named.append((id, row.stack, row.key)) }
                for id in row.strokes.added { named.append((id, row.stack, row.key)) }
            }
        } catch { damaged = error }
        // After a damaged edit, a failed lookup must not hide its error.
        let missing = damaged == nil ? try firstMissing(db, named.map(\.id)) : (try? firstMissing(db, named.map(\.id))) ?? nil
        if let missing {
            let edit = named[missing]
            let row = EditRow(stack: edit.stack, kind: .add, strokes: EditStrokes(removed: [], added: []), key: edit.key, version: version)
            throw StoreError.corrupt(path: path, detail: "\(row.name) refers to missing stroke \(edit.id)")
        }
        if let damaged { throw damaged }
    }

    /// The index of the first of `ids` that no stroke row has, nil when all exist. Few ids are looked up one by
    /// one (each once); many are checked against every stroke id, read once from the smallest index and sorted.
    private static func firstMissing(_ db: SQLiteDatabase, _ ids: [StrokeID]) throws -> Int? {
        guard !ids.isEmpty else { return nil }
        let highest = try db.integer("SELECT max(id) FROM strokes") ?? 0
        if ids.count < 64 || Int64(ids.count) * 8 < highest {
            let q = try db.statement("SELECT 1 FROM strokes WHERE id = ?")
            var seen = Set<StrokeID>()
            for (i, id) in ids.enumerated() where seen.insert(id).inserted {
                try q.bind(1, Int64(bitPattern: id))
                let found = try q.step()
                q.reset()
                if !found { return i }
            }
            return nil
        }
        var all: [Int64] = []
        let q = try db.statement("SELECT id FROM strokes")
        defer { q.reset() }
        while try q.step() { all.append(q.int(0)) }
        all.sort()
        for (i, id) in ids.enumerated() {
            let key = Int64(bitPattern: id)
            var lo = 0, hi = all.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if all[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            if lo == all.count || all[lo] != key { return i }
        }
        return nil
    }

    /// The embedded files (for the document reader and the stroke stream), checked: a valid name, and a size within
    /// `Schema.maxFileBytes`. The bytes are not hashed again (a wrong name can only make two files share a row, never crash).
    static func files(_ db: SQLiteDatabase, path: String, version: Int) throws -> [ContentHash: [UInt8]] {
        func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }
        guard version >= Schema.elementsVersion else { return [:] }
        var out: [ContentHash: [UInt8]] = [:]
        var total = 0
        let q = try db.statement("SELECT hash, length(bytes), bytes FROM files")
        defer { q.reset() }
        while try q.step() {
            guard let h = q.text(0).flatMap({ ContentHash(hex: $0) }) else { throw bad("an embedded file is named '\((q.text(0) ?? "").prefix(80))', not a SHA-256") }
            let n = Int(q.int(1))
            total += n
            guard n <= Schema.maxFileBytes, total <= 4 * Schema.maxFileBytes else { throw bad("embedded files of more than \(Schema.maxFileBytes) bytes") }
            out[h] = q.blob(2)
        }
        return out
    }
}
