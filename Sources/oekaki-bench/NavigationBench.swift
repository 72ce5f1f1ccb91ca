import Foundation
import InkCore
import InkSamples
import InkStore

/// Finding one's way in the real window under Xvfb (`--navigation`):
/// - the page sidebar of a 500-page PDF scrolled from the first page to the last with the wheel (60 Hz): the GTK
///   thread's time for each sidebar frame (`sidebar cpu_us=N` from the app's trace; p99) and the app's resident
///   memory at the end (previews are drawn only for rows in view and kept within a bound);
/// - a whole middle-button pan at 200 % (press, 60 moves of 6 px at 60 Hz, release, until idle), the CPU of every
///   thread of the app over the gesture, on the million-point drawing and on an empty one, side by side.
enum NavigationBench {
    struct Result {
        var sidebarFrameMs = Samples()
        var sidebarRSSMiB: Double?
        var panEmpty = Samples(), pan1m = Samples()
        var notes: [String] = []
        var ratio: Double? { pan1m.median.flatMap { m in panEmpty.median.map { m / $0 } } }
    }

    static let pages = 500
    /// Ctrl+wheel steps of 1.15 from 100 %: 1.15⁵ ≈ 2.01.
    static let zoomSteps = 5
    static let panPath: [(Double, Double)] = (0...60).map { i in (Double(i) * 6 - 180, 0) }

    static func run(_ w: Workloads, display: VirtualDisplay, rounds: Int) -> Result {
        var r = Result()
        guard let xdotool = Executables.find("xdotool") else { r.notes.append("xdotool is not installed"); return r }
        let app = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki-instrumented"
        guard FileManager.default.isExecutableFile(atPath: app) else { r.notes.append("oekaki-instrumented is not built beside the bench"); return r }
        sidebar(w, display: display, xdotool: xdotool, app: app, into: &r)
        pan(w, display: display, rounds: rounds, xdotool: xdotool, app: app, into: &r)
        return r
    }

    private static func sidebar(_ w: Workloads, display: VirtualDisplay, xdotool: String, app: String, into r: inout Result) {
        let pdf = w.folder + "/sidebar-500.pdf"
        do {
            try Data(SamplePDF.make(pageCount: pages) { "Sidebar page \($0 + 1): a line of text to draw" }).write(to: URL(fileURLWithPath: pdf))
        } catch { r.notes.append("sidebar bench: \(error)"); return }
        defer { for f in [pdf, w.folder + "/sidebar-500.oekaki"] { unlink(f) } }
        guard let s = AppBench.Session(app: app, file: pdf, floor: false, w: w, display: display, xdotool: xdotool) else {
            r.notes.append("sidebar bench: the window did not appear"); return
        }
        defer { s.stop() }
        s.settle()
        _ = AppBench.Session.output(xdotool, ["key", "F9"], env: s.env)
        s.settle()
        let before = (try? String(contentsOfFile: s.trace, encoding: .utf8))?.count ?? 0
        // The sidebar is at the window's left: scroll over it, a row is three wheel steps.
        var args = ["mousemove", "90", "\(Int(s.centre.1))"]
        for _ in 0..<(pages * 3) { args += ["click", "5", "sleep", "0.016"] }
        _ = AppBench.Session.output(xdotool, args, env: s.env)
        s.settle()
        r.sidebarRSSMiB = s.rssMiB()
        let trace = (try? String(contentsOfFile: s.trace, encoding: .utf8)) ?? ""
        for line in trace.dropFirst(before).split(separator: "\n") where line.hasPrefix("sidebar cpu_us=") {
            if let us = Double(line.dropFirst("sidebar cpu_us=".count)) { r.sidebarFrameMs.add(us / 1000) }
        }
        if r.sidebarFrameMs.isEmpty { r.notes.append("sidebar bench: no sidebar frames were traced") }
    }

