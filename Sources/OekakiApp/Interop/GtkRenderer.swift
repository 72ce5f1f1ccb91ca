import CEpoxy
import CGtk
import Foundation

/// Which of GTK's renderers draws the windows. GTK takes GL whenever the display offers it, also where GL is the
/// CPU pretending to be a GPU (Mesa's llvmpipe in a virtual machine, a remote desktop, Xvfb): there every frame
/// rasterizes the whole window again, ~30 ms a pen frame, where cairo repaints only the box that changed (~2 ms).
/// So before the first window a driver that renders in software hands the windows to cairo. A `GSK_RENDERER`
/// the user set is theirs and left alone.
enum GtkRenderer {
    /// Sets `GSK_RENDERER=cairo` when GL renders in software; the GL driver's name when it could ask (nil: no GL,
    /// or the user chose). Call after the display opens and before any window is realized (GTK reads the variable
    /// when it makes the first window's renderer).
    @discardableResult
    static func avoidSoftwareGL() -> String? {
        guard ProcessInfo.processInfo.environment["GSK_RENDERER"].map(\.isEmpty) ?? true, let display = gdk_display_get_default() else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard let context = gdk_display_create_gl_context(display, &error) else { g_clear_error(&error); return nil }
        defer { g_object_unref(gobject(context)) }
        guard gdk_gl_context_realize(context, &error) != 0 else { g_clear_error(&error); return nil }
        gdk_gl_context_make_current(context)
        defer { gdk_gl_context_clear_current() }
        guard let name = oekaki_gl_renderer().map({ String(cString: $0) }) else { return nil }
        if rendersInSoftware(name) { setenv("GSK_RENDERER", "cairo", 1) }
        return name
    }

    /// Mesa's CPU rasterizers name themselves so (llvmpipe, softpipe, swrast's "Software Rasterizer", SWR; zink over
    /// lavapipe says "llvmpipe" too).
    static func rendersInSoftware(_ glRenderer: String) -> Bool {
        let n = glRenderer.lowercased()
        return ["llvmpipe", "softpipe", "software", "swr"].contains { n.contains($0) }
    }

    /// The renderer drawing `widget`'s window (e.g. "GskCairoRenderer"), nil before it is realized.
    static func name(drawing widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return nil }
        return g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(renderer)).map { String(cString: $0) }
    }
}
