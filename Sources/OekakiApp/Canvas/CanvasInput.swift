import Foundation
import InkCore
import InkRender

/// What fingers do on a touchscreen.
enum TouchMode: String, CaseIterable {
    /// Every finger draws its own line at once.
    case draw
    /// Two fingers pan and pinch-zoom; only the pen (and mouse) draw.
    case navigate
}

/// What moves the view: pans, zooms, and where a mouse or pen hovers (for the eraser's outline). The canvas.
protocol CanvasNavigation: AnyObject {
    func pan(byView delta: Point)
    func zoom(by factor: Double, atView anchor: Point)
    /// Where a mouse or pen points (nil when it leaves); `eraserEnd` when it is a stylus held upside down.
    func hover(atView point: Point?, eraserEnd: Bool)
}

/// Turns raw GDK events of the drawing area into `InputEvent`s for the session, and navigation for the canvas.
/// A sample is placed in view space through the viewport's transform, and carries what it means: the stylus's
/// eraser end, and the hold and tap radii (3 screen pixels at the zoom it was made at).
/// One `GtkEventControllerLegacy` sees every event once, dispatching on event type and device source,
/// so a pen stroke is never reported twice (as a drag gesture and a stylus gesture would).
final class CanvasInput {
    // Negative, because a finger's id is its GDK sequence, a small positive number cast to a pointer (Broadway,
    // X11 and Wayland all number touches 1, 2, …): with mouse = 1 the first finger and the mouse shared one
    // live stroke, so a finger and the mouse drawing at once drew one mixed stroke.
    private static let mousePointer: PointerID = -1
    private static let penPointer: PointerID = -2

    private let area: Widget
    private let viewport: Viewport
    private weak var sink: InputSink?
    weak var navigation: CanvasNavigation?
    /// Shift held at the last pointer event (shapes constrained, selections added to).
    private var shift = false
    var touchMode: TouchMode = .draw {
        didSet { fingers.reset() }
    }
    /// Called once, the first time a stylus touches the canvas.
    var onPenSeen: (() -> Void)?
    private var penSeen = false
    /// Space held: the left button pans instead of drawing.
    var spaceHeld = false
    /// What the stylus's eraser end and barrel buttons do (preferences).
    var stylus = StylusButtons()
    /// The barrel button held down (2 or 3) while the pen hovers: the tip's next stroke does its action.
    private var heldBarrel: UInt32?

    /// The pointer drawing with the mouse or pen, if any: whether it reports real pressure, and whether it is
    /// a stylus's eraser end (which erases whole strokes whatever tool is chosen).
    private var drawing: (id: PointerID, device: InputEvent.Device, realPressure: Bool, eraserEnd: Bool, tool: Tool?)?
    /// Pressure fix-ups of the pen stroke in progress.
    private var penPressure = PenPressure()
    /// Last view position while panning with a button.
    private var panFrom: Point?
    /// Fingers on the screen in navigate mode, by sequence.
    private var fingers = FingerNavigation()
    /// Where the mouse or pen last was over the canvas, in view units.
    private var lastPointer: Point?
    /// Fingers drawing in draw mode.
    private var drawingFingers: Set<PointerID> = []
    /// A resting pen or mouse sends no events; this timer repeats its last sample once it has rested long
    /// enough, so the editor sees the hold (and snaps to a shape) while the pen is still down.
    private var holdTimer: UInt32 = 0
    private var lastSample: (point: InkPoint, clock: Double)?

    init(area: Widget, viewport: Viewport, sink: InputSink) {
        self.area = area
        self.viewport = viewport
        self.sink = sink
        watchEvents(of: area) { [weak self] event in self?.handle(event) ?? false }
    }

    /// Forgets strokes in progress (Escape): the pointer draws again only after it is lifted.
    func cancelStrokes() {
        disarmHold()
        drawing = nil
        penPressure = PenPressure()
        drawingFingers.removeAll()
    }

