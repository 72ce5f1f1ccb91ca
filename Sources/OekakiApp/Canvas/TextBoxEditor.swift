import CGtk
import Foundation
import InkCore
import InkRender

/// The text tool's editing field: a GtkTextView laid over the canvas exactly where the box is typed, so input
/// methods (Japanese and the like), selection and the clipboard work as in any text field. It shows the box's
/// font, size (times the zoom) and colour and wraps at the box's width; when editing ends the text becomes a
/// text box of the document (`Editor.addText` / `changeText`), one undoable edit.
final class TextBoxEditor {
    /// What is being typed: on which page, which box (nil for a new one), its top-left corner and its style.
    struct Session {
        var page: PageID
        var id: StrokeID?
        var origin: Point
        var box: TextBox
    }

    let widget: Widget
    private let textView: UnsafeMutablePointer<GtkTextView>
    private let buffer: UnsafeMutablePointer<GtkTextBuffer>
    private let css: UnsafeMutablePointer<GtkCssProvider>
    private(set) var session: Session?
    /// Where the field was last put (view units) and how big, so an unchanged view costs no relayout.
    private var placed: (x: Int32, y: Int32, w: Int32, zoom: Double)?

    /// Wrap width of a new box, in page units.
    static let newWidth = 320.0

    init() {
        widget = gtk_text_view_new()!
        textView = typed(widget, as: GtkTextView.self)
        buffer = gtk_text_view_get_buffer(textView)!
        css = gtk_css_provider_new()!
        gtk_text_view_set_wrap_mode(textView, GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_accepts_tab(textView, 0)
        gtk_widget_set_halign(widget, GTK_ALIGN_START)
        gtk_widget_set_valign(widget, GTK_ALIGN_START)
        gtk_widget_add_css_class(widget, "text-box")
        gtk_style_context_add_provider(gtk_widget_get_style_context(widget), OpaquePointer(css), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        gtk_widget_set_visible(widget, 0)
    }

    /// Starts typing (the caller has finished any earlier session).
    func begin(_ s: Session, canvas: CanvasView) {
        session = s
        gtk_text_buffer_set_text(buffer, s.box.text, -1)
        placed = nil
        style(zoom: canvas.transform.zoom)
        place(canvas)
        gtk_widget_set_visible(widget, 1)
        gtk_widget_grab_focus(widget)
    }

    /// The typed text, and the session it belongs to; the field hides.
    func end() -> (Session, String)? {
        guard let s = session else { return nil }
        session = nil
        var a = GtkTextIter(), b = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &a, &b)
        let raw = gtk_text_buffer_get_text(buffer, &a, &b, 0)
        let text = raw.map { String(cString: $0) } ?? ""
        g_free(raw)
        gtk_widget_set_visible(widget, 0)
        return (s, text)
    }

    /// A new font, size or colour for the box being typed.
    func restyle(font: String? = nil, size: Double? = nil, color: RGBA? = nil, canvas: CanvasView) {
        guard session != nil else { return }
        if let font { session!.box.font = font }
        if let size { session!.box.size = size }
        if let color { session!.box.color = color }
        placed = nil
        style(zoom: canvas.transform.zoom)
        place(canvas)
    }

    /// Follows the view (pan, zoom): the field stays over its box. Cheap when nothing moved.
    func place(_ canvas: CanvasView) {
        guard let s = session else { return }
        let v = canvas.transform.viewPoint(fromPage: s.origin + canvas.currentOrigin)
        let zoom = canvas.transform.zoom
        // The field's own padding and border sit outside the box.
        let x = Int32((v.x - 3).rounded()), y = Int32((v.y - 3).rounded()), w = Int32((s.box.width * zoom).rounded())
        if let p = placed, p == (x, y, w, zoom) { return }
        if placed?.zoom != zoom { style(zoom: zoom) }
        placed = (x, y, w, zoom)
        gtk_widget_set_margin_start(widget, max(x, 0))
        gtk_widget_set_margin_top(widget, max(y, 0))
        gtk_widget_set_size_request(widget, max(w, 20), -1)
    }

    private func style(zoom: Double) {
        guard let s = session else { return }
        let c = s.box.color
        // A family name goes into a CSS string: no quotes, backslashes or control characters.
        let family = String(s.box.font.unicodeScalars.filter { $0 != "\\" && $0 != "\"" && $0.value >= 0x20 }.map(Character.init))
        let rule = """
        textview.text-box, textview.text-box text { font-family: "\(family)"; font-size: \(max(s.box.size * zoom, 1))px;
          color: rgba(\(c.r), \(c.g), \(c.b), \(Double(max(c.a, 60)) / 255)); background-color: rgba(255, 255, 255, 0.97); }
        textview.text-box { padding: 2px; border: 1px dashed rgba(0, 0, 0, 0.5); }
        """
        gtk_css_provider_load_from_data(css, rule, -1)
    }
}
