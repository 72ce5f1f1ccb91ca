import CGtk
import Foundation
import InkCore
import InkRender

/// The selection on the canvas: its box and handles, the lasso or box being drawn, and a drag as a layer of the
/// selected ink rendered once that follows the session's drag map (the screen cache shows the rest).
extension CanvasView {
    /// The frame of the current selection, nil when nothing is selected.
    var selectionFrame: SelectionFrame? {
        guard let box = session.selectionBounds else { return nil }
        return SelectionFrame(box: box, view: pageView)
    }

    /// A drag began: the selected ink becomes a layer, and only where it was is repainted without it. A drag
    /// ended: the layer goes (the session's update repaints what changed).
    func followDrag() {
        guard let d = session.drag else { dragLayer = nil; return }
        guard dragLayer == nil else { return }
        let selected = session.selectedStrokes
        guard let layer = try? SelectionLayer(strokes: selected, viewSize: size, transform: pageView) else { return }
        dragLayer = layer
        let ids = Set(selected.map(\.id))
        let drawing = session.drawing
        let rest = Drawing(pageSize: drawing.pageSize, background: drawing.background,
                           strokes: drawing.strokes.filter { !ids.contains($0.id) })
        var pages = session.document.pages
        let i = session.currentPage
        pages[i] = Page(id: pages[i].id, format: pages[i].format, drawing: rest)
        cache?.invalidate(d.frame.box.offsetBy(currentOrigin), in: Scene(document: Document(pages: pages), layout: session.layout))
    }

    /// The dragged layer, the loop or box being drawn, and the selection's box and handles.
    func drawSelection(_ cr: OpaquePointer) {
        let ctx = CairoContext(borrowing: cr)
        let drag = session.drag
        if let d = drag, let layer = dragLayer {
            layer.draw(into: ctx, map: d.frame.viewMap(d.map))
        }
        cairo_save(cr)
        cairo_set_line_width(cr, 1)
        let path = session.selectionPath
        if path.count > 1 {
            let pts = path.map(pageView.viewPoint(fromPage:))
            if session.tool == .selectRect, let a = pts.first, let b = pts.last {
                cairo_rectangle(cr, min(a.x, b.x), min(a.y, b.y), abs(b.x - a.x), abs(b.y - a.y))
            } else {
                cairo_move_to(cr, pts[0].x, pts[0].y)
                for q in pts.dropFirst() { cairo_line_to(cr, q.x, q.y) }
                cairo_close_path(cr)
            }
            dashed(cr)
        }
        if let frame = selectionFrame {
            var box = frame.viewBox
            if let d = drag { box = d.frame.viewMap(d.map).apply(box) }
            cairo_rectangle(cr, box.minX, box.minY, box.width, box.height)
            dashed(cr)
            if drag == nil {
                let m = SelectionFrame.handleMark
                for h in frame.handles {
                    if h.grip == .rotate {
                        cairo_move_to(cr, h.at.x, box.minY); cairo_line_to(cr, h.at.x, h.at.y + m / 2)
                        cairo_set_source_rgba(cr, 0.11, 0.44, 0.85, 1); cairo_stroke(cr)
                        cairo_arc(cr, h.at.x, h.at.y, m / 2 + 1, 0, 2 * .pi)
                    } else {
                        cairo_rectangle(cr, h.at.x - m / 2, h.at.y - m / 2, m, m)
                    }
                    cairo_set_source_rgba(cr, 1, 1, 1, 1); cairo_fill_preserve(cr)
                    cairo_set_source_rgba(cr, 0.11, 0.44, 0.85, 1); cairo_stroke(cr)
                }
            }
        }
        cairo_restore(cr)
    }

    private func dashed(_ cr: OpaquePointer) {
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_set_dash(cr, nil, 0, 0)
        cairo_stroke_preserve(cr)
        cairo_set_dash(cr, [4, 4], 2, 0)
        cairo_set_source_rgba(cr, 0.11, 0.44, 0.85, 1)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
    }
}
