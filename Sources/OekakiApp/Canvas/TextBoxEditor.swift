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
    private let css = StyleSheet()
    private(set) var session: Session?
    /// Where the field was last put (view units) and how big, so an unchanged view costs no relayout.
    private var placed: (x: Int32, y: Int32, w: Int32, zoom: Double)?

    /// Wrap width of a new box, in page units.
    static let newWidth = 320.0

    init() {
        widget = Widgets.textView()
        widget.alignTopStart()
        widget.addCSSClass("text-box")
        css.apply(to: widget)
        widget.setVisible(false)
    }

    /// Starts typing (the caller has finished any earlier session).
    func begin(_ s: Session, canvas: CanvasView) {
        session = s
        widget.typedText = s.box.text
        placed = nil
        style(zoom: canvas.transform.zoom)
        place(canvas)
        widget.setVisible(true)
        widget.grabFocus()
    }

    /// The typed text, and the session it belongs to; the field hides.
    func end() -> (Session, String)? {
        guard let s = session else { return nil }
        session = nil
        let text = widget.typedText
        widget.setVisible(false)
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
        widget.setMargins(start: Int(max(x, 0)), top: Int(max(y, 0)))
        widget.setSizeRequest(width: Int(max(w, 20)), height: -1)
    }

    private func style(zoom: Double) {
        guard let s = session else { return }
        let c = s.box.color
        // A family name goes into a CSS string: no quotes, backslashes or control characters.
        let face = TextPainter.face(of: s.box.font)
        let family = String(face.family.unicodeScalars.filter { $0 != "\\" && $0 != "\"" && $0.value >= 0x20 }.map(Character.init))
        let rule = """
        textview.text-box, textview.text-box text { font-family: "\(family)"; font-weight: \(face.weight); font-style: \(face.italic ? "italic" : "normal");
          font-size: \(max(s.box.size * zoom, 1))px;
          color: rgba(\(c.r), \(c.g), \(c.b), \(Double(max(c.a, 60)) / 255)); background-color: rgba(255, 255, 255, 0.97); }
        textview.text-box { padding: 2px; border: 1px dashed rgba(0, 0, 0, 0.5); }
        """
        css.load(rule)
        // GTK 4.8's text view keeps its height from the old font until something else resizes it: the field
        // clipped the text typed at a new zoom. Its lines are measured again after the frame that restyles it.
        let field = widget
        onNextFrames(of: field, 3) { field.queueResize() }
    }
}
