import CGtk
import InkCore
import InkRender

/// The text tool in the window: a click places a box (or opens the one under it) in `textField`; ending the
/// typing (a click elsewhere, Escape, another tool or command) makes it one undoable edit.
extension MainWindow {
    /// A click with the text tool (or a double-click on a box with a selection tool) at page point `p`.
    func textTap(at p: Point) {
        finishText()
        let typing: TextBoxEditor.Session
        if let s = session.textBox(at: p), let box = s.content.text, let corners = s.shownCorners, Self.textReaches(p, in: s, box) {
            typing = TextBoxEditor.Session(page: s.page, id: s.id, origin: corners[0], box: box)
        } else {
            if session.tool != .text { return }
            let box = TextBox(text: "", font: textFont.face, size: textFont.size, color: session.textColor, width: TextBoxEditor.newWidth)
            typing = TextBoxEditor.Session(page: session.page.id, id: nil, origin: p, box: box)
        }
        textField.begin(typing, canvas: canvas)
        canvas.onViewDrawn = { [weak self] in
            guard let self else { return }
            self.textField.place(self.canvas)
        }
    }

    /// Whether `p` (page units) falls on a box's text, not on the empty part of the box beside or below it: a
    /// box is as wide as it wraps (an imported Xournal++ label reaches the page's edge), and a click there starts
    /// a new box, as in Xournal++. Half a letter of slack around the text.
    static func textReaches(_ p: Point, in s: Stroke, _ box: TextBox) -> Bool {
        guard let frame = s.drawnBox, let inverse = s.transform.inverted else { return false }
        let q = inverse.apply(p)
        return TextPainter.extent(box).insetBy(-box.size / 2).contains(Point(q.x - frame.minX, q.y - frame.minY))
    }

    /// Ends typing: the text becomes a new box, the box's new text, or (emptied) no box at all.
    func finishText() {
        guard let (s, text) = textField.end() else { return }
        canvas.onViewDrawn = nil
        canvas.focus()
        var box = s.box
        box.text = TextBox.truncated(text) ?? text
        session.finishText(page: s.page, id: s.id, box: box, origin: s.origin)
    }

    func setTextFont(_ face: String, _ size: Double) {
        let size = min(max(size, TextBox.sizeRange.lowerBound), TextBox.sizeRange.upperBound)
        textFont = (face.isEmpty ? "Sans" : String(face.prefix(TextBox.maxFontBytes / 4)), size)
        textField.restyle(font: textFont.face, size: textFont.size, canvas: canvas)
    }

    func setTextColor(_ color: RGBA) {
        session.setTextColor(color)
        textField.restyle(color: color, canvas: canvas)
    }
}