    private func handle(_ event: GdkInput) -> Bool {
        switch event.kind {
        case .touchBegin, .touchUpdate, .touchEnd, .touchCancel:
            return touch(event)
        case .buttonPress, .buttonRelease, .motion:
            // Touchscreens report their own touch events; pointer events they emulate are ignored.
            if event.fromTouchscreen { return false }
            let pen = event.fromPen
            if pen, !penSeen {
                penSeen = true
                onPenSeen?()
            }
            return pointer(event, pen: pen)
        case .scroll:
            return scroll(event)
        case .pinch:
            return pinch(event)
        case .enter:
            lastPointer = event.position
            return false
        case .leave:
            navigation?.hover(atView: nil, eraserEnd: false)
            return false
        case .proximityIn, .proximityOut:
            // Palm rejection hears when the pen comes near and leaves (touches near it neither draw nor navigate).
            sink?.proximity(near: event.kind == .proximityIn, time: event.time)
            if event.kind == .proximityOut { navigation?.hover(atView: nil, eraserEnd: false) }
            return false
        case .grabBroken:
            finishPointer(at: nil, time: 0, cancelled: true)
            return false
        case .other:
            return false
        }
    }

    // MARK: mouse and pen

    /// Hands a sample to the session with what it carries; a press takes the keyboard focus to the canvas.
    private func send(_ e: InputEvent, eraserEnd: Bool = false, tool: Tool? = nil) {
        var e = e
        e.tool = tool
        let view = viewport.transform
        // A hold and a tap are 3 pixels on screen, whatever the zoom.
        e.holdRadius = 3 / max(view.zoom, 1e-6)
        e.tapRadius = 3 / max(view.zoom, 1e-6)
        // A stroke follows a ruler, set square or compass it begins within 20 pixels of.
        e.guideRadius = InputEvent.defaultGuideRadius / max(view.zoom, 1e-6)
        e.eraserEnd = eraserEnd
        if e.phase == .began { grabFocus(area) }
        sink?.input(e, view: view, shift: shift)
    }

    /// A widget point in view space (where the pages are laid out).
    private func toView(_ v: Point) -> Point { viewport.transform.pagePoint(fromView: v) }

    private func pointer(_ event: GdkInput, pen: Bool) -> Bool {
        guard let v = event.position else { return false }
        let time = event.time
        let device: InputEvent.Device = pen ? .pen : .mouse
        lastPointer = v
        navigation?.hover(atView: v, eraserEnd: pen && event.isEraserEnd && stylus.eraserEnd.tool?.isEraser == true)
        shift = event.shift
        switch event.kind {
        case .buttonPress:
            let button = event.button
            if pen, button == 2 || button == 3 {
                // A barrel button: its action applies to the tip's next stroke, for as long as it is held.
                heldBarrel = button
                return true
            }
            if button == 3 {
                sink?.contextMenu(atView: v, view: viewport.transform)
                return true
            }
            if button == 2 || (button == 1 && spaceHeld) {
                finishPointer(at: nil, time: time, cancelled: false)
                panFrom = v
                return true
            }
            guard button == 1, drawing == nil else { return button == 1 }
            // The eraser end or a barrel button may do something else than the chosen tool.
            var picked: Tool?
            if pen, let action = stylusAction(event) {
                switch action {
                case .none: return true
                case .pan:
                    panFrom = v
                    return true
                default: picked = action.tool
                }
            }
            let id = pen ? Self.penPointer : Self.mousePointer
            let real = pen && event.pressure != nil
            drawing = (id, device, real, picked != nil, picked)
            let first = sample(v, event: event, time: time, pen: pen)
            penPressure = PenPressure()
            // A pen whose first sample has no pressure yet begins with its first motion.
            if real, penPressure.down(first, hasPressure: true) == nil { return true }
            send(InputEvent(pointer: id, phase: .began, point: first, device: device, hasPressure: real),
                 eraserEnd: drawing?.eraserEnd ?? false, tool: picked)
            armHold(first)
            return true
        case .motion:
            if let from = panFrom {
                navigation?.pan(byView: v - from)
                panFrom = v
                return true
            }
            // Only the device that is drawing moves the stroke (a mouse nudged while the pen draws does not).
            guard let d = drawing, d.device == device else { return false }
            InkLatency.motion(at: time, handledMs: monotonicMs())
            // GTK coalesces motion to one event per frame; its history holds the samples in between.
            var samples = history(of: event)
            samples.append((sample(v, event: event, time: time, pen: pen), pen && event.pressure != nil))
            var points = samples.map(\.point)
            if d.realPressure {
                let fixed = penPressure.move(samples)
                if let began = fixed.began {
                    send(InputEvent(pointer: d.id, phase: .began, point: began, device: d.device, hasPressure: true), eraserEnd: d.eraserEnd, tool: d.tool)
                }
                // Still waiting for the pen's first real pressure: nothing to draw yet.
                if penPressure.heldDown != nil { return true }
                points = fixed.moved
            }
            for p in points {
                send(InputEvent(pointer: d.id, phase: .moved, point: p, device: d.device, hasPressure: d.realPressure), tool: d.tool)
            }
            if let last = points.last { armHold(last) }
            return true
        case .buttonRelease:
            let button = event.button
            if pen, button == 2 || button == 3 {
                if heldBarrel == button { heldBarrel = nil }
                return true
            }
            if panFrom != nil, button == 2 || button == 1 {
                panFrom = nil
                return true
            }
            guard button == 1, let d = drawing, d.device == device else { return false }
            finishPointer(at: sample(v, event: event, time: time, pen: pen), time: time, cancelled: false,
                          reported: pen && event.pressure != nil)
            return true
        default:
            return false
        }
    }

