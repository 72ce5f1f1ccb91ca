import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `OEKAKI_TRACE=FILE` (`-` for stderr): one line per input event, frame and zoom milestone, with the GTK
/// thread's CPU time, so `oekaki-bench` can time the window's own work. Unset, each call is one branch.
///
/// Lines: `event KIND cpu_us=N`, `frame cpu_us=N`, `zoom preview_ms=N` (first frame after a zoom step, the
/// scaled old raster), `zoom sharp_ms=N` (every stale patch of that step rendered), then its `zoom cpu_ms=N` (the
/// process) and `zoom gtk_cpu_ms=N` (the GTK thread alone), `pdf first_page epoch_ms=N`
/// (wall clock of the first frame showing a rendered PDF page), and `zoom detail …` (ms since the zoom event: the
/// view's job queued, started, rendered with the process CPU it took, landed on the GTK thread, pasted; each frame
/// meanwhile), which `oekaki-bench --zoom` prints with `OEKAKI_ZOOM_DETAIL=1`.
enum Trace {
    private static let sink: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["OEKAKI_TRACE"], !path.isEmpty else { return nil }
        if path == "-" { return FileHandle.standardError }
        FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }()

    static var isOn: Bool { sink != nil }

    static func threadCPUMicros() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
    }

    static func wallMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// CPU time of the whole process (every thread: the GTK thread and the render workers), in milliseconds.
    static func processCPUMs() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }

    /// Runs `body`, logging its CPU time on this thread as `KIND cpu_us=N`.
    @inline(__always)
    static func measure<T>(_ kind: String, _ body: () -> T) -> T {
        guard isOn else { return body() }
        let t0 = threadCPUMicros()
        let r = body()
        write("\(kind) cpu_us=\(Int(threadCPUMicros() - t0))")
        return r
    }

    static func write(_ line: String) {
        sink?.write(Data((line + "\n").utf8))
    }
}
