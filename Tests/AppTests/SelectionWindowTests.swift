import Foundation
import InkCore
import InkRender
import InkStore
import XCTest
import TestSupport

/// The selection in the real window under its own Xvfb: a lasso takes a stroke, a drag
/// moves it (the pixels move, and the reopened file has it in its new place), and a copy puts a PNG with the ink
/// on the clipboard that `xclip` reads back.
final class SelectionWindowTests: XCTestCase {
    static let screen = (width: 1280, height: 1024)
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
        super.tearDown()
    }

    override func setUpWithError() throws {
        for t in ["Xvfb", "xdotool", "import", "convert"] where AppWindowTests.tool(t) == nil {
            throw XCTSkip("\(t) is needed for the window tests (apt-get install xvfb xdotool imagemagick)")
        }
        guard Self.display != nil else { return XCTFail("could not start Xvfb") }
        home = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-selection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        quit()
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    /// A 600×400 page with one bold horizontal stroke from (100, 100) to (300, 100), opened in the window.
    private func openOneStroke() throws -> (file: String, page: (x: Int, y: Int)) {
        let log = home.appendingPathComponent("one.jsonl")
        let lines = [
            #"{"type":"canvas","width":600,"height":400}"#,
            ##"{"type":"tool","tool":"pen","color":"#000000","width":6}"##,
            #"{"type":"touch","phase":"began","id":1,"x":100,"y":100,"device":"pen","pressure":0.5}"#,
            #"{"type":"touch","phase":"moved","id":1,"x":200,"y":100,"device":"pen","pressure":0.5}"#,
            #"{"type":"touch","phase":"ended","id":1,"x":300,"y":100,"device":"pen","pressure":0.5}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("selection.oekaki").path
        let replay = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(replay.status, 0, replay.output)
        try launch(file)
        let start = try waitFor { self.paperCorner($0) != nil }
        let page = try XCTUnwrap(paperCorner(start), "the page is on screen")
        XCTAssertTrue(start.hasInk(near: page.x + 200, page.y + 100), "the stroke is drawn")
        return (file, page)
    }

    /// A lasso loop around the stroke (page units), drawn with the lasso tool (S).
    private func lassoTheStroke(_ page: (x: Int, y: Int)) {
        key("s")
        usleep(200_000)
        drag([(80, 70), (320, 70), (320, 130), (80, 130), (80, 70)].map { (page.x + $0.0, page.y + $0.1) })
    }

    func testLassoAStrokeDragItAndReopen() throws {
        let (file, page) = try openOneStroke()
        lassoTheStroke(page)
        // Drag from the middle of the stroke (inside the selection's box) 150 down.
        drag([(200, 100), (200, 150), (200, 200), (200, 250)].map { (page.x + $0.0, page.y + $0.1) })
        let moved = try waitFor { $0.hasInk(near: page.x + 200, page.y + 250) && !$0.hasInk(near: page.x + 200, page.y + 100) }
        XCTAssertTrue(moved.hasInk(near: page.x + 200, page.y + 250), "the stroke is where it was dragged")
        XCTAssertTrue(moved.hasInk(near: page.x + 120, page.y + 250), "all of it")
        XCTAssertFalse(moved.hasInk(near: page.x + 200, page.y + 100, radius: 2), "and no longer where it was")

        usleep(700_000)   // autosave
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let strokes = stored.document.pages[0].drawing.strokes
        let history = stored.history
        stored.close()
        XCTAssertEqual(strokes.count, 1)
        let s = try XCTUnwrap(strokes.first)
        XCTAssertEqual(s.transform, .translation(0, 150), "stored as a move of the drawn points")
        XCTAssertEqual(s.bounds?.minY ?? 0, 250, accuracy: 0.1)
        XCTAssertEqual(s.drawnPoints.first?.y ?? 0, 100, accuracy: 0.1, "the points stay as drawn")
        if case .transform = history.undoStack.last {} else { XCTFail("the move is the last undoable edit: \(String(describing: history.undoStack.last))") }

        // Reopened: the stroke shows in its new place, and Ctrl+Z moves it back.
        try launch(file)
        let reopened = try waitFor { $0.hasInk(near: page.x + 200, page.y + 250) }
        XCTAssertTrue(reopened.hasInk(near: page.x + 200, page.y + 250), "moved after reopening")
        key("ctrl+z")
        let undone = try waitFor { $0.hasInk(near: page.x + 200, page.y + 100) }
        XCTAssertTrue(undone.hasInk(near: page.x + 200, page.y + 100), "undo after reopening moves it back")
        XCTAssertFalse(undone.hasInk(near: page.x + 200, page.y + 250, radius: 2))
    }

    func testCopyPutsAPNGWithTheInkOnTheClipboard() throws {
        guard let xclip = AppWindowTests.tool("xclip") else { throw XCTSkip("xclip is needed (apt-get install xclip)") }
        let (file, page) = try openOneStroke()
        lassoTheStroke(page)
        key("ctrl+c")
        usleep(300_000)

        let targets = try run(URL(fileURLWithPath: xclip), ["-selection", "clipboard", "-t", "TARGETS", "-o"])
        XCTAssertTrue(targets.output.contains("image/png"), targets.output)
        XCTAssertTrue(targets.output.contains("image/svg+xml"), targets.output)
        XCTAssertTrue(targets.output.contains("application/x-oekaki-ink"), targets.output)

        let png = home.appendingPathComponent("clip.png")
        let read = try runData(URL(fileURLWithPath: xclip), ["-selection", "clipboard", "-t", "image/png", "-o"])
        try read.write(to: png)
        XCTAssertEqual(Array(read.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        let image = try ImageSurface.load(png: png.path)
        // The ink's bounds at 2×: 200 + 6 wide plus the reach of the pen, and a few units high.
        XCTAssertGreaterThanOrEqual(image.width, 400)
        XCTAssertLessThan(image.height, 120)
        XCTAssertEqual(image.pixel(x: 0, y: 0).a, 0, "transparent around the ink")
        let middle = image.pixel(x: image.width / 2, y: image.height / 2)
        XCTAssertGreaterThan(middle.a, 200, "ink in the middle: \(middle)")
        XCTAssertLessThan(Int(middle.r) + Int(middle.g) + Int(middle.b), 60, "black ink")

        // Paste puts a copy 20 units down and right, selected; the file then holds two strokes.
        key("ctrl+v")
        let pasted = try waitFor { $0.hasInk(near: page.x + 220, page.y + 120) }
        XCTAssertTrue(pasted.hasInk(near: page.x + 220, page.y + 120), "the pasted copy")
        usleep(700_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(stored.document.pages[0].drawing.strokes.count, 2)
        stored.close()
    }

    // MARK: driving the app

    /// The top-left corner of the paper: the first white rows at x = 600 below the toolbar, then its left edge.
    private func paperCorner(_ s: Screenshot) -> (x: Int, y: Int)? {
        guard let y = (40..<400).first(where: { y in (0..<40).allSatisfy { s.isPaper(600, y + $0) } }) else { return nil }
        // Leftwards from there while it is paper (the window's light border at its left edge is not the page).
        var x = 600
        while x > 0, s.isPaper(x - 1, y + 20) { x -= 1 }
        return (x, y)
    }

    private func launch(_ file: String) throws {
        let p = Process()
        p.executableURL = try AppWindowTests.oekakiBinary()
        p.arguments = [file]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = Self.display
        env["GDK_BACKEND"] = "x11"
        env["HOME"] = home.path
        env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["NO_AT_BRIDGE"] = "1"
        env["GSETTINGS_BACKEND"] = "memory"
        env["GTK_A11Y"] = "none"
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        app = p
        let name = (file as NSString).lastPathComponent
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard p.isRunning else { XCTFail("oekaki exited early"); throw XCTSkip("the app did not start") }
            let r = try run(URL(fileURLWithPath: AppWindowTests.tool("xdotool")!), ["search", "--onlyvisible", "--name", NSRegularExpression.escapedPattern(for: name)])
            if r.status == 0, !r.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                usleep(600_000)
                return
            }
            usleep(100_000)
        }
        XCTFail("no window titled \(name) within 20 s")
    }

    private func quit() {
        if let app, app.isRunning {
            kill(app.processIdentifier, SIGKILL)
            app.waitUntilExit()
        }
        app = nil
    }

    private var x: XScreen { XScreen(display: Self.display ?? ":0", width: Self.screen.width, height: Self.screen.height, scratch: home) }
    private func drag(_ points: [(Int, Int)]) { x.drag(points) }
    private func key(_ k: String) { x.key(k) }
    private func xdotool(_ args: [String]) { x.xdotool(args) }
    private func screenshot() throws -> Screenshot { try x.screenshot() }

    /// The screen once `condition` holds, or the last screenshot after 3 s.
    private func waitFor(_ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let deadline = Date().addingTimeInterval(3)
        var s = try screenshot()
        while !condition(s), Date() < deadline {
            usleep(100_000)
            s = try screenshot()
        }
        return s
    }

    private func run(_ tool: URL, _ args: [String]) throws -> (status: Int32, output: String) {
        let data = try runData(tool, args)
        return (lastStatus, String(decoding: data, as: UTF8.self))
    }

    private var lastStatus: Int32 = 0

    private func runData(_ tool: URL, _ args: [String]) throws -> Data {
        let p = Process()
        p.executableURL = tool
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        if let d = Self.display { env["DISPLAY"] = d }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        lastStatus = p.terminationStatus
        return data
    }
}
