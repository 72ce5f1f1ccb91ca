import Foundation
import InkStore
import InkCore

/// Pen latency in the real window (`--latency`): the app (`oekaki-instrumented`, traced) draws the bench's wavy line
/// at 60 Hz under Xvfb on an empty drawing and on the million-point one; every drawing motion event's timestamp is
/// set against the end of the frame that painted its ink (`InkLatency` in the app: the canvas drew in that frame,
/// then its GdkFrameClock's "after-paint"). The suite's window run (`AppBench`) collects the same figures.
enum LatencyBench {
    struct Result {
        var empty = Samples(), million = Samples()
        /// Where the time went, per event, both drawings: from the event's timestamp to our handler (GDK holds
        /// a motion event until its frame clock's next tick), from the handler to the start of the frame that
        /// drew it, and that frame (GTK's layout, our draw, GSK's render) up to its "after-paint".
        var queued = Samples(), waited = Samples(), frame = Samples()
        var notes: [String] = []
    }

    static func run(_ w: Workloads, display: VirtualDisplay, rounds: Int) -> Result {
        var r = Result()
        guard let xdotool = Executables.find("xdotool") else { r.notes.append("xdotool is not installed"); return r }
        let app = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki-instrumented"
        guard FileManager.default.isExecutableFile(atPath: app) else { r.notes.append("oekaki-instrumented is not built beside the bench"); return r }
        let empty = w.folder + "/latency-empty.oekaki", big = w.folder + "/latency-1m.oekaki"
        do {
            for p in [empty, big] { for s in ["", "-wal", "-shm"] { unlink(p + s) } }
            _ = try DocumentFile.create(path: empty, drawing: Drawing()).close()
            try FileManager.default.copyItem(atPath: w.oekaki, toPath: big)
        } catch {
            r.notes.append("latency bench: \(error)"); return r
        }
        for _ in 0..<rounds {
            for (file, isBig) in [(empty, false), (big, true)] {
                guard let s = AppBench.Session(app: app, file: file, floor: false, w: w, display: display, xdotool: xdotool) else {
                    r.notes.append("latency bench: the window did not appear"); continue
                }
                defer { s.stop() }
                s.settle()
                let mark = s.traceLength()
                _ = s.cpuPerEvent(button: 1, path: AppBench.drawPath)
                let ms = s.latencies(since: mark)
                if ms.isEmpty { r.notes.append("latency bench: no latency in the trace") }
                for v in ms { if isBig { r.million.add(v) } else { r.empty.add(v) } }
                for p in s.latencyParts(since: mark) { r.queued.add(p.queued); r.waited.add(p.waited); r.frame.add(p.frame) }
            }
        }
        return r
    }

    static func keys(_ r: Result) -> [(String, Double?)] {
        [("app_event_to_frame_ms_p50_empty", r.empty.percentile(50)), ("app_event_to_frame_ms_p99_empty", r.empty.p99),
         ("app_event_to_frame_ms_p50_1m", r.million.percentile(50)), ("app_event_to_frame_ms_p99_1m", r.million.p99)]
    }

    /// The parts, for the JSON output beside the keys.
    static func parts(_ r: Result) -> [(String, Double?)] {
        [("held_by_gdk_ms_p50", r.queued.percentile(50)), ("held_by_gdk_ms_p99", r.queued.p99),
         ("handler_ms_p50", r.waited.percentile(50)), ("handler_ms_p99", r.waited.p99),
         ("frame_ms_p50", r.frame.percentile(50)), ("frame_ms_p99", r.frame.p99)]
    }

    /// BENCHMARKS.md's latency section.
    static func markdown(_ r: Result, command: String, machine: String) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.1f ms", $0) } ?? "—" }
        var out = "Pen latency in the real window (`\(command)`, \(machine)): the time from a GDK motion event's\n"
        out += "timestamp to the end of the frame that painted its ink (GdkFrameClock \"after-paint\" after the live ink or the canvas drew), every\n"
        out += "drawing motion event of \(AppBench.eventsPerGesture)-event strokes at 60 Hz (xdotool under Xvfb, GSK_RENDERER=cairo). Goal: p99 ≤ 16.7 ms.\n\n"
        out += "| key | drawing | value | events | goal | met |\n|---|---|---|---|---|---|\n"
        for (k, v) in keys(r) {
            let big = k.hasSuffix("_1m"), p99 = k.contains("p99")
            let n = big ? r.million.count : r.empty.count
            let met = p99 ? (v.map { $0 <= 16.7 ? "yes" : "no" } ?? "—") : ""
            out += "| `\(k)` | \(big ? "1M points" : "empty") | **\(ms(v))** | \(n) | \(p99 ? "≤ 16.7 ms" : "") | \(met) |\n"
        }
        func part(_ name: String, _ what: String, _ v: Samples) -> String {
            "| \(name) | \(what) | \(ms(v.percentile(50))) | \(ms(v.p99)) |\n"
        }
        out += "\nWhere the time went (every event of both drawings, the app's own trace):\n\n"
        out += "| part | from → to | p50 | p99 |\n|---|---|---|---|\n"
        out += part("held by GDK", "event timestamp → our motion handler (GDK delivers motion at its frame clock's next tick)", r.queued)
        out += part("our handler", "handler → start of the frame that drew the ink (the editor, the live layer)", r.waited)
        out += part("the frame", "frame start → after-paint (GTK's layout, our draw, GSK's cairo render of what changed)", r.frame)
        for n in r.notes { out += "\nNote: \(n)\n" }
        return out
    }
}