    private static func pan(_ w: Workloads, display: VirtualDisplay, rounds: Int, xdotool: String, app: String, into r: inout Result) {
        for _ in 0..<rounds {
            for kind in ["empty", "1m"] {
                let file = kind == "1m" ? w.folder + "/nav-1m.oekaki" : w.folder + "/nav-empty.oekaki"
                do {
                    for s in ["", "-wal", "-shm"] { unlink(file + s) }
                    if kind == "1m" { try FileManager.default.copyItem(atPath: w.oekaki, toPath: file) }
                    else { _ = try DocumentFile.create(path: file, drawing: Drawing()).close() }
                } catch { r.notes.append("pan bench: \(error)"); continue }
                defer { for s in ["", "-wal", "-shm"] { unlink(file + s) } }
                guard let s = AppBench.Session(app: app, file: file, floor: false, w: w, display: display, xdotool: xdotool) else {
                    r.notes.append("pan bench: the \(kind) window did not appear"); continue
                }
                defer { s.stop() }
                s.settle()
                var zoom = ["mousemove", "\(Int(s.centre.0))", "\(Int(s.centre.1))", "keydown", "ctrl"]
                for _ in 0..<zoomSteps { zoom += ["click", "4", "sleep", "0.1"] }
                zoom += ["keyup", "ctrl"]
                _ = AppBench.Session.output(xdotool, zoom, env: s.env)
                s.settle()
                guard let perEvent = s.cpuPerEvent(button: 2, path: panPath) else { r.notes.append("pan bench: no CPU figure"); continue }
                let gesture = perEvent * Double(panPath.count)
                if kind == "1m" { r.pan1m.add(gesture) } else { r.panEmpty.add(gesture) }
            }
        }
    }

    static func json(_ r: Result) -> String {
        JSON.object([("sidebar_scroll_frame_ms_p99_500", .number(r.sidebarFrameMs.p99)),
                     ("sidebar_scroll_frame_ms_median_500", .number(r.sidebarFrameMs.median)),
                     ("sidebar_frames_500", .integer(r.sidebarFrameMs.count)),
                     ("sidebar_rss_mib_500", .number(r.sidebarRSSMiB)),
                     ("app_pan_gesture_cpu_ms_200_empty", .number(r.panEmpty.median)),
                     ("app_pan_gesture_cpu_ms_200_1m", .number(r.pan1m.median)),
                     ("app_pan_gesture_1m_over_empty_200", .number(r.ratio)),
                     ("rounds", .object([("empty", .array(r.panEmpty.values.map { .number($0) })),
                                         ("1m", .array(r.pan1m.values.map { .number($0) }))])),
                     ("notes", .array(r.notes.map(JSON.string)))]).text()
    }

    /// The BENCHMARKS.md section (`--navigation --write FILE`).
    static func markdown(_ r: Result, command: String, machine: Machine) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f ms", $0) } ?? "—" }
        let ratio = r.ratio.map { String(format: "%.2f×", $0) } ?? "—"
        let met = r.ratio.map { $0 <= 1.5 ? "met" : "not met" } ?? "—"
        return """
        Measured by `\(command)` on \(machine.summary).

        | key | what | value | goal |
        |---|---|---|---|
        | `sidebar_scroll_frame_ms_p99_500` | page sidebar of a 500-page PDF scrolled to the end with the wheel at 60 Hz: GTK-thread time per sidebar frame, p99 (\(r.sidebarFrameMs.count) frames; median \(ms(r.sidebarFrameMs.median))) | **\(ms(r.sidebarFrameMs.p99))** | < 16 ms (no stalls) |
        | `sidebar_rss_mib_500` | the app's resident memory after that scroll (previews within 32 MB) | **\(r.sidebarRSSMiB.map { String(format: "%.0f MiB", $0) } ?? "—")** | bounded |
        | `app_pan_gesture_cpu_ms_200_empty` | a whole middle-button pan at 200 % (press, 60 moves of 6 px at 60 Hz, release, until idle), CPU of every thread, empty drawing (median of \(r.panEmpty.count)) | \(ms(r.panEmpty.median)) | |
        | `app_pan_gesture_cpu_ms_200_1m` | the same gesture over the million-point drawing (median of \(r.pan1m.count)) | \(ms(r.pan1m.median)) | |
        | `app_pan_gesture_1m_over_empty_200` | ratio of the two medians | **\(ratio)** | ≤ 1.5× (\(met)) |

        Rounds (ms per gesture): empty \(r.panEmpty.values.map { String(format: "%.1f", $0) }.joined(separator: ", ")); 1M \(r.pan1m.values.map { String(format: "%.1f", $0) }.joined(separator: ", ")).\(r.notes.isEmpty ? "" : " Notes: " + r.notes.joined(separator: "; "))

        """
    }
}
