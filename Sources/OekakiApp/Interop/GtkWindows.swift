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

    /// The application's main window, `size` logical pixels unless `maximized`.
    static func applicationWindow(_ app: Application, size: (width: Int, height: Int), maximized: Bool) -> Widget {
        let w = gtk_application_window_new(app)!
        gtk_window_set_default_size(w.asWindow, Int32(size.width), Int32(size.height))
        if maximized { gtk_window_maximize(w.asWindow) }
        return w
    }

    /// A title bar holding the window's commands: `start` from the left edge inwards, `end` from the right edge
    /// inwards, `title` in the middle.
    static func headerBar(start: [Widget], title: Widget, end: [Widget]) -> Widget {
        let bar = gtk_header_bar_new()!
        let header = OpaquePointer(bar)
        for w in start { gtk_header_bar_pack_start(header, w) }
        gtk_header_bar_set_title_widget(header, title)
        for w in end { gtk_header_bar_pack_end(header, w) }
        return bar
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
    func setTitlebar(_ bar: Widget) { gtk_window_set_titlebar(asWindow, bar) }
    var isMaximized: Bool { gtk_window_is_maximized(asWindow) != 0 }
    /// The size the window has when not maximized or full screen.
    var defaultSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(asWindow, &width, &height)
        return (Int(width), Int(height))
    }
    /// The window's title bar (a header bar), if it has one.
    var titlebar: Widget? { gtk_window_get_titlebar(asWindow) }
}

// MARK: what reaches the window as a whole

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// Keys the focused widget did not take (GTK's bubble phase): `pressed` returns whether it handled the key.
    func onUnhandledKeys(pressed: @escaping (KeyPress) -> Bool, released: @escaping (KeyPress) -> Void) {
        let keys = gtk_event_controller_key_new()!
        connectKeys(keys, pressed: pressed, released: released)
        gtk_widget_add_controller(self, keys)
    }

    /// The keyboard focus leaving the widget (or the window leaving the front).
    func onFocusLeave(_ body: @escaping () -> Void) {
        let focus = gtk_event_controller_focus_new()!
        connect(gobject(focus), "leave", body)
        gtk_widget_add_controller(self, focus)
    }

    /// Files dropped on the widget: their local paths and where they were dropped (this widget's coordinates);
    /// `body` returns whether it took them.
    func onFilesDropped(_ body: @escaping ([String], (x: Double, y: Double)) -> Bool) {
        let drop = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        connectFileDrop(drop, body)
        gtk_widget_add_controller(self, drop)
    }

    /// `point` (this widget's coordinates) in `other`'s coordinates, or nil when it is not over `other`.
    func point(_ point: (x: Double, y: Double), over other: Widget) -> (x: Double, y: Double)? {
        var x = 0.0, y = 0.0
        guard gtk_widget_translate_coordinates(self, other, point.x, point.y, &x, &y) != 0,
              gtk_widget_contains(other, x, y) != 0 else { return nil }
        return (x, y)
    }
}
