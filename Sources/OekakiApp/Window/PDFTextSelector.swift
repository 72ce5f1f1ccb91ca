import InkCore
import InkPDF
import InkRender
import Localization

/// "Select PDF text": while on, a layer over the canvas takes the pointer; a drag selects the text of the PDF page
/// under it as a PDF viewer does (`PDFTextSelection`), shaded in blue, and on release a menu offers Copy (the text
/// to the clipboard) and Highlight (highlighter strokes over exactly its lines, one undoable edit).
final class PDFTextSelector {
    let widget = Widgets.drawingArea()
    private let canvas: CanvasView
    private var session: DocumentSession { canvas.session }
    /// The page being selected on, its PDF text, and the selection so far.
    private var page: (index: Int, text: PDFPageText)?
    private var start: Point?
    private(set) var selection: PDFTextSelection?
    var onCopy: ((String) -> Void)?
    var onProblem: ((String) -> Void)?

    init(canvas: CanvasView) {
        self.canvas = canvas
        widget.expand()
        widget.setCursor("text")
        widget.setVisible(false)
        setDrawFunction(widget) { [weak self] cr, _, _ in self?.draw(cr) }
        widget.onDrag(began: { [weak self] x, y in self?.begin(Point(x, y)) },
                      moved: { [weak self] dx, dy in self?.move(dx, dy) },
                      ended: { [weak self] dx, dy in self?.end(dx, dy) })
    }

    var isOn: Bool { widget.isVisible }

    func setOn(_ on: Bool) {
        widget.setVisible(on)
        if !on { page = nil; selection = nil; widget.queueDraw() }
    }

    /// The PDF page under widget point `p` and `p` in its PDF units.
    private func pdfPoint(_ p: Point, onPage index: Int? = nil) -> (index: Int, point: Point)? {
        let layout = session.layout, document = session.document
        let q = canvas.transform.pagePoint(fromView: p)
        guard let i = index ?? (layout.isCanvas ? session.currentPage : layout.page(at: q)), document.pages.indices.contains(i),
              let ref = document.pages[i].background.pdf else { return nil }
        let frame = document.pages[i].frame, origin = layout.origin(ofPage: i)
        guard let size = PDFSources.shared.source(ref.file, in: document.files)?.pageSize(ref.index), frame.width > 0, frame.height > 0 else { return nil }
        let local = Point(q.x - origin.x - frame.minX, q.y - origin.y - frame.minY)
        return (i, Point(local.x * size.width / frame.width, local.y * size.height / frame.height))
    }

    private func begin(_ p: Point) {
        selection = nil
        start = p
        guard let at = pdfPoint(p), let ref = session.document.pages[at.index].background.pdf,
              let text = PDFSources.shared.source(ref.file, in: session.document.files)?.textLayout(page: ref.index) else { page = nil; return }
        page = (at.index, text)
    }

    private func move(_ dx: Double, _ dy: Double) {
        guard let s = start, let page, let a = pdfPoint(s, onPage: page.index), let b = pdfPoint(Point(s.x + dx, s.y + dy), onPage: page.index) else { return }
        selection = PDFTextSelection(from: a.point, to: b.point, in: page.text)
        widget.queueDraw()
    }

    private func end(_ dx: Double, _ dy: Double) {
        move(dx, dy)
        guard let s = start, let page, let selection else { return }
        let text = selection.text(in: page.text)
        guard !text.isEmpty else { return }
        let box = Widgets.box(horizontal: false, spacing: 2)
        box.setMargins(start: 4, end: 4, top: 4, bottom: 4)
        var close: () -> Void = {}
        let copy = Widgets.menuItem(localized("Copy")) { [weak self] in close(); self?.onCopy?(text) }
        let highlight = Widgets.menuItem(localized("Highlight")) { [weak self] in close(); self?.highlight(selection, page) }
        Widgets.append(box, copy, highlight)
        close = Popover.show(box, over: widget, at: (s.x + dx, s.y + dy))
    }

    private func highlight(_ selection: PDFTextSelection, _ page: (index: Int, text: PDFPageText)) {
        guard session.document.pages.indices.contains(page.index) else { return }
        let p = session.document.pages[page.index]
        let strokes = selection.highlight(in: page.text, frame: p.frame, color: session.styles[.highlighter]?.color ?? .highlighterYellow,
                                          firstID: 1, pageID: p.id)
        if let problem = session.highlight(strokes, onPage: page.index) { onProblem?(problem) }
        self.selection = nil
        widget.queueDraw()
    }

    /// The selected lines shaded, where the canvas shows them.
    private func draw(_ cr: CairoContext) {
        guard let page, let selection else { return }
        let document = session.document
        guard document.pages.indices.contains(page.index) else { return }
        let frame = document.pages[page.index].frame
        let sx = frame.width / max(page.text.size.width, 1), sy = frame.height / max(page.text.size.height, 1)
        cr.setSource(red: 0.21, green: 0.52, blue: 0.89, alpha: 0.35)
        for b in selection.lineBoxes(in: page.text) {
            let r = Rect(minX: frame.minX + b.minX * sx, minY: frame.minY + b.minY * sy, maxX: frame.minX + b.maxX * sx, maxY: frame.minY + b.maxY * sy)
            guard let v = canvas.viewRect(r, onPage: page.index) else { continue }
            cr.rectangle(x: v.minX, y: v.minY, width: v.width, height: v.height)
            cr.fill()
        }
    }
}
