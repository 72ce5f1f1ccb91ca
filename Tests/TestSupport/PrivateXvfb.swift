import Foundation

/// One private Xvfb server per window-test class. Xvfb picks the display itself (`-displayfd`): it takes the first
/// number whose lock file it can create, and clears locks left by servers that died, so parallel runs, killed
/// runs and other people's servers on the same machine never make a test fail to find a screen.
public enum PrivateXvfb {
    /// Starts Xvfb with `screens` screens of `width`×`height`; nil when it could not start within 10 s.
    public static func start(width: Int, height: Int, screens: Int = 1, path: String = "/usr/bin/Xvfb") -> (process: Process, display: String)? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        // -noreset: by default an X server resets when its last client disconnects, and a client connecting during
        // the reset is dropped. A test polling with xdotool (connect, look, disconnect) while the app starts made
        // GTK fail to open the display now and then ("oekaki exited early (status 1)" under load): 2 in 40 starts
        // without it, none with it.
        var args = ["-displayfd", "1", "-nolisten", "tcp", "-noreset"]
        for s in 0..<max(1, screens) { args += ["-screen", "\(s)", "\(width)x\(height)x24"] }
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        // Xvfb writes "N\n" once it accepts connections; read it off the GTK-free test thread with a deadline.
        let reader = out.fileHandleForReading
        let got = DispatchSemaphore(value: 0)
        let line = LockedText()
        DispatchQueue.global().async {
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            line.set(text)
            got.signal()
        }
        guard got.wait(timeout: .now() + 10) == .success,
              let n = Int(line.get().trimmingCharacters(in: .whitespacesAndNewlines)) else {
            stop(p)
            return nil
        }
        return (p, ":\(n)")
    }

    /// SIGTERM first, so Xvfb removes its lock file and socket; SIGKILL if it lingers.
    public static func stop(_ p: Process?) {
        guard let p, p.isRunning else { return }
        p.terminate()
        let deadline = Date().addingTimeInterval(3)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }
}

/// The display line, handed from the reading thread to the waiting one.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ t: String) { lock.lock(); text = t; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return text }
}
