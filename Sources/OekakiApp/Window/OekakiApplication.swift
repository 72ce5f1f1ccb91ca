import Foundation
import Localization
import InkSync

/// Entry point of the GTK app.
public enum OekakiApplication {
    /// Open windows; GTK holds no Swift references, so a window lives here until it is destroyed.
    nonisolated(unsafe) private static var windows: [MainWindow] = []
    nonisolated(unsafe) private static var application: Application?
    nonisolated(unsafe) static var darkStyle: DarkStyle?

    /// Opens FILE (or a new untitled drawing) in a window and runs until the last window closes; returns the exit code.
    public static func run(file: String?) -> Int32 {
        // Refuse cleanly before any window exists: a bad file or no display is one line on stderr.
        guard GtkApp.openDisplay() else {
            FileHandle.standardError.write(Data(("oekaki: " + localized("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)") + "\n").utf8))
            return 1
        }
        GtkRenderer.avoidSoftwareGL()
        let document: OpenDocument
        // `oekaki nats://…/BOARD` opens the board's replica from the data folder and joins it.
        var board: BoardURL?
        do {
            if let f = file, f.hasPrefix("nats://") {
                let url = try BoardURL(f)
                board = url
                document = try Documents.open(Documents.replicaPath(for: url))
            } else {
                document = try file.map(Documents.open) ?? Documents.newUntitled()
            }
        } catch {
            FileHandle.standardError.write(Data("oekaki: \(error)\n".utf8))
            return 1
        }
        let recoverable = Documents.unsavedDrawings(excluding: document.path)

        // Every launch is its own process with its own file (no D-Bus hand-over).
        let status = GtkApp.run(id: AppInfo.id, name: localized("Oekaki")) { app in
            application = app
            if Instruments.observer?.presentsInstead(app) == true { return }
            Widgets.installStyle()
            installIcons()
            let dark = DarkStyle()
            dark.onChange = { isDark in for w in windows { w.canvas.dark = isDark } }
            darkStyle = dark
            let w = open(document)
            if let board { w.share(board) }
            // The title-bar menu is always there; the banner only when no FILE was asked for,
            // so a launch with a file shows that file and nothing over it.
            w.offerRecovery(recoverable, withBanner: file == nil)
        }
        windows = []
        darkStyle = nil
        application = nil
        return status
    }

    /// A window for `document`, shown at once.
    @discardableResult
    static func open(_ document: OpenDocument) -> MainWindow {
        let w = MainWindow(application: application!, document: document)
        w.canvas.dark = darkStyle?.isDark ?? false
        windows.append(w)
        w.window.onDestroy { [weak w] in windows.removeAll { $0 === w } }
        w.present()
        return w
    }

    /// Ctrl+N: a new untitled drawing in its own window.
    static func newWindow(from parent: MainWindow) {
        do {
            open(try Documents.newUntitled())
        } catch {
            parent.banner.show(.error, "\(error)", action: nil)
        }
    }

    /// The app icon for the About dialog and the window list, also when run from the build tree (not installed):
    /// the repository's desktop/ folder is three levels above .build/TRIPLE/CONFIG/oekaki.
    private static func installIcons() {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let desktop = exe.deletingLastPathComponent().appendingPathComponent("../../../desktop").standardizedFileURL.path
        GtkApp.useIcon(AppInfo.id, alsoFrom: FileManager.default.fileExists(atPath: desktop + "/\(AppInfo.id).svg") ? desktop : nil)
    }
}
