import Foundation
import XCTest
import TestSupport

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
