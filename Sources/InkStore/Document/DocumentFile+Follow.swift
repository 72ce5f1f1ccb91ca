import InkCore

/// What another module needs to keep its state in a document: its own rows in the document's transactions, edits
/// that are not the user's (a shared board's, outside the history) and the strokes and pages it keeps out of the
/// drawing.
extension DocumentFile {
    /// Runs `body` in one transaction on the document's database.
    public func rows<T>(_ body: (StoreRows) throws -> T) throws -> T {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        do { return try db.transaction { try body(StoreRows(db: db)) } } catch { throw Self.map(error, path: path) }
    }

    /// Commits edits made outside the history (other people's, followed from a board), strokes and pages kept
    /// out of the drawing (a later edit may bring them back) and `extra` rows in one transaction; then applies
    /// the edits to `document` with `Document.apply`, as the editor does. On failure nothing changes.
    public func follow(_ edits: [Edit], keeping strokes: [Stroke] = [], keepingPages pages: [(id: PageID, format: PageFormat)] = [],
                       extra: (StoreRows) throws -> Void = { _ in }) throws {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        let w = DocumentWriter(db: db, files: document.files)
        do {
            try db.transaction {
                for e in edits { try w.applyForward(e, addedAreNew: true) }
                for s in strokes { try w.upsert(s, present: false) }
                for p in pages { try w.writePage(p.id, position: nil, format: p.format); try w.ensureLayer(p.id) }
                try extra(StoreRows(db: db))
            }
        } catch { throw Self.map(error, path: path) }
        for e in edits { document.apply(e) }
    }

    /// Pages kept out of the document (deleted, for an undo or a board to bring back), with their formats.
    public func deletedPages() throws -> [(id: PageID, format: PageFormat)] {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        do {
            return try DocumentRows.pages(db, path: path, version: Schema.currentVersion).deleted.map { (id: $0.id, format: $0.format) }
        } catch { throw Self.map(error, path: path) }
    }

    /// The strokes among `ids` that are kept out of the drawing, checked as every stored stroke is.
    public func keptStrokes(_ ids: Set<StrokeID>) throws -> [Stroke] {
        guard let db = db else { throw isReadOnly ? StoreError.readOnly(path: path) : StoreError.closed }
        guard !ids.isEmpty else { return [] }
        var out: [Stroke] = []
        do {
            let q = try db.statement("SELECT \(DocumentRows.strokeColumns(version: Schema.currentVersion)) FROM strokes WHERE present = 0")
            defer { q.reset() }
            while try q.step() {
                guard ids.contains(UInt64(bitPattern: q.int(0))) else { continue }
                out.append(try DocumentRows.stroke(q, path: path).stroke(path: path))
            }
        } catch { throw Self.map(error, path: path) }
        return out
    }
}

extension DocumentFile {
    /// The widest stroke a document keeps.
    public static var maxStrokeWidth: Double { Schema.maxStrokeWidth }
}

extension PageFormat {
    /// A page format as the short checked text the store keeps (`PageEditText`'s FORMAT).
    public var storedText: String { PageEditText.format(self) }

    /// Reads `storedText`; untrusted text is an error, never a crash.
    public init(storedText text: String) throws { self = try PageEditText.readFormat(text) }
}
