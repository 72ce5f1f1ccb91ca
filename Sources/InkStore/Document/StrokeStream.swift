import Foundation
import InkCore

/// The live strokes of one page of a `.oekaki` document in drawing order, decoded one at a time, so an export never holds
/// the whole drawing (a million points are 32 MB as `InkPoint`s, twice that with the index and history).
///
/// Opening runs the same checks as `DocumentFile.open(readOnly: true)` (header, identity, schema, integrity,
/// page, history), and every stroke row is checked as it is read, removed ones included, so a damaged file is
/// refused with the same words. One read transaction covers everything: a writer committing meanwhile is not seen.
///
/// Threading: `forEachStroke` may run on several threads at once, one walk per `Run` at a time (a run's statement
/// is reused); the database is touched under a lock only to step rows (64 per turn) and copy their bytes, decoding
/// is outside it.
public final class StrokeStream: @unchecked Sendable {
    /// A contiguous slice of the drawing order (a range of order keys), with its stroke rows and stored bytes.
    public struct Run: Hashable, Sendable {
        let first: Int64
        let last: Int64
        /// Stroke rows in the slice (removed ones kept for undo included).
        public let rows: Int
        /// Bytes of point data stored for them: a good measure of the work of drawing them.
        public let bytes: Int
        /// On a page of several layers (or a hidden one), the one shown layer this run draws.
        var layer: LayerID? = nil
    }

    public let path: String
    /// The page streamed (0-based) and how many the document has.
    public let pageIndex: Int
    public let pageCount: Int
    public let format: PageFormat
    /// The page size (an endless page: the default frame; its real extent is the ink's).
    public var pageSize: Size { format.size ?? Drawing.defaultPageSize }
    public var background: RGBA { format.background.paper }
    private let pageID: PageID
    /// The page's shown layers bottom to top when it is not simply its own one shown layer (nil): then each run
    /// draws one of them, so hidden layers are skipped and layers stack in their order.
    private var shownLayers: [LayerID]?
    /// The file's format version.
    public let version: Int
    private var db: SQLiteDatabase?
    private let lock = NSLock()

