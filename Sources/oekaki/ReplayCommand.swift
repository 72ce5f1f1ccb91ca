import Foundation
import Localization
import InkCore
import InkStore

/// `oekaki replay LOG [-o OUT.oekaki]`: replays a JSON Lines event log through an `Editor` (the app's path)
/// and prints the drawing's summary as one line of JSON. `LOG` may be `-` for standard input.
enum ReplayCommand {
    static func run(_ args: [String]) throws {
        var log: String?
        var out: String?
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "-o" || a == "--output" {
                guard i + 1 < args.count else { throw CommandFailure.usage(localized("replay: {0} needs a file name", a)) }
                guard out == nil else { throw CommandFailure.usage(localized("replay: {0} given twice", a)) }
                out = args[i + 1]
                i += 2
                continue
            }
            if a.hasPrefix("-") && a != "-" { throw CommandFailure.usage(localized("replay: unknown option '{0}'", a)) }
            guard log == nil else { throw CommandFailure.usage(localized("replay: unexpected argument '{0}'", a)) }
            log = a
            i += 1
        }
        guard let log else { throw CommandFailure.usage(localized("replay: missing LOG")) }

        let editor = try replay(log)
        if let out {
            do {
                let doc = try DocumentFile.create(path: out, document: editor.document, history: editor.history)
                doc.close()
            } catch let e as StoreError {
                throw CommandFailure.input(e.description)   // already names the file
            } catch {
                throw CommandFailure.input("\(out): \(error)")
            }
        }
        // `selected`: the strokes selected when the log ends (selection ops and the lasso / select-rect tools).
        print(DrawingSummary(editor.document).json(extra: [("selected", String(editor.selectedStrokes.count))]))
    }

    /// Streams the file through the replay in fixed-size chunks, so memory stays bounded by the drawing.
    static func replay(_ path: String) throws -> Editor {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                throw CommandFailure.input(localized("{0}: no such file", path))
            }
            guard !isDir.boolValue else { throw CommandFailure.input(localized("{0}: is a directory, not an event log", path)) }
            guard let h = FileHandle(forReadingAtPath: path) else { throw CommandFailure.input(localized("{0}: cannot open (permission denied?)", path)) }
            handle = h
        }
        defer { if path != "-" { try? handle.close() } }
        var replay = EventLogReplay()
        do {
            while true {
                let chunk: Data?
                do { chunk = try handle.read(upToCount: 1 << 18) } catch {
                    throw CommandFailure.input(localized("{0}: cannot read: {1}", path, error.localizedDescription))
                }
                guard let chunk, !chunk.isEmpty else { break }
                try replay.feed([UInt8](chunk))
            }
            return try replay.finish()
        } catch let e as EventLogError {
            // The engine words it in English with its values apart; the catalogue has the words.
            throw CommandFailure.input("\(path):\(e.line): " + e.wording.rendered { localized($0) })
        }
    }
}
