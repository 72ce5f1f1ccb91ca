import Foundation
import InkCore

/// An open `.oekaki` document: a SQLite database mirroring a drawing and its history, one transaction per change.
///
/// Durability: the database runs in WAL mode with `synchronous=FULL`, so `commit` returns only after the change
/// is on disk; a process killed at any moment leaves a file holding every committed change.
///
/// Threading: a `DocumentFile` is not thread-safe. Use it from one thread or one serial queue only
/// (e.g. the app's autosave queue), handing it immutable `Change` values.
public final class DocumentFile {
    public internal(set) var document: Document
    public private(set) var history: History
    /// The first page's strokes: all there is in a one-page document.
    public var drawing: Drawing { document.pages[0].flattened }
    public let path: String
    public let isReadOnly: Bool
    /// The format version of the file as it was found (before any migration).
    public let foundVersion: Int
    var db: SQLiteDatabase?
    private var lock: WriterLock?
    /// How many stored edits name each stroke. A stroke out of the drawing that no edit names any more (its
    /// last edits were on a discarded redo stack) is deleted; counting here spares the file an index of it.
    private var references: [StrokeID: Int] = [:]
    /// Likewise for pages that page edits name: a deleted page's row goes when no edit can bring it back.
    private var pageReferences: [PageID: Int] = [:]
    /// Called inside the transaction of every committed change, after its rows: another module's rows that must
    /// commit with the change (a shared board's outbox). Throwing rolls the change back.
    public var onCommit: ((Change, StoreRows) throws -> Void)?

    public static var formatVersion: Int { Schema.currentVersion }

    private init(path: String, document: Document, history: History, readOnly: Bool, foundVersion: Int,
                 db: SQLiteDatabase?, lock: WriterLock?) {
        self.path = path; self.document = document; self.history = history
        self.isReadOnly = readOnly; self.foundVersion = foundVersion; self.db = db; self.lock = lock
        if db != nil {
            references.reserveCapacity(history.undoStack.count + history.redoStack.count)
            for e in history.undoStack { count(e, 1) }
            for e in history.redoStack { count(e, 1) }
        }
    }

    deinit { close() }

    // MARK: opening

