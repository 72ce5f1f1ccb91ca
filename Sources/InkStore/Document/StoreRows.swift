import InkCore

/// SQL on a document's own database for a module that keeps its state in the same file as the drawing (a shared
/// board's replica), always inside one of the document's transactions: what it writes commits, or rolls back,
/// with the change it belongs to. The store does not know what the rows mean.
public struct StoreRows {
    let db: SQLiteDatabase

    public enum Value {
        case int(Int64), double(Double), text(String), blob([UInt8]), null
    }

    /// The current row of a query; columns are 0-based.
    public struct Row {
        let q: SQLiteStatement
        public func int(_ c: Int32) -> Int64 { q.int(c) }
        public func double(_ c: Int32) -> Double { q.double(c) }
        public func text(_ c: Int32) -> String? { q.text(c) }
        public func blob(_ c: Int32) -> [UInt8] { q.blob(c) }
        public func isNull(_ c: Int32) -> Bool { q.isNull(c) }
    }

    /// Runs statements without values (creating a module's tables).
    public func execute(_ sql: String) throws { try db.execute(sql) }

    /// Runs one statement with `values` bound to ?1, ?2, …
    public func run(_ sql: String, _ values: [Value] = []) throws {
        try bind(try db.statement(sql), values).run()
    }

    /// Calls `row` for every row the query returns.
    public func query(_ sql: String, _ values: [Value] = [], _ row: (Row) throws -> Void) throws {
        let q = try bind(try db.statement(sql), values)
        defer { q.reset() }
        while try q.step() { try row(Row(q: q)) }
    }

    /// True when the database has a table of this name.
    public func hasTable(_ name: String) throws -> Bool {
        var found = false
        try query("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1", [.text(name)]) { _ in found = true }
        return found
    }

    private func bind(_ q: SQLiteStatement, _ values: [Value]) throws -> SQLiteStatement {
        for (i, v) in values.enumerated() {
            let k = Int32(i + 1)
            switch v {
            case .int(let x): _ = try q.bind(k, x)
            case .double(let x): _ = try q.bind(k, x)
            case .text(let x): _ = try q.bind(k, x)
            case .blob(let x): _ = try q.bind(k, x)
            case .null: _ = try q.bindNull(k)
            }
        }
        return q
    }
}
