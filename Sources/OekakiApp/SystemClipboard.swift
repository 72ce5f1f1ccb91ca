import CGtk
import InkCore

/// The desktop clipboard (GDK), the only file that hands it bytes. Copying offers one selection three ways:
/// Oekaki's own type (the strokes, so paste between Oekaki windows keeps vectors), `image/png` and
/// `image/svg+xml` for every other app.
enum SystemClipboard {
    /// Oekaki's private clipboard type: the strokes as an event log that draws them again.
    static let inkType = "application/x-oekaki-ink"

    /// Strokes copied in this process, shared by all its windows (paste between documents keeps vectors).
    nonisolated(unsafe) static var strokes: [Stroke] = []

    /// Offers `(mime type, bytes)` pairs on the clipboard of `widget`'s display, replacing what was there.
    static func put(_ offers: [(String, [UInt8])], for widget: Widget) {
        guard let clipboard = gtk_widget_get_clipboard(widget), !offers.isEmpty else { return }
        var providers: [UnsafeMutablePointer<GdkContentProvider>?] = offers.map { mime, bytes in
            let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            defer { g_bytes_unref(data) }
            return gdk_content_provider_new_for_bytes(mime, data)
        }
        let union = providers.withUnsafeMutableBufferPointer { gdk_content_provider_new_union($0.baseAddress, gsize($0.count)) }
        gdk_clipboard_set_content(clipboard, union)
        g_object_unref(gpointer(union))
    }

    /// True when the clipboard holds something another app put there and it offers `mime` (e.g. an image).
    static func foreignOffer(_ mime: String, for widget: Widget) -> Bool {
        guard let clipboard = gtk_widget_get_clipboard(widget), gdk_clipboard_is_local(clipboard) == 0,
              let formats = gdk_clipboard_get_formats(clipboard) else { return false }
        return gdk_content_formats_contain_mime_type(formats, mime) != 0
    }

    /// True when this process owns the clipboard (what Oekaki copied last is what a paste should give).
    static func isLocal(for widget: Widget) -> Bool {
        guard let clipboard = gtk_widget_get_clipboard(widget) else { return false }
        return gdk_clipboard_is_local(clipboard) != 0
    }
}
