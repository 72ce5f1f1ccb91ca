import CSQLite
import InkCore

public enum StoreError: Error, CustomStringConvertible {
    case notImplemented
    public var description: String { "not implemented yet" }
}

/// An open `.oekaki` document: a SQLite database mirroring a drawing and its history, one transaction per change.
public final class DocumentFile {
    public private(set) var drawing: Drawing
    public private(set) var history: History
    public let path: String

    init(path: String, drawing: Drawing, history: History) {
        self.path = path; self.drawing = drawing; self.history = history
    }

    /// Opens an existing document. Read-only never changes the file.
    public static func open(path: String, readOnly: Bool = false) throws -> DocumentFile {
        throw StoreError.notImplemented
    }

    /// Creates (or replaces) a document holding `drawing` and `history`.
    public static func create(path: String, drawing: Drawing, history: History = History()) throws -> DocumentFile {
        throw StoreError.notImplemented
    }

    /// Commits the changes in one transaction each, in order.
    public func commit(_ changes: [Change]) throws {
        throw StoreError.notImplemented
    }

    public func close() {}
}