    /// Restarts the hold timer from the latest sample of the pen or mouse that is drawing.
    private func armHold(_ p: InkPoint) {
        disarmHold()
        lastSample = (p, Self.clockMs())
        holdTimer = every(milliseconds: UInt32(Editor.holdDuration) + 30) { [weak self] in
            guard let self else { return false }
            self.holdTimer = 0
            self.repeatRestingSample()
            return false
        }
    }

    private func disarmHold() {
        stopTimer(&holdTimer)
        lastSample = nil
    }

    /// The pointer has not moved: its last sample again, as late as it is now (the event log's hold).
    private func repeatRestingSample() {
        guard let d = drawing, let (p, clock) = lastSample, penPressure.heldDown == nil else { return }
        var q = p
        q.time = p.time + (Self.clockMs() - clock)
        send(InputEvent(pointer: d.id, phase: .moved, point: q, device: d.device, hasPressure: d.realPressure), tool: d.tool)
    }

    private static func clockMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    private func finishPointer(at point: InkPoint?, time: Double, cancelled: Bool, reported: Bool = false) {
        disarmHold()
        panFrom = nil
        guard let d = drawing else { return }
        drawing = nil
        let held = d.realPressure && penPressure.heldDown != nil
        if cancelled || point == nil {
            // A pen-down still waiting for pressure was never reported: nothing to cancel.
            if !held {
                send(InputEvent(pointer: d.id, phase: .cancelled, point: point ?? InkPoint(x: 0, y: 0), device: d.device), tool: d.tool)
            }
            penPressure = PenPressure()
        } else if let point {
            var end = point
            if d.realPressure {
                let fixed = penPressure.up(point, hasPressure: reported)
                if let began = fixed.began {
                    send(InputEvent(pointer: d.id, phase: .began, point: began, device: d.device, hasPressure: true), eraserEnd: d.eraserEnd, tool: d.tool)
                }
                end = fixed.ended
            }
            send(InputEvent(pointer: d.id, phase: .ended, point: end, device: d.device, hasPressure: d.realPressure), tool: d.tool)
        }
    }

    /// What the stylus asks for instead of the chosen tool: its eraser end, or a barrel button held (nil: the tool).
    private func stylusAction(_ event: GdkInput) -> StylusAction? {
        if event.isEraserEnd { return stylus.eraserEnd }
        let held = event.barrelButtons
        if heldBarrel == 2 || held.first { return stylus.first }
        if heldBarrel == 3 || held.second { return stylus.second }
        return nil
    }

