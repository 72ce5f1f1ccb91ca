import Foundation
import InkCore
import Localization

/// What a CLI (or the app's "open") gets from any drawing file.
public struct LoadedDocument {
    public var document: Document
    /// The first page's strokes (what single-page callers show).
    public var drawing: Drawing { document.pages[0].drawing }
    public var history: History
    /// "oekaki" or "xopp".
    public var format: String
    /// The file's format version (`user_version` for .oekaki, the root's `fileversion` for .xopp, 4 when absent).
    public var version: Int
    /// Lines worth telling the user on stderr (other pages, skipped elements, …).
    public var notes: [String]
}

/// Opens `.oekaki` or `.xopp` by content (SQLite header, gzip or zip magic), not by extension, read-only.
public enum DocumentLoader {
    public static func load(path: String, page: Int? = nil) throws -> LoadedDocument {
        let head = try peek(path)
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
            throw StoreError.unrecognized(path: path, reason: localized("a text file, not a drawing (.oekaki or .xopp)"))
        }
        throw StoreError.unrecognized(path: path, reason: localized("not a drawing: neither an Oekaki document nor a Xournal++ file"))
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
