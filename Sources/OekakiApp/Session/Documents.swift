import Foundation
import Localization
import InkCore
import InkStore

/// Why a document could not be opened or saved, in words a user can act on.
enum DocumentError: Error, CustomStringConvertible {
    case unsupported(path: String)
    case cannotOpen(path: String, reason: String)
    case cannotCreate(path: String, reason: String)

    var description: String {
        switch self {
        case .unsupported(let p):
            return localized("cannot open {0}: Oekaki opens .oekaki drawings and imports .xopp and .pdf files", p)
        case .cannotOpen(let p, let r): return localized("cannot open {0}: {1}", p, r)
        case .cannotCreate(let p, let r): return localized("cannot create {0}: {1}", p, r)
        }
    }
}

/// An open document file and how the window names it.
struct OpenDocument {
    let file: DocumentFile
    /// True for drawings in the data directory that were never saved under a name.
    let isUntitled: Bool
    /// Extra words for the window's subtitle, e.g. where an imported file went.
    let note: String?

    var path: String { file.path }
    var name: String { (path as NSString).lastPathComponent }
}

/// Where drawings live and how files become documents.
enum Documents {
    /// A path as the header shows it: the home folder as "~".
    static func abbreviated(_ path: String) -> String {
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }

    static let untitledPrefix = "Untitled "

    /// `$XDG_DATA_HOME/oekaki`, by default `~/.local/share/oekaki`.
    static var dataDirectory: String {
        let env = ProcessInfo.processInfo.environment
        let base: String
        if let x = env["XDG_DATA_HOME"], x.hasPrefix("/") {
            base = x
        } else {
            base = (env["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/oekaki"
    }

    static func isUntitled(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        return url.deletingLastPathComponent().path == URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
            && url.lastPathComponent.hasPrefix(untitledPrefix) && url.pathExtension == "oekaki"
    }

    /// A new, empty drawing written to the data directory at once, so nothing lives only in memory.
    static func newUntitled() throws -> OpenDocument {
        let dir = dataDirectory
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw DocumentError.cannotCreate(path: dir, reason: error.localizedDescription)
        }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH.mm.ss"
        let stamp = f.string(from: Date())
        var path = "\(dir)/\(untitledPrefix)\(stamp).oekaki"
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = "\(dir)/\(untitledPrefix)\(stamp) (\(n)).oekaki"
            n += 1
        }
        return OpenDocument(file: try create(path, document: Document()), isUntitled: true, note: nil)
    }

    /// Opens FILE: an existing drawing, a new one if missing, or a `.xopp` or PDF imported into a new drawing.
    static func open(_ given: String) throws -> OpenDocument {
        // Absolute, so the title bar can say which folder the drawing lives in.
        let path = URL(fileURLWithPath: given).standardizedFileURL.path
        let ext = (path as NSString).pathExtension.lowercased()
        if ["png", "svg"].contains(ext) { throw DocumentError.unsupported(path: path) }
        if ext == "xopp" || ext == "pdf" { return try importXopp(path) }
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            if isDir.boolValue { throw DocumentError.cannotOpen(path: path, reason: localized("it is a folder")) }
            do {
                // A read-only file or folder opens anyway; changes go to a copy in the data folder, and the
                // window says where (RELIABILITY.md promise 6).
                let (file, fallback) = try DocumentFile.openOrContinueInCopy(path: path, folder: dataDirectory)
                return OpenDocument(file: file, isUntitled: fallback == nil && isUntitled(path), note: fallback?.message)
            } catch {
                throw DocumentError.cannotOpen(path: path, reason: "\(error)")
            }
        }
        return OpenDocument(file: try create(path, document: Document()), isUntitled: isUntitled(path), note: nil)
    }

    /// Writes the document and its history to a new file (Save As).
    static func saveCopy(of document: Document, history: History, to path: String) throws -> OpenDocument {
        var target = path
        if (target as NSString).pathExtension.lowercased() != "oekaki" { target += ".oekaki" }
        return OpenDocument(file: try create(target, document: document, history: history), isUntitled: isUntitled(target), note: nil)
    }

