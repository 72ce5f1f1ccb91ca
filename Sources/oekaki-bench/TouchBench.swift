import Foundation

/// What fingers cost the real window: the `oekaki` app on a private GTK Broadway display, fed real GDK touch
/// events by headless Chromium (`Tools/touch-driver.py`, Selenium from `.build/touch-venv`), exactly as the
/// touch window tests drive it. One finger, then three fingers at once, draw the same zigzag; the figure is
/// the app's CPU time (every thread, from /proc/PID/task/*/schedstat, nanoseconds) per touch event, pen-down
/// and pen-up included. Three fingers send three times the events, so equal cost per event means the work
/// grows with the fingers and no faster.
enum TouchBench {
    struct Result {
        /// CPU milliseconds per touch event, one value per round.
        var one = Samples()
        var three = Samples()
        var eventsPerRound = (one: 0, three: 0)
        var notes: [String] = []
    }

    /// Steps per finger and round: one event per finger and step.
    static let steps = 240

    static func run(rounds: Int, folder: String, log: String) -> Result {
        var r = Result()
        do {
            let s = try Session(folder: folder, log: log)
            defer { s.stop() }
            // A first stroke warms up the app (its first live layer, its first commit).
            _ = try s.draw(fingers: 1, steps: 20)
            for _ in 0..<rounds {
                for fingers in [1, 3] {
                    let (ms, events) = try s.draw(fingers: fingers, steps: steps)
                    if fingers == 1 { r.one.add(ms / Double(events)); r.eventsPerRound.one = events }
                    else { r.three.add(ms / Double(events)); r.eventsPerRound.three = events }
                }
            }
            if try s.strokeCount() != 1 + rounds * 4 { r.notes.append("touch: the app saved \(try s.strokeCount()) strokes, expected \(1 + rounds * 4): its figures time something else") }
        } catch {
            r.notes.append("touch: \(error) (app_touch keys are null)")
        }
        return r
    }

    /// The Broadway server, the app and the browser driver, all stopped by `stop`.
    private final class Session {
        let home: URL
        let file: String
        let oekaki: String
        /// The window with the trace hooks (`oekaki-instrumented`); `oekaki` itself answers `info`.
        let instrumented: String
        let server: Process
        let app: Process
        let driver: Process
        let toDriver: FileHandle
        let fromDriver: FileHandle
        var buffer = Data()

        init(folder: String, log: String) throws {
            let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let script = root.appendingPathComponent("Tools/touch-driver.py").path
            let python = root.appendingPathComponent(".build/touch-venv/bin/python").path
            oekaki = URL(fileURLWithPath: ChildProcess.ownExecutable).deletingLastPathComponent().appendingPathComponent("oekaki").path
            instrumented = oekaki + "-instrumented"
            guard let broadwayd = Executables.find("gtk4-broadwayd"), Executables.find("chromium") != nil else {
                throw ChildProcess.Failure(description: "gtk4-broadwayd or chromium is not installed (make deps)")
            }
            guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else {
                throw ChildProcess.Failure(description: "run from the package root after `make touch-venv` (no \(python))")
            }
            guard FileManager.default.isExecutableFile(atPath: oekaki), FileManager.default.isExecutableFile(atPath: instrumented) else {
                throw ChildProcess.Failure(description: "no oekaki or oekaki-instrumented beside the bench")
            }

            home = URL(fileURLWithPath: folder).appendingPathComponent("touch-home")
            let runtime = home.appendingPathComponent("runtime")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let config = home.appendingPathComponent("config/oekaki")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "touch-mode=draw\n".write(to: config.appendingPathComponent("settings"), atomically: true, encoding: .utf8)
            file = home.appendingPathComponent("touch.oekaki").path
            var env = ProcessInfo.processInfo.environment
            for k in ["DISPLAY", "WAYLAND_DISPLAY"] { env.removeValue(forKey: k) }
            env["HOME"] = home.path
            env["XDG_RUNTIME_DIR"] = runtime.path
            let logHandle = FileHandle(forWritingAtPath: log) ?? FileHandle.nullDevice
            logHandle.seekToEndOfFile()

            // Displays :50…:89, page on 127.0.0.1:(8080+N), as the window tests (whichever is free).
            var started: (Process, Int)?
            for n in 50...89 {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: broadwayd)
                p.arguments = ["--address", "127.0.0.1", "--port", "\(8080 + n)", ":\(n)"]
                p.environment = env
                p.standardOutput = logHandle
                p.standardError = logHandle
                try p.run()
                // Its socket comes first; a taken port then makes it exit within milliseconds.
                for _ in 0..<100 where p.isRunning && Self.socket(in: runtime) == nil { usleep(20_000) }
                if p.isRunning { usleep(300_000) }
                if p.isRunning, Self.socket(in: runtime) != nil { started = (p, n); break }
                if p.isRunning { p.terminate(); p.waitUntilExit() }
            }
            guard let (server, n) = started else { throw ChildProcess.Failure(description: "gtk4-broadwayd could not start on :50…:89") }
            self.server = server

