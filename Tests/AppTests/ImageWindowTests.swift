import Foundation
import InkCore
import InkRender
import InkStore
import XCTest
import TestSupport

/// Pictures in the real window under its own Xvfb: Insert Image (driven through `OEKAKI_INSERT_IMAGE`, which
/// takes the same path as the file chooser's answer) and a PNG pasted from another app (put on the clipboard
/// by xclip): the picture shows on the page, is selected, and is stored once in the file.
final class ImageWindowTests: WindowTestCase {
    var helpers: [Process] = []




    override func tearDownWithError() throws {
        for h in helpers where h.isRunning { h.terminate(); h.waitUntilExit() }
        try super.tearDownWithError()
    }

    /// A 200×100 picture: left half pure red, right half pure blue.
    private func picture() throws -> String {
        let path = home.appendingPathComponent("halves.png").path
        let r = try run(URL(fileURLWithPath: AppWindowTests.tool("convert")!),
                        ["-size", "200x100", "xc:#ff0000", "-fill", "#0000ff", "-draw", "rectangle 100,0 199,99", "png24:" + path])
        XCTAssertEqual(r.status, 0, r.output)
        return path
    }

    /// An empty 600×400 page in a new file.
    private func emptyPage() throws -> String {
        let log = home.appendingPathComponent("empty.jsonl")
        try #"{"type":"canvas","width":600,"height":400}"#.appending("\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("pictures.oekaki").path
        let r = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(r.status, 0, r.output)
        return file
    }

