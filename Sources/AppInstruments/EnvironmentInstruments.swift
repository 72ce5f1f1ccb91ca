import Foundation
import OekakiApp
#if canImport(Glibc)
import Glibc
#endif

/// The observer `oekaki-instrumented` installs, driven by environment variables (unset, nothing is watched):
/// - `OEKAKI_TRACE=FILE` (`-` for stderr): one line per input event, frame and zoom milestone with the GTK
///   thread's CPU time (the lines are listed in OekakiApp's `Trace.swift`), so `oekaki-bench` can time the window's
///   own work;
/// - `OEKAKI_LAYOUT_REPORT=FILE`: where every control with a tooltip sits after each resize or popover (`LayoutReport`);
/// - `OEKAKI_FLOOR=1`: a bare window instead of the drawing window (`FloorWindow`).
public final class EnvironmentInstruments: AppObserver {
    private let sink: FileHandle?
    private let layoutPath: String?
    private let floor: Bool

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let path = environment["OEKAKI_TRACE"], !path.isEmpty {
            if path == "-" {
                sink = FileHandle.standardError
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                sink = FileHandle(forWritingAtPath: path)
            }
        } else {
            sink = nil
        }
        layoutPath = environment["OEKAKI_LAYOUT_REPORT"].flatMap { $0.isEmpty ? nil : $0 }
        floor = environment["OEKAKI_FLOOR"] == "1"
    }

    /// Installs this observer when any of its variables is set (otherwise the app runs unobserved, as shipped).
    public func installIfAsked() {
        if sink != nil || layoutPath != nil || floor { Instruments.observer = self }
    }

    public func measure<T>(_ kind: String, _ body: () -> T) -> T {
        guard sink != nil else { return body() }
        let t0 = threadCPUMicros()
        let r = body()
        note("\(kind) cpu_us=\(Int(threadCPUMicros() - t0))")
        return r
    }

    public func note(_ line: String) {
        sink?.write(Data((line + "\n").utf8))
    }

    public func wallMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    public func processCPUMs() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
    }

    public func threadCPUMicros() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
    }

    public var watchesLayout: Bool { layoutPath != nil }

    public func laidOut(_ window: Widget) {
        if let layoutPath { LayoutReport.write(window, to: layoutPath) }
    }

    public func presentsInstead(_ application: Application) -> Bool {
        guard floor else { return false }
        FloorWindow.present(application, observer: self)
        return true
    }
}
