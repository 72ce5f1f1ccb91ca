import CGtk
import InkRender

// The one place where Swift closures cross into GLib: signal handlers, idle and timeout callbacks.
// Each closure is boxed, retained while GLib holds it and released by GLib's destroy notify, so the
// rest of the app never sees `Unmanaged` or a `@convention(c)` thunk.

public typealias Widget = UnsafeMutablePointer<GtkWidget>
/// The GtkApplication the windows belong to.
public typealias Application = UnsafeMutablePointer<GtkApplication>

/// Holds a Swift closure for as long as GLib keeps the callback.
private final class ClosureBox<F> {
    let body: F
    init(_ body: F) { self.body = body }
}

private func retained<F>(_ body: F) -> gpointer {
    Unmanaged.passRetained(ClosureBox(body)).toOpaque()
}

private func unbox<F>(_ data: gpointer?, as _: F.Type) -> F? {
    guard let data else { return nil }
    return Unmanaged<ClosureBox<F>>.fromOpaque(data).takeUnretainedValue().body
}

private let releaseClosure: GClosureNotify = { data, _ in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

private let releaseDestroy: GDestroyNotify = { data in
    if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

// MARK: pointer conversions (the compiler cannot check opaque GTK types: keep the casts here)

func gobject<T>(_ p: UnsafeMutablePointer<T>) -> gpointer { UnsafeMutableRawPointer(p) }
func gobject(_ p: OpaquePointer) -> gpointer { UnsafeMutableRawPointer(p) }
func asWidget<T>(_ p: UnsafeMutablePointer<T>) -> Widget { UnsafeMutableRawPointer(p).assumingMemoryBound(to: GtkWidget.self) }
func asWidget(_ p: OpaquePointer) -> Widget { UnsafeMutableRawPointer(p).assumingMemoryBound(to: GtkWidget.self) }
public func typed<T>(_ w: Widget, as _: T.Type) -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(w).assumingMemoryBound(to: T.self) }
func opaque<T>(_ p: UnsafeMutablePointer<T>) -> OpaquePointer { OpaquePointer(p) }
func asGObject(_ p: gpointer) -> UnsafeMutablePointer<GObject> { p.assumingMemoryBound(to: GObject.self) }
public func isA(_ w: Widget, _ type: GType) -> Bool {
    g_type_check_instance_is_a(UnsafeMutableRawPointer(w).assumingMemoryBound(to: GTypeInstance.self), type) != 0
}

// MARK: signals

private func connectRaw(_ instance: gpointer, _ signal: String, _ thunk: GCallback, _ data: gpointer) {
    g_signal_connect_data(instance, signal, thunk, data, releaseClosure, GConnectFlags(rawValue: 0))
}

/// A signal whose handler is `void (*)(GObject *, gpointer)`: "clicked", "toggled", "activate", "value-changed", "destroy".
func connect(_ instance: gpointer, _ signal: String, _ body: @escaping () -> Void) {
    typealias F = () -> Void
    let thunk: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in unbox(data, as: F.self)?() }
    connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// A signal whose handler returns a gboolean and takes no arguments: "close-request".
func connectStop(_ instance: gpointer, _ signal: String, _ body: @escaping () -> Bool) {
    typealias F = () -> Bool
    let thunk: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
        (unbox(data, as: F.self)?() ?? false) ? 1 : 0
    }
    connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "response" of dialogs: `void (*)(GObject *, int response, gpointer)`.
func connectResponse(_ instance: gpointer, _ body: @escaping (Int32) -> Void) {
    typealias F = (Int32) -> Void
    let thunk: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { _, response, data in
        unbox(data, as: F.self)?(response)
    }
    connectRaw(instance, "response", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "resize" of a drawing area: `void (*)(GtkDrawingArea *, int width, int height, gpointer)`.
func connectResize(_ instance: gpointer, _ body: @escaping (Int32, Int32) -> Void) {
    typealias F = (Int32, Int32) -> Void
    let thunk: @convention(c) (gpointer?, Int32, Int32, gpointer?) -> Void = { _, w, h, data in
        unbox(data, as: F.self)?(w, h)
    }
    connectRaw(instance, "resize", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// A signal with one pointer argument the handler does not need: `void (*)(GObject *, gpointer arg, gpointer)`,
/// e.g. GSettings' "changed::KEY".
func connectIgnoringArgument(_ instance: gpointer, _ signal: String, _ body: @escaping () -> Void) {
    typealias F = () -> Void
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in unbox(data, as: F.self)?() }
    connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// A signal with a point: `void (*)(GObject *, double x, double y, gpointer)`, e.g. "pressed" of a long-press gesture.
func connectPoint(_ instance: gpointer, _ signal: String, _ body: @escaping (Double, Double) -> Void) {
    typealias F = (Double, Double) -> Void
    let thunk: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in unbox(data, as: F.self)?(x, y) }
    connectRaw(instance, signal, unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "notify::PROPERTY": `void (*)(GObject *, GParamSpec *, gpointer)`.
func connectNotify(_ instance: gpointer, property: String, _ body: @escaping () -> Void) {
    typealias F = () -> Void
    let thunk: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, _, data in unbox(data, as: F.self)?() }
    connectRaw(instance, "notify::" + property, unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "event" of a GtkEventControllerLegacy: `gboolean (*)(GtkEventController *, GdkEvent *, gpointer)`.
public func connectLegacyEvent(_ controller: OpaquePointer, _ body: @escaping (OpaquePointer) -> Bool) {
    typealias F = (OpaquePointer) -> Bool
    let thunk: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
        guard let event, let f = unbox(data, as: F.self) else { return 0 }
        return f(event) ? 1 : 0
    }
    connectRaw(gobject(controller), "event", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "drop" of a GtkDropTarget made for GDK_TYPE_FILE_LIST: `gboolean (*)(GtkDropTarget *, const GValue *, double x,
/// double y, gpointer)`. `body` gets the local paths of the dropped files (non-local ones are left out) and where
/// they were dropped (the target widget's coordinates).
func connectFileDrop(_ target: OpaquePointer, _ body: @escaping ([String]) -> Bool) {
    connectFileDrop(target) { paths, _ in body(paths) }
}

func connectFileDrop(_ target: OpaquePointer, _ body: @escaping ([String], (x: Double, y: Double)) -> Bool) {
    typealias F = ([String], (x: Double, y: Double)) -> Bool
    let thunk: @convention(c) (gpointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, x, y, data in
        guard let value, let f = unbox(data, as: F.self), let boxed = g_value_get_boxed(value) else { return 0 }
        var paths: [String] = []
        var node = gdk_file_list_get_files(OpaquePointer(boxed))
        let list = node
        while let n = node {
            if let file = n.pointee.data, let path = g_file_get_path(OpaquePointer(file)) {
                paths.append(String(cString: path))
                g_free(path)
            }
            node = n.pointee.next
        }
        g_slist_free(list)
        return f(paths, (x, y)) ? 1 : 0
    }
    connectRaw(gobject(target), "drop", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// A key as GTK reports it.
struct KeyPress {
    var keyval: UInt32
    var keycode: UInt32
    var modifiers: GdkModifierType
    var control: Bool { modifiers.rawValue & GDK_CONTROL_MASK.rawValue != 0 }
    var shift: Bool { modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0 }
    var alt: Bool { modifiers.rawValue & GDK_ALT_MASK.rawValue != 0 }
    /// The key without Shift's case (what the shortcut table lists).
    var lowercased: Int32 { Int32(bitPattern: gdk_keyval_to_lower(keyval)) }
    /// GDK's name of a key value ("z", "Page_Up"), for GTK's accelerator syntax.
    static func name(of keyval: Int32) -> String {
        gdk_keyval_name(UInt32(bitPattern: keyval)).map { String(cString: $0) } ?? "?"
    }
}

/// "key-pressed" (returns handled) and "key-released" of a GtkEventControllerKey.
func connectKeys(_ controller: OpaquePointer, pressed: @escaping (KeyPress) -> Bool, released: @escaping (KeyPress) -> Void) {
    typealias P = (KeyPress) -> Bool
    typealias R = (KeyPress) -> Void
    let onPress: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = { _, v, c, m, data in
        (unbox(data, as: P.self)?(KeyPress(keyval: v, keycode: c, modifiers: m)) ?? false) ? 1 : 0
    }
    let onRelease: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> Void = { _, v, c, m, data in
        unbox(data, as: R.self)?(KeyPress(keyval: v, keycode: c, modifiers: m))
    }
    connectRaw(gobject(controller), "key-pressed", unsafeBitCast(onPress, to: GCallback.self), retained(pressed as P))
    connectRaw(gobject(controller), "key-released", unsafeBitCast(onRelease, to: GCallback.self), retained(released as R))
}

// MARK: drawing

/// Installs the draw function of a GtkDrawingArea; `cr` is GTK's context: never destroy it.
public func setDrawFunction(_ area: Widget, _ body: @escaping (CairoContext, Int32, Int32) -> Void) {
    typealias F = (CairoContext, Int32, Int32) -> Void
    let thunk: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cr, w, h, data in
        guard let cr else { return }
        // GTK's `cairo_t` is only borrowed for this frame; the app draws through InkRender's wrapper.
        unbox(data, as: F.self)?(CairoContext(borrowing: cr), w, h)
    }
    gtk_drawing_area_set_draw_func(typed(area, as: GtkDrawingArea.self), thunk, retained(body as F), releaseDestroy)
}

/// Calls `body` after every frame GTK paints for `widget`'s window ("after-paint" of its GdkFrameClock) with the
/// monotonic time (ms) that frame began (its GdkFrameTimings' frame time, when GTK keeps them); nothing before
/// the widget is realized (it has no frame clock yet). Returns whether it is connected.
@discardableResult
func afterEveryPaint(of widget: Widget, _ body: @escaping (_ frameStartMs: Double?) -> Void) -> Bool {
    guard let clock = gtk_widget_get_frame_clock(widget) else { return false }
    connect(gobject(clock), "after-paint") {
        let start = gdk_frame_clock_get_current_timings(clock).map { Double(gdk_frame_timings_get_frame_time($0)) / 1000 }
        body(start.flatMap { $0 > 0 ? $0 : nil })
    }
    return true
}

/// The monotonic clock in ms (GLib's, CLOCK_MONOTONIC: the clock the X server stamps events with).
func monotonicMs() -> Double { Double(g_get_monotonic_time()) / 1000 }

// MARK: the main loop

/// Runs `body` once on the GTK thread at the next idle moment. Safe to call from any thread: this is how
/// background work hands results back, since `DispatchQueue.main` does not run under `g_application_run`.
func onMainLoop(_ body: @escaping () -> Void) {
    typealias F = () -> Void
    let thunk: @convention(c) (gpointer?) -> gboolean = { data in
        unbox(data, as: F.self)?()
        return 0 // G_SOURCE_REMOVE
    }
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, thunk, retained(body as F), releaseDestroy)
}

/// Calls `body` at the start of each of `widget`'s next `frames` frames (a tick callback: before GTK measures
/// and lays out that frame).
func onNextFrames(of widget: Widget, _ frames: Int, _ body: @escaping () -> Void) {
    typealias F = () -> Bool
    var left = frames
    let tick: F = { body(); left -= 1; return left > 0 }
    let thunk: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, _, data in
        (unbox(data, as: F.self)?() ?? false) ? 1 : 0
    }
    gtk_widget_add_tick_callback(widget, thunk, retained(tick), releaseDestroy)
}

/// Stops a timer `every` started (0: none); the id becomes 0.
func stopTimer(_ id: inout UInt32) {
    if id != 0 { g_source_remove(id); id = 0 }
}

/// Calls `body` every `milliseconds` on the GTK thread while it returns true.
@discardableResult
public func every(milliseconds: UInt32, _ body: @escaping () -> Bool) -> UInt32 {
    typealias F = () -> Bool
    let thunk: @convention(c) (gpointer?) -> gboolean = { data in
        (unbox(data, as: F.self)?() ?? false) ? 1 : 0
    }
    return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, thunk, retained(body as F), releaseDestroy)
}

/// Lets Swift code hand the closure-based helpers an `@unchecked Sendable` payload from a background queue.
struct MainLoopHandoff<T>: @unchecked Sendable { let value: T }

/// "pressed" of a GtkGestureClick: `void (*)(GtkGestureClick *, int n_press, double x, double y, gpointer)`.
func connectClickPressed(_ instance: gpointer, _ body: @escaping (Double, Double) -> Void) {
    typealias F = (Double, Double) -> Void
    let thunk: @convention(c) (gpointer?, Int32, Double, Double, gpointer?) -> Void = { _, _, x, y, data in unbox(data, as: F.self)?(x, y) }
    connectRaw(instance, "pressed", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}

/// "scroll" of a GtkEventControllerScroll: `gboolean (*)(GtkEventControllerScroll *, double dx, double dy, gpointer)`;
/// handled (the scroll goes no further).
func connectScroll(_ instance: gpointer, _ body: @escaping (Double) -> Void) {
    typealias F = (Double) -> Void
    let thunk: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, _, dy, data in
        unbox(data, as: F.self)?(dy)
        return 1
    }
    connectRaw(instance, "scroll", unsafeBitCast(thunk, to: GCallback.self), retained(body as F))
}