    func testInsertedPictureShowsSelectedAndIsStoredOnce() throws {
        let file = try emptyPage(), png = try picture()
        try launch(file, environment: ["OEKAKI_INSERT_IMAGE": png])
        let shown = try waitFor(seconds: 5) { $0.count(red: true) > 5000 && $0.count(red: false) > 5000 }
        // 200×100 pixels at one unit a pixel, 100 %: about 100×100 of each colour.
        XCTAssertGreaterThan(shown.count(red: true), 8000, "the red half is on screen")
        XCTAssertGreaterThan(shown.count(red: false), 8000, "the blue half is on screen")
        let red = try XCTUnwrap(shown.centre(red: true)), blue = try XCTUnwrap(shown.centre(red: false))
        XCTAssertEqual(blue.x - red.x, 100, accuracy: 3, "the halves side by side at 100 %")
        XCTAssertEqual(blue.y, red.y, accuracy: 3)

        // Selected: the arrow keys move it (as any selection), and that is stored too.
        key("Right")
        let moved = try waitFor(seconds: 5) { ($0.centre(red: true)?.x ?? 0) > red.x + 0.5 }
        XCTAssertGreaterThan(try XCTUnwrap(moved.centre(red: true)).x, red.x, "the arrow key moved the selected picture")

        usleep(800_000)   // autosave
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let items = stored.document.pages[0].strokes
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(items.first?.content.image?.pixelWidth, 200)
        XCTAssertEqual(items.first?.content.image?.pixelHeight, 100)
        XCTAssertEqual(stored.document.files.count, 1)
        XCTAssertEqual(stored.document.files.values.first, Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        stored.close()

        // Reopened, the picture is there; undo takes back the move, then the insertion.
        try launch(file)
        XCTAssertGreaterThan(try waitFor(seconds: 5) { $0.count(red: true) > 8000 }.count(red: true), 8000, "shown after reopening")
        key("ctrl+z")
        key("ctrl+z")
        let undone = try waitFor(seconds: 5) { $0.count(red: true) == 0 && $0.count(red: false) == 0 }
        XCTAssertEqual(undone.count(red: true) + undone.count(red: false), 0, "undoing the insertion takes the picture away")
        key("ctrl+shift+z")
        XCTAssertGreaterThan(try waitFor(seconds: 5) { $0.count(red: true) > 8000 }.count(red: true), 8000, "redo brings it back")
    }

    /// Page menu ▸ Picture…: the picture stretched over the whole page under the ink, stored as the page's background
    /// (no item to select or delete), and undo takes it away.
    func testAPagePictureIsStretchedOverThePage() throws {
        let file = try emptyPage(), png = try picture()
        try launch(file, environment: ["OEKAKI_CHOSEN_FILE": png])
        _ = try waitForPage()
        try clickReportedControl(startingWith: "Pages:")
        try clickReportedControl(startingWith: "Stretch a PNG or JPEG over the page")
        let shown = try waitFor(seconds: 5) { $0.count(red: true) > 50_000 && $0.count(red: false) > 50_000 }
        // The 600×400 page, each half of the picture over half of it (an inserted picture would be 200×100).
        let red = try XCTUnwrap(shown.centre(red: true)), blue = try XCTUnwrap(shown.centre(red: false))
        XCTAssertEqual(Double(shown.count(red: true)) / Double(shown.count(red: false)), 1, accuracy: 0.05, "two equal halves")
        XCTAssertEqual(blue.y, red.y, accuracy: 3)
        XCTAssertEqual((blue.x - red.x) * 2 * 400 / 600, (Double(shown.count(red: true) * 2) * 400 / 600).squareRoot(), accuracy: 8,
                       "stretched over the page: the halves' centres half a page apart")
        // Not an item: selecting everything and deleting leaves it.
        key("ctrl+a"); key("Delete")
        usleep(500_000)
        XCTAssertGreaterThan(try screenshot().count(red: true), 50_000, "still there")
        usleep(800_000)   // autosave
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(stored.document.pages[0].strokes.count, 0)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: png)))
        XCTAssertEqual(stored.document.pages[0].background.picture, ContentHash(of: bytes))
        XCTAssertEqual(stored.document.files[ContentHash(of: bytes)], bytes)
        stored.close()

        try launch(file)
        _ = try waitFor(seconds: 5) { $0.count(red: true) > 50_000 }
        key("ctrl+z")
        let undone = try waitFor(seconds: 5) { $0.count(red: true) == 0 && $0.count(red: false) == 0 }
        XCTAssertEqual(undone.count(red: true) + undone.count(red: false), 0, "undo takes the picture away")
    }

    func testPastedPNGFromAnotherAppBecomesAPicture() throws {
        guard let xclip = AppWindowTests.tool("xclip") else { throw XCTSkip("xclip is needed (apt-get install xclip)") }
        let file = try emptyPage(), png = try picture()
        try launch(file)
        // xclip owns the clipboard (in the foreground: -quiet) until it is stopped, offering the PNG as image/png.
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: xclip)
        owner.arguments = ["-quiet", "-selection", "clipboard", "-t", "image/png", "-i", png]
        owner.environment = ["DISPLAY": Self.display!, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"]
        owner.standardOutput = FileHandle.nullDevice; owner.standardError = FileHandle.nullDevice
        try owner.run()
        helpers.append(owner)
        usleep(500_000)
        key("ctrl+v")
        let shown = try waitFor(seconds: 5) { $0.count(red: true) > 8000 && $0.count(red: false) > 8000 }
        XCTAssertGreaterThan(shown.count(red: true), 8000, "the pasted picture's red half")
        XCTAssertGreaterThan(shown.count(red: false), 8000, "and its blue half")
        key("ctrl+v")   // the same picture again: a second item, the same stored bytes
        usleep(1_200_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(stored.document.pages[0].strokes.compactMap(\.content.image).count, 2)
        XCTAssertEqual(stored.document.files.count, 1, "pasted twice, stored once")
        stored.close()
    }

    /// A PNG dragged from another application (a GTK drag source offering its URI, as a file manager does) and
    /// dropped on the window becomes a picture on the page; the document stays the one that was open.
    func testDroppedPNGBecomesAPicture() throws {
        try requireDragSource()
        let file = try emptyPage(), png = try picture()
        try launch(file)
        let source = try startDragSource(offering: png)
        helpers.append(source)
        let xdotool = URL(fileURLWithPath: AppWindowTests.tool("xdotool")!)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? run(xdotool, ["search", "--onlyvisible", "--name", "^drag source$"]))?.output.isEmpty ?? true { usleep(100_000) }
        // Without a window manager both windows map at the corner: move the source clear of the app.
        _ = try run(xdotool, ["search", "--onlyvisible", "--name", "^drag source$", "windowmove", "%1", "1000", "850"])
        usleep(500_000)
        // Slowly: each motion is a message to the app and its answer (XDND), and the drop waits for the last.
        _ = try run(xdotool, ["mousemove", "1120", "930"])
        usleep(100_000)
        _ = try run(xdotool, ["mousedown", "1"])
        for k in 1...24 {
            _ = try run(xdotool, ["mousemove", "\(1120 - 520 * k / 24)", "\(930 - 530 * k / 24)"])
            usleep(30_000)
        }
        usleep(300_000)
        _ = try run(xdotool, ["mouseup", "1"])
        let shown = try waitFor(seconds: 5) { $0.count(red: true) > 8000 && $0.count(red: false) > 8000 }
        XCTAssertGreaterThan(shown.count(red: true), 8000, "the dropped picture's red half")
        XCTAssertGreaterThan(shown.count(red: false), 8000, "and its blue half")
        // Centred where it was dropped (the pointer's last place, (600, 400), on the page; without a window manager
        // the window is at 0, 0).
        let red = try XCTUnwrap(shown.centre(red: true)), blue = try XCTUnwrap(shown.centre(red: false))
        XCTAssertEqual((red.x + blue.x) / 2, 600, accuracy: 6)
        XCTAssertEqual((red.y + blue.y) / 2, 400, accuracy: 6)
        usleep(800_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(stored.document.pages[0].strokes.compactMap(\.content.image).count, 1, "in the document that was open")
        stored.close()
    }

    // MARK: driving the app




}

private extension Screenshot {
    /// Strongly red (or, `red: false`, strongly blue) pixels: the picture's halves, nothing else on screen.
    /// One pass over the raw bytes (this runs on every polled screenshot of a debug build).
    func count(red: Bool) -> Int { stats(red: red).n }

    func centre(red: Bool) -> (x: Double, y: Double)? {
        let s = stats(red: red)
        return s.n == 0 ? nil : (Double(s.sx) / Double(s.n), Double(s.sy) / Double(s.n))
    }

    func stats(red: Bool) -> (n: Int, sx: Int, sy: Int) {
        var n = 0, sx = 0, sy = 0
        rgb.withUnsafeBytes { (p: UnsafeRawBufferPointer) in
            let b = p.bindMemory(to: UInt8.self)
            let count = min(b.count / 3, width * height)
            var i = 0
            while i < count {
                let r = b[3 * i], g = b[3 * i + 1], bl = b[3 * i + 2]
                if red ? (r > 240 && g < 20 && bl < 20) : (bl > 240 && r < 20 && g < 20) {
                    n += 1; sx += i % width; sy += i / width
                }
                i += 1
            }
        }
        return (n, sx, sy)
    }
}
