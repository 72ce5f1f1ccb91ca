import CGtk
import Foundation

/// Entry point of the GTK app.
public enum OekakiApplication {
    /// The window lives as long as the process; GTK holds no Swift references.
    nonisolated(unsafe) private static var window: MainWindow?

    /// Opens FILE (or a new untitled drawing) in a window and runs until it closes; returns the exit code.
    public static func run(file: String?) -> Int32 {
        // Refuse cleanly before any window exists: a bad file or no display is one line on stderr.
        guard gtk_init_check() != 0 else {
            FileHandle.standardError.write(Data("oekaki: cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)\n".utf8))
            return 1
        }
        let document: OpenDocument
        do {
            document = try file.map(Documents.open) ?? Documents.newUntitled()
        } catch {
            FileHandle.standardError.write(Data("oekaki: \(error)\n".utf8))
            return 1
        }
        let recoverable = Documents.unsavedDrawings(excluding: document.path)

        // NON_UNIQUE: every launch is its own process with its own file (no D-Bus hand-over).
        let app = gtk_application_new("io.github.oekaki.Oekaki", G_APPLICATION_NON_UNIQUE)!
        connect(gobject(app), "activate") {
            if FloorWindow.isRequested { return FloorWindow.present(app) }
            Widgets.installStyle()
            let w = MainWindow(application: app, document: document)
            window = w
            w.present()
            // The title-bar menu is always there; the banner only when no FILE was asked for,
            // so a launch with a file shows that file and nothing over it.
            w.offerRecovery(recoverable, withBanner: file == nil)
        }
        let status = g_application_run(UnsafeMutableRawPointer(app).assumingMemoryBound(to: GApplication.self), 0, nil)
        window = nil
        g_object_unref(gobject(app))
        return status
    }
}
