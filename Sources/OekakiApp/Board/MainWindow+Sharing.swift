import Foundation
import InkCore
import InkSync
import Localization

/// Shared boards: Share… puts this window's drawing on a board, Join Board… opens one in a new window, and the
/// title bar says whether the board is live or how many changes wait for the network.
extension MainWindow {
    /// Shares this window's drawing on `url` (the session links the board): what it holds goes up, what the
    /// board holds comes down.
    func share(_ url: BoardURL) { session.share(url) }

    /// Live or offline, and who is here, in the title bar.
    func showBoard() {
        guard let board = session.board else { return }
        let boardState = session.boardState, boardPeople = session.boardPeople
        let text: String
        switch boardState {
        case .connecting: text = localized("connecting to {0}…", board.url.description)
        case .online:
            text = localized("shared on {0} · live", board.url.description)
                + (boardPeople.count > 1 ? " · " + localized("{0} here: {1}", String(boardPeople.count), boardPeople.joined(separator: ", ")) : "")
        case .offline(let n): text = localized("offline — {0} changes waiting", String(n))
        case .failed(let m): text = m
        }
        Widgets.setLabel(subtitleLabel, text)
        window.setWindowTitle(localized("{0} — Oekaki", document.name) + " — " + text)
    }

    /// Asks for a board URL; sharing applies to this window, joining opens a new one.
    func askForBoard(joining: Bool) {
        let dialog = Widgets.window(title: joining ? localized("Join Board") : localized("Share"), modal: true)
        dialog.setTransient(for: window)
        let box = Widgets.box(horizontal: false, spacing: 8)
        box.setMargins(12)
        let hint = Widgets.label(localized("Board address, e.g. nats://user:password@host:4222/class"))
        var submit: () -> Void = {}
        let entry = Widgets.entry(text: "", tooltip: nil) { submit() }
        entry.setSizeRequest(width: 420, height: -1)
        let problem = Widgets.label("")
        problem.addCSSClass("error")
        let go = Widgets.textButton(joining ? localized("Join") : localized("Share")) { submit() }
        go.addCSSClass("suggested-action")
        Widgets.append(box, hint, entry, problem, go)
        dialog.setWindowChild(box)
        submit = { [weak self] in
            guard let self else { return }
            do {
                let url = try BoardURL(entry.text.trimmingCharacters(in: .whitespaces))
                dialog.destroyWindow()
                if joining { self.join(url) } else { self.share(url) }
            } catch {
                Widgets.setLabel(problem, "\(error)")
            }
        }
        dialog.present()
    }

    /// Opens the board's replica (in the data folder) in a new window. A board joined for the first time is
    /// seeded from its snapshot off the GTK thread (a download and a file write that grow with the board); the
    /// new window's session then opens the file and links the board, as for any replica.
    func join(_ url: BoardURL) {
        let path: String
        do { path = try Documents.replicaFile(for: url) } catch { banner.show(.error, "\(error)", action: nil); return }
        // A big board takes a while to download: say so, and a second Join of it meanwhile waits for the first
        // (two downloads must not write one replica).
        banner.show(.info, localized("Joining {0}: downloading the board…", url.board), action: nil)
        guard Self.joining.insert(path).inserted else { return }
        DispatchQueue.global(qos: .userInitiated).async {
            Documents.seedReplica(path, url: url)
            onMainLoop { [weak self] in
                Self.joining.remove(path)
                self?.banner.hide()
                do {
                    OekakiApplication.open(try Documents.open(path)).share(url)
                } catch {
                    self?.banner.show(.error, "\(error)", action: nil)
                }
            }
        }
    }

    /// Replicas being downloaded (GTK thread).
    nonisolated(unsafe) private static var joining = Set<String>()
}

extension Documents {
    /// Where a joined board's replica lives: the data folder, one file per board and server.
    static func replicaPath(for url: BoardURL) throws -> String {
        let path = try replicaFile(for: url)
        seedReplica(path, url: url)
        return path
    }

    /// The replica's file name (its folder made).
    static func replicaFile(for url: BoardURL) throws -> String {
        let dir = dataDirectory + "/boards"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return "\(dir)/\(url.board) on \(url.host) \(url.port).oekaki"
    }

    /// A board joined for the first time starts from its newest snapshot, then reads the log after it (no file
    /// yet: nothing else has it open; any thread).
    static func seedReplica(_ path: String, url: BoardURL) {
        _ = BoardSnapshot.seed(path: path, url: url) { FileHandle.standardError.write(Data("oekaki: \($0)\n".utf8)) }
    }
}
