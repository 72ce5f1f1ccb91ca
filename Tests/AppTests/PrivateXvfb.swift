import Foundation

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
