import Foundation
import InkCore

/// Reads a whole document out of the database, validating every row: nothing in the file is trusted.
struct DocumentReader {
    let db: SQLiteDatabase
    let path: String
    let version: Int
    /// Every layer row by id, and each page's live layers in place order (read with the pages).
    private var layerRows: [LayerID: DocumentRows.LayerRow] = [:]
    private var layersOf: [PageID: [DocumentRows.LayerRow]] = [:]

    init(db: SQLiteDatabase, path: String, version: Int) { self.db = db; self.path = path; self.version = version }

    private func bad(_ detail: String) -> StoreError { .corrupt(path: path, detail: detail) }

    mutating func read() throws -> (Document, History) {
        do {
            // One read transaction: another process may commit between our SELECTs, and the drawing and the
            // history must come from the same commit (found by FaultInjectionTests: torn reads otherwise).
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            return try readChecked()
        } catch { throw DocumentFile.map(error, path: path) }
    }

    private mutating func readChecked() throws -> (Document, History) {
        let pages = try DocumentRows.pages(db, path: path, version: version)
        var place: [PageID: Int] = [:]
        for p in pages.live { place[p.id] = p.position }
        var known = Set(place.keys)
        for p in pages.deleted { known.insert(p.id) }

        var present = [[Stroke]](repeating: [], count: pages.live.count)
        var all: [StrokeID: Stroke] = [:]
        let q = try db.statement("SELECT \(DocumentRows.strokeColumns(version: version)) FROM strokes ORDER BY id")
        defer { q.reset() }
        var total = 0
        while try q.step() {
            let row = try DocumentRows.stroke(q, path: path)
            guard known.contains(row.page) else { throw bad("stroke \(row.id) is on page \(row.page), which the file does not have") }
            let s = try row.stroke(path: path)
            total += s.points.count
            guard total <= 100_000_000 else { throw bad("more than 100,000,000 points") }
            // One shown on a deleted page (builds before 2026-12 could write that on a shared board) stays with
            // that page, as the page's other items do.
            if row.present, let i = place[row.page] { present[i].append(s) }
            all[s.id] = s
        }
        let layerRows = try DocumentRows.layers(db, path: path, version: version)
        var layersOf: [PageID: [DocumentRows.LayerRow]] = [:]
        for l in layerRows {
            guard known.contains(l.page) else { throw bad("layer \(l.id) is on page \(l.page), which the file does not have") }
            if l.position != nil { layersOf[l.page, default: []].append(l) }
        }
        self.layerRows = Dictionary(layerRows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.layersOf = layersOf
        var document = Document(pages: try pages.live.enumerated().map { i, p in
            try page(p.id, format: p.format, items: present[i])
        })
        if let maxID = all.keys.max() { document.reserveStrokeIDs(through: maxID) }
        for p in pages.deleted { document.reservePageIDs(through: p.id) }
        document.files = try readFiles()
        // Every file an item or a page (deleted ones too, for undo) refers to must be there.
        for s in all.values {
            for h in s.content.image?.files ?? [] where document.files[h] == nil { throw bad("stroke \(s.id) shows missing file \(h.hex.prefix(12))…") }
        }
        for p in pages.live + pages.deleted {
            if let pdf = p.format.background.pdf, document.files[pdf.file] == nil { throw bad("page \(p.id) shows missing PDF \(pdf.file.hex.prefix(12))…") }
            if let h = p.format.background.picture, document.files[h] == nil { throw bad("page \(p.id) shows missing picture \(h.hex.prefix(12))…") }
        }
        guard version >= 2 else { return (document, History()) }
        return (document, try readHistory(all))
    }

    /// The embedded files (see `DocumentRows.files`).
    /// A page of its live layers (rows sorted by place: they must count up from 0) holding `items`, each on the
    /// layer it names; before format 13, its one layer.
    private func page(_ id: PageID, format: PageFormat, items: [Stroke]) throws -> Page {
        guard version >= Schema.layersVersion else { return Page(id: id, format: format, drawing: Drawing(strokes: items)) }
        let rows = layersOf[id] ?? []
        guard !rows.isEmpty else { throw bad("page \(id) has no layer") }
        var byLayer: [LayerID: [Stroke]] = [:]
        for s in items { byLayer[s.layer, default: []].append(s) }
        for (k, r) in rows.enumerated() where r.position != k {
            throw bad("layer \(r.id) of page \(id) is at place \(r.position ?? -1), expected \(k)")
        }
        // Items on a layer the page does not show (a deleted one: builds before 2026-12 left others' ink there when
        // the add of a layer they drew on was undone) are shown on the top layer, as ink whose layer is gone is.
        let shown = Set(rows.map(\.id)), top = rows[rows.count - 1].id
        for (layer, list) in byLayer where !shown.contains(layer) {
            byLayer[top, default: []] += list.map { var s = $0; s.layer = top; return s }
            byLayer[layer] = nil
        }
        return Page(id: id, format: format, layers: rows.map { $0.layer(Drawing(strokes: byLayer[$0.id] ?? [])) })
    }

    private func readFiles() throws -> [ContentHash: [UInt8]] { try DocumentRows.files(db, path: path, version: version) }

    private func readHistory(_ strokes: [StrokeID: Stroke]) throws -> History {
        var undo: [Edit] = [], redo: [Edit] = []
        try DocumentRows.forEachEdit(db, path: path, version: version) { row in
            func look(_ ids: [StrokeID]) throws -> [Stroke] {
                try ids.map { id in
                    guard let s = strokes[id] else { throw bad("\(row.name) refers to missing stroke \(id)") }
                    return s
                }
            }
            let removed = try look(row.strokes.removed), added = try look(row.strokes.added)
            // A stroke edit is on one page: the page its strokes name (a layer edit may span pages).
            if row.kind != .layers, let first = (removed.first ?? added.first), (removed + added).contains(where: { $0.page != first.page }) {
                throw bad("\(row.name) edits strokes of more than one page")
            }
            let edit: Edit
            switch (row.kind, row.pages) {
            case (.add, _): edit = .add(added)
            case (.remove, _): edit = .remove(removed)
            case (.replace, _): edit = .replace(removed: removed, added: added)
            case (.clear, _): edit = .clear(removed)
            case (.transform, _):
                // The strokes it moves are stored as added; the page is theirs.
                do {
                    var t = try PlacementCodec.decodeEdit(row.placement ?? [], ids: row.strokes.added)
                    t.page = added.first?.page ?? Page.firstID
                    edit = .transform(t)
                } catch let e as PlacementCodec.Failure {
                    throw bad("\(row.name): \(e)")
                }
            case (.addPage, .page(let id, let at, let format)?), (.deletePage, .page(let id, let at, let format)?):
                let own = row.kind == .addPage ? added : removed
                guard own.allSatisfy({ $0.page == id }) else { throw bad("\(row.name) names strokes of another page") }
                let page = try self.page(id, format: format, items: own)
                edit = row.kind == .addPage ? .addPage(page, at: at) : .deletePage(page, at: at)
            case (.movePage, .move(let from, let to)?): edit = .movePage(from: from, to: to)
            case (.layers, _):
                edit = .layers(try (row.layers ?? []).map { st -> LayerStep in
                    func layer(_ id: LayerID, page: PageID, items: [Stroke]) throws -> Layer {
                        guard let r = layerRows[id], r.page == page else { throw bad("\(row.name) names layer \(id), which page \(page) does not have") }
                        return r.layer(Drawing(strokes: items.filter { $0.page == page && $0.layer == id }))
                    }
                    switch st {
                    case .add(let p, let l, let at): return .add(page: p, layer: try layer(l, page: p, items: added), at: at)
                    case .delete(let p, let l, let at): return .delete(page: p, layer: try layer(l, page: p, items: removed), at: at)
                    case .other(let step): return step
                    }
                })
            case (.setFormat, .formats(let changes)?):
                edit = .setFormat(changes.map { Edit.FormatChange(page: $0.page, from: $0.from, to: $0.to) })
            default: throw bad("\(row.name) edits pages but does not say how")
            }
            if row.stack == .undo { undo.append(edit) } else { redo.append(edit) }
        }
        return History(undo: undo, redo: redo)
    }
}

/// Checks on the raw file before SQLite sees it, so the common wrong files get a precise message.
enum FileCheck {
    static let sqliteMagic = Array("SQLite format 3\u{0}".utf8)

