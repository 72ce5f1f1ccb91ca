import Foundation

/// A private Xvfb server for Xournal++ (it needs an X display even to export), on a display number
/// nobody else uses; stopped by its pid when the bench ends.
final class VirtualDisplay {
    let number: Int
    private let pid: pid_t

    var name: String { ":\(number)" }

    private init(number: Int, pid: pid_t) { self.number = number; self.pid = pid }

    /// Starts Xvfb on the first free display from :90 (from `OEKAKI_BENCH_DISPLAY` when set: a shared machine
    /// hands out display numbers) and waits (up to 10 s) for its socket.
    static func start(log: String) throws -> VirtualDisplay {
        guard let xvfb = Executables.find("Xvfb") else { throw ChildProcess.Failure(description: "Xvfb is not installed") }
        let fm = FileManager.default
        let first = ProcessInfo.processInfo.environment["OEKAKI_BENCH_DISPLAY"].flatMap { Int($0.trimmingCharacters(in: CharacterSet(charactersIn: ":"))) } ?? 90
        for n in first..<(first + 100) where isFree(n) {
            let pid = try ChildProcess.start(xvfb, [":\(n)", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"],
                                             environment: ["PATH": Executables.path], log: log)
            for _ in 0..<200 {
                if fm.fileExists(atPath: "/tmp/.X11-unix/X\(n)") { return VirtualDisplay(number: n, pid: pid) }
                guard ChildProcess.isRunning(pid) else { break }
                usleep(50_000)
            }
            ChildProcess.stop(pid)
        }
        throw ChildProcess.Failure(description: "could not start Xvfb on any display :\(first)…:\(first + 99)")
    }

    func stop() { ChildProcess.stop(pid) }

    /// The X server's CPU so far (what drawing the windows' frames costs it).
    func cpuMs() -> Double? { ChildProcess.cpuMs(of: pid) }

    /// No server holds display `n`: no lock file, or one left by a server that was killed (its pid is gone),
    /// whose leftovers are then removed, so killed runs do not use up the range.
    private static func isFree(_ n: Int) -> Bool {
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
}

/// Programs found on PATH.
enum Executables {
    static var path: String { ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin" }

    static func find(_ name: String) -> String? {
        for dir in (path + ":/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}
