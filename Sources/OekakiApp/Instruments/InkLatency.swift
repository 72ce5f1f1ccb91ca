/// The bench's pen latency (`OEKAKI_TRACE`): from a motion event's own timestamp (the X server stamps it on the
/// monotonic clock, in ms) to the end of the frame that painted its ink (the canvas drew in it, then the frame
/// clock's "after-paint"). Lines: `latency event_to_frame_ms=N`, one per drawing motion event. Without an
/// observer nothing is kept and no clock is read.
enum InkLatency {
    /// Timestamps (ms, the events' clock) of drawing motion events not yet shown.
    nonisolated(unsafe) private static var pending: [Double] = []
    /// The canvas drew in the frame being painted.
    nonisolated(unsafe) private static var canvasDrew = false
    nonisolated(unsafe) private static var warned = false

    static func motion(at eventMs: Double) {
        guard Trace.isOn, pending.count < 1000 else { return }
        pending.append(eventMs)
    }

    static func canvasDrawn() {
        guard Trace.isOn else { return }
        canvasDrew = true
    }

    /// A frame finished painting at `nowMs` (the monotonic clock): every pending event the canvas drew is shown.
    static func framePainted(nowMs: Double) {
        guard Trace.isOn, canvasDrew else { return }
        canvasDrew = false
        // Event times are 32-bit milliseconds that wrap.
        let wrap = 4_294_967_296.0
        let now = nowMs.truncatingRemainder(dividingBy: wrap)
        for t in pending {
            var d = now - t
            if d < -wrap / 2 { d += wrap }
            guard d >= 0, d < 10_000 else {
                // Another clock than the monotonic one (a remote X server): no figure is better than a wrong one.
                if !warned { warned = true; Trace.write("latency clock_mismatch event_ms=\(t) now_ms=\(now)") }
                continue
            }
            Trace.write("latency event_to_frame_ms=\(d)")
        }
        pending.removeAll(keepingCapacity: true)
    }
}
