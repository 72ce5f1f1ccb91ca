import CGtk
import Foundation
import Localization
import InkCore

/// Native file choosers and the colour chooser (GTK 4.8 has no GtkFileDialog/GtkColorDialog).
enum FileDialogs {
    enum Purpose {
        case open, saveAs, export, insertImage, pagePicture

        var title: String {
            switch self {
            case .open: return localized("Open a drawing")
            case .saveAs: return localized("Save the drawing as")
            case .export: return localized("Export as PNG, SVG, PDF or .xopp (by the name's extension)")
            case .insertImage: return localized("Insert an image")
            case .pagePicture: return localized("Choose a picture for the page")
            }
        }
        var accept: String {
            switch self {
            case .open: return localized("_Open")
            case .saveAs: return localized("_Save")
            case .export: return localized("_Export")
            case .insertImage: return localized("_Insert")
            case .pagePicture: return localized("_Choose")
            }
        }
        var filters: [(name: String, patterns: [String])] {
            switch self {
            case .open: return [("Drawings (.oekaki, .xopp, .pdf)", ["*.oekaki", "*.xopp", "*.pdf"]), ("All files", ["*"])]
            case .saveAs: return [("Oekaki drawing (.oekaki)", ["*.oekaki"])]
            case .insertImage, .pagePicture: return [(localized("PNG or JPEG image"), ["*.png", "*.PNG", "*.jpg", "*.JPG", "*.jpeg", "*.JPEG"]), (localized("All files"), ["*"])]
            case .export: return [(localized("PNG, SVG, PDF or Xournal++"), ["*.png", "*.svg", "*.pdf", "*.xopp"]), (localized("PNG image"), ["*.png"]),
                                  (localized("SVG image"), ["*.svg"]), (localized("PDF document"), ["*.pdf"]), (localized("Xournal++ notes"), ["*.xopp"])]
            }
        }
    }

    /// Asks for a path; `done` gets it on the GTK thread (nothing when cancelled).
    static func choose(_ purpose: Purpose, parent: Widget, folder: String? = nil, suggestedName: String? = nil, done: @escaping (String) -> Void) {
        // Test hook: window tests cannot drive a native chooser; `OEKAKI_CHOSEN_FILE` answers it.
        if let path = ProcessInfo.processInfo.environment["OEKAKI_CHOSEN_FILE"] { done(path); return }
        let action = purpose == .open || purpose == .insertImage || purpose == .pagePicture ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE
        guard let dialog = gtk_file_chooser_native_new(purpose.title, typed(parent, as: GtkWindow.self), action, purpose.accept, localized("_Cancel")) else { return }
        let chooser = dialog
        let native = UnsafeMutablePointer<GtkNativeDialog>(dialog)
        for f in purpose.filters {
            let filter = gtk_file_filter_new()!
            gtk_file_filter_set_name(filter, f.name)
            for p in f.patterns { gtk_file_filter_add_pattern(filter, p) }
            gtk_file_chooser_add_filter(chooser, filter)
            g_object_unref(gobject(filter))
        }
        if let folder, let dir = g_file_new_for_path(folder) {
            _ = gtk_file_chooser_set_current_folder(chooser, dir, nil)
            g_object_unref(gobject(dir))
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
        guard let dialog = gtk_color_chooser_dialog_new(localized("Choose a colour"), typed(parent, as: GtkWindow.self)) else { return }
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

/// A small modal question (GtkMessageDialog's constructor is variadic, so this builds a plain GtkDialog).
enum Question {
    /// Shows `message` with one button per answer; `done` gets the chosen index, or nil if the dialog was closed.
    static func ask(parent: Widget, title: String, message: String, answers: [String], done: @escaping (Int?) -> Void) {
        let dialog = gtk_dialog_new()!
        let d = typed(dialog, as: GtkDialog.self)
        gtk_window_set_title(typed(dialog, as: GtkWindow.self), title)
        gtk_window_set_transient_for(typed(dialog, as: GtkWindow.self), typed(parent, as: GtkWindow.self))
        gtk_window_set_modal(typed(dialog, as: GtkWindow.self), 1)
        let label = gtk_label_new(message)!
        gtk_label_set_wrap(OpaquePointer(label), 1)
        gtk_label_set_max_width_chars(OpaquePointer(label), 60)
        for set in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] {
            set(label, 18)
        }
        gtk_box_append(typed(gtk_dialog_get_content_area(d), as: GtkBox.self), label)
        for (i, a) in answers.enumerated() { gtk_dialog_add_button(d, a, Int32(i)) }
        connectResponse(gobject(dialog)) { response in
            gtk_window_destroy(typed(dialog, as: GtkWindow.self))
            done(response >= 0 && Int(response) < answers.count ? Int(response) : nil)
        }
        gtk_window_present(typed(dialog, as: GtkWindow.self))
    }
}