    /// Opens an existing document. Read-only never changes the file; read-write upgrades an older format,
    /// takes an exclusive writer lock (a second writer gets `.inUse`) and keeps the database open for `commit`.
    public static func open(path: String, readOnly: Bool = false) throws -> DocumentFile {
        try FileCheck.sqliteHeader(path: path)
        if readOnly {
            let db = try openDatabase(path: path, mode: FileCheck.hasLiveWAL(path: path) ? .readOnly : .immutable)
            defer { db.close() }
            let version = try checkIdentity(db, path: path)
            var reader = DocumentReader(db: db, path: path, version: version)
            let (d, h) = try reader.read()
            return DocumentFile(path: path, document: d, history: h, readOnly: true, foundVersion: version, db: nil, lock: nil)
        }
        let lock: WriterLock
        switch WriterLock.acquire(path: path) {
        case .locked(let l): lock = l
        case .busy: throw StoreError.inUse(path: path)
        case .failed(let e): throw StoreError.io(path: path, detail: String(cString: strerror(e)))
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw StoreError.readOnly(path: path) }
        // SQLite writes its log (-wal, -shm) beside the file, so a read-only folder makes the document read-only.
        let folder = (path as NSString).deletingLastPathComponent
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            throw StoreError.readOnly(path: path)
        }
        let db = try openDatabase(path: path, mode: .readWrite(create: false))
        do {
            let version = try checkIdentity(db, path: path)
            try configure(db, path: path)
            if version < Schema.currentVersion {
                // A damaged old file is refused as it is, not converted first.
                var old = DocumentReader(db: db, path: path, version: version)
                _ = try old.read()
                try migrate(db, from: version, path: path)
            }
            var reader = DocumentReader(db: db, path: path, version: Schema.currentVersion)
            let (d, h) = try reader.read()
            return DocumentFile(path: path, document: d, history: h, readOnly: false, foundVersion: version, db: db, lock: lock)
        } catch {
            db.close()
            throw error
        }
    }

    /// Creates (or replaces) a one-page document holding `drawing` on a page of its size (see `Document(drawing:)`).
    public static func create(path: String, drawing: Drawing, history: History = History()) throws -> DocumentFile {
        try create(path: path, document: Document(drawing: drawing), history: history)
    }

    /// Creates (or replaces) a document holding `document` and `history`, and opens it for writing.
    /// The new file is built beside the target and renamed over it, so a crash never leaves half a document.
    public static func create(path: String, document: Document, history: History = History()) throws -> DocumentFile {
        if FileManager.default.fileExists(atPath: path) {
            if case .busy = WriterLock.acquire(path: path) { throw StoreError.inUse(path: path) }
        }
        let dir = (path as NSString).deletingLastPathComponent
        // Say it in the user's terms (the folder is read-only) rather than SQLite's about our temp file.
        if access(dir.isEmpty ? "." : dir, W_OK) != 0 {
            switch errno {
            case EACCES, EROFS, EPERM: throw StoreError.readOnly(path: path)
            case ENOENT, ENOTDIR: throw StoreError.io(path: path, detail: "the folder \(dir) does not exist")
            default: break
            }
        }
        let tmp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).creating"
        removeSidecars(tmp, includingMain: true)
        removeAbandonedCopies(of: path)
        do {
            let db = try openDatabase(path: tmp, mode: .readWrite(create: true))
            do {
                try db.transaction {
                    try Schema.upgrade(db, from: 0)
                    try db.execute("PRAGMA application_id = \(Schema.applicationID)")
                    let w = DocumentWriter(db: db, files: document.files)
                    guard document.pages.count <= Schema.maxPages else {
                        throw StoreError.unstorable("\(document.pages.count) pages; a document holds at most \(Schema.maxPages)")
                    }
                    var seen = Set<StrokeID>()
                    var layersSeen = Set<LayerID>()
                    for (i, p) in document.pages.enumerated() {
                        try w.writePage(p.id, position: i, format: p.format)
                        for (k, l) in p.layers.enumerated() { try w.writeLayer(l, page: p.id, position: k); layersSeen.insert(l.id) }
                        for s in p.strokes { try w.upsert(s, present: true); seen.insert(s.id) }
                    }
                    // Pages, layers and strokes not in the document (taken away by an edit) are kept for undo.
                    var pagesSeen = Set(document.pages.map(\.id))
                    for e in history.undoStack + history.redoStack {
                        switch e {
                        case .addPage(let p, _), .deletePage(let p, _):
                            if pagesSeen.insert(p.id).inserted {
                                try w.writePage(p.id, position: nil, format: p.format)
                                for (k, l) in p.layers.enumerated() where layersSeen.insert(l.id).inserted { try w.writeLayer(l, page: p.id, position: k) }
                            }
                        case .layers(let steps):
                            for st in steps {
                                switch st {
                                case .add(let p, let l, _), .delete(let p, let l, _):
                                    if layersSeen.insert(l.id).inserted { try w.writeLayer(l, page: p, position: nil) }
                                default: break
                                }
                            }
                        default: break
                        }
                        for s in e.removed + e.added where !seen.contains(s.id) {
                            seen.insert(s.id)
                            try w.upsert(s, present: false)
                        }
                    }
                    for e in history.undoStack { try w.push(e, on: .undo) }
                    for e in history.redoStack { try w.push(e, on: .redo) }
                }
                try db.execute("PRAGMA journal_mode = WAL")
                db.close()
            } catch {
                db.close()
                throw error
            }
            removeSidecars(path, includingMain: false)
            guard rename(tmp, path) == 0 else {
                throw StoreError.io(path: path, detail: "cannot replace the file: \(String(cString: strerror(errno)))")
            }
            FileCheck.syncDirectory(of: path)
        } catch {
            removeSidecars(tmp, includingMain: true)
            throw map(error, path: path)
        }
        return try open(path: path, readOnly: false)
    }

    /// Half-written copies (`.NAME.PID.creating`) left by a process killed while creating NAME; they can be as
    /// big as the document. Only those whose process is gone are removed.
    private static func removeAbandonedCopies(of path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        let prefix = ".\((path as NSString).lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.isEmpty ? "." : dir) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".creating") {
            let pidText = name.dropFirst(prefix.count).dropLast(".creating".count)
            guard let pid = Int32(pidText), pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            removeSidecars((dir.isEmpty ? "." : dir) + "/" + name, includingMain: true)
        }
    }

    private static func removeSidecars(_ p: String, includingMain: Bool) {
        for s in (includingMain ? [""] : []) + ["-wal", "-shm", "-journal"] { unlink(p + s) }
    }

    // MARK: writing

    /// Makes the bytes of files (images, PDFs) known before the changes that refer to them are committed; each
    /// is written with the first change naming it. The editor's `Document.files` is the usual source.
    public func addFiles(_ files: [ContentHash: [UInt8]]) {
        for (h, b) in files where document.files[h] == nil { document.files[h] = b }
    }

    /// Bytes of files a shared board named before they arrived (the document holds them empty meanwhile), each
    /// checked against its name, written in place of the empty ones in one transaction. Returns those that
    /// filled a gap.
    public func fillFiles(_ files: [ContentHash: [UInt8]]) throws -> [ContentHash: [UInt8]] {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        let filled = files.filter { h, b in !b.isEmpty && document.files[h]?.isEmpty == true && ContentHash(of: b) == h }
        guard !filled.isEmpty else { return [:] }
        do {
            try db.transaction {
                for (h, b) in filled {
                    try db.statement("UPDATE files SET bytes = ? WHERE hash = ? AND length(bytes) = 0").bind(1, b).bind(2, h.hex).run()
                }
            }
        } catch { throw Self.map(error, path: path) }
        for (h, b) in filled { document.files[h] = b }
        return filled
    }

    /// Commits the changes in one transaction each, in order. On failure nothing of the failed change is
    /// written, `drawing`/`history` stay at the last committed state, and the caller may retry the rest.
    public func commit(_ changes: [Change]) throws {
        for c in changes { try commit(c) }
    }

    private func commit(_ change: Change) throws {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        let w = DocumentWriter(db: db, files: document.files)
        // `history` is changed in place, and only after the transaction succeeded: working on a copy would copy
        // the whole undo stack on every commit (measured 0.15 ms per commit at 10,000 edits, growing with it).
        do {
            switch change {
            case .did(let e):
                try db.transaction {
                    let dropped = unreferenced(after: e)
                    try w.discardRedo(deleting: dropped.strokes, pages: dropped.pages)
                    try w.applyForward(e, addedAreNew: true)
                    try w.push(e, on: .undo)
                    try onCommit?(change, StoreRows(db: db))
                }
            case .undid(let e):
                guard let top = history.undoStack.last, top.sameShape(as: e) else {
                    throw StoreError.outOfSync("undo of an edit that is not on top of the undo stack")
                }
                try db.transaction {
                    try w.move(from: .undo, to: .redo)
                    try w.applyForward(e.inverse, addedAreNew: false)
                    try onCommit?(change, StoreRows(db: db))
                }
            case .redid(let e):
                guard let top = history.redoStack.last, top.sameShape(as: e) else {
                    throw StoreError.outOfSync("redo of an edit that is not on top of the redo stack")
                }
                try db.transaction {
                    try w.move(from: .redo, to: .undo)
                    try w.applyForward(e, addedAreNew: false)
                    try onCommit?(change, StoreRows(db: db))
                }
            }
        } catch {
            throw Self.map(error, path: path)
        }
        switch change {
        case .did(let e):
            for d in history.redoStack { count(d, -1) }
            count(e, 1)
            history.record(e); document.apply(e)
        case .redid(let e): _ = history.redo(); document.apply(e)
        case .undid(let e): _ = history.undo(); document.apply(e.inverse)
        }
    }

    private func count(_ e: Edit, _ delta: Int) {
        for id in e.namedIDs {
            let n = (references[id] ?? 0) + delta
            references[id] = n > 0 ? n : nil
        }
        if let id = e.namedPage {
            let n = (pageReferences[id] ?? 0) + delta
            pageReferences[id] = n > 0 ? n : nil
        }
    }

    /// Strokes that `.did(e)` leaves out of the drawing and out of every edit: named only by the redo stack it
    /// discards. Costs in proportion to that stack, never to the drawing or the undo stack.
    /// Likewise the deleted pages only those edits could bring back.
    private func unreferenced(after e: Edit) -> (strokes: [StrokeID], pages: [PageID]) {
        guard !history.redoStack.isEmpty else { return ([], []) }
        var dropped: [StrokeID: (count: Int, page: PageID)] = [:]
        var droppedPages: [PageID: Int] = [:]
        for d in history.redoStack {
            for s in d.removed + d.added { dropped[s.id, default: (0, s.page)].count += 1 }
            if case .transform(let t) = d { for id in t.ids { dropped[id, default: (0, t.page)].count += 1 } }
            if let p = d.namedPage { droppedPages[p, default: 0] += 1 }
        }
        let kept = Set(e.namedIDs)
        let strokes = dropped.compactMap { id, d in
            (references[id] ?? 0) <= d.count && !kept.contains(id) && document.page(d.page)?.stroke(id) == nil ? id : nil
        }.sorted()
        let pages = droppedPages.compactMap { id, n in
            (pageReferences[id] ?? 0) <= n && e.namedPage != id && document.index(of: id) == nil ? id : nil
        }.sorted()
        return (strokes, pages)
    }

    /// Closes the database (checkpointing the WAL into the main file) and releases the writer lock.
    public func close() {
        db?.close(); db = nil
        lock?.release(); lock = nil
    }

    // MARK: helpers

    private static func openDatabase(path: String, mode: SQLiteDatabase.Mode) throws -> SQLiteDatabase {
        do { return try SQLiteDatabase(path: path, mode: mode) } catch { throw map(error, path: path) }
    }

    private static func configure(_ db: SQLiteDatabase, path: String) throws {
        do {
            // WAL: a commit appends to the log; FULL: and fsyncs it, so a committed change survives power loss too.
            let mode = try db.text("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else { throw StoreError.io(path: path, detail: "cannot switch to WAL journal") }
            try db.execute("PRAGMA synchronous = FULL")
        } catch { throw map(error, path: path) }
    }

    /// Checks application_id, user_version and integrity; returns the format version.
    static func checkIdentity(_ db: SQLiteDatabase, path: String) throws -> Int {
        do {
            let app = try db.integer("PRAGMA application_id") ?? 0
            let version = Int(try db.integer("PRAGMA user_version") ?? 0)
            guard app == Schema.applicationID else {
                throw StoreError.unrecognized(path: path, reason: "a SQLite database, but not an Oekaki document (application id \(app))")
            }
            guard version <= Schema.currentVersion else {
                throw StoreError.newerFormat(path: path, version: version, supported: Schema.currentVersion)
            }
            guard version >= 1 else { throw StoreError.corrupt(path: path, detail: "format version \(version) is not valid") }
            try checkSchema(db, path: path)
            let check = try db.text("PRAGMA quick_check(1)") ?? "no result"
            guard check == "ok" else { throw StoreError.corrupt(path: path, detail: "integrity check failed (\(check))") }
            return version
        } catch { throw map(error, path: path) }
    }

    /// Only our own tables and indexes: a hostile file could put a (recursive, never-ending) view or a trigger
    /// where a table should be, and reading it must not run somebody else's SQL.
    private static func checkSchema(_ db: SQLiteDatabase, path: String) throws {
        let q = try db.statement("SELECT type, name FROM sqlite_schema")
        defer { q.reset() }
        while try q.step() {
            let type = q.text(0) ?? "", name = q.text(1) ?? ""
            // Any table is data (other modules keep theirs here, see `StoreRows`); views and triggers run SQL.
            let ok = type == "table"
                || (type == "index" && (Schema.indexes.contains(name) || name.hasPrefix("sqlite_autoindex_")))
            guard ok else { throw StoreError.corrupt(path: path, detail: "unexpected \(type) '\(name)' in the database") }
        }
    }

    private static func migrate(_ db: SQLiteDatabase, from version: Int, path: String) throws {
        do {
            try db.transaction { try Schema.upgrade(db, from: version) }
        } catch { throw map(error, path: path) }
    }

    /// Turns SQLite failures into messages a user can act on.
    static func map(_ error: Error, path: String) -> Error {
        guard let f = error as? SQLiteDatabase.Failure else {
            if let c = error as? PointCodec.Failure { return StoreError.corrupt(path: path, detail: c.description) }
            if let c = error as? EditStrokes.Failure { return StoreError.corrupt(path: path, detail: c.description) }
            return error
        }
        if f.isFull { return StoreError.diskFull(path: path) }
        if f.isReadOnly { return StoreError.readOnly(path: path) }
        if f.isBusy { return StoreError.inUse(path: path) }
        if f.isCorrupt { return StoreError.corrupt(path: path, detail: f.message) }
        if f.isWriteError { return FileCheck.freeBytes(near: path) < 1 << 20 ? StoreError.diskFull(path: path) : StoreError.writeFailed(path: path) }
        let reason = f.systemErrno != 0 ? " (\(String(cString: strerror(f.systemErrno))))" : ""
        return StoreError.io(path: path, detail: f.message + reason + " [code \(f.code)]")
    }
}

