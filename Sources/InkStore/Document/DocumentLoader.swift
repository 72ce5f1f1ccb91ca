import Foundation
import InkCore
import InkPDF
import Localization

/// What a CLI (or the app's "open") gets from any drawing file.
public struct LoadedDocument {
    public var document: Document
    /// The first page's strokes (what single-page callers show).
    public var drawing: Drawing { document.pages[0].flattened }
    public var history: History
    /// "oekaki", "xopp" or "pdf".
    public var format: String
    /// The file's format version (`user_version` for .oekaki, the root's `fileversion` for .xopp, 4 when absent;
    /// for a PDF its version ×10, e.g. 17 for PDF 1.7).
    public var version: Int
    /// Lines worth telling the user on stderr (other pages, skipped elements, …).
    public var notes: [String]
}

/// Opens `.oekaki`, `.xopp` or a PDF by content (SQLite header, gzip or zip magic, `%PDF`), not by extension,
/// read-only. A PDF becomes a new document with its pages as backgrounds (`PDFImport`).
public enum DocumentLoader {
    public static func load(path: String, page: Int? = nil) throws -> LoadedDocument {
        let head = try peek(path)
        if PDFSource.looksLikePDF(head) {
            let doc = try readPDF(path)
            if let p = page, !(1...doc.pages.count).contains(p) {
                throw StoreError.noSuchPage(path: path, page: p, pages: doc.pages.count)
            }
            return LoadedDocument(document: doc, history: History(), format: "pdf", version: pdfVersion(head), notes: [])
        }
        if head.starts(with: FileCheck.sqliteMagic.prefix(16)) {
            let doc = try DocumentFile.open(path: path, readOnly: true)
            if let p = page, !(1...doc.document.pages.count).contains(p) {
                throw StoreError.noSuchPage(path: path, page: p, pages: doc.document.pages.count)
            }
            return LoadedDocument(document: doc.document, history: doc.history, format: "oekaki", version: doc.foundVersion, notes: [])
        }
        if head.starts(with: XoppImport.gzipMagic) || head.starts(with: ZipPackage.magic) || head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<xournal".utf8)) {
            let r = try XoppImport.read(path: path, page: page ?? 1)
            return LoadedDocument(document: r.document, history: History(), format: "xopp", version: r.fileVersion, notes: r.notes)
        }
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 < 0x7F) }) {
            throw StoreError.unrecognized(path: path, reason: localized("a text file, not a drawing (.oekaki, .xopp or .pdf)"))
        }
        throw StoreError.unrecognized(path: path, reason: localized("not a drawing: neither an Oekaki document, a Xournal++ file nor a PDF"))
    }

    /// A PDF file's pages as a new document, the file embedded; every refusal is a one-line `badPDF`.
    public static func readPDF(_ path: String) throws -> Document {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil ?? 0
        guard size <= PDFSource.maxBytes else { throw StoreError.badPDF(path: path, detail: PDFError.tooLarge(size).description) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StoreError.io(path: path, detail: localized("cannot be read (permission denied)"))
        }
        do { return try PDFImport.document(bytes: [UInt8](data)) } catch let e as PDFError {
            throw StoreError.badPDF(path: path, detail: e.description)
        }
    }

    /// "%PDF-1.7" → 17 (0 when unreadable).
    private static func pdfVersion(_ head: [UInt8]) -> Int {
        let text = String(decoding: head, as: UTF8.self)
        guard let r = text.range(of: "%PDF-") else { return 0 }
        let digits = text[r.upperBound...].prefix(3).filter { $0.isNumber }
        return Int(String(digits)) ?? 0
    }

    private static func peek(_ path: String) throws -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw StoreError.notFound(path: path) }
        guard !isDir.boolValue else { throw StoreError.unrecognized(path: path, reason: localized("is a folder, not a drawing")) }
        guard let fh = FileHandle(forReadingAtPath: path) else { throw StoreError.io(path: path, detail: localized("cannot be read (permission denied)")) }
        defer { try? fh.close() }
        let d = [UInt8]((try? fh.read(upToCount: 64)) ?? Data())
        guard !d.isEmpty else { throw StoreError.emptyFile(path: path) }
        return d
    }
}
