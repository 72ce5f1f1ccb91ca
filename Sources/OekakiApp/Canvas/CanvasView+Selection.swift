import CGtk
import Foundation
import InkCore
import InkRender

/// A drag of the selection's box or one of its handles: the selected ink, rendered once into a layer, follows
/// the pointer under `map`; the screen cache shows the rest. The edit is made once, on release.
struct SelectionDrag {
    var grip: SelectionFrame.Grip
    var frame: SelectionFrame
    /// Where the pointer went down, in page units.
    var start: Point
    var layer: SelectionLayer
    var map = AffineMap.identity
    var op: SelectionOp?
}

/// The selection on the canvas: handles and box, dragging with a cached layer that moves, the lasso or box being
/// drawn, and the commands the keyboard and menus send.
extension CanvasView {
    /// The view transform of the current page: its page coordinates to the widget (pages sit at their origin in
    /// view space).
    var pageView: ViewTransform {
        var t = transform
        t.offset = t.offset + currentOrigin * t.zoom
        return t
    }

    /// The frame of the current selection, nil when nothing is selected.
    var selectionFrame: SelectionFrame? {
        guard let box = editor.selectionBounds else { return nil }
        return SelectionFrame(box: box, view: pageView)
    }

    /// Shift held on the keyboard right now (adds to a selection, keeps aspect ratios, snaps rotation).
    var shiftHeld: Bool {
        guard let display = gdk_display_get_default(), let seat = gdk_display_get_default_seat(display),
              let keyboard = gdk_seat_get_keyboard(seat) else { return false }
        return gdk_device_get_modifier_state(keyboard).rawValue & GDK_SHIFT_MASK.rawValue != 0
    }

    /// Handles a selection tool's event when it grabs the selection (a handle wins over any ink under it) or
    /// continues a drag; returns false to let the editor draw a lasso or box.
    func selectionInput(_ event: InputEvent) -> Bool {
        let p = event.point.point
        switch event.phase {
        case .began:
            cancelSelectionDrag()
            if let frame = selectionFrame, let grip = frame.grip(atView: pageView.viewPoint(fromPage: p)) {
                startDrag(grip, frame: frame, at: p)
                return selectionDrag != nil
            }
            editor.addsToSelection = shiftHeld
            editor.tapRadius = 3 / transform.zoom
            selectionPath = [p]
            return false
        case .moved:
            guard var d = selectionDrag else {
                if !selectionPath.isEmpty { selectionPath.append(p); redraw() }
                return false
            }
            let r = d.frame.drag(d.grip, from: d.start, to: p, shift: shiftHeld)
            d.map = r.map; d.op = r.op
            selectionDrag = d
            redraw()
            return true
        case .ended:
            // Not dragging: the editor finishes the loop or box (`selectionGestureEnded` follows).
            guard var d = selectionDrag else { return false }
            let r = d.frame.drag(d.grip, from: d.start, to: p, shift: shiftHeld)
            d.op = r.op
            selectionDrag = nil
            // A click on the box without moving selects what is under the pointer instead.
            if d.grip == .move, d.start.distance(to: p) * transform.zoom < 1 {
                repaint(editor.selectionBounds)
                selectionPath = [p]
                editor.addsToSelection = shiftHeld
                editor.tapRadius = 3 / transform.zoom
                _ = editor.handle(InputEvent(pointer: event.pointer, phase: .began, point: event.point, device: event.device))
                return false
            }
            finishDrag(d)
            return true
        case .cancelled:
            if selectionDrag != nil { cancelSelectionDrag(); return true }
            selectionPath = []
            redraw()
            return false
        }
    }

    private func startDrag(_ grip: SelectionFrame.Grip, frame: SelectionFrame, at p: Point) {
        let selected = editor.selectedStrokes
        guard let layer = try? SelectionLayer(strokes: selected, viewSize: size, transform: pageView) else { return }
        selectionDrag = SelectionDrag(grip: grip, frame: frame, start: p, layer: layer)
        // Held still on the selection for half a second: a long press, which opens the selection's menu.
        let view = pageView.viewPoint(fromPage: p)
        every(milliseconds: 500) { [weak self] in
            if let self, let d = self.selectionDrag, d.start == p, d.map == .identity { self.contextMenu(atView: view) }
            return false
        }
        // The cache shows the rest of the drawing; only where the selection was is repainted without it.
        let ids = Set(selected.map(\.id))
        let rest = Drawing(pageSize: editor.drawing.pageSize, background: editor.drawing.background,
                           strokes: editor.drawing.strokes.filter { !ids.contains($0.id) })
        var pages = editor.document.pages
        let page = pages[editor.currentPage]
        pages[editor.currentPage] = Page(id: page.id, format: page.format, drawing: rest)
        cache?.invalidate(frame.box.offsetBy(currentOrigin), in: Scene(document: Document(pages: pages), layout: layout))
        redraw()
    }

    private func finishDrag(_ d: SelectionDrag) {
        guard let op = d.op else { repaint(d.frame.box); redraw(); return }
        // One text box resized: it re-wraps to the new width (its glyphs keep their size).
        if case .scale(let sx, let sy, let c, _) = op, let r = editor.rewrap(under: .scale(sx, sy, about: c)) {
            let before = editor.selectionBounds
            apply(editor.changeText(r.id, to: r.box, height: TextPainter.measure(r.box).height, origin: r.origin))
            repaint(before); repaint(editor.selectionBounds); repaint(d.frame.box)
            onSelectionChanged?()
            redraw()
            return
        }
        selectionCommand(op)
        repaint(d.frame.box)
        redraw()
    }

    /// Drops a drag in progress: the selection stays where it was.
    func cancelSelectionDrag() {
        guard let d = selectionDrag else { return }
        selectionDrag = nil
        repaint(d.frame.box)
        redraw()
    }

    /// Runs a selection command and shows its result; a refused one (beyond the page limits) changes nothing.
    @discardableResult
    func selectionCommand(_ op: SelectionOp) -> String? {
        let before = editor.selectionBounds
        do {
            let u = try editor.apply(op)
            apply(u)
            repaint(before)
            repaint(editor.selectionBounds)
            onSelectionChanged?()
            redraw()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A right-click or long-press: on the selection (box or handles) its menu opens; elsewhere nothing.
    func contextMenu(atView p: Point) {
        guard let frame = selectionFrame, frame.grip(atView: p) != nil else { return }
        cancelSelectionDrag()
        onContextMenu?(p)
    }

    /// After the editor handled a selection tool's event: the loop is done, the selection changed.
    func selectionGestureEnded() {
        selectionPath = []
        onSelectionChanged?()
        redraw()
    }

    // MARK: drawing

    /// The dragged layer, the loop or box being drawn, and the selection's box and handles.
    func drawSelection(_ cr: OpaquePointer) {
        let ctx = CairoContext(borrowing: cr)
        if let d = selectionDrag {
            d.layer.draw(into: ctx, map: d.frame.viewMap(d.map))
        }
        cairo_save(cr)
        cairo_set_line_width(cr, 1)
        if selectionPath.count > 1 {
            let pts = selectionPath.map(pageView.viewPoint(fromPage:))
            if editor.tool == .selectRect, let a = pts.first, let b = pts.last {
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
            if let d = selectionDrag { box = d.frame.viewMap(d.map).apply(box) }
            cairo_rectangle(cr, box.minX, box.minY, box.width, box.height)
            dashed(cr)
            if selectionDrag == nil {
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
