import Foundation
import XCTest
import TestSupport

/// Two app windows on one shared board, each on its own screen of one Xvfb (screens 0 and 1, so
/// neither covers the other), with a `nats-server -js` on loopback: a stroke drawn in one window shows in the
/// other; with the server gone the title bar counts the changes waiting, and they arrive once it is back; a
/// stroke in progress shows in the other window before the pen lifts and vanishes 2 s after its sender died.
final class SharedBoardWindowTests: XCTestCase {
    var xvfb: Process?
    var display = ""
    var server: Process?
    var serverPort = 0
    var apps: [Process] = []
    var home: URL!

    override func setUpWithError() throws {
        for t in ["Xvfb", "xdotool", "import", "convert", "nats-server"] where AppWindowTests.tool(t) == nil && !FileManager.default.fileExists(atPath: "/usr/sbin/\(t)") {
            throw XCTSkip("\(t) is needed (make deps)")
        }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        if let x = PrivateXvfb.start(width: 1280, height: 1024, screens: 2) { (xvfb, display) = (x.process, x.display) }
        guard xvfb != nil else { return XCTFail("could not start Xvfb") }
        try startServer(port: -1)
    }

    override func tearDown() {
        for a in apps where a.isRunning { kill(a.processIdentifier, SIGKILL); a.waitUntilExit() }
        if let s = server, s.isRunning { s.terminate(); s.waitUntilExit() }
        PrivateXvfb.stop(xvfb)
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    /// `port` -1: a free one, read back from the server's ports file; later restarts reuse it and the store.
    func startServer(port: Int) throws {
        let ports = home.appendingPathComponent("ports")
        try? FileManager.default.removeItem(at: ports)
        try FileManager.default.createDirectory(at: ports, withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppWindowTests.tool("nats-server") ?? "/usr/sbin/nats-server")
        p.arguments = ["-js", "-a", "127.0.0.1", "-p", "\(port)", "-sd", home.appendingPathComponent("store").path, "--ports_file_dir", ports.path]
        p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
        try p.run()
        server = p
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let name = try? FileManager.default.contentsOfDirectory(atPath: ports.path).first,
               let text = try? String(contentsOf: ports.appendingPathComponent(name), encoding: .utf8),
               let r = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                serverPort = Int(text[r].split(separator: ":")[1])!
                return
            }
            usleep(20_000)
        }
        XCTFail("nats-server did not start")
    }

    func launch(screen: Int, url: String) throws {
        let p = Process()
        p.executableURL = try AppWindowTests.oekakiBinary(instrumented: true)
        p.arguments = [url]
        let h = home.appendingPathComponent("user\(screen)")
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = "\(display).\(screen)"
        env["GDK_BACKEND"] = "x11"
        env["HOME"] = h.path
        env["XDG_DATA_HOME"] = h.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = h.appendingPathComponent("config").path
        env["NO_AT_BRIDGE"] = "1"; env["GSETTINGS_BACKEND"] = "memory"; env["GTK_A11Y"] = "none"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        p.environment = env
        p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
        try p.run()
        apps.append(p)
    }

    func x(_ screen: Int, _ args: [String]) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppWindowTests.tool("xdotool")!)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = "\(display).\(screen)"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out; p.standardError = FileHandle.nullDevice
        try? p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The title of the window on `screen` (the app names its board state there).
    func title(_ screen: Int) -> String {
        let ids = x(screen, ["search", "--onlyvisible", "--name", "Oekaki"]).split(separator: "\n")
        return ids.map { x(screen, ["getwindowname", String($0)]) }.joined(separator: " | ")
    }

    func waitFor(_ what: String, seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(150_000)
        } while Date() < deadline
        XCTFail("timed out waiting for: \(what)")
        return false
    }

    func screenshot(_ screen: Int) throws -> Screenshot {
        let png = home.appendingPathComponent("shot\(screen).png").path
        for (tool, args) in [("import", ["-window", "root", png])] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: AppWindowTests.tool(tool)!)
            p.arguments = args
            var env = ProcessInfo.processInfo.environment
            env["DISPLAY"] = "\(display).\(screen)"
            p.environment = env
            try p.run(); p.waitUntilExit()
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: AppWindowTests.tool("convert")!)
        p.arguments = [png, "-depth", "8", "rgb:-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let raw = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Screenshot(width: 1280, height: 1024, rgb: raw)
    }

    func drag(_ screen: Int, y: Int) {
        _ = x(screen, ["mousemove", "300", "\(y)"])
        usleep(50_000)
        _ = x(screen, ["mousedown", "1"])
        for px in stride(from: 320, through: 700, by: 20) { _ = x(screen, ["mousemove", "\(px)", "\(y)"]) }
        _ = x(screen, ["mouseup", "1"])
    }

    func testAStrokeDrawnInOneWindowShowsInTheOther() throws {
        guard xvfb != nil else { return }
        let url = "nats://127.0.0.1:\(serverPort)/together"
        try launch(screen: 0, url: url)
        try launch(screen: 1, url: url)
        _ = waitFor("both windows live, each seeing two people") { title(0).contains("2 here") && title(1).contains("2 here") }
        XCTAssertFalse(try screenshot(1).hasInk(near: 500, 400), "the board starts empty")

        drag(0, y: 400)
        XCTAssertTrue(try screenshot(0).hasInk(near: 500, 400), "drawn in the first window")
        XCTAssertTrue(try waitFor("the stroke in the second window", seconds: 5) { try screenshot(1).hasInk(near: 500, 400) })
        XCTAssertFalse(try screenshot(1).hasInk(near: 500, 600), "nothing elsewhere")

        // The server goes away: drawing goes on, the title counts what waits; back online, it arrives.
        server?.terminate(); server?.waitUntilExit()
        _ = waitFor("the first window offline") { title(0).contains("offline — 0 changes waiting") }
        drag(0, y: 600)
        XCTAssertTrue(waitFor("one change waiting") { title(0).contains("offline — 1 changes waiting") }, title(0))
        try startServer(port: serverPort)
        XCTAssertTrue(try waitFor("the offline stroke in the second window", seconds: 15) { try screenshot(1).hasInk(near: 500, 600) })
        XCTAssertTrue(try screenshot(1).hasInk(near: 500, 400))

        // A stroke in progress shows in the other window before the pen lifts; if it never finishes (the
        // first window is killed mid-stroke), it goes away after 2 s.
        _ = waitFor("both windows live again") { title(0).contains("· live") && title(1).contains("· live") }
        _ = x(0, ["mousemove", "300", "700"])
        usleep(50_000)
        _ = x(0, ["mousedown", "1"])
        for px in stride(from: 320, through: 700, by: 20) { _ = x(0, ["mousemove", "\(px)", "700"]) }
        XCTAssertTrue(try waitFor("the live stroke in the second window", seconds: 5) { try screenshot(1).hasInk(near: 500, 700) })
        kill(apps[0].processIdentifier, SIGKILL)
        apps[0].waitUntilExit()
        let killed = Date()
        XCTAssertTrue(try waitFor("the unfinished stroke gone", seconds: 6) { !(try screenshot(1).hasInk(near: 500, 700)) })
        XCTAssertGreaterThan(Date().timeIntervalSince(killed), 1.5, "it stays while it might still finish")
        XCTAssertTrue(try screenshot(1).hasInk(near: 500, 400), "finished strokes stay")
    }
}
