import Foundation
import XCTest

/// A private GTK Broadway display and the headless Chromium that shows it: the one way to give GTK real,
/// multi-sequence touch events on a machine without a touchscreen (Xvfb has no touch devices).
///
/// `gtk4-broadwayd` runs on display :N with its page on 127.0.0.1:(8080+N), N from 50…89, a range no other
/// test uses (Xvfb takes :90 and up); HOME and XDG_RUNTIME_DIR are a private folder, so its socket is ours.
/// `Tools/touch-driver.py` (Selenium in `.build/touch-venv`, made by `make touch-venv`) drives Chromium.
///
/// What Broadway does and does not do, found while writing these tests:
/// - Every finger is its own GDK sequence (`GDK_TOUCH_BEGIN/UPDATE/END`), in page pixels = surface pixels
///   (the page is held at device scale 1), so no coordinate correction is needed.
/// - It cannot deliver a touch cancel: the page does not listen for `touchcancel`, and GDK 4.8's Broadway
///   backend knows only touch types 0–2 (begin, update, end). A raw type 3 injected into the page's input
///   stream is "Unknown touch type 3" and crashes GTK itself, so the cancel path is covered by engine tests only.
/// - Touches arrive on the mouse's own device, the first one marked as emulating the pointer; GTK 4.8 then
///   drops the mouse's button release when that touch lifts while the button is down. The mixed test keeps
///   a first touch down outside the window so its finger is a plain touch.
/// - Chromium: Broadway's touch listeners are passive, so a sideways finger would swipe the page "back" and
///   fingers would scroll it; the driver turns both off. A touch still down at the end of an action chain
///   does not continue in the next chain, so each chain is a whole gesture.
final class BroadwaySession {
    let display: Int
    let root: URL
    private let server: Process
    private let driver: Process
    private let toDriver: FileHandle
    private let fromDriver: FileHandle
    private var buffer = Data()
    private var shots = 0
    static let screen = (width: 1280, height: 1024)

    /// The package's root, from this file's place in it.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var python: URL { packageRoot.appendingPathComponent(".build/touch-venv/bin/python") }

