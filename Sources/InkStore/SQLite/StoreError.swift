import Localization

/// Why a document could not be read or written. Every message names the file and says what to do about it.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case notFound(path: String)
    case emptyFile(path: String)
    /// Not a format we read at all (random bytes, a text file, another app's database).
    case unrecognized(path: String, reason: String)
    /// An Oekaki document from a newer Oekaki.
    case newerFormat(path: String, version: Int, supported: Int)
    /// The file is an Oekaki document but damaged (truncated, failed integrity check, bad rows).
    case corrupt(path: String, detail: String)
    /// A `.xopp` file we cannot import, with the reason.
    case badXopp(path: String, detail: String)
    /// A PDF we cannot import (malformed, encrypted, too many pages), with the reason.
    case badPDF(path: String, detail: String)
    case noSuchPage(path: String, page: Int, pages: Int)
    case readOnly(path: String)
    /// Another process has the document open for writing.
    case inUse(path: String)
    case diskFull(path: String)
    /// A write failed for another reason (file-size limit, a drive removed, an I/O error).
    case writeFailed(path: String)
    case io(path: String, detail: String)
    /// The drawing holds something the format cannot store (a page or width out of range, a NaN point).
    case unstorable(String)
    /// The changes handed to `commit` do not match the document's history (a programming error in the caller).
    case outOfSync(String)
    case closed

    /// True when trying the same write again can never succeed (the data itself is refused), as opposed to
    /// a disk, lock or permission problem that may clear up.
    public var isPermanent: Bool {
        switch self {
        case .unstorable, .outOfSync: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .notFound(let p): return localized("{0}: no such file", p)
        case .emptyFile(let p): return localized("{0}: the file is empty (0 bytes), not a drawing", p)
        case .unrecognized(let p, let r): return "\(p): \(r)"
        case .newerFormat(let p, let v, let s):
            return localized("{0}: made by a newer Oekaki (format {1}); this one reads up to {2}. Update Oekaki to open it", p, v, s)
        case .corrupt(let p, let d): return localized("{0}: the document is damaged: {1}", p, d)
        case .badXopp(let p, let d): return localized("{0}: cannot import this Xournal++ file: {1}", p, d)
        case .badPDF(let p, let d): return localized("{0}: cannot open this PDF: {1}", p, d)
        case .noSuchPage(let p, let k, let n):
            return localizedPlural("{0}: there is no page {1}; the document has %d page", "{0}: there is no page {1}; the document has %d pages", n, p, k)
        case .readOnly(let p): return localized("{0}: the file or its folder is read-only; save the drawing under another name", p)
        case .inUse(let p): return localized("{0}: the document is open in another Oekaki; close it there first", p)
        case .diskFull(let p): return localized("{0}: the disk is full; the change was not saved (free some space and it will be retried)", p)
        case .writeFailed(let p): return localized("{0}: the change could not be written to the disk (full, over a size limit, or removed?); it was not saved and will be retried", p)
        case .io(let p, let d): return "\(p): \(d)"
        case .unstorable(let d): return localized("cannot save this drawing: {0}", d)
        case .outOfSync(let d): return "the document history does not match the editor: \(d)"
        case .closed: return localized("the document is closed")
        }
    }
}
