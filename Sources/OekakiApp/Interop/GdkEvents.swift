import CGtk
import InkCore

/// One GDK event as the canvas's input reads it: what happened, from which device, where (in the drawing area's
/// own coordinates), when, with what pressure and keys. The only place the canvas's events are taken apart; the
/// `GdkEvent*` is borrowed for the length of the handler and never leaves this file.
struct GdkInput {
    enum Kind {
        case touchBegin, touchUpdate, touchEnd, touchCancel
        case buttonPress, buttonRelease, motion
        case scroll, pinch, enter, leave, grabBroken, other
        /// A pen came near the tablet or screen, or left it.
        case proximityIn, proximityOut
    }

    enum PinchPhase { case begin, update, end }

    private let event: OpaquePointer
    /// Where the drawing area sits in its surface (legacy events come in surface coordinates); nil when unknown.
    private let offset: Point?

    init(_ event: OpaquePointer, area: Widget) {
        self.event = event
        offset = Self.surfaceOffset(of: area)
    }

    var kind: Kind {
        switch gdk_event_get_event_type(event) {
        case GDK_TOUCH_BEGIN: return .touchBegin
        case GDK_TOUCH_UPDATE: return .touchUpdate
        case GDK_TOUCH_END: return .touchEnd
        case GDK_TOUCH_CANCEL: return .touchCancel
        case GDK_BUTTON_PRESS: return .buttonPress
        case GDK_BUTTON_RELEASE: return .buttonRelease
        case GDK_MOTION_NOTIFY: return .motion
        case GDK_SCROLL: return .scroll
        case GDK_TOUCHPAD_PINCH: return .pinch
        case GDK_ENTER_NOTIFY: return .enter
        case GDK_LEAVE_NOTIFY: return .leave
        case GDK_PROXIMITY_IN: return .proximityIn
        case GDK_PROXIMITY_OUT: return .proximityOut
        case GDK_GRAB_BROKEN: return .grabBroken
        default: return .other
        }
    }

    private var source: GdkInputSource { gdk_event_get_device(event).map { gdk_device_get_source($0) } ?? GDK_SOURCE_MOUSE }
    /// A touchscreen: it reports its own touch events, and the pointer events it emulates are to be ignored.
    var fromTouchscreen: Bool { source == GDK_SOURCE_TOUCHSCREEN }
    /// A pen, by its device or its tool.
    var fromPen: Bool { source == GDK_SOURCE_PEN || isStylus }

    private var isStylus: Bool {
        guard let tool = gdk_event_get_device_tool(event) else { return false }
        let t = gdk_device_tool_get_tool_type(tool)
        return t != GDK_DEVICE_TOOL_TYPE_UNKNOWN && t != GDK_DEVICE_TOOL_TYPE_MOUSE && t != GDK_DEVICE_TOOL_TYPE_LENS
    }

    /// The upside-down end of a stylus. GTK reports it as a device tool of type ERASER; when a tablet gives no
    /// tool (no serial numbers), a device named "… eraser" (as X11 drivers name it) is the fallback.
    var isEraserEnd: Bool {
        if let tool = gdk_event_get_device_tool(event), gdk_device_tool_get_tool_type(tool) == GDK_DEVICE_TOOL_TYPE_ERASER { return true }
        guard let device = gdk_event_get_device(event), let name = gdk_device_get_name(device) else { return false }
        return String(cString: name).lowercased().contains("eraser")
    }

    /// Milliseconds, the device's clock.
    var time: Double { Double(gdk_event_get_time(event)) }

    /// Where it happened in the drawing area's coordinates.
    var position: Point? {
        var x = 0.0, y = 0.0
        guard gdk_event_get_position(event, &x, &y) != 0, let o = offset else { return nil }
        return Point(x - o.x, y - o.y)
    }

    var shift: Bool { gdk_event_get_modifier_state(event).rawValue & GDK_SHIFT_MASK.rawValue != 0 }
    var control: Bool { gdk_event_get_modifier_state(event).rawValue & GDK_CONTROL_MASK.rawValue != 0 }
    var button: UInt32 { gdk_button_event_get_button(event) }
    /// A stylus's barrel buttons held (GDK numbers them 2 and 3, as the middle and right mouse buttons).
    var barrelButtons: (first: Bool, second: Bool) {
        let state = gdk_event_get_modifier_state(event).rawValue
        return (state & GDK_BUTTON2_MASK.rawValue != 0, state & GDK_BUTTON3_MASK.rawValue != 0)
    }