            var appEnv = env
            appEnv["GDK_BACKEND"] = "broadway"
            appEnv["BROADWAY_DISPLAY"] = ":\(n)"
            appEnv["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
            appEnv["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
            appEnv["NO_AT_BRIDGE"] = "1"; appEnv["GSETTINGS_BACKEND"] = "memory"; appEnv["GTK_A11Y"] = "none"
            app = Process()
            app.executableURL = URL(fileURLWithPath: instrumented)
            app.arguments = [file]
            app.environment = appEnv
            app.standardOutput = logHandle
            app.standardError = logHandle

            driver = Process()
            driver.executableURL = URL(fileURLWithPath: python)
            driver.arguments = [script, "http://127.0.0.1:\(8080 + n)/", "1280", "1024"]
            driver.environment = env
            let input = Pipe(), output = Pipe()
            driver.standardInput = input
            driver.standardOutput = output
            driver.standardError = logHandle
            toDriver = input.fileHandleForWriting
            fromDriver = output.fileHandleForReading
            try app.run()
            try driver.run()
            guard try reply()["ready"] as? Bool == true else { throw ChildProcess.Failure(description: "the Chromium driver did not start") }
            for _ in 0..<200 {
                if let k = try command(["cmd": "script", "js": "return Object.keys(surfaces).length"])["value"] as? Int, k > 0 { break }
                usleep(100_000)
            }
            usleep(1_000_000)
        }

        private static func socket(in dir: URL) -> String? {
            (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.first { $0.hasPrefix("broadway") && $0.hasSuffix(".socket") }
        }

        /// `fingers` fingers 130 px apart zigzag right together (every finger moves in every tick) and lift.
        /// Returns the app's CPU milliseconds from before the first event until it is idle again, and the
        /// number of touch events sent.
        func draw(fingers: Int, steps: Int) throws -> (ms: Double, events: Int) {
            let sources: [[String: Any]] = (0..<fingers).map { f in
                let y = 250 + 130 * f
                var a: [[Any]] = [["move", 150, y], ["down"]]
                for s in 1...steps { a.append(["move", 150 + (s * 700) / steps, y + (s % 2) * 8]) }
                a.append(["up"])
                return ["kind": "touch", "actions": a]
            }
            let before = cpuNanoseconds()
            try command(["cmd": "perform", "sources": sources])
            // Until the app is idle: its CPU clock stops moving (the last events, the commit on pen-up).
            var last = cpuNanoseconds()
            for _ in 0..<50 {
                usleep(100_000)
                let now = cpuNanoseconds()
                if now - last < 1_000_000 { break }
                last = now
            }
            return (Double(last - before) / 1e6, fingers * (steps + 2))
        }

        /// CPU time of every thread of the app so far (the first field of each task's schedstat).
        func cpuNanoseconds() -> Int {
            let tasks = "/proc/\(app.processIdentifier)/task"
            return ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).reduce(0) { sum, t in
                let text = (try? String(contentsOfFile: "\(tasks)/\(t)/schedstat", encoding: .utf8)) ?? ""
                return sum + (Int(text.split(separator: " ").first ?? "") ?? 0)
            }
        }

        func strokeCount() throws -> Int {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: oekaki)
            p.arguments = ["info", file]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            return json?["strokes"] as? Int ?? -1
        }

        @discardableResult
        func command(_ cmd: [String: Any]) throws -> [String: Any] {
            var line = try JSONSerialization.data(withJSONObject: cmd)
            line.append(0x0A)
            try toDriver.write(contentsOf: line)
            let r = try reply()
            if let e = r["error"] { throw ChildProcess.Failure(description: "driver: \(e)") }
            return r
        }

        private func reply() throws -> [String: Any] {
            // A driver silent for two minutes is stopped; the read then ends.
            let driver = self.driver
            let watchdog = DispatchWorkItem { driver.terminate() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
            defer { watchdog.cancel() }
            while true {
                if let nl = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<nl]
                    buffer.removeSubrange(buffer.startIndex...nl)
                    return (try? JSONSerialization.jsonObject(with: line) as? [String: Any]) ?? ["error": String(decoding: line, as: UTF8.self)]
                }
                let chunk = fromDriver.availableData
                if chunk.isEmpty { throw ChildProcess.Failure(description: "the touch driver exited") }
                buffer.append(chunk)
            }
        }

        func stop() {
            if driver.isRunning {
                try? toDriver.write(contentsOf: Data("{\"cmd\":\"quit\"}\n".utf8))
                for _ in 0..<100 where driver.isRunning { usleep(50_000) }
                if driver.isRunning { driver.terminate() }
            }
            if app.isRunning { app.terminate(); app.waitUntilExit() }
            if server.isRunning { server.terminate(); server.waitUntilExit() }
        }
    }
}
