/// What a benchmark or a window test watches in the running app. The shipped `oekaki` installs none, so each
/// report costs one nil check and the product reads no environment variable for it. `oekaki-instrumented`
/// (Sources/oekaki-instrumented, run only by oekaki-bench and the window tests) links the app with the
/// `AppInstruments` support target and installs one: `OEKAKI_TRACE` (CPU per event and frame, zoom milestones),
/// `OEKAKI_LAYOUT_REPORT` (where every control sits) and `OEKAKI_FLOOR` (a bare window, the bench's floor).
public protocol AppObserver: AnyObject {
    /// Runs one input event's or frame's handling, noting its CPU time as `kind` ("event input", "frame"…).
    func measure<T>(_ kind: String, _ body: () -> T) -> T
    /// One line of what happened (a zoom step's milestones, the first PDF page shown). Any thread.
    func note(_ line: String)
    /// Clocks for the notes: wall and whole-process CPU in ms, this thread's CPU in µs.
    func wallMs() -> Double
    func processCPUMs() -> Double
    func threadCPUMicros() -> Double
    /// True when `laidOut` is wanted (walking the widget tree costs; only the layout tests want it).
    var watchesLayout: Bool { get }
    /// A window settled after a resize, or showed a popover.
    func laidOut(_ window: Widget)
    /// GTK is up and no window exists yet: true when the observer presented a window of its own instead of the
    /// drawing window (the bench's floor).
    func presentsInstead(_ application: Application) -> Bool
}

/// Where the app finds its observer, if any (installed before `OekakiApplication.run`).
public enum Instruments {
    nonisolated(unsafe) public static var observer: AppObserver?
}
