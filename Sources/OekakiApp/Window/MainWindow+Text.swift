import CGtk
import InkCore
import InkRender

/// The text tool in the window: a click places a box (or opens the one under it) in `textField`; ending the
/// typing (a click elsewhere, Escape, another tool or command) makes it one undoable edit.
extension MainWindow {
    /// A click with the text tool (or a double-click on a box with a selection tool) at page point `p`.
    func textTap(at p: Point) {
        finishText()
        let e = canvas.editor
        let session: TextBoxEditor.Session
        if let s = e.textBox(at: p), let box = s.content.text, let corners = s.shownCorners {
            session = TextBoxEditor.Session(page: s.page, id: s.id, origin: corners[0], box: box)
        } else {
            if e.tool != .text { return }
            let box = TextBox(text: "", font: textFont.family, size: textFont.size, color: e.textColor, width: TextBoxEditor.newWidth)
            session = TextBoxEditor.Session(page: e.page.id, id: nil, origin: p, box: box)
        }
        textField.begin(session, canvas: canvas)
        canvas.onViewDrawn = { [weak self] in
            guard let self else { return }
            self.textField.place(self.canvas)
        }
    }

    /// Ends typing: the text becomes a new box, the box's new text, or (emptied) no box at all.
    func finishText() {
        guard let (s, text) = textField.end() else { return }
        canvas.onViewDrawn = nil
        gtk_widget_grab_focus(canvas.widget)
        let e = canvas.editor
        guard e.page.id == s.page || e.document.index(of: s.page) != nil else { return }
        if e.page.id != s.page, let i = e.document.index(of: s.page) { canvas.showPage(i) }
        var box = s.box
        box.text = TextBox.truncated(text) ?? text
        let height = TextPainter.measure(box).height
        if let id = s.id {
            canvas.apply(e.changeText(id, to: box, height: height))
        } else {
            canvas.apply(e.addText(box, at: s.origin, height: height))
        }
    }

    func setTextFont(_ family: String, _ size: Double) {
        let size = min(max(size, TextBox.sizeRange.lowerBound), TextBox.sizeRange.upperBound)
        textFont = (family.isEmpty ? "Sans" : String(family.prefix(TextBox.maxFontBytes / 4)), size)
        textField.restyle(font: textFont.family, size: textFont.size, canvas: canvas)
    }

    func setTextColor(_ color: RGBA) {
        canvas.editor.textColor = color
        textField.restyle(color: color, canvas: canvas)
        showTool()
    }
}
