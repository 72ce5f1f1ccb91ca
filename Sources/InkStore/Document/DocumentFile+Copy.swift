import Foundation

extension DocumentFile {
    /// Writes a compact copy of the document to `path` (replaced if there) without the undo history: what the
    /// document shows and keeps, as a file of its own that `open` reads like any other. `adjust` runs on the
    /// copy's rows first (another module's rows: what it keeps of its own there), and its answer is returned.
    public func writeCopyWithoutHistory<T>(to path: String, adjust: (StoreRows) throws -> T) throws -> T {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: self.path) : StoreError.closed }
        for s in ["", "-wal", "-shm", "-journal"] { unlink(path + s) }
        do {
            try db.execute("VACUUM INTO '\(path.replacingOccurrences(of: "'", with: "''"))'")
            let copy = try SQLiteDatabase(path: path, mode: .readWrite(create: false))
            defer { copy.close() }
            // One self-contained file: no write-ahead log beside it.
            try copy.execute("PRAGMA journal_mode = DELETE")
            let answer = try copy.transaction {
                try copy.execute("DELETE FROM history")
                return try adjust(StoreRows(db: copy))
            }
            try copy.execute("VACUUM")
            return answer
        } catch { throw Self.map(error, path: path) }
    }
}