    /// Why the session cannot run here, or nil when everything it needs is installed.
    static var missing: String? {
        for tool in ["gtk4-broadwayd", "chromium", "chromedriver", "convert", "gzip"] where AppWindowTests.tool(tool) == nil {
            return "\(tool) is not installed (make deps)"
        }
        if !FileManager.default.isExecutableFile(atPath: python.path) { return "no Selenium venv at \(python.path) (make touch-venv)" }
        return nil
    }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-broadway-\(UUID().uuidString)")
        let runtime = root.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var started: (Process, Int)?
        for n in 50...89 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: AppWindowTests.tool("gtk4-broadwayd")!)
            p.arguments = ["--address", "127.0.0.1", "--port", "\(8080 + n)", ":\(n)"]
            p.environment = Self.environment(home: root, extra: [:])
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // Its socket comes first; a taken port then makes it exit within milliseconds.
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline, p.isRunning, Self.socket(in: runtime) == nil { usleep(20_000) }
            if p.isRunning { usleep(300_000) }
            if p.isRunning, Self.socket(in: runtime) != nil { started = (p, n); break }
            if p.isRunning { p.terminate(); p.waitUntilExit() }
        }
        guard let (server, n) = started else { throw XCTSkip("gtk4-broadwayd could not start on any display :50…:89") }
        self.server = server
        display = n

        let d = Process()
        d.executableURL = Self.python
        d.arguments = [Self.packageRoot.appendingPathComponent("Tools/touch-driver.py").path,
                       "http://127.0.0.1:\(8080 + n)/", "\(Self.screen.width)", "\(Self.screen.height)"]
        d.environment = Self.environment(home: root, extra: [:])
        let input = Pipe(), output = Pipe()
        d.standardInput = input
        d.standardOutput = output
        d.standardError = FileHandle.nullDevice
        try d.run()
        driver = d
        toDriver = input.fileHandleForWriting
        fromDriver = output.fileHandleForReading
        let hello = try readReply(timeout: 60)
        guard hello["ready"] as? Bool == true else {
            stop()
            throw XCTSkip("the Chromium driver did not start: \(hello["error"] ?? hello)")
        }
    }

    /// The environment of the server and the app: private HOME and runtime folder, no X or Wayland display.
    static func environment(home: URL, extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        for k in ["DISPLAY", "WAYLAND_DISPLAY", "BROADWAY_DISPLAY"] { env.removeValue(forKey: k) }
        env["HOME"] = home.path
        env["XDG_RUNTIME_DIR"] = home.appendingPathComponent("runtime").path
        env.merge(extra) { $1 }
        return env
    }

    private static func socket(in runtime: URL) -> String? {
        (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?.first { $0.hasPrefix("broadway") && $0.hasSuffix(".socket") }
    }

    /// The environment an app needs to show on this display, with its own data and settings folders in `home`.
    func appEnvironment(home: URL) -> [String: String] {
        Self.environment(home: root, extra: [
            "GDK_BACKEND": "broadway", "BROADWAY_DISPLAY": ":\(display)",
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory", "GTK_A11Y": "none",
        ])
    }

    func stop() {
        if driver.isRunning {
            try? toDriver.write(contentsOf: Data("{\"cmd\":\"quit\"}\n".utf8))
            let deadline = Date().addingTimeInterval(10)
            while driver.isRunning, Date() < deadline { usleep(50_000) }
            if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        }
        if server.isRunning { server.terminate(); server.waitUntilExit() }
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: commands

    /// One action chain: each source is a finger (or the mouse), its n-th action in the chain's n-th tick.
    /// Every finger must be lifted by the end (a touch still down does not carry over to the next chain).
    /// `meanwhile` runs while the chain plays (a `.pause(ms)` gives it time to look at the app mid-gesture).
    func perform(_ sources: [Source], meanwhile: () throws -> Void = {}) throws {
        let json = sources.map { s -> [String: Any] in
            ["kind": s.kind.rawValue, "actions": s.actions.map { a -> [Any] in
                switch a {
                case .move(let x, let y): return ["move", x, y]
                case .down: return ["down"]
                case .up: return ["up"]
                case .pause(let ms): return ["pause", ms]
                }
            }]
        }
        try send(["cmd": "perform", "sources": json])
        // The chain's answer is read even when `meanwhile` fails, so the next command gets its own.
        var failure: Error?
        do { try meanwhile() } catch { failure = error }
        try reply()
        if let failure { throw failure }
    }

    func keys(_ chord: String) throws { try command(["cmd": "keys", "keys": chord]) }

    func script(_ js: String) throws -> Any? { try command(["cmd": "script", "js": js])["value"] }

    func screenshot() throws -> Screenshot {
        let png = root.appendingPathComponent("shot.png")
        let r = try command(["cmd": "screenshot", "path": png.path])
        // TOUCH_DEBUG_DIR=/some/folder keeps every screenshot, numbered, to look at when a test fails.
        if let dir = ProcessInfo.processInfo.environment["TOUCH_DEBUG_DIR"] {
            shots += 1
            try? FileManager.default.copyItem(atPath: png.path, toPath: "\(dir)/shot-\(shots).png")
        }
        guard let w = r["width"] as? Int, let h = r["height"] as? Int else { throw Failure("no screenshot size in \(r)") }
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: AppWindowTests.tool("convert")!)
        convert.arguments = [png.path, "-depth", "8", "rgb:-"]
        let out = Pipe()
        convert.standardOutput = out
        convert.standardError = FileHandle.nullDevice
        try convert.run()
        let raw = out.fileHandleForReading.readDataToEndOfFile()
        convert.waitUntilExit()
        guard raw.count == w * h * 3 else { throw Failure("screenshot is \(raw.count) bytes, not \(w)×\(h)×3") }
        return Screenshot(width: w, height: h, rgb: raw)
    }

    @discardableResult
    private func command(_ cmd: [String: Any]) throws -> [String: Any] {
        try send(cmd)
        return try reply()
    }

    private func send(_ cmd: [String: Any]) throws {
        var line = try JSONSerialization.data(withJSONObject: cmd)
        line.append(0x0A)
        try toDriver.write(contentsOf: line)
    }

    @discardableResult
    private func reply() throws -> [String: Any] {
        let r = try readReply(timeout: 60)
        if let e = r["error"] { throw Failure("driver: \(e)") }
        return r
    }

    /// The driver's next line; a driver silent for `timeout` seconds is killed (the read then ends).
    private func readReply(timeout: Double) throws -> [String: Any] {
        let pid = driver.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<nl]
                buffer.removeSubrange(buffer.startIndex...nl)
                guard let obj = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
                    throw Failure("driver said: \(String(decoding: line, as: UTF8.self))")
                }
                return obj
            }
            let chunk = fromDriver.availableData
            if chunk.isEmpty { throw Failure("the touch driver exited") }
            buffer.append(chunk)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// One input source of an action chain.
    struct Source {
        enum Kind: String { case touch, mouse }
        enum Action {
            case move(Int, Int), down, up, pause(Int)
            static let pause = Action.pause(0)
        }
        var kind: Kind
        var actions: [Action]

        static func touch(_ actions: [Action]) -> Source { Source(kind: .touch, actions: actions) }
        static func mouse(_ actions: [Action]) -> Source { Source(kind: .mouse, actions: actions) }
    }
}
