import Foundation
import InkCore
import InkRender

/// A drag of the selection's box or one of its handles: the selected ink follows the pointer under `map` (the
/// canvas shows it as a moving layer); the edit is made once, on release.
struct SelectionDrag {
    var grip: SelectionFrame.Grip
    var frame: SelectionFrame
    /// Where the pointer went down, in page units.
    var start: Point
    var map = AffineMap.identity
    var op: SelectionOp?
}

/// Where input enters a session: a pointer sample in view space with the view it was made in and whether Shift
/// was held. `CanvasInput` sends here; nothing here calls back into the view.
protocol InputSink: AnyObject {
    func input(_ event: InputEvent, view: ViewTransform, shift: Bool)
    /// The pen came near the screen or left it (GDK's proximity events; `time` on the events' clock).
    func proximity(near: Bool, time: Double)
    /// Whether a touch beginning at `time` may pan or zoom (palm rejection refuses touches near the pen).
    func touchMayNavigate(at time: Double) -> Bool
    /// A right-click (or a long-press) at this point of `view`.
    func contextMenu(atView point: Point, view: ViewTransform)
}

/// Input: a pen sample's one path from the canvas's input to the editor. The session picks the page a stroke
/// begins on, hands text-tool presses and selection drags to their own gestures, and gives the rest to the
/// editor; the `Update` it returns goes forward to the views.
extension DocumentSession: InputSink {
    func input(_ event: InputEvent, view: ViewTransform, shift: Bool) {
        Trace.measure("event input") { inputNow(event, view: view, shift: shift) }
        // This user's stroke in progress goes to the board as it grows.
        board?.liveChanged()
    }

    private func inputNow(_ viewEvent: InputEvent, view: ViewTransform, shift: Bool) {
        var event = viewEvent
        // A touch palm rejection refuses does nothing at all here: no page change, no text box, no selection drag.
        if event.device == .touch {
            if event.phase == .began, !touchMayNavigate(at: event.point.time) { palmTouches.insert(event.pointer) }
            if palmTouches.contains(event.pointer) {
                if event.phase == .ended || event.phase == .cancelled { palmTouches.remove(event.pointer) }
                return
            }
        }
        let v = event.point.point
        if event.phase == .began {
            strokeBegins()
            // A stroke belongs to the page where it began: that page becomes current (unless other pointers are
            // still drawing or erasing on the current one).
            let target = layout.page(at: v) ?? layout.nearestPage(to: v)
            if target != currentPage, liveStrokes.isEmpty, !isErasing {
                // In the page's coordinates as placed now: going to an endless page lays the view out again, but
                // the view keeps that page where it is on screen.
                let p = v - layout.origin(ofPage: target)
                publish(goToPage(target))
                event.point.x = p.x; event.point.y = p.y
            } else {
                event.point.x = v.x - currentOrigin.x; event.point.y = v.y - currentOrigin.y
            }
        } else {
            event.point.x = v.x - currentOrigin.x; event.point.y = v.y - currentOrigin.y
        }
        if let t = textInput(event, view: view) { publish(t); return }
        if let t = teachingInput(event, at: v, view: view, shift: shift) { publish(t); return }
        let chosen = tool
        if chosen.isSelection, let s = selectionInput(event, view: view, shift: shift) { publish(s); return }
        let erasing = isErasing
        setConstrained(shift)
        // The tool this gesture uses: a stylus's end or barrel button may pick another than the chosen one.
        let picked = event.tool ?? (event.eraserEnd ? .strokeEraser : chosen)
        if EventRecorder.isOn {
            EventRecorder.record(event, tool: event.phase == .began ? picked : chosen,
                                 style: event.phase == .began && picked != chosen ? styles[picked] ?? style : style,
                                 recognize: recognizesShapes)
        }
        let lasered = laser.isLive(event.pointer)
        var out = SessionUpdate(handle(event))
        out.drawingChanged = erasing || isErasing
        out.laserChanged = lasered || laser.isLive(event.pointer)
        if picked.isSelection, event.phase == .ended || event.phase == .cancelled {
            // The editor finished the loop or box: the selection changed.
            selectionPath = []
            out.selectionChanged = true
            out.gestureChanged = true
        }
        publish(out)
    }

