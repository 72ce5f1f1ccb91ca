import CGtk
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
        gtk_window_set_title(typed(window, as: GtkWindow.self), localized("{0} — Oekaki", document.name) + " — " + text)
    }

    /// Asks for a board URL; sharing applies to this window, joining opens a new one.
    func askForBoard(joining: Bool) {
        let dialog = gtk_window_new()!
        gtk_window_set_transient_for(typed(dialog, as: GtkWindow.self), typed(window, as: GtkWindow.self))
        gtk_window_set_modal(typed(dialog, as: GtkWindow.self), 1)
        gtk_window_set_title(typed(dialog, as: GtkWindow.self), joining ? localized("Join Board") : localized("Share"))
        let box = Widgets.box(horizontal: false, spacing: 8)
        for set in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { set(box, 12) }
        let hint = Widgets.label(localized("Board address, e.g. nats://user:password@host:4222/class"))
        let entry = gtk_entry_new()!
        gtk_widget_set_size_request(entry, 420, -1)
        let problem = Widgets.label("")
        gtk_widget_add_css_class(problem, "error")
        let go = gtk_button_new_with_label(joining ? localized("Join") : localized("Share"))!
        gtk_widget_add_css_class(go, "suggested-action")
        Widgets.append(box, hint, entry, problem, go)
        gtk_window_set_child(typed(dialog, as: GtkWindow.self), box)
        let submit = { [weak self] in
            guard let self else { return }
            let text = String(cString: gtk_editable_get_text(OpaquePointer(entry)))
            do {
                let url = try BoardURL(text.trimmingCharacters(in: .whitespaces))
                gtk_window_destroy(typed(dialog, as: GtkWindow.self))
                if joining { self.join(url) } else { self.share(url) }
            } catch {
                Widgets.setLabel(problem, "\(error)")
            }
        }
        connect(gobject(go), "clicked", submit)
        connect(gobject(entry), "activate", submit)
        gtk_window_present(typed(dialog, as: GtkWindow.self))
    }

    /// Opens the board's replica (in the data folder) in a new window.
    func join(_ url: BoardURL) {
        do {
            let doc = try Documents.open(Documents.replicaPath(for: url))
            OekakiApplication.open(doc).share(url)
        } catch {
            banner.show(.error, "\(error)", action: nil)
        }
    }
}

extension Documents {
    /// Where a joined board's replica lives: the data folder, one file per board and server.
    static func replicaPath(for url: BoardURL) throws -> String {
        let dir = dataDirectory + "/boards"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = "\(dir)/\(url.board) on \(url.host) \(url.port).oekaki"
        // A board joined for the first time starts from its newest snapshot, then reads the log after it.
        _ = BoardSnapshot.seed(path: path, url: url) { FileHandle.standardError.write(Data("oekaki: \($0)\n".utf8)) }
        return path
    }
}
