import Foundation
import XCTest
import TestSupport

/// What every window test class does around its tests: a private Xvfb for the class, a private home folder
/// per test, the app launched into them with a quiet, reproducible environment, and screenshots polled until
/// the screen shows what is expected. Subclasses change `screen` or `requiredTools` when theirs differ.
class WindowTestCase: XCTestCase {
    class var screen: (width: Int, height: Int) { (1280, 1024) }
    /// Tools a test cannot run without (it is skipped, not failed, when one is missing).
    class var requiredTools: [String] { ["Xvfb", "xdotool", "import", "convert"] }
    class var installHint: String { "apt-get install xvfb xdotool imagemagick" }

    // One class runs at a time, so one Xvfb slot serves whichever subclass is running.
    nonisolated(unsafe) static var xvfb: Process?
    nonisolated(unsafe) static var display: String?

    var app: Process?
    var home: URL!

    override class func setUp() {
        super.setUp()
        guard AppWindowTests.tool("Xvfb") != nil else { return }
        if let s = PrivateXvfb.start(width: screen.width, height: screen.height) { (xvfb, display) = (s.process, s.display) }
    }

    override class func tearDown() {
        PrivateXvfb.stop(xvfb)
        xvfb = nil
        display = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        for t in Self.requiredTools where AppWindowTests.tool(t) == nil {
            throw XCTSkip("\(t) is needed for the window tests (\(Self.installHint))")
        }
        guard Self.display != nil else { return XCTFail("could not start Xvfb") }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-\(Self.self)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        quit()
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    // MARK: driving the app

    /// Where the app's stderr goes, so a start-up failure can say why.
    var appLog: URL { home.appendingPathComponent("oekaki-stderr.txt") }

    /// Opens `file` and waits for its window (titled after the file unless told otherwise).
    func launch(_ file: String, title: String? = nil, environment extra: [String: String] = [:]) throws {
        try launch(arguments: [file], title: title ?? (file as NSString).lastPathComponent, environment: extra)
    }

    /// Starts the app with `arguments` and waits until a visible window's name matches `title` literally.
    func launch(arguments: [String], title: String, environment extra: [String: String] = [:]) throws {
        let p = try start(arguments: arguments, environment: appEnvironment(extra))
        app = p
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard p.isRunning else {
                let how = p.terminationReason == .uncaughtSignal ? "killed by signal \(p.terminationStatus)" : "status \(p.terminationStatus)"
                XCTFail("oekaki exited early (\(how)); its stderr ends:\n\(appLogTail())")
                throw XCTSkip("the app did not start")
            }
            let r = try run(URL(fileURLWithPath: AppWindowTests.tool("xdotool")!), ["search", "--onlyvisible", "--name", NSRegularExpression.escapedPattern(for: title)])
            if r.status == 0, !r.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                windowShown()
                return
            }
            usleep(100_000)
        }
        XCTFail("no window titled \(title) within 20 s")
    }

    /// The app's environment here: this display, this home, no session bus services or settings of the user's,
    /// then `extra` on top (an empty value there unsets the variable).
    func appEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = Self.display
        env["GDK_BACKEND"] = "x11"
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["NO_AT_BRIDGE"] = "1"
        env["GSETTINGS_BACKEND"] = "memory"
        env["GTK_A11Y"] = "none"
        env["OEKAKI_LAYOUT_REPORT"] = home.appendingPathComponent("layout.txt").path
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.merge(extra) { $1 }
        for (key, value) in extra where value.isEmpty { env.removeValue(forKey: key) }
        return env
    }

    /// Runs the app without waiting for anything; its stderr is appended to `appLog`.
    func start(arguments: [String], environment: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = try AppWindowTests.oekakiBinary(instrumented: true)
        p.arguments = arguments
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        if !FileManager.default.fileExists(atPath: appLog.path) { _ = FileManager.default.createFile(atPath: appLog.path, contents: nil) }
        if let log = try? FileHandle(forWritingTo: appLog) {
            _ = try? log.seekToEnd()
            p.standardError = log
        } else {
            p.standardError = FileHandle.nullDevice
        }
        try p.run()
        return p
    }

    /// Called once the window is mapped: waits for its first frame. Under load the window can be mapped while the X
    /// root's black still shows where the canvas will be (and reads as ink); the canvas's middle is paper or desk,
    /// never black, once drawn.
    func windowShown() {
        let painted = Date().addingTimeInterval(Self.firstFrameSeconds)
        while Date() < painted, let shot = try? screenshot(), shot.brightness(500, 300) < 40 { usleep(100_000) }
        usleep(300_000)
    }

    /// The last lines the app wrote to stderr.
    func appLogTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOf: appLog, encoding: .utf8)) ?? ""
        let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
        return tail.isEmpty ? "(nothing)" : tail
    }

    func quit() {
        if let app, app.isRunning {
            kill(app.processIdentifier, SIGKILL)
            app.waitUntilExit()
        }
        app = nil
    }

    var x: XScreen { XScreen(display: Self.display ?? ":0", width: Self.screen.width, height: Self.screen.height, scratch: home ?? FileManager.default.temporaryDirectory) }
    func drag(_ points: [(Int, Int)]) { x.drag(points) }
    func key(_ k: String) { x.key(k) }
    func xdotool(_ args: [String]) { x.xdotool(args) }
    func screenshot() throws -> Screenshot { try x.screenshot() }

    // Controls by their tooltips, from the layout report (`OEKAKI_LAYOUT_REPORT`; a menu's once it is open).

    /// The control whose tooltip starts with `prefix`, as the layout report places it.
    func reportedControl(startingWith prefix: String) -> [Int]? {
        guard let text = try? String(contentsOf: home.appendingPathComponent("layout.txt"), encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("control ") && $0.split(separator: " ", maxSplits: 5).last?.hasPrefix(prefix) == true })
        else { return nil }
        let f = line.split(separator: " ").dropFirst().prefix(4).compactMap { Int($0) }
        return f.count == 4 ? f : nil
    }

    @discardableResult
    func waitForReportedControl(startingWith prefix: String) throws -> [Int] {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            if let f = reportedControl(startingWith: prefix) { return f }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("no control \"\(prefix)…\" in the layout report")
        throw XCTSkip("no control")
    }

    func clickReportedControl(startingWith prefix: String) throws {
        let f = try waitForReportedControl(startingWith: prefix)
        xdotool(["mousemove", "\(f[0] + f[2] / 2)", "\(f[1] + f[3] / 2)", "click", "1"])
        usleep(300_000)
    }

    /// How long a test waits for the app's first frame: mapped is not drawn, and on a loaded machine (other suites
    /// building or running) the first frame can take seconds. A wait ends as soon as the frame is there.
    static let firstFrameSeconds = 20.0

    /// The screen once the page's paper is drawn (`paperCorner` finds it): what a test must see before it
    /// looks at or clicks on the page.
    func waitForPage(seconds: Double = firstFrameSeconds) throws -> Screenshot {
        try waitFor(seconds: seconds) { self.paperCorner($0) != nil }
    }

    /// The screen once `condition` holds, or the last screenshot when `seconds` are up.
    func waitFor(seconds: Double = 3, _ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(seconds)
        var s = try screenshot()
        while !condition(s), Date() < deadline {
            usleep(100_000)
            s = try screenshot()
        }
        return s
    }

    /// Runs a tool on this test's display: its status and stdout (with stderr unless told otherwise).
    func run(_ tool: URL, _ args: [String], stderr: Bool = true) throws -> (status: Int32, output: String) {
        let r = try x.output(tool.path, args, stderr: stderr)
        return (r.status, String(decoding: r.data, as: UTF8.self))
    }

    /// A tool's stdout alone, as bytes.
    func runData(_ tool: URL, _ args: [String]) throws -> Data { try x.output(tool.path, args, stderr: false).data }

    /// The top-left corner of the paper: the first white rows at x = 600 below the toolbar, then its left edge.
    func paperCorner(_ s: Screenshot) -> (x: Int, y: Int)? {
        guard let y = (40..<400).first(where: { y in (0..<40).allSatisfy { s.isPaper(600, y + $0) } }) else { return nil }
        // Leftwards from there while it is paper (the window's light border at its left edge is not the page).
        var x = 600
        while x > 0, s.isPaper(x - 1, y + 20) { x -= 1 }
        return (x, y)
    }

    // MARK: another application to drag from

    static let python = "/usr/bin/python3"

    /// Skips the test unless PyGObject with GTK 4 is there for `Tools/drag-source.py`.
    func requireDragSource() throws {
        let probe = try run(URL(fileURLWithPath: Self.python), ["-c", "import gi; gi.require_version('Gtk', '4.0'); from gi.repository import Gtk"])
        guard probe.status == 0 else { throw XCTSkip("PyGObject with GTK 4 is needed (make deps installs python3-gi)") }
    }

    /// `Tools/drag-source.py` on this screen: a window titled "drag source" offering `file`'s URI when dragged, as a
    /// file manager does. The caller stops it.
    func startDragSource(offering file: String) throws -> Process {
        let source = Process()
        source.executableURL = URL(fileURLWithPath: Self.python)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        source.arguments = [root.appendingPathComponent("Tools/drag-source.py").path, file]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = Self.display
        env["GDK_BACKEND"] = "x11"
        env["NO_AT_BRIDGE"] = "1"
        env["GTK_A11Y"] = "none"
        env["GSETTINGS_BACKEND"] = "memory"
        env["HOME"] = home.path
        source.environment = env
        source.standardOutput = FileHandle.nullDevice
        source.standardError = FileHandle.nullDevice
        try source.run()
        return source
    }
}