    /// The text tool takes a press (a box is placed or opened where it lands); so does a double-click on a text
    /// box with a selection tool (the first click selected it). Nil when the event is not the text tool's.
    private func textInput(_ event: InputEvent, view: ViewTransform) -> SessionUpdate? {
        let id = event.pointer
        if textPointers.contains(id) {
            if event.phase == .ended || event.phase == .cancelled { textPointers.remove(id) }
            return SessionUpdate()
        }
        guard event.phase == .began, !event.eraserEnd else { return nil }
        let p = event.point.point
        let now = event.point.time
        let double = lastPress.map { now - $0.time < 450 && $0.point.distance(to: p) * view.zoom < 8 } ?? false
        lastPress = (now, p)
        guard tool == .text || (double && tool.isSelection && textBox(at: p) != nil) else { return nil }
        textPointers.insert(id)
        var u = SessionUpdate()
        if tool != .text { u.merge(cancelDrag()) }
        u.textTap = p
        return u
    }

    // MARK: selection gestures

    /// The view transform of the current page: its page coordinates to the widget.
    func pageView(_ view: ViewTransform) -> ViewTransform {
        var t = view
        t.offset = t.offset + currentOrigin * t.zoom
        return t
    }

    /// Handles a selection tool's event when it grabs the selection (a handle wins over any ink under it) or
    /// continues a drag; nil lets the editor draw a lasso or box.
    private func selectionInput(_ event: InputEvent, view: ViewTransform, shift: Bool) -> SessionUpdate? {
        let p = event.point.point
        let pv = pageView(view)
        var u = SessionUpdate()
        switch event.phase {
        case .began:
            u.merge(cancelDrag())
            if let box = selectionBounds {
                let frame = SelectionFrame(box: box, view: pv)
                if let grip = frame.grip(atView: pv.viewPoint(fromPage: p)) {
                    startDrag(grip, frame: frame, at: p, view: pv)
                    u.gestureChanged = true
                    return u
                }
            }
            setAddsToSelection(shift)
            selectionPath = [p]
            return nil
        case .moved:
            guard var d = drag else {
                if !selectionPath.isEmpty { selectionPath.append(p); u.gestureChanged = true; publish(u) }
                return nil
            }
            let r = d.frame.drag(d.grip, from: d.start, to: p, shift: shift)
            d.map = r.map; d.op = r.op
            drag = d
            u.gestureChanged = true
            return u
        case .ended:
            // Not dragging: the editor finishes the loop or box.
            guard var d = drag else { return nil }
            let r = d.frame.drag(d.grip, from: d.start, to: p, shift: shift)
            d.op = r.op
            drag = nil
            u.gestureChanged = true
            // A click on the box without moving selects what is under the pointer instead.
            if d.grip == .move, d.start.distance(to: p) * view.zoom < 1 {
                u.repaint.append(d.frame.box)
                if let b = selectionBounds { u.repaint.append(b) }
                publish(u)
                selectionPath = [p]
                setAddsToSelection(shift)
                var down = event
                down.phase = .began
                _ = handle(down)
                return nil
            }
            u.merge(finishDrag(d))
            return u
        case .cancelled:
            if drag != nil { return cancelDrag() }
            selectionPath = []
            u.gestureChanged = true
            publish(u)
            return nil
        }
    }

    private func startDrag(_ grip: SelectionFrame.Grip, frame: SelectionFrame, at p: Point, view: ViewTransform) {
        drag = SelectionDrag(grip: grip, frame: frame, start: p)
        // Held still on the selection for half a second: a long press, which opens the selection's menu.
        let at = view.viewPoint(fromPage: p)
        every(milliseconds: 500) { [weak self] in
            guard let self, let d = self.drag, d.start == p, d.map == .identity else { return false }
            var u = self.cancelDrag()
            u.contextMenu = at
            self.publish(u)
            return false
        }
    }

    private func finishDrag(_ d: SelectionDrag) -> SessionUpdate {
        var u = SessionUpdate()
        u.repaint = [d.frame.box]
        u.gestureChanged = true
        guard let op = d.op else { return u }
        // One text box resized: it re-wraps to the new width (its glyphs keep their size).
        if case .scale(let sx, let sy, let c, _) = op, rewrapText(under: .scale(sx, sy, about: c)) { return u }
        _ = selectionCommand(op)
        return u
    }

    /// Drops a drag in progress: the selection stays where it was.
    func cancelDrag() -> SessionUpdate {
        var u = SessionUpdate()
        guard let d = drag else { return u }
        drag = nil
        u.repaint = [d.frame.box]
        u.gestureChanged = true
        return u
    }

    /// A right-click or long-press: on the selection (box or handles) its menu opens; elsewhere nothing.
    func contextMenu(atView p: Point, view: ViewTransform) {
        guard let box = selectionBounds, SelectionFrame(box: box, view: pageView(view)).grip(atView: p) != nil else { return }
        var u = cancelDrag()
        u.contextMenu = p
        publish(u)
    }
}
