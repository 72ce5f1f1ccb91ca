/// The bench's pen latency (`OEKAKI_TRACE`): from a motion event's own timestamp (the X server stamps it on the
/// monotonic clock, in ms) to the end of the frame that painted its ink (the live ink's layer or the canvas drew in
/// it, then the frame clock's "after-paint"). Lines: `latency event_to_frame_ms=N`, one per drawing motion event, each followed by
/// `latency parts queued_ms=A waited_ms=B frame_ms=C`: from the event's timestamp to our handler (GDK holds a
/// motion event until its frame clock's next "flush-events"), from the handler to the start of the frame that drew
/// it (GdkFrameTimings' frame time), and that frame's own time to its "after-paint". Without an observer nothing
/// is kept and no clock is read.
enum InkLatency {
    /// Drawing motion events not yet shown: their timestamps and when the canvas handled them (ms, monotonic).
    nonisolated(unsafe) private static var pending: [(event: Double, handled: Double)] = []
    /// The canvas drew in the frame being painted.
    nonisolated(unsafe) private static var canvasDrew = false
    nonisolated(unsafe) private static var warned = false

    static func motion(at eventMs: Double, handledMs: @autoclosure () -> Double) {
        guard Trace.isOn, pending.count < 1000 else { return }
        pending.append((eventMs, handledMs()))
    }

    static func canvasDrawn() {
        guard Trace.isOn else { return }
        canvasDrew = true
    }

    /// A frame that began at `frameStartMs` finished painting at `nowMs` (the monotonic clock): every pending event
    /// the canvas drew is shown.
    static func framePainted(nowMs: Double, frameStartMs: Double?) {
        guard Trace.isOn, canvasDrew else { return }
        canvasDrew = false
        // Event times are 32-bit milliseconds that wrap; the others are full monotonic times.
        let wrap = 4_294_967_296.0
        func since(_ t: Double, _ later: Double) -> Double {
            var d = later.truncatingRemainder(dividingBy: wrap) - t
            if d < -wrap / 2 { d += wrap }
            return d
        }
        for (t, handled) in pending {
            let d = since(t, nowMs)
            guard d >= 0, d < 10_000 else {
                // Another clock than the monotonic one (a remote X server): no figure is better than a wrong one.
                if !warned { warned = true; Trace.write("latency clock_mismatch event_ms=\(t) now_ms=\(nowMs)") }
                continue
            }
            Trace.write("latency event_to_frame_ms=\(d)")
            let start = frameStartMs ?? nowMs
            Trace.write("latency parts queued_ms=\(since(t, handled)) waited_ms=\(start - handled) frame_ms=\(nowMs - start)")
        }
        pending.removeAll(keepingCapacity: true)
    }
}
