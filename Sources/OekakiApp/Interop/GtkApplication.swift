import CGtk

/// The GtkApplication the windows belong to, and the display it runs on: opened, run until the last window
/// closes, given the app's icon.
enum GtkApp {
    /// Connects to the display; false when there is none (no DISPLAY or WAYLAND_DISPLAY).
    static func openDisplay() -> Bool { gtk_init_check() != 0 }

    /// Makes the application `id` (each launch its own process: no D-Bus hand-over), named `name` for the window
    /// list, runs it until its last window closes, and returns the exit status. `activate` opens the first window.
    static func run(id: String, name: String, activate: @escaping (Application) -> Void) -> Int32 {
        let app = gtk_application_new(id, G_APPLICATION_NON_UNIQUE)!
        g_set_application_name(name)
        connect(gobject(app), "activate") { activate(app) }
        let status = g_application_run(UnsafeMutableRawPointer(app).assumingMemoryBound(to: GApplication.self), 0, nil)
        g_object_unref(gobject(app))
        return status
    }

    /// Every window's icon is the theme's `name`; `folder`, when given, is searched for it too (a build tree).
    static func useIcon(_ name: String, alsoFrom folder: String?) {
        gtk_window_set_default_icon_name(name)
        guard let folder, let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else { return }
        gtk_icon_theme_add_search_path(theme, folder)
    }
}