    /// True when `path` starts like a SQLite database, i.e. is (or claims to be) a `.oekaki` document.
    public static func looksLikeDocument(path: String) -> Bool {
        guard let fh = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? fh.close() }
        return [UInt8]((try? fh.read(upToCount: FileCheck.sqliteMagic.count)) ?? Data()) == FileCheck.sqliteMagic
    }

    /// Opens page `page` (0-based) of `path` read-only; never changes the file.
    public static func open(path: String, page: Int = 0) throws -> StrokeStream {
        try FileCheck.sqliteHeader(path: path)
        let db: SQLiteDatabase
        let written = FileCheck.hasLiveWAL(path: path)
        do {
            db = try SQLiteDatabase(path: path, mode: written ? .readOnly : .immutable)
        } catch { throw DocumentFile.map(error, path: path) }
        // A file nobody writes is read through a mapping: the integrity check, the checks and the runs each read
        // much of the file, and a mapping copies nothing (SQLite maps no more than the file holds).
        if !written { try? db.execute("PRAGMA mmap_size = \(1 << 30)") }
        do {
            let version = try DocumentFile.checkIdentity(db, path: path)
            // Page, history and strokes all from one commit, as DocumentReader does.
            try db.execute("BEGIN")
            let pages = try DocumentRows.pages(db, path: path, version: version).live
            guard pages.indices.contains(page) else { throw StoreError.noSuchPage(path: path, page: page + 1, pages: pages.count) }
            try DocumentRows.checkStrokePages(db, path: path, version: version)
            try DocumentRows.checkHistory(db, path: path, version: version)
            let stream = StrokeStream(path: path, page: page, of: pages, version: version, db: db)
            let layers = try DocumentRows.layers(db, path: path, version: version)
                .filter { $0.page == pages[page].id && $0.position != nil }.sorted { ($0.position ?? 0) < ($1.position ?? 0) }
            if !layers.isEmpty, !(layers.count == 1 && layers[0].visible && layers[0].id == pages[page].id) {
                stream.shownLayers = layers.filter(\.visible).map(\.id)
            }
            return stream
        } catch {
            db.close()
            throw DocumentFile.map(error, path: path)
        }
    }

    private init(path: String, page: Int, of pages: [DocumentRows.PageRow], version: Int, db: SQLiteDatabase) {
        self.path = path; pageIndex = page; pageCount = pages.count; format = pages[page].format; pageID = pages[page].id
        self.version = version; self.db = db
    }

    /// The condition that keeps the rows of this page (every row is on page 1 before format 5).
    private var onPage: String { version >= Schema.pagesVersion ? " AND page = \(pageID)" : "" }

    deinit { close() }

    public func close() {
        lock.lock(); defer { lock.unlock() }
        try? db?.execute("COMMIT")
        db?.close(); db = nil
    }

    /// The whole drawing order cut into at most `count` contiguous runs of about the same number of stroke rows,
    /// found from the stroke ids alone (for a file with pages, an index-only walk of the page's ids): no stroke row
    /// is read, so a thumbnail starts drawing sooner than after `runs(_:)`' walk over every row's size. Together
    /// they cover every stroke row; `rows` counts the rows by id (a reordered stroke may be drawn in the next
    /// run), `bytes` is not known (0).
    public func evenRuns(_ count: Int) throws -> [Run] {
        if let shownLayers { return shownLayers.map { Run(first: .min, last: .max, rows: 0, bytes: 0, layer: $0) } }
        return try locked { db in
            var ids: [Int64] = []
            let q = try db.statement("SELECT id FROM strokes WHERE 1\(onPage) ORDER BY id")
            defer { q.reset() }
            while try q.step() { ids.append(q.int(0)) }
            guard !ids.isEmpty else { return [] }
            let parts = max(1, min(count, ids.count))
            var out: [Run] = []
            var first = Int64.min, from = 0
            for k in 1...parts {
                let to = ids.count * k / parts
                let last = k == parts ? Int64.max : ids[to - 1]
                out.append(Run(first: first, last: last, rows: to - from, bytes: 0))
                if last < .max { first = last + 1 }
                from = to
            }
            return out
        }
    }

    /// Whether the page shows a highlighter (one `LayeredExport` run cannot multiply into another's pixels).
    public func hasHighlighters() throws -> Bool {
        try locked { db in
            let shown = version >= 2 ? "present = 1 AND " : ""
            let q = try db.statement("SELECT EXISTS(SELECT 1 FROM strokes WHERE \(shown)tool = 'highlighter'\(onPage))")
            defer { q.reset() }
            return try q.step() && q.int(0) != 0
        }
    }

    /// The whole drawing order cut into at most `count` contiguous runs of about the same stored size (none
    /// empty; none at all for an empty drawing). Together they cover every stroke row.
    public func runs(_ count: Int) throws -> [Run] {
        if let shownLayers { return shownLayers.map { Run(first: .min, last: .max, rows: 0, bytes: 0, layer: $0) } }
        return try locked { db in
            // One walk in drawing order gives each row's order key and size; the cuts are made from those.
            var rows: [(order: Int64, bytes: Int)] = []
            let ordered = try orderedRows(db, columns: "id, length(points), " + (version >= 3 ? "draw_order" : "NULL"),
                                          orderColumn: 2,
                                          first: .min, last: .max)
            defer { ordered.reset() }
            while let q = try ordered.next() { rows.append((q.isNull(2) ? q.int(0) : q.int(2), Int(q.int(1)))) }
            guard !rows.isEmpty else { return [] }
            let bytes = rows.reduce(0) { $0 + $1.bytes }
            let parts = max(1, min(count, rows.count))
            guard parts > 1 else { return [Run(first: .min, last: .max, rows: rows.count, bytes: bytes)] }
            // Cut after the row that brings the running total to the next k/parts of the bytes, but never between
            // strokes sharing an order key (a run is a range of them).
            var out: [Run] = []
            var first = Int64.min, n = 0, sum = 0, done = 0
            var cutAfter: Int64?
            for (order, size) in rows {
                if let c = cutAfter, order > c {
                    out.append(Run(first: first, last: c, rows: n, bytes: sum))
                    first = c + 1; done += sum; n = 0; sum = 0; cutAfter = nil
                }
                n += 1; sum += size
                if cutAfter == nil, out.count < parts - 1, done + sum >= bytes * (out.count + 1) / parts, order < .max {
                    cutAfter = order
                }
            }
            if n > 0 { out.append(Run(first: first, last: .max, rows: n, bytes: sum)) }
            return out
        }
    }

    /// The document's embedded files (images a page's items show), checked as the document reader checks them.
    public func files() throws -> [ContentHash: [UInt8]] {
        try locked { db in try DocumentRows.files(db, path: path, version: version) }
    }

    /// Calls `body` with each live stroke of `run` (the whole drawing when nil), in drawing order. Removed strokes
    /// are read and checked but not passed on. Errors from `body` stop the walk and are rethrown as they are.
    /// Walks of the same run at the same time (bands each reading the whole drawing) need a `lane` each: a walk
    /// steps a cached statement, which two walks of one lane would share.
    public func forEachStroke(in run: Run? = nil, lane: Int = 0, _ body: (Stroke) throws -> Void) throws {
        try forEachRow(in: run, lane: lane) { row in
            let stroke = try row.stroke(path: path)
            if row.present { try body(stroke) }
        }
    }

    /// The same walk for drawing small: each live plain ink stroke (solid, unfilled) goes to `ink` as its style, its
    /// placement and its points as columns (decoded into one reused value, so no `Stroke` or `InkPoint`s are built: a
    /// thumbnail draws a pixel per few points); every other live stroke (filled or dashed ink, a text box, an image)
    /// goes to `other` whole.
    /// Every row is checked as `forEachStroke` checks it, with the same errors.
    public func forEachStroke(in run: Run? = nil, ink: (StrokeStyle, AffineMap, PointColumns) throws -> Void,
                              other: (Stroke) throws -> Void) throws {
        var columns = PointColumns()
        try forEachRow(in: run) { row in
            // Filled or dashed ink goes whole: it is drawn by the finished ink's painter, not from columns.
            if row.content.isInk, row.style.isPlainLine {
                try row.points(into: &columns, path: path)
                if row.present { try ink(row.style, row.transform, columns) }
            } else {
                let stroke = try row.stroke(path: path)
                if row.present { try other(stroke) }
            }
        }
    }

    /// Every stroke row of `run` in drawing order, checked. The rows are taken from the database in batches under
    /// the lock (one lock round per row made two threads' walks wait on each other), `body` runs outside it.
    private func forEachRow(in run: Run?, lane: Int = 0, _ body: (DocumentRows.StrokeRow) throws -> Void) throws {
        if run == nil, let shownLayers {
            for l in shownLayers { try forEachRow(in: Run(first: .min, last: .max, rows: 0, bytes: 0, layer: l), lane: lane, body) }
            return
        }
        let rows = try locked { db in
            try orderedRows(db, columns: DocumentRows.strokeColumns(version: version), orderColumn: 6,
                            first: run?.first ?? .min, last: run?.last ?? .max, layer: run?.layer, lane: lane)
        }
        defer { lock.lock(); rows.reset(); lock.unlock() }
        var batch: [DocumentRows.StrokeRow] = []
        batch.reserveCapacity(Self.batchRows)
        var done = false
        while !done {
            batch.removeAll(keepingCapacity: true)
            // A bad row ends the batch; the rows before it are still decoded and drawn first, so the checks (and
            // the first error) come in the order of a walk a row at a time.
            var failure: Error?
            do {
                try locked { _ in
                    while batch.count < Self.batchRows {
                        guard let q = try rows.next() else { done = true; return }
                        batch.append(try DocumentRows.stroke(q, path: path))
                    }
                }
            } catch { failure = error; done = true }
            for row in batch { try body(row) }
            if let failure { throw failure }
        }
    }

    /// Rows read per turn at the lock: small enough to keep little in memory, large enough that the lock is rare.
    private static let batchRows = 64

    /// The stroke rows whose order key is in `first…last`, in drawing order (order, id): the rows whose order is
    /// their id in rowid order, merged (from format 3) with the few reordered ones read through their index.
    /// `columns` start with the id; `orderColumn` is `draw_order`'s place in them.
    private func orderedRows(_ db: SQLiteDatabase, columns: String, orderColumn: Int32,
                             first: Int64, last: Int64, layer: LayerID? = nil, lane: Int = 0) throws -> OrderedRows {
        // A layer's rows: those naming it, or (its page's own layer) none.
        let onLayer = layer.map { " AND coalesce((SELECT layer FROM stroke_layers WHERE stroke = strokes.id), page) = \(Int64(bitPattern: $0))" } ?? ""
        func range(_ key: String) -> String {
            (first > .min ? " AND \(key) >= \(first)" : "") + (last < .max ? " AND \(key) <= \(last)" : "") + onLayer
                + (lane > 0 ? " /* lane \(lane) */" : "")
        }
        // The bounds (and the lane) are part of the text, so each run gets its own cached statements.
        guard version >= 3 else {
            return OrderedRows(try db.statement("SELECT \(columns) FROM strokes WHERE 1\(range("id")) ORDER BY id"), nil, orderColumn)
        }
        let plain = try db.statement("SELECT \(columns) FROM strokes WHERE draw_order IS NULL\(onPage)\(range("id")) ORDER BY id")
        let moved = try db.statement(
            "SELECT \(columns) FROM strokes WHERE draw_order IS NOT NULL\(onPage)\(range("draw_order")) ORDER BY draw_order, id")
        return OrderedRows(plain, moved, orderColumn)
    }

    /// Runs `body` on the database under the lock, turning SQLite failures into `StoreError`s.
    private func locked<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        guard let db else { throw StoreError.closed }
        do { return try body(db) } catch { throw DocumentFile.map(error, path: path) }
    }
}

/// Two statements over stroke rows, each already in drawing order, stepped as one sequence in drawing order.
/// Column 0 is the id; `orderColumn` of `moved` holds the order key (the id is the key of every row of `plain`).
private final class OrderedRows {
    private let plain: SQLiteStatement
    private let moved: SQLiteStatement?
    private let orderColumn: Int32
    private var plainRow = false, movedRow = false, started = false
    private var last: SQLiteStatement?

    init(_ plain: SQLiteStatement, _ moved: SQLiteStatement?, _ orderColumn: Int32) {
        self.plain = plain; self.moved = moved; self.orderColumn = orderColumn
    }

    /// The statement holding the next row, nil when both are done.
    func next() throws -> SQLiteStatement? {
        if !started {
            started = true
            plainRow = try plain.step()
            movedRow = try moved?.step() ?? false
        } else if let l = last {
            if l === plain { plainRow = try plain.step() } else { movedRow = try l.step() }
        }
        guard let moved, movedRow else { last = plainRow ? plain : nil; return last }
        guard plainRow else { last = moved; return moved }
        let id = plain.int(0)
        last = (id, id) < (moved.int(orderColumn), moved.int(0)) ? plain : moved
        return last
    }

    func reset() { plain.reset(); moved?.reset() }
}
