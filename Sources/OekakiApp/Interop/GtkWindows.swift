import CGtk

/// Typed calls on the app's top-level GtkWindows (the main window, dialogs, the pen window, the shortcuts
/// window): made, shown over a parent, full screen, closed. Like `GtkWidgets.swift`, it keeps the window's files
/// free of C calls and casts.
extension Widgets {
    /// A new top-level window titled `title`; `modal` blocks its parent while it is open.
    static func window(title: String, modal: Bool = false, resizable: Bool = true) -> Widget {
        let w = gtk_window_new()!
        w.setWindowTitle(title)
        if modal { gtk_window_set_modal(w.asWindow, 1) }
        if !resizable { gtk_window_set_resizable(w.asWindow, 0) }
        return w
    }

    /// The window `id` of a GtkBuilder description (for widgets GTK makes through GtkBuilder only, such as
    /// GtkShortcutsWindow); nil when the description has no such object.
    static func builtWindow(_ xml: String, id: String) -> Widget? {
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(gobject(builder)) }
        // The builder drops its reference; the toplevel window stays alive in GTK's list of windows.
        return gtk_builder_get_object(builder, id).map { asWidget(OpaquePointer($0)) }
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    fileprivate var asWindow: UnsafeMutablePointer<GtkWindow> { typed(self, as: GtkWindow.self) }

    /// Shows the window over `parent` (centred on it, above it in the stack).
    func setTransient(for parent: Widget) { gtk_window_set_transient_for(asWindow, parent.asWindow) }
    func present() { gtk_window_present(asWindow) }
    func setWindowChild(_ child: Widget) { gtk_window_set_child(asWindow, child) }
    /// Closes the window at once, without asking ("close-request" is not sent).
    func destroyWindow() { gtk_window_destroy(asWindow) }
    func fullscreen() { gtk_window_fullscreen(asWindow) }
    func unfullscreen() { gtk_window_unfullscreen(asWindow) }
    /// The window's title bar (a header bar), if it has one.
    var titlebar: Widget? { gtk_window_get_titlebar(asWindow) }
}
