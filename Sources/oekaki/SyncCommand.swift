import Foundation
import Commands
import Localization
import InkCore
import InkStore
import InkSync

/// `oekaki sync FILE URL [--once]`: connects the replica FILE (a `.oekaki`, created if missing) to the board at
/// URL. Publishes what FILE holds that the board lacks and applies what the board holds that FILE lacks; with
/// `--once` it stops when both are caught up, otherwise it keeps going, one line per batch applied.
enum SyncCommand {
    static let usage = Usage([("oekaki sync FILE URL [--once]", localized("keep the replica FILE in step with the board at URL")),
                              ("", "URL: nats://[user:password@]host:port[,host:port…]/BOARD[?replicas=N]")])

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "sync", options: [.flag("--once")])
        let once = a.has("--once")
        let files = try a.files(2, missing: "sync: needs FILE and URL")
        let (file, text) = (files[0], files[1])
        let url: BoardURL
        do { url = try BoardURL(text) } catch { throw CommandFailure.input("\(error)") }

        // A new replica starts from the board's newest snapshot, then reads the log after it.
        _ = BoardSnapshot.seed(path: file, url: url) { FileHandle.standardError.write(Data("oekaki sync: \($0)\n".utf8)) }
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
                // Sleeps until an entry arrives (the client library wakes it), at most a second.
                let n = try sync.pull(waitMs: 1000)
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
