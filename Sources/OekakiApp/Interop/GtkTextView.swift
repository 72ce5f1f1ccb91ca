import CGtk

/// A GtkTextView: the multi-line field the text tool types in (input methods, selection and the clipboard as in
/// any text field), and its whole text in Swift.
extension Widgets {
    /// A text view wrapping at word (or, for long words, character) boundaries; Tab moves the focus on.
    static func textView() -> Widget {
        let v = gtk_text_view_new()!
        gtk_text_view_set_wrap_mode(v.asTextView, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(v.asTextView, 0)
        return v
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    fileprivate var asTextView: UnsafeMutablePointer<GtkTextView> { typed(self, as: GtkTextView.self) }

    /// A text view's whole text.
    var typedText: String {
        get {
            let buffer = gtk_text_view_get_buffer(asTextView)!
            var a = GtkTextIter(), b = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &a, &b)
            let raw = gtk_text_buffer_get_text(buffer, &a, &b, 0)
            defer { g_free(raw) }
            return raw.map { String(cString: $0) } ?? ""
        }
        nonmutating set { gtk_text_buffer_set_text(gtk_text_view_get_buffer(asTextView)!, newValue, -1) }
    }
}