    private func sample(_ v: Point, event: GdkInput, time: Double, pen: Bool) -> InkPoint {
        let p = toView(v)
        let pressure = pen ? (event.pressure ?? 0.5) : 0.5
        return InkPoint(x: p.x, y: p.y, pressure: pressure, time: time)
    }

    /// The motion samples GTK folded into this event, oldest first, in view space.
    private func history(of event: GdkInput) -> [(point: InkPoint, hasPressure: Bool)] {
        event.history.map { h in
            let p = toView(h.at)
            return (InkPoint(x: p.x, y: p.y, pressure: h.pressure ?? 0.5, time: h.time), h.pressure != nil)
        }
    }

    // MARK: touch

    private func touch(_ event: GdkInput) -> Bool {
        let id = PointerID(event.sequence)
        let time = event.time
        let v = event.position
        let kind = event.kind
        // A finger keeps the mode it went down in: switching modes mid-touch never strands a live stroke.
        let draws = kind == .touchBegin ? touchMode == .draw : drawingFingers.contains(id)
        guard draws else {
            switch kind {
            case .touchBegin:
                // Palm rejection: a touch near the pen does not navigate either.
                if let v, sink?.touchMayNavigate(at: time) ?? true { fingers.down(id, at: v) }
            case .touchUpdate:
                guard let v, let step = fingers.move(id, to: v) else { return true }
                navigation?.pan(byView: step.pan)
                if step.zoom != 1 { navigation?.zoom(by: step.zoom, atView: step.anchor) }
            default:
                fingers.up(id)
            }
            return true
        }
        if kind == .touchCancel || v == nil {
            // Cancelled (the system took the touch, or it cannot be placed): the live stroke is discarded.
            guard drawingFingers.remove(id) != nil else { return true }
            send(InputEvent(pointer: id, phase: .cancelled, point: InkPoint(x: 0, y: 0), device: .touch))
            return true
        }
        guard let v else { return true }
        let page = toView(v)
        let point = InkPoint(x: page.x, y: page.y, pressure: 0.5, time: time)
        switch kind {
        case .touchBegin:
            drawingFingers.insert(id)
            send(InputEvent(pointer: id, phase: .began, point: point, device: .touch))
        case .touchUpdate:
            // No history here: GTK 4.8 keeps it only for motion and scroll events (asking for a touch update's
            // is a Gdk-CRITICAL on every finger move), and it does not compress touch updates, so none is lost.
            send(InputEvent(pointer: id, phase: .moved, point: point, device: .touch))
        default:
            drawingFingers.remove(id)
            send(InputEvent(pointer: id, phase: .ended, point: point, device: .touch))
        }
        return true
    }

    // MARK: touchpad

    /// Scale of the touchpad pinch so far (it is reported relative to the gesture's start).
    private var pinchScale = 1.0

    private func pinch(_ event: GdkInput) -> Bool {
        guard let navigation else { return false }
        let scale = event.pinchScale
        switch event.pinchPhase {
        case .begin:
            pinchScale = 1
        case .update:
            guard scale.isFinite, scale > 0, pinchScale > 0 else { return true }
            let anchor = event.position ?? lastPointer ?? Point(0, 0)
            navigation.zoom(by: scale / pinchScale, atView: anchor)
            pinchScale = scale
        case .end:
            pinchScale = 1
        }
        return true
    }

    // MARK: scroll

    private func scroll(_ event: GdkInput) -> Bool {
        guard let navigation else { return false }
        let (dx, dy) = event.scrollSteps
        if event.control {
            // X11 scroll events may carry no position: fall back to where the pointer last moved.
            let anchor = event.position ?? lastPointer ?? Point(0, 0)
            navigation.zoom(by: pow(1.15, -dy), atView: anchor)
        } else {
            let step = 60.0
            navigation.pan(byView: event.shift ? Point(-dy * step, -dx * step) : Point(-dx * step, -dy * step))
        }
        return true
    }
}