    /// The pressure axis, 0…1, nil when the device reports none.
    var pressure: Double? {
        var value = 0.0
        guard gdk_event_get_axis(event, GDK_AXIS_PRESSURE, &value) != 0, value.isFinite else { return nil }
        return min(max(value, 0), 1)
    }

    /// The motion samples GTK folded into this event, oldest first: position (area coordinates), pressure when
    /// reported, time.
    var history: [(at: Point, pressure: Double?, time: Double)] {
        var count: guint = 0
        guard let coords = gdk_event_get_history(event, &count), count > 0 else { return [] }
        defer { g_free(coords) }
        guard let o = offset else { return [] }
        var out: [(at: Point, pressure: Double?, time: Double)] = []
        out.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            var c = coords[i]
            let flags = c.flags.rawValue
            guard flags & GDK_AXIS_FLAG_X.rawValue != 0, flags & GDK_AXIS_FLAG_Y.rawValue != 0 else { continue }
            let axes = withUnsafeBytes(of: &c.axes) { Array($0.bindMemory(to: Double.self)) }
            let x = axes[Int(GDK_AXIS_X.rawValue)], y = axes[Int(GDK_AXIS_Y.rawValue)]
            guard x.isFinite, y.isFinite else { continue }
            let p = axes[Int(GDK_AXIS_PRESSURE.rawValue)]
            let hasPressure = flags & GDK_AXIS_FLAG_PRESSURE.rawValue != 0 && p.isFinite
            out.append((Point(x - o.x, y - o.y), hasPressure ? min(max(p, 0), 1) : nil, Double(c.time)))
        }
        return out
    }

    /// A finger's id: its GDK sequence (a small number cast to a pointer on every backend).
    var sequence: Int64 { Int64(Int(bitPattern: gdk_event_get_event_sequence(event).map { UnsafeRawPointer($0) })) }

    /// The wheel's or touchpad's scroll in steps (x, y): a discrete click is one step.
    var scrollSteps: (dx: Double, dy: Double) {
        switch gdk_scroll_event_get_direction(event) {
        case GDK_SCROLL_UP: return (0, -1)
        case GDK_SCROLL_DOWN: return (0, 1)
        case GDK_SCROLL_LEFT: return (-1, 0)
        case GDK_SCROLL_RIGHT: return (1, 0)
        default:
            var dx = 0.0, dy = 0.0
            gdk_scroll_event_get_deltas(event, &dx, &dy)
            return (dx, dy)
        }
    }

    var pinchScale: Double { gdk_touchpad_event_get_pinch_scale(event) }
    var pinchPhase: PinchPhase {
        switch gdk_touchpad_event_get_gesture_phase(event) {
        case GDK_TOUCHPAD_GESTURE_PHASE_BEGIN: return .begin
        case GDK_TOUCHPAD_GESTURE_PHASE_UPDATE: return .update
        default: return .end
        }
    }

    /// Where the drawing area sits in its surface.
    private static func surfaceOffset(of area: Widget) -> Point? {
        guard let native = gtk_widget_get_native(area) else { return nil }
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(native, &sx, &sy)
        var ax = 0.0, ay = 0.0
        guard gtk_widget_translate_coordinates(asWidget(native), area, 0, 0, &ax, &ay) != 0 else { return nil }
        // A point p in the surface is p − s in the native widget and p − s + a in the area.
        return Point(sx - ax, sy - ay)
    }
}

/// Every event of `area` once, through one GtkEventControllerLegacy, as a `GdkInput`; `body` returns whether
/// it handled it.
func watchEvents(of area: Widget, _ body: @escaping (GdkInput) -> Bool) {
    let controller = gtk_event_controller_legacy_new()!
    connectLegacyEvent(controller) { event in body(GdkInput(event, area: area)) }
    gtk_widget_add_controller(area, controller)
}

/// The keyboard focus goes to `widget` (a press on the canvas takes it there).
func grabFocus(_ widget: Widget) { gtk_widget_grab_focus(widget) }
