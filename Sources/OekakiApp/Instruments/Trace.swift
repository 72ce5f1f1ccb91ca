/// The app's side of `AppObserver`'s trace: the canvas and the session report events, frames and zoom milestones
/// here; without an observer (the shipped app) each call is one nil check and reads no clock.
///
/// Lines: `event KIND cpu_us=N`, `frame cpu_us=N` (the canvas), `ink frame cpu_us=N` (the live ink's layer alone),
/// `zoom preview_ms=N` (first frame after a zoom step, the
/// scaled old raster), `zoom sharp_ms=N` (every stale patch of that step rendered), then its `zoom cpu_ms=N` (the
/// process) and `zoom gtk_cpu_ms=N` (the GTK thread alone), `pdf first_page epoch_ms=N`
/// (wall clock of the first frame showing a rendered PDF page), and `zoom detail …` (ms since the zoom event: the
/// view's job queued, started, rendered with the process CPU it took, landed on the GTK thread, pasted; each frame
/// meanwhile), which `oekaki-bench --zoom` prints with `OEKAKI_ZOOM_DETAIL=1`.
enum Trace {
    static var isOn: Bool { Instruments.observer != nil }

    static func threadCPUMicros() -> Double { Instruments.observer?.threadCPUMicros() ?? 0 }
    static func wallMs() -> Double { Instruments.observer?.wallMs() ?? 0 }
    /// CPU time of the whole process (every thread: the GTK thread and the render workers), in milliseconds.
    static func processCPUMs() -> Double { Instruments.observer?.processCPUMs() ?? 0 }

    /// Runs `body`, noting its CPU time on this thread as `KIND cpu_us=N` when observed.
    @inline(__always)
    static func measure<T>(_ kind: String, _ body: () -> T) -> T {
        guard let o = Instruments.observer else { return body() }
        return o.measure(kind, body)
    }

    static func write(_ line: String) { Instruments.observer?.note(line) }
}
