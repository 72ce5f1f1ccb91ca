import Foundation
import InkCore
import InkStore

/// The real window under Xvfb, driven by xdotool: CPU time of the app process (all its threads) per pointer
/// event while drawing and panning, on an empty drawing and on the million-point one, beside a bare
/// GtkDrawingArea taking the same events (`OEKAKI_FLOOR=1`, the floor). Zoom timings come from the app's own
/// trace (`OEKAKI_TRACE`): the first frame after a step (the scaled old raster) and the sharp picture.
/// GSK_RENDERER=cairo: Xvfb has no GPU, and GL through llvmpipe would bury our work under the rasterizer's.
enum AppBench {
    struct Result {
        var drawEmpty = Samples(), draw1m = Samples(), drawFloor = Samples()
        var panEmpty = Samples(), pan1m = Samples(), panFloor = Samples()
        var zoomPreview1m = Samples(), zoomSharp1m = Samples(), zoomCPU1m = Samples()
        /// Per zoom step: the app's GTK thread CPU, and the X server's.
        var zoomGTKCPU1m = Samples(), zoomXServerCPU1m = Samples()
        /// Per zoom step: its floor (cairo's fill of its view, measured just after it, plus its GTK thread's and X
        /// server's CPU, split evenly over the cores), and its time to sharp over that floor.
        var zoomWindowFloor1m = Samples(), zoomOverFloor1m = Samples()

        /// Adds one zoom step's figures.
        mutating func add(_ z: ZoomStep) {
            zoomPreview1m.add(z.preview); zoomSharp1m.add(z.sharp)
            z.cpu.map { zoomCPU1m.add($0) }; z.gtkCPU.map { zoomGTKCPU1m.add($0) }; z.xServerCPU.map { zoomXServerCPU1m.add($0) }
            if let fill = z.floorFill, let gtk = z.gtkCPU, let x = z.xServerCPU {
                let floor = (fill + gtk + x) / Double(max(ProcessInfo.processInfo.activeProcessorCount, 1))
                zoomWindowFloor1m.add(floor)
                zoomOverFloor1m.add(z.sharp / floor)
            }
        }
        /// CPU per scroll event in the 500-page notebook, at its first and its last page (`NotebookBench`).
        var scrollPage1 = Samples(), scrollPage500 = Samples()
        var rssEmptyMiB: Double?, rss1mMiB: Double?
        /// Per drawing motion event: its timestamp to the end of the frame that painted its ink (the app's trace).
        var latencyEmpty = Samples(), latency1m = Samples()
        var notes: [String] = []
    }

    /// One Ctrl+wheel step's figures: until the preview and until sharp (wall, from the app's trace), the app's CPU
    /// over the step (all threads) and its GTK thread's share, the X server's CPU meanwhile, and cairo's fill of
    /// the step's view in this process once the window is idle again (`ZoomFloor`).
    struct ZoomStep {
        var preview: Double, sharp: Double
        var cpu: Double?, gtkCPU: Double?, xServerCPU: Double?
        var floorFill: Double?
    }

    /// Pointer events per measured gesture, paced at 60 Hz like a real drag.
    static let eventsPerGesture = 120

    /// `zoomFloor`: measured beside every zoom step (none: the steps alone).
    static func run(_ w: Workloads, display: VirtualDisplay, rounds: Int, onlyNotebook: Bool = false, zoomFloor: ZoomFloor? = nil) -> Result {
        var r = Result()
        guard let xdotool = Executables.find("xdotool") else { r.notes.append("xdotool is not installed: the app keys are null"); return r }
        // The app with the trace hooks installed (`oekaki-instrumented`: the shipped `oekaki` has none).
        let app = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki-instrumented"
        guard FileManager.default.isExecutableFile(atPath: app) else { r.notes.append("oekaki-instrumented is not built beside the bench: the app keys are null"); return r }
        NotebookBench.run(w, display: display, rounds: rounds, xdotool: xdotool, app: app, into: &r)
        if onlyNotebook { return r }
        let empty = w.folder + "/app-empty.oekaki", big = w.folder + "/app-1m.oekaki"
        do {
            for p in [empty, big] { for s in ["", "-wal", "-shm"] { unlink(p + s) } }
            _ = try DocumentFile.create(path: empty, drawing: Drawing()).close()
            try FileManager.default.copyItem(atPath: w.oekaki, toPath: big)
        } catch {
            r.notes.append("app bench: \(error)"); return r
        }
        for round in 0..<rounds {
            for kind in ["floor", "empty", "1m"] {
                let file = kind == "1m" ? big : empty
                guard let s = Session(app: app, file: file, floor: kind == "floor", w: w, display: display, xdotool: xdotool) else {
                    r.notes.append("app bench: the \(kind) window did not appear"); continue
                }
                defer { s.stop() }
                s.settle()
                if round == 0, kind != "floor" {
                    let rss = s.rssMiB()
                    if kind == "1m" { r.rss1mMiB = rss } else { r.rssEmptyMiB = rss }
                }
                let pan = s.cpuPerEvent(button: 2, path: panPath)
                let mark = s.traceLength()
                let draw = s.cpuPerEvent(button: 1, path: drawPath)
                for ms in s.latencies(since: mark) {
                    if kind == "1m" { r.latency1m.add(ms) } else if kind == "empty" { r.latencyEmpty.add(ms) }
                }
                switch kind {
                case "floor": pan.map { r.panFloor.add($0) }; draw.map { r.drawFloor.add($0) }
                case "empty": pan.map { r.panEmpty.add($0) }; draw.map { r.drawEmpty.add($0) }
                default:
                    pan.map { r.pan1m.add($0) }; draw.map { r.draw1m.add($0) }
                    for step in 0..<4 {
                        if let z = s.zoomStep(in: step % 2 == 0, floor: zoomFloor) { r.add(z) }
                    }
                }
            }
        }
        return r
    }