    /// Imports `NAME.xopp` or `NAME.pdf` (the PDF embedded, its pages as backgrounds) into `NAME.oekaki` next to it
    /// (or `NAME (2).oekaki`… if taken), falling back to the data directory when that folder is not writable.
    static func importXopp(_ path: String) throws -> OpenDocument {
        let document: Document
        var notes: [String] = []
        do {
            let loaded = try DocumentLoader.load(path: path)
            document = loaded.document
            notes = loaded.notes
        } catch {
            throw DocumentError.cannotOpen(path: path, reason: "\(error)")
        }
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        var folders = [url.deletingLastPathComponent().path]
        folders.append(dataDirectory)
        var lastError: Error?
        for folder in folders {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            guard FileManager.default.isWritableFile(atPath: folder) else { continue }
            var target = "\(folder)/\(stem).oekaki"
            var n = 2
            while FileManager.default.fileExists(atPath: target) {
                target = "\(folder)/\(stem) (\(n)).oekaki"
                n += 1
            }
            do {
                let file = try create(target, document: document)
                let extra = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
                return OpenDocument(file: file, isUntitled: false,
                                    note: localized("Imported from {0} · saved in {1}", url.lastPathComponent, abbreviated(folder)) + extra)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? DocumentError.cannotCreate(path: path, reason: localized("no writable folder for the imported drawing"))
    }

    /// Untitled drawings from earlier sessions that hold ink, newest first. Empty ones are deleted.
    static func unsavedDrawings(excluding current: String?) -> [String] {
        let dir = dataDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
        var found: [(path: String, date: Date)] = []
        // Side files whose document is gone (deleted while SQLite had them open).
        for name in names where name.hasSuffix(".oekaki-wal") || name.hasSuffix(".oekaki-shm") {
            let main = "\(dir)/" + name.dropLast(4)
            if !FileManager.default.fileExists(atPath: main) { try? FileManager.default.removeItem(atPath: "\(dir)/\(name)") }
        }
        for name in names where name.hasPrefix(untitledPrefix) && name.hasSuffix(".oekaki") {
            let path = "\(dir)/\(name)"
            if path == current { continue }
            let date = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
            // A big file certainly holds ink: list it without loading it, so launching stays quick.
            let bytes = [path, path + "-wal"].reduce(0) { sum, p in
                sum + ((try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? nil ?? 0)
            }
            if bytes > 256 * 1024 {
                found.append((path, date ?? Date.distantPast))
                continue
            }
            // Opening for writing takes the writer lock: a drawing open in another Oekaki window is skipped
            // (and never deleted), whatever it holds.
            guard let doc = try? DocumentFile.open(path: path) else { continue }
            let empty = doc.document.pages.count == 1 && doc.drawing.strokes.isEmpty && !doc.history.canUndo && !doc.history.canRedo
            doc.close()
            if empty {
                remove(path)
                continue
            }
            found.append((path, date ?? Date.distantPast))
        }
        return found.sorted { $0.date > $1.date }.map(\.path)
    }

    /// Deletes a document with SQLite's side files (write-ahead log, shared memory).
    static func remove(_ path: String) {
        for p in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: p) }
    }

    private static func create(_ path: String, document: Document, history: History = History()) throws -> DocumentFile {
        let folder = (path as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !folder.isEmpty {
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
                throw DocumentError.cannotCreate(path: path, reason: localized("the folder {0} does not exist", folder))
            }
            guard FileManager.default.isWritableFile(atPath: folder) else {
                throw DocumentError.cannotCreate(path: path, reason: localized("the folder {0} is not writable", folder))
            }
        }
        do {
            return try DocumentFile.create(path: path, document: document, history: history)
        } catch {
            throw DocumentError.cannotCreate(path: path, reason: "\(error)")
        }
    }
}
