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
        if let s = session.textBox(at: p), let box = s.content.text, let corners = s.shownCorners {
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
