import Foundation
import InkCore
import InkStore
import InkSync

/// `oekaki sync FILE URL [--once]`: connects the replica FILE (a `.oekaki`, created if missing) to the board at
/// URL. Publishes what FILE holds that the board lacks and applies what the board holds that FILE lacks; with
/// `--once` it stops when both are caught up, otherwise it keeps going, one line per batch applied.
enum SyncCommand {
    static func run(_ args: [String]) throws {
        var once = false
        var positional: [String] = []
        for a in args {
            if a == "--once" { once = true; continue }
            if a.hasPrefix("-") && a.count > 1 { throw CommandFailure.usage("sync: unknown option '\(a)'") }
            positional.append(a)
        }
        guard positional.count == 2 else { throw CommandFailure.usage("sync: needs FILE and URL") }
        let (file, text) = (positional[0], positional[1])
        let url: BoardURL
        do { url = try BoardURL(text) } catch { throw CommandFailure.input("\(error)") }

        let document: DocumentFile
        do {
            document = FileManager.default.fileExists(atPath: file)
                ? try DocumentFile.open(path: file) : try DocumentFile.create(path: file, document: Document())
        } catch { throw CommandFailure.input("\(error)") }
        defer { document.close() }

        do {
            let sync = try BoardSync(document: document, url: url)
            try sync.connect(timeoutMs: 5000)
            if once {
                try sync.syncOnce()
                print("\(file): in step with \(url) at entry \(sync.replica.ledger.lastSequence), \(document.document.strokeCount) strokes on \(document.document.pages.count) pages")
                return
            }
            try live(sync, file: file)
        } catch let f as BoardSync.Failure {
            throw CommandFailure.input(f.description)
        }
    }

    /// Until interrupted: apply batches as they come, publish what is waiting, reconnect after losing the server.
    private static func live(_ sync: BoardSync, file: String) throws {
        setvbuf(stdout, nil, _IOLBF, 0)
        var offline = false
        while true {
            do {
                if offline {
                    try sync.connect(timeoutMs: 2000)
                    offline = false
                    print("online again")
                }
                let n = try sync.pull(waitMs: 100)
                if n > 0 { print("applied \(n) entries, board at \(sync.replica.ledger.lastSequence), \(sync.document.document.strokeCount) strokes on \(sync.document.document.pages.count) pages") }
                let sent = try sync.push()
                if sent > 0 { print("published \(sent) entries") }
            } catch let f as BoardSync.Failure {
                if case .document = f { throw f }
                if !offline { print("offline — \(sync.waiting) changes waiting (\(f))") }
                offline = true
                sync.disconnect()
                usleep(300_000)
            }
        }
    }
}
