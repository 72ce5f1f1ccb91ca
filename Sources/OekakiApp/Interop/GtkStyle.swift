import CGtk

/// CSS for GTK's widgets: the app's own look for every window, and rules a widget changes as it goes (the text
/// field's font and colour follow the box being typed).
final class StyleSheet {
    private let provider: UnsafeMutablePointer<GtkCssProvider>

    init(_ css: String = "") {
        provider = gtk_css_provider_new()!
        if !css.isEmpty { load(css) }
    }
    // The widget or display it applies to holds its own reference.
    deinit { g_object_unref(gobject(provider)) }

    /// Replaces the rules.
    func load(_ css: String) { gtk_css_provider_load_from_data(provider, css, -1) }

    /// Applies to `widget` alone, over the theme.
    func apply(to widget: Widget) {
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }

    /// Applies to every widget of the app's display, over the theme.
    func applyToDisplay() {
        guard let display = gdk_display_get_default() else { return }
        gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}

extension Widgets {
    /// Application-wide look: compact swatches, a visible selection ring.
    static func installStyle() {
        StyleSheet("""
        .swatch { padding: 2px; min-width: 18px; min-height: 18px; }
        .toolbar { padding: 4px 6px; border-bottom: 1px solid alpha(black, 0.15); }
        .zoom-label { min-width: 40px; font-feature-settings: "tnum"; }
        .current-section { background-color: alpha(@theme_selected_bg_color, 0.18); }
        """).applyToDisplay()
    }
}
