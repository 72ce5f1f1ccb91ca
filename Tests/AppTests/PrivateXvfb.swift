import Foundation
import XCTest

/// One Xvfb server per window-test class, on the first free display of the class's own range (no socket and no
/// lock file), so suites never share a screen; killed when the class ends.
enum PrivateXvfb {
    /// Starts Xvfb at `width`×`height`; nil when no display in `displays` could start within 10 s.
    static func start(displays: ClosedRange<Int>, width: Int, height: Int) -> (process: Process, display: String)? {
        guard let xvfb = AppWindowTests.tool("Xvfb") else { return nil }
        let fm = FileManager.default
        for n in displays where isFree(n) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: xvfb)
            p.arguments = [":\(n)", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            do { try p.run() } catch { continue }
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, p.isRunning, !fm.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { usleep(50_000) }
            if p.isRunning, fm.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { return (p, ":\(n)") }
            if p.isRunning { p.terminate() }
        }
        return nil
    }

    /// No server holds display `n`: no lock file, or one left by a server that was killed (its pid is gone),
    /// whose leftovers are then removed.
    static func isFree(_ n: Int) -> Bool {
        let lock = "/tmp/.X\(n)-lock", socket = "/tmp/.X11-unix/X\(n)"
        let fm = FileManager.default
        guard fm.fileExists(atPath: lock) || fm.fileExists(atPath: socket) else { return true }
        guard let text = try? String(contentsOfFile: lock, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
              kill(pid, 0) != 0, errno == ESRCH else { return false }
        try? fm.removeItem(atPath: lock)
        try? fm.removeItem(atPath: socket)
        return true
    }

    /// SIGTERM first, so Xvfb removes its lock file and socket; SIGKILL if it lingers.
    static func stop(_ p: Process?) {
        guard let p, p.isRunning else { return }
        p.terminate()
        let deadline = Date().addingTimeInterval(3)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }
}

/// What the window tests do on a private X screen: xdotool input and a screenshot of the root window (no window
/// manager, so screen coordinates are window coordinates).
struct XScreen {
    let display: String
    let width: Int
    let height: Int
    /// Where screenshots are written.
    let scratch: URL

    func xdotool(_ args: [String]) {
        _ = try? output(AppWindowTests.tool("xdotool")!, args)
    }

    func key(_ k: String) { xdotool(["key", k]) }

    /// Left button down at the first point, through the others (with intermediate samples so the stroke
    /// follows the path, not just its ends), up at the last.
    func drag(_ points: [(Int, Int)]) {
        guard let first = points.first else { return }
        xdotool(["mousemove", "\(first.0)", "\(first.1)"])
        usleep(50_000)
        xdotool(["mousedown", "1"])
        for (i, p) in points.enumerated().dropFirst() {
            let prev = points[i - 1]
            for k in 1...4 {
                let x = prev.0 + (p.0 - prev.0) * k / 4, y = prev.1 + (p.1 - prev.1) * k / 4
                xdotool(["mousemove", "\(x)", "\(y)"])
            }
            usleep(20_000)
        }
        xdotool(["mouseup", "1"])
        usleep(300_000)
    }

    func screenshot(file: StaticString = #filePath, line: UInt = #line) throws -> Screenshot {
        let png = scratch.appendingPathComponent("shot.png").path
        let shot = try output(AppWindowTests.tool("import")!, ["-window", "root", png])
        XCTAssertEqual(shot.status, 0, "import failed: \(String(decoding: shot.data, as: UTF8.self))", file: file, line: line)
        let raw = try output(AppWindowTests.tool("convert")!, [png, "-depth", "8", "rgb:-"], stderr: false).data
        XCTAssertEqual(raw.count, width * height * 3, "screenshot size", file: file, line: line)
        return Screenshot(width: width, height: height, rgb: raw)
    }

    /// Runs a tool on this display; its stdout (and stderr unless told otherwise).
    func output(_ tool: String, _ args: [String], stderr: Bool = true) throws -> (status: Int32, data: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = stderr ? out : FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, data)
    }
}
