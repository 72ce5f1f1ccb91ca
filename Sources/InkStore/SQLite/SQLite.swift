import CSQLite
import Foundation

/// The thin SQLite wrapper: the only file in InkStore that touches the C API, pointers and statement handles.
/// One `SQLiteDatabase` must be used from one thread (or one serial queue) at a time.
final class SQLiteDatabase {
    private var db: OpaquePointer?
    private var cache: [String: SQLiteStatement] = [:]
    let path: String

    struct Failure: Error {
        var code: Int32
        var message: String
        /// errno of the failed system call, when there was one (tells a full disk from other I/O errors).
        var systemErrno: Int32 = 0
        var isFull: Bool { code & 0xff == SQLITE_FULL || systemErrno == ENOSPC || systemErrno == EFBIG || systemErrno == EDQUOT }
        var isReadOnly: Bool { code & 0xff == SQLITE_READONLY }
        var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
        /// The operating system refused a write (a full disk, a file-size limit, a removed drive).
        var isWriteError: Bool { [3, 4, 6].contains(code >> 8) && code & 0xff == SQLITE_IOERR }  // IOERR_WRITE, _FSYNC, _TRUNCATE
        var isCorrupt: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
        var isIOError: Bool { code & 0xff == SQLITE_IOERR || code & 0xff == SQLITE_CANTOPEN }
    }

    enum Mode {
        case readWrite(create: Bool)
        /// Read-only; never writes the main file.
        case readOnly
        /// Read-only and assume nobody writes (no locks, no -shm); only valid with no -wal file beside it.
        case immutable
    }

    init(path: String, mode: Mode) throws {
        self.path = path
        var flags: Int32 = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readWrite(let create):
            flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
            name = Self.uri(path) + "?mode=ro"
        case .immutable:
            flags |= SQLITE_OPEN_READONLY
            name = Self.uri(path) + "?immutable=1"
        }
        if case .readWrite = mode { name = Self.uri(path) }
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(name, &handle, flags, nil)
        if rc != SQLITE_OK {
            let msg = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw Failure(code: rc, message: msg)
        }
        db = handle
        sqlite3_extended_result_codes(handle, 1)
        // A hostile file's schema (views, triggers, defaults) must not run functions on our behalf.
        sqlite3_exec(handle, "PRAGMA trusted_schema = OFF", nil, nil, nil)
        sqlite3_busy_timeout(handle, 2000)
    }

    /// `file:` URI with the characters SQLite treats specially escaped.
    private static func uri(_ path: String) -> String {
        var out = "file:"
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"): out += String(format: "%%%02X", b)
            default: out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }

    deinit { close() }

    func close() {
        cache.values.forEach { $0.finalize() }
        cache = [:]
        if let d = db { sqlite3_close_v2(d) }
        db = nil
    }

    private func failure(_ rc: Int32) -> Failure {
        Failure(code: rc, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed",
                systemErrno: db.map { sqlite3_system_errno($0) } ?? 0)
    }

    /// Runs one or more statements with no results.
    func execute(_ sql: String) throws {
        guard let d = db else { throw Failure(code: SQLITE_MISUSE, message: "database is closed") }
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(d, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(d))
            sqlite3_free(err)
            throw Failure(code: rc, message: msg, systemErrno: sqlite3_system_errno(d))
        }
    }

    /// A prepared statement, cached by its text (statements are reused on every commit).
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let s = cache[sql] { s.reset(); return s }
        guard let d = db else { throw Failure(code: SQLITE_MISUSE, message: "database is closed") }
        var st: OpaquePointer?
        let rc = sqlite3_prepare_v3(d, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &st, nil)
        guard rc == SQLITE_OK, let stmt = st else { throw failure(rc) }
        let s = SQLiteStatement(stmt, owner: self)
        cache[sql] = s
        return s
    }

    /// First column of the first row as an integer (PRAGMAs, counts).
    func integer(_ sql: String) throws -> Int64? {
        let s = try statement(sql)
        defer { s.reset() }
        return try s.step() ? s.int(0) : nil
    }

    func text(_ sql: String) throws -> String? {
        let s = try statement(sql)
        defer { s.reset() }
        return try s.step() ? s.text(0) : nil
    }

    /// Rows changed by the last INSERT/UPDATE/DELETE.
    var changes: Int { db.map { Int(sqlite3_changes($0)) } ?? 0 }
    var lastInsertRowID: Int64 { db.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let r = try body()
            try execute("COMMIT")
            return r
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    fileprivate func check(_ rc: Int32) throws {
        if rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW { throw failure(rc) }
    }
}

/// A prepared statement. Binding indexes are 1-based, column indexes 0-based, as in SQLite.
final class SQLiteStatement {
    private var stmt: OpaquePointer?
    private unowned let owner: SQLiteDatabase

    fileprivate init(_ stmt: OpaquePointer, owner: SQLiteDatabase) { self.stmt = stmt; self.owner = owner }

    fileprivate func finalize() { sqlite3_finalize(stmt); stmt = nil }

    func reset() { sqlite3_reset(stmt); sqlite3_clear_bindings(stmt) }

    @discardableResult
    func bind(_ i: Int32, _ v: Int64) throws -> SQLiteStatement {
        try owner.check(sqlite3_bind_int64(stmt, i, v)); return self
    }
    @discardableResult
    func bind(_ i: Int32, _ v: Double) throws -> SQLiteStatement {
        try owner.check(sqlite3_bind_double(stmt, i, v)); return self
    }
    @discardableResult
    func bind(_ i: Int32, _ v: String) throws -> SQLiteStatement {
        // SQLITE_TRANSIENT: SQLite copies the text before we return.
        try owner.check(sqlite3_bind_text(stmt, i, v, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))); return self
    }
    /// Text, or NULL for nil.
    @discardableResult
    func bind(_ i: Int32, _ v: String?) throws -> SQLiteStatement {
        guard let v else { return try bindNull(i) }
        return try bind(i, v)
    }
    @discardableResult
    func bindNull(_ i: Int32) throws -> SQLiteStatement {
        try owner.check(sqlite3_bind_null(stmt, i)); return self
    }
    @discardableResult
    func bind(_ i: Int32, _ v: [UInt8]) throws -> SQLiteStatement {
        // An empty array may have no address, which SQLite would take for NULL.
        if v.isEmpty { try owner.check(sqlite3_bind_zeroblob(stmt, i, 0)); return self }
        let rc = v.withUnsafeBytes { buf in
            sqlite3_bind_blob(stmt, i, buf.baseAddress, Int32(buf.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        try owner.check(rc); return self
    }

    /// Steps once: true when a row is available, false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        try owner.check(rc)
        return false
    }

    /// Runs to completion, ignoring rows.
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    func isNull(_ c: Int32) -> Bool { sqlite3_column_type(stmt, c) == SQLITE_NULL }
    func int(_ c: Int32) -> Int64 { sqlite3_column_int64(stmt, c) }
    func double(_ c: Int32) -> Double { sqlite3_column_double(stmt, c) }
    func text(_ c: Int32) -> String? {
        guard let p = sqlite3_column_text(stmt, c) else { return nil }
        return String(cString: p)
    }
    /// Hands the blob bytes to `body` without copying; the buffer is valid only inside `body`.
    func withBlob<T>(_ c: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let p = sqlite3_column_blob(stmt, c)
        let n = Int(sqlite3_column_bytes(stmt, c))
        return try body(UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n))
    }
    func blob(_ c: Int32) -> [UInt8] { withBlob(c) { Array($0) } }
}
