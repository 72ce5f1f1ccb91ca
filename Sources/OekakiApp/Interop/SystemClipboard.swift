import CGtk
import InkCore

/// The desktop clipboard (GDK), the only file that hands it bytes. Copying offers one selection three ways:
/// Oekaki's own type (the strokes, so paste between Oekaki windows keeps vectors), `image/png` and
/// `image/svg+xml` for every other app.
enum SystemClipboard {
    /// Oekaki's private clipboard type: the strokes as an event log that draws them again.
    static let inkType = "application/x-oekaki-ink"

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

    /// Reads Oekaki ink another Oekaki process put on the clipboard; `done` gets its bytes (nil when there are
    /// none or the transfer failed) on the GTK thread. Asynchronous: an X11 transfer is fed by the main loop.
    static func readInk(for widget: Widget, _ done: @escaping ([UInt8]?) -> Void) { read(inkType, for: widget, done) }

    /// Reads what the clipboard offers as `mime` (at most 64 MB); `done` gets the bytes (nil when there are none
    /// or the transfer failed) on the GTK thread.
    static func read(_ mime: String, for widget: Widget, _ done: @escaping ([UInt8]?) -> Void) {
        guard let clipboard = gtk_widget_get_clipboard(widget) else { return done(nil) }
        let box = Unmanaged.passRetained(ReadBox(done)).toOpaque()
        let readDone: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
            guard let data else { return }
            let box = Unmanaged<ReadBox>.fromOpaque(data)
            guard let source, let result,
                  let input = gdk_clipboard_read_finish(OpaquePointer(source), result, nil, nil) else {
                box.takeRetainedValue().done(nil); return
            }
            // Everything into a growing memory stream, then its bytes.
            let memory = g_memory_output_stream_new_resizable()
            let spliced: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = { source, result, data in
                guard let data else { return }
                let box = Unmanaged<ReadBox>.fromOpaque(data).takeRetainedValue()
                guard let source, let result else { return box.done(nil) }
                let out = UnsafeMutableRawPointer(source).assumingMemoryBound(to: GOutputStream.self)
                let n = g_output_stream_splice_finish(out, result, nil)
                guard n >= 0, n <= 64 << 20, let bytes = g_memory_output_stream_steal_as_bytes(UnsafeMutableRawPointer(source).assumingMemoryBound(to: GMemoryOutputStream.self)) else {
                    g_object_unref(gpointer(source)); return box.done(nil)
                }
                var size: gsize = 0
                let p = g_bytes_get_data(bytes, &size)
                let copy = p.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(size))) } ?? []
                g_bytes_unref(bytes)
                g_object_unref(gpointer(source))
                box.done(copy)
            }
            g_output_stream_splice_async(memory, input,
                                         GOutputStreamSpliceFlags(rawValue: G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE.rawValue | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET.rawValue),
                                         G_PRIORITY_DEFAULT, nil, spliced, data)
            g_object_unref(gpointer(input))
        }
        mime.withCString { type in
            var types: [UnsafePointer<CChar>?] = [type, nil]
            types.withUnsafeMutableBufferPointer { gdk_clipboard_read_async(clipboard, $0.baseAddress, G_PRIORITY_DEFAULT, nil, readDone, box) }
        }
    }

    private final class ReadBox {
        let done: ([UInt8]?) -> Void
        init(_ done: @escaping ([UInt8]?) -> Void) { self.done = done }
    }

    /// True when this process owns the clipboard (what Oekaki copied last is what a paste should give).
    static func isLocal(for widget: Widget) -> Bool {
        guard let clipboard = gtk_widget_get_clipboard(widget) else { return false }
        return gdk_clipboard_is_local(clipboard) != 0
    }
}
