import Foundation
import InkCore

/// A drawing that cannot be written where it is (read-only file or folder, a read-only mount) continues in a
/// copy somewhere writable, and the user is told where. Nothing of the original is changed.
public struct ReadOnlyFallback: Sendable, Equatable {
    /// The file the user opened.
    public let original: String
    /// The writable copy that now receives every change.
    public let copy: String

    /// One sentence for the window or stderr.
    public var message: String { "\(original) is read-only, so your changes are saved in \(copy)" }
}

extension DocumentFile {
    /// Opens `path` for writing. If the file or its folder is read-only, opens it read-only instead and
    /// continues in a copy (drawing and history) under `folder`, e.g. `$XDG_DATA_HOME/oekaki`; the copy is
    /// named after the original (`NAME.oekaki`, `NAME (2).oekaki`, …). Other errors are thrown as they are.
    public static func openOrContinueInCopy(path: String, folder: String) throws -> (file: DocumentFile, fallback: ReadOnlyFallback?) {
        do {
            return (try open(path: path), nil)
        } catch let e as StoreError {
            guard case .readOnly = e else { throw e }
        }
        let source = try open(path: path, readOnly: true)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError.readOnly(path: folder)
        }
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var target = "\(folder)/\(stem).oekaki"
        var n = 2
        while FileManager.default.fileExists(atPath: target) || target == path {
            target = "\(folder)/\(stem) (\(n)).oekaki"
            n += 1
        }
        let copy = try create(path: target, drawing: source.drawing, history: source.history)
        return (copy, ReadOnlyFallback(original: path, copy: target))
    }
}