extension Edit {
    var kind: Schema.EditKind {
        switch self {
        case .add: return .add
        case .remove: return .remove
        case .replace: return .replace
        case .clear: return .clear
        case .addPage: return .addPage
        case .deletePage: return .deletePage
        case .movePage: return .movePage
        case .setFormat: return .setFormat
        case .transform: return .transform
        case .layers: return .layers
        }
    }

    /// The page an add- or delete-page edit names (it keeps that page's row alive while the edit is stored).
    var namedPage: PageID? {
        switch self {
        case .addPage(let p, _), .deletePage(let p, _): return p.id
        default: return nil
        }
    }

    /// Same kind and same stroke ids: enough to tell the edit on top of a stack from another one, cheaply.
    func sameShape(as o: Edit) -> Bool {
        kind == o.kind && removed.map(\.id) == o.removed.map(\.id) && added.map(\.id) == o.added.map(\.id)
            && (!changesPages || PageEditText.encode(self) == PageEditText.encode(o)) && transformedIDs == o.transformedIDs
            && LayerEditText.encode(self) == LayerEditText.encode(o)
    }

    /// The strokes a transform edit moves (none for other edits).
    var transformedIDs: [StrokeID] {
        if case .transform(let t) = self { return t.ids }
        return []
    }

    /// Every stroke the stored edit names: those it removes, adds or moves.
    var namedIDs: [StrokeID] { removed.map(\.id) + added.map(\.id) + transformedIDs }
}