    /// Offsets from the canvas centre: a pan sweeps right and back, so every event uncovers a new strip.
    static let panPath: [(Double, Double)] = (0..<eventsPerGesture).map { i in
        let t = Double(i) / Double(eventsPerGesture)
        return (t < 0.5 ? -200 + 800 * t : 600 - 800 * t, 40 * sin(t * 12))
    }
    /// A wavy line across the canvas.
    static let drawPath: [(Double, Double)] = (0..<eventsPerGesture).map { i in
        let t = Double(i) / Double(eventsPerGesture)
        return (-300 + 600 * t, 80 * sin(t * 18))
    }

    /// One app process under the bench's display.
    final class Session {
        let pid: pid_t
        let trace: String
        let xdotool: String
        let env: [String: String]
        let centre: (Double, Double)
        let log: String
        let display: VirtualDisplay

        init?(app: String, file: String, floor: Bool, w: Workloads, display: VirtualDisplay, xdotool: String) {
            trace = w.folder + "/app-trace-\(UUID().uuidString.prefix(8)).log"
            self.display = display
            log = w.log
            self.xdotool = xdotool
            env = ["PATH": Executables.path, "HOME": w.home, "XDG_CONFIG_HOME": w.home + "/.config",
                   "XDG_CACHE_HOME": w.home + "/.cache", "XDG_DATA_HOME": w.home + "/.local/share",
                   "XDG_RUNTIME_DIR": w.home + "/run", "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1",
                   "DISPLAY": display.name, "GDK_BACKEND": "x11", "GSK_RENDERER": "cairo", "OEKAKI_TRACE": trace]
            var appEnv = env
            if floor { appEnv["OEKAKI_FLOOR"] = "1" }
            guard let p = try? ChildProcess.start(app, [file], environment: appEnv, log: w.log) else { return nil }
            pid = p
            // The window: found by the app's pid, then its geometry (no window manager: it sits at its origin).
            var found: (Double, Double)?
            for _ in 0..<100 where found == nil {
                if let id = Self.output(xdotool, ["search", "--onlyvisible", "--pid", "\(p)"], env: env)?.split(separator: "\n").last,
                   let geo = Self.output(xdotool, ["getwindowgeometry", "--shell", String(id)], env: env) {
                    var v: [String: Double] = [:]
                    for line in geo.split(separator: "\n") {
                        let kv = line.split(separator: "=")
                        if kv.count == 2 { v[String(kv[0])] = Double(kv[1]) }
                    }
                    if let x = v["X"], let y = v["Y"], let ww = v["WIDTH"], let hh = v["HEIGHT"], ww > 200, hh > 200 {
                        // Below the toolbars, left of centre: on the canvas in both windows.
                        found = (x + ww / 2, y + hh / 2 + 40)
                    }
                }
                if found == nil { usleep(100_000) }
            }
            guard let c = found else { ChildProcess.stop(p); return nil }
            centre = c
        }

        func stop() { ChildProcess.stop(pid); unlink(trace) }

        /// Bytes the app has traced so far.
        func traceLength() -> Int { (try? Data(contentsOf: URL(fileURLWithPath: trace)))?.count ?? 0 }

        /// The `latency event_to_frame_ms=N` lines traced after byte `offset` (`InkLatency` in the app).
        func latencies(since offset: Int) -> [Double] {
            traceLines(since: offset).compactMap { line in
                line.hasPrefix("latency event_to_frame_ms=") ? Double(line.split(separator: "=").last ?? "") : nil
            }
        }

