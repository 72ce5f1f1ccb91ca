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
        var pages = session.document.pages
        let i = session.currentPage
        // The page without the selected items, every layer kept (the selection may span layers).
        for id in ids { pages[i].remove(id) }
        cache?.invalidate(d.frame.box.offsetBy(currentOrigin), in: Scene(document: Document(pages: pages), layout: session.layout))
    }

    /// The dragged layer, the loop or box being drawn, and the selection's box and handles.
    func drawSelection(_ cr: CairoContext) {
        let ctx = cr
        let drag = session.drag
        if let d = drag, let layer = dragLayer {
            layer.draw(into: ctx, map: d.frame.viewMap(d.map))
        }
        cr.save()
        cr.setLineWidth(1)
        let path = session.selectionPath
        if path.count > 1 {
            let pts = path.map(pageView.viewPoint(fromPage:))
            if session.tool == .selectRect, let a = pts.first, let b = pts.last {
                cr.rectangle(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
            } else {
                cr.move(to: pts[0].x, pts[0].y)
                for q in pts.dropFirst() { cr.line(to: q.x, q.y) }
                cr.closePath()
            }
            dashed(cr)
        }
        if let frame = selectionFrame {
            var box = frame.viewBox
            if let d = drag { box = d.frame.viewMap(d.map).apply(box) }
            cr.rectangle(x: box.minX, y: box.minY, width: box.width, height: box.height)
            dashed(cr)
            if drag == nil {
                let m = SelectionFrame.handleMark
                for h in frame.handles {
                    if h.grip == .rotate {
                        cr.move(to: h.at.x, box.minY); cr.line(to: h.at.x, h.at.y + m / 2)
                        cr.setSource(red: 0.11, green: 0.44, blue: 0.85, alpha: 1); cr.stroke()
                        cr.arc(Point(h.at.x, h.at.y), radius: m / 2 + 1)
                    } else {
                        cr.rectangle(x: h.at.x - m / 2, y: h.at.y - m / 2, width: m, height: m)
                    }
                    cr.setSource(red: 1, green: 1, blue: 1, alpha: 1); cr.fill(keepPath: true)
                    cr.setSource(red: 0.11, green: 0.44, blue: 0.85, alpha: 1); cr.stroke()
                }
            }
        }
        cr.restore()
    }

    private func dashed(_ cr: CairoContext) {
        cr.setSource(red: 1, green: 1, blue: 1, alpha: 0.9)
        cr.setDash([])
        cr.stroke(keepPath: true)
        cr.setDash([4, 4], offset: 0)
        cr.setSource(red: 0.11, green: 0.44, blue: 0.85, alpha: 1)
        cr.stroke()
        cr.setDash([])
    }
}
