import Foundation
import Commands
import Localization
import InkCore
import InkStore

/// `oekaki replay LOG [-o OUT.oekaki]`: replays a JSON Lines event log through an `Editor` (the app's path)
/// and prints the drawing's summary as one line of JSON. `LOG` may be `-` for standard input.
enum ReplayCommand {
    static let usage = Usage("oekaki replay LOG [-o OUT.oekaki]", localized("replay a JSON Lines event log, print the summary"))

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "replay", options: [.value("-o", "--output") { localized("replay: {0} needs a file name", $0) }])
        let log = try a.files(1, missing: localized("replay: missing LOG"))[0]
        let out = a.value("-o")

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
