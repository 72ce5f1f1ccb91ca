import CGtk
import Foundation
import InkCore

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

    /// The pointer drawing with the mouse or pen, if any: whether it reports real pressure, and whether it is
    /// a stylus's eraser end (which erases whole strokes whatever tool is chosen).
    private var drawing: (id: PointerID, device: InputEvent.Device, realPressure: Bool, eraserEnd: Bool)?
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
        let controller = gtk_event_controller_legacy_new()!
        connectLegacyEvent(controller) { [weak self] event in
            self?.handle(event) ?? false
        }
        gtk_widget_add_controller(area, controller)
    }

    /// Forgets strokes in progress (Escape): the pointer draws again only after it is lifted.
    func cancelStrokes() {
        disarmHold()
        drawing = nil
        penPressure = PenPressure()
        drawingFingers.removeAll()
    }

    private func handle(_ event: OpaquePointer) -> Bool {
        let type = gdk_event_get_event_type(event)
        let source = gdk_event_get_device(event).map { gdk_device_get_source($0) } ?? GDK_SOURCE_MOUSE
        switch type {
        case GDK_TOUCH_BEGIN, GDK_TOUCH_UPDATE, GDK_TOUCH_END, GDK_TOUCH_CANCEL:
            return touch(event, type: type)
        case GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE, GDK_MOTION_NOTIFY:
            // Touchscreens report their own touch events; pointer events they emulate are ignored.
            if source == GDK_SOURCE_TOUCHSCREEN { return false }
            let pen = source == GDK_SOURCE_PEN || isStylus(event)
            if pen, !penSeen {
                penSeen = true
                onPenSeen?()
            }
            return pointer(event, type: type, pen: pen)
        case GDK_SCROLL:
            return scroll(event)
        case GDK_TOUCHPAD_PINCH:
            return pinch(event)
        case GDK_ENTER_NOTIFY:
            lastPointer = viewPosition(event)
            return false
        case GDK_LEAVE_NOTIFY, GDK_PROXIMITY_OUT:
            navigation?.hover(atView: nil, eraserEnd: false)
            return false
        case GDK_GRAB_BROKEN:
            finishPointer(at: nil, time: 0, cancelled: true)
            return false
        default:
            return false
        }
    }

    /// The upside-down end of a stylus. GTK reports it as a device tool of type ERASER; when a tablet gives no
    /// tool (no serial numbers), a device named "… eraser" (as X11 drivers name it) is the fallback.
    private func isEraserEnd(_ event: OpaquePointer) -> Bool {
        if let tool = gdk_event_get_device_tool(event), gdk_device_tool_get_tool_type(tool) == GDK_DEVICE_TOOL_TYPE_ERASER { return true }
        guard let device = gdk_event_get_device(event), let name = gdk_device_get_name(device) else { return false }
        return String(cString: name).lowercased().contains("eraser")
    }

    private func isStylus(_ event: OpaquePointer) -> Bool {
        guard let tool = gdk_event_get_device_tool(event) else { return false }
        let t = gdk_device_tool_get_tool_type(tool)
        return t != GDK_DEVICE_TOOL_TYPE_UNKNOWN && t != GDK_DEVICE_TOOL_TYPE_MOUSE && t != GDK_DEVICE_TOOL_TYPE_LENS
    }

    // MARK: mouse and pen

    /// Hands a sample to the session with what it carries; a press takes the keyboard focus to the canvas.
    private func send(_ e: InputEvent, eraserEnd: Bool = false) {
        var e = e
        let view = viewport.transform
        // A hold and a tap are 3 pixels on screen, whatever the zoom.
        e.holdRadius = 3 / max(view.zoom, 1e-6)
        e.tapRadius = 3 / max(view.zoom, 1e-6)
        e.eraserEnd = eraserEnd
        if e.phase == .began { gtk_widget_grab_focus(area) }
        sink?.input(e, view: view, shift: shift)
    }

    /// A widget point in view space (where the pages are laid out).
    private func toView(_ v: Point) -> Point { viewport.transform.pagePoint(fromView: v) }

    private func pointer(_ event: OpaquePointer, type: GdkEventType, pen: Bool) -> Bool {
        guard let v = viewPosition(event) else { return false }
        let time = Double(gdk_event_get_time(event))
        let device: InputEvent.Device = pen ? .pen : .mouse
        lastPointer = v
        navigation?.hover(atView: v, eraserEnd: pen && isEraserEnd(event))
        shift = gdk_event_get_modifier_state(event).rawValue & GDK_SHIFT_MASK.rawValue != 0
        switch type {
        case GDK_BUTTON_PRESS:
            let button = gdk_button_event_get_button(event)
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
            let id = pen ? Self.penPointer : Self.mousePointer
            let real = pen && pressure(of: event) != nil
            drawing = (id, device, real, pen && isEraserEnd(event))
            let first = sample(v, event: event, time: time, pen: pen)
            penPressure = PenPressure()
            // A pen whose first sample has no pressure yet begins with its first motion.
            if real, penPressure.down(first, hasPressure: true) == nil { return true }
            send(InputEvent(pointer: id, phase: .began, point: first, device: device, hasPressure: real),
                 eraserEnd: drawing?.eraserEnd ?? false)
            armHold(first)
            return true
        case GDK_MOTION_NOTIFY:
            if let from = panFrom {
                navigation?.pan(byView: v - from)
                panFrom = v
                return true
            }
            // Only the device that is drawing moves the stroke (a mouse nudged while the pen draws does not).
            guard let d = drawing, d.device == device else { return false }
            // GTK coalesces motion to one event per frame; its history holds the samples in between.
            var samples = history(of: event)
            samples.append((sample(v, event: event, time: time, pen: pen), pen && pressure(of: event) != nil))
            var points = samples.map(\.point)
            if d.realPressure {
                let fixed = penPressure.move(samples)
                if let began = fixed.began {
                    send(InputEvent(pointer: d.id, phase: .began, point: began, device: d.device, hasPressure: true), eraserEnd: d.eraserEnd)
                }
                // Still waiting for the pen's first real pressure: nothing to draw yet.
                if penPressure.heldDown != nil { return true }
                points = fixed.moved
            }
            for p in points {
                send(InputEvent(pointer: d.id, phase: .moved, point: p, device: d.device, hasPressure: d.realPressure))
            }
            if let last = points.last { armHold(last) }
            return true
        case GDK_BUTTON_RELEASE:
            let button = gdk_button_event_get_button(event)
            if panFrom != nil, button == 2 || button == 1 {
                panFrom = nil
                return true
            }
            guard button == 1, let d = drawing, d.device == device else { return false }
            finishPointer(at: sample(v, event: event, time: time, pen: pen), time: time, cancelled: false,
                          reported: pen && pressure(of: event) != nil)
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
        if holdTimer != 0 { g_source_remove(holdTimer); holdTimer = 0 }
        lastSample = nil
    }

    /// The pointer has not moved: its last sample again, as late as it is now (the event log's hold).
    private func repeatRestingSample() {
        guard let d = drawing, let (p, clock) = lastSample, penPressure.heldDown == nil else { return }
        var q = p
        q.time = p.time + (Self.clockMs() - clock)
        send(InputEvent(pointer: d.id, phase: .moved, point: q, device: d.device, hasPressure: d.realPressure))
    }

    private static func clockMs() -> Double { Double(g_get_monotonic_time()) / 1000 }

    private func finishPointer(at point: InkPoint?, time: Double, cancelled: Bool, reported: Bool = false) {
        disarmHold()
        panFrom = nil
        guard let d = drawing else { return }
        drawing = nil
        let held = d.realPressure && penPressure.heldDown != nil
        if cancelled || point == nil {
            // A pen-down still waiting for pressure was never reported: nothing to cancel.
            if !held {
                send(InputEvent(pointer: d.id, phase: .cancelled, point: point ?? InkPoint(x: 0, y: 0), device: d.device))
            }
            penPressure = PenPressure()
        } else if let point {
            var end = point
            if d.realPressure {
                let fixed = penPressure.up(point, hasPressure: reported)
                if let began = fixed.began {
                    send(InputEvent(pointer: d.id, phase: .began, point: began, device: d.device, hasPressure: true), eraserEnd: d.eraserEnd)
                }
                end = fixed.ended
            }
            send(InputEvent(pointer: d.id, phase: .ended, point: end, device: d.device, hasPressure: d.realPressure))
        }
    }

    private func sample(_ v: Point, event: OpaquePointer, time: Double, pen: Bool) -> InkPoint {
        let p = toView(v)
        let pressure = pen ? (self.pressure(of: event) ?? 0.5) : 0.5
        return InkPoint(x: p.x, y: p.y, pressure: pressure, time: time)
    }

    private func pressure(of event: OpaquePointer) -> Double? {
        var value = 0.0
        guard gdk_event_get_axis(event, GDK_AXIS_PRESSURE, &value) != 0, value.isFinite else { return nil }
        return min(max(value, 0), 1)
    }

    /// The motion samples GTK folded into this event, oldest first, in page coordinates.
    private func history(of event: OpaquePointer) -> [(point: InkPoint, hasPressure: Bool)] {
        var count: guint = 0
        guard let coords = gdk_event_get_history(event, &count), count > 0 else { return [] }
        defer { g_free(coords) }
        guard let offset = surfaceOffset() else { return [] }
        var out: [(point: InkPoint, hasPressure: Bool)] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            var c = coords[i]
            let flags = c.flags.rawValue
            guard flags & GDK_AXIS_FLAG_X.rawValue != 0, flags & GDK_AXIS_FLAG_Y.rawValue != 0 else { continue }
            let axes = withUnsafeBytes(of: &c.axes) { Array($0.bindMemory(to: Double.self)) }
            let x = axes[Int(GDK_AXIS_X.rawValue)], y = axes[Int(GDK_AXIS_Y.rawValue)]
            guard x.isFinite, y.isFinite else { continue }
            let hasPressure = flags & GDK_AXIS_FLAG_PRESSURE.rawValue != 0 && axes[Int(GDK_AXIS_PRESSURE.rawValue)].isFinite
            let pressure = hasPressure ? min(max(axes[Int(GDK_AXIS_PRESSURE.rawValue)], 0), 1) : 0.5
            let page = toView(Point(x - offset.x, y - offset.y))
            out.append((InkPoint(x: page.x, y: page.y, pressure: pressure, time: Double(c.time)), hasPressure))
        }
        return out
    }

    // MARK: touch

    private func touch(_ event: OpaquePointer, type: GdkEventType) -> Bool {
        let seq = gdk_event_get_event_sequence(event)
        let id = PointerID(Int(bitPattern: seq.map { UnsafeRawPointer($0) }))
        let time = Double(gdk_event_get_time(event))
        let v = viewPosition(event)
        // A finger keeps the mode it went down in: switching modes mid-touch never strands a live stroke.
        let draws = type == GDK_TOUCH_BEGIN ? touchMode == .draw : drawingFingers.contains(id)
        guard draws else {
            switch type {
            case GDK_TOUCH_BEGIN:
                if let v { fingers.down(id, at: v) }
            case GDK_TOUCH_UPDATE:
                guard let v, let step = fingers.move(id, to: v) else { return true }
                navigation?.pan(byView: step.pan)
                if step.zoom != 1 { navigation?.zoom(by: step.zoom, atView: step.anchor) }
            default:
                fingers.up(id)
            }
            return true
        }
        if type == GDK_TOUCH_CANCEL || v == nil {
            // Cancelled (the system took the touch, or it cannot be placed): the live stroke is discarded.
            guard drawingFingers.remove(id) != nil else { return true }
            send(InputEvent(pointer: id, phase: .cancelled, point: InkPoint(x: 0, y: 0), device: .touch))
            return true
        }
        guard let v else { return true }
        let page = toView(v)
        let point = InkPoint(x: page.x, y: page.y, pressure: 0.5, time: time)
        switch type {
        case GDK_TOUCH_BEGIN:
            drawingFingers.insert(id)
            send(InputEvent(pointer: id, phase: .began, point: point, device: .touch))
        case GDK_TOUCH_UPDATE:
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

    private func pinch(_ event: OpaquePointer) -> Bool {
        guard let navigation else { return false }
        let scale = gdk_touchpad_event_get_pinch_scale(event)
        switch gdk_touchpad_event_get_gesture_phase(event) {
        case GDK_TOUCHPAD_GESTURE_PHASE_BEGIN:
            pinchScale = 1
        case GDK_TOUCHPAD_GESTURE_PHASE_UPDATE:
            guard scale.isFinite, scale > 0, pinchScale > 0 else { return true }
            let anchor = viewPosition(event) ?? lastPointer ?? Point(0, 0)
            navigation.zoom(by: scale / pinchScale, atView: anchor)
            pinchScale = scale
        default:
            pinchScale = 1
        }
        return true
    }

    // MARK: scroll

    private func scroll(_ event: OpaquePointer) -> Bool {
        guard let navigation else { return false }
        let mods = gdk_event_get_modifier_state(event).rawValue
        let control = mods & GDK_CONTROL_MASK.rawValue != 0
        var dx = 0.0, dy = 0.0
        switch gdk_scroll_event_get_direction(event) {
        case GDK_SCROLL_UP: dy = -1
        case GDK_SCROLL_DOWN: dy = 1
        case GDK_SCROLL_LEFT: dx = -1
        case GDK_SCROLL_RIGHT: dx = 1
        default: gdk_scroll_event_get_deltas(event, &dx, &dy)
        }
        if control {
            // X11 scroll events may carry no position: fall back to where the pointer last moved.
            let anchor = viewPosition(event) ?? lastPointer ?? Point(0, 0)
            navigation.zoom(by: pow(1.15, -dy), atView: anchor)
        } else {
            let shift = mods & GDK_SHIFT_MASK.rawValue != 0
            let step = 60.0
            navigation.pan(byView: shift ? Point(-dy * step, -dx * step) : Point(-dx * step, -dy * step))
        }
        return true
    }

    // MARK: coordinates

    /// Where the drawing area sits in its surface: legacy events come in surface coordinates.
    private func surfaceOffset() -> Point? {
        guard let native = gtk_widget_get_native(area) else { return nil }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(native, &sx, &sy)
        var ax = 0.0, ay = 0.0
        guard gtk_widget_translate_coordinates(asWidget(native), area, 0, 0, &ax, &ay) != 0 else { return nil }
        // A point p in the surface is p − s in the native widget and p − s + a in the area.
        return Point(sx - ax, sy - ay)
    }

    private func viewPosition(_ event: OpaquePointer) -> Point? {
        var x = 0.0, y = 0.0
        guard gdk_event_get_position(event, &x, &y) != 0, let o = surfaceOffset() else { return nil }
        return Point(x - o.x, y - o.y)
    }
}
