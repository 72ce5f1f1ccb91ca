import CGtk
import InkCore

/// Native file choosers and the colour chooser (GTK 4.8 has no GtkFileDialog/GtkColorDialog).
enum FileDialogs {
    enum Purpose {
        case open, saveAs, export

        var title: String {
            switch self {
            case .open: return "Open a drawing"
            case .saveAs: return "Save the drawing as"
            case .export: return "Export as PNG, SVG or PDF"
            }
        }
        var accept: String {
            switch self {
            case .open: return "_Open"
            case .saveAs: return "_Save"
            case .export: return "_Export"
            }
        }
        var filters: [(name: String, patterns: [String])] {
            switch self {
            case .open: return [("Drawings (.oekaki, .xopp)", ["*.oekaki", "*.xopp"]), ("All files", ["*"])]
            case .saveAs: return [("Oekaki drawing (.oekaki)", ["*.oekaki"])]
            case .export: return [("PNG, SVG or PDF", ["*.png", "*.svg", "*.pdf"]), ("PNG image", ["*.png"]),
                                  ("SVG image", ["*.svg"]), ("PDF document", ["*.pdf"])]
            }
        }
    }

    /// Asks for a path; `done` gets it on the GTK thread (nothing when cancelled).
    static func choose(_ purpose: Purpose, parent: Widget, suggestedName: String? = nil, done: @escaping (String) -> Void) {
        let action = purpose == .open ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE
        guard let dialog = gtk_file_chooser_native_new(purpose.title, typed(parent, as: GtkWindow.self), action, purpose.accept, "_Cancel") else { return }
        let chooser = dialog
        let native = UnsafeMutablePointer<GtkNativeDialog>(dialog)
        for f in purpose.filters {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, f.name)
            for p in f.patterns { gtk_file_filter_add_pattern(filter, p) }
            gtk_file_chooser_add_filter(chooser, filter)
            g_object_unref(gobject(filter))
        }
        if let name = suggestedName { gtk_file_chooser_set_current_name(chooser, name) }
        gtk_native_dialog_set_modal(native, 1)
        connectResponse(gobject(dialog)) { response in
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(chooser) {
                if let cPath = g_file_get_path(file) {
                    let path = String(cString: cPath)
                    g_free(cPath)
                    done(path)
                }
                g_object_unref(gobject(file))
            }
            gtk_native_dialog_destroy(native)
            g_object_unref(gobject(dialog))
        }
        gtk_native_dialog_show(native)
    }

    /// Asks for a colour; `done` gets it when the user accepts.
    static func chooseColor(parent: Widget, initial: RGBA, done: @escaping (RGBA) -> Void) {
        guard let dialog = gtk_color_chooser_dialog_new("Choose a colour", typed(parent, as: GtkWindow.self)) else { return }
        let chooser = OpaquePointer(dialog)
        let u = initial.unit
        var rgba = GdkRGBA(red: Float(u.r), green: Float(u.g), blue: Float(u.b), alpha: 1)
        gtk_color_chooser_set_use_alpha(chooser, 0)
        gtk_color_chooser_set_rgba(chooser, &rgba)
        gtk_window_set_modal(typed(dialog, as: GtkWindow.self), 1)
        connectResponse(gobject(dialog)) { response in
            if response == GTK_RESPONSE_OK.rawValue {
                var c = GdkRGBA()
                gtk_color_chooser_get_rgba(chooser, &c)
                func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
                done(RGBA(r: byte(c.red), g: byte(c.green), b: byte(c.blue)))
            }
            gtk_window_destroy(typed(dialog, as: GtkWindow.self))
        }
        gtk_widget_show(dialog)
    }
}