    /// Existence, emptiness, the SQLite magic and a truncated main file.
    static func sqliteHeader(path: String) throws {
        guard let fh = FileHandle(forReadingAtPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw isDir.boolValue ? StoreError.unrecognized(path: path, reason: "is a folder, not a drawing")
                                      : StoreError.io(path: path, detail: "cannot be read (permission denied)")
            }
            throw StoreError.notFound(path: path)
        }
        defer { try? fh.close() }
        let head = [UInt8]((try? fh.read(upToCount: 100)) ?? Data())
        guard !head.isEmpty else { throw StoreError.emptyFile(path: path) }
        guard head.count >= 100, Array(head[0..<16]) == sqliteMagic else {
            throw StoreError.unrecognized(path: path, reason: "not an Oekaki document (no SQLite header)")
        }
        let rawPage = Int(head[16]) << 8 | Int(head[17])
        let pageSize = rawPage == 1 ? 65536 : rawPage
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw StoreError.corrupt(path: path, detail: "bad page size \(rawPage) in the header")
        }
        let pages = Int(head[28]) << 24 | Int(head[29]) << 16 | Int(head[30]) << 8 | Int(head[31])
        let size = Int((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)??.int64Value ?? 0)
        // The header's page count is valid only when the change counter matches "version valid for".
        let sizeValid = head[24..<28] == head[92..<96]
        // A live WAL can hold pages the main file does not have yet; only a clean file must be whole.
        if sizeValid, !hasLiveWAL(path: path), pages > 0, size < pages * pageSize {
            throw StoreError.corrupt(path: path, detail: "truncated: \(size) bytes of \(pages * pageSize)")
        }
    }

    /// True when a non-empty `-wal` file sits beside the database (a writer is running, or one crashed).
    static func hasLiveWAL(path: String) -> Bool {
        let n = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)??.int64Value ?? 0
        return n > 0
    }

    /// Bytes free for unprivileged writers on the filesystem holding `path` (Int.max when unknown).
    static func freeBytes(near path: String) -> Int {
        let dir = (path as NSString).deletingLastPathComponent
        var st = statvfs()
        guard statvfs(dir.isEmpty ? "." : dir, &st) == 0 else { return Int.max }
        return Int(st.f_bavail) * Int(st.f_frsize)
    }

    static func syncDirectory(of path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        let fd = Foundation.open(dir.isEmpty ? "." : dir, O_RDONLY)
        if fd >= 0 { fsync(fd); Foundation.close(fd) }
    }
}