        /// Where each event's time went (`latency parts queued_ms=A waited_ms=B frame_ms=C` lines after `offset`).
        func latencyParts(since offset: Int) -> [(queued: Double, waited: Double, frame: Double)] {
            traceLines(since: offset).compactMap { line in
                guard line.hasPrefix("latency parts ") else { return nil }
                let v = line.split(separator: " ").dropFirst(2).compactMap { $0.split(separator: "=").last.flatMap { Double($0) } }
                return v.count == 3 ? (v[0], v[1], v[2]) : nil
            }
        }

        private func traceLines(since offset: Int) -> [Substring] {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: trace)), data.count > offset else { return [] }
            return String(decoding: data.dropFirst(offset), as: UTF8.self).split(separator: "\n")
        }

        /// User + system CPU of the process, all threads, dead ones included.
        func cpuMs() -> Double? { ChildProcess.cpuMs(of: pid) }

        func rssMiB() -> Double? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 / 1024 }
            }
            return nil
        }

        /// Waits until the app stops working (background renders done): 300 ms with under 3 ms of CPU, at most 60 s.
        func settle() {
            let deadline = Date().addingTimeInterval(60)
            var last = cpuMs() ?? 0
            while Date() < deadline {
                usleep(300_000)
                let now = cpuMs() ?? 0
                if now - last < 3 { return }
                last = now
            }
        }

        /// Presses `button` at the centre, moves along `path` (`pause` seconds apart: 60 Hz), releases; CPU per event
        /// once settled.
        func cpuPerEvent(button: Int, path: [(Double, Double)], pause: Double = 0.016) -> Double? {
            settle()
            var args = ["mousemove", "\(Int(centre.0 + path[0].0))", "\(Int(centre.1 + path[0].1))", "mousedown", "\(button)"]
            for (dx, dy) in path.dropFirst() {
                args += ["mousemove", "\(Int(centre.0 + dx))", "\(Int(centre.1 + dy))"]
                if pause > 0 { args += ["sleep", "\(pause)"] }
            }
            args += ["mouseup", "\(button)"]
            guard let c0 = cpuMs() else { return nil }
            guard Self.output(xdotool, args, env: env) != nil else { return nil }
            settle()
            guard let c1 = cpuMs() else { return nil }
            return (c1 - c0) / Double(path.count)
        }

        /// One Ctrl+wheel step at the centre; the preview and sharp times the app traced for it, and its CPU time
        /// over the step (all threads; nil from an app that does not trace it).
        func zoomStep(in zoomIn: Bool, floor: ZoomFloor? = nil) -> ZoomStep? {
            settle()
            let before = (try? String(contentsOfFile: trace, encoding: .utf8))?.count ?? 0
            /// The zoom lines the app has traced since the step began.
            func zoomLines() -> [Substring] {
                guard let text = try? String(contentsOfFile: trace, encoding: .utf8), text.count > before else { return [] }
                return text.dropFirst(before).split(separator: "\n").filter { $0.hasPrefix("zoom") }
            }
            func value(_ key: String, in lines: [Substring]) -> Double? {
                lines.first { $0.hasPrefix("zoom \(key)=") }.flatMap { Double($0.split(separator: "=").last ?? "") }
            }
            let x0 = display.cpuMs()
            _ = Self.output(xdotool, ["mousemove", "\(Int(centre.0))", "\(Int(centre.1))", "keydown", "ctrl",
                                      "click", zoomIn ? "4" : "5", "keyup", "ctrl"], env: env)
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                usleep(20_000)
                var lines = zoomLines()
                guard let p = value("preview_ms", in: lines), let s = value("sharp_ms", in: lines) else { continue }
                let x1 = display.cpuMs()
                // The CPU lines follow the sharp one.
                if value("gtk_cpu_ms", in: lines) == nil {
                    usleep(20_000)
                    lines = zoomLines()
                }
                if ProcessInfo.processInfo.environment["OEKAKI_ZOOM_DETAIL"] != nil {
                    FileHandle.standardError.write(Data(("step\n" + lines.joined(separator: "\n") + "\n").utf8))
                }
                var step = ZoomStep(preview: p, sharp: s, cpu: value("cpu_ms", in: lines), gtkCPU: value("gtk_cpu_ms", in: lines),
                                    xServerCPU: x0.flatMap { a in x1.map { $0 - a } })
                if let floor {
                    // Once the app has rendered its margins too: the fill has the cores to itself, as the step had.
                    settle()
                    step.floorFill = floor.fillCPU(zoomIn: zoomIn)
                }
                return step
            }
            return nil
        }

        static func output(_ exe: String, _ args: [String], env: [String: String]) -> String? {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.arguments = args
            p.environment = env
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = FileHandle.nullDevice
            do { try p.run() } catch { return nil }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
        }
    }
}
