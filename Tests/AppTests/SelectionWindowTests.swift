import Foundation
import InkCore
import InkRender
import InkStore
import XCTest
import TestSupport

/// The selection in the real window under its own Xvfb: a lasso takes a stroke, a drag
/// moves it (the pixels move, and the reopened file has it in its new place), and a copy puts a PNG with the ink
/// on the clipboard that `xclip` reads back.
final class SelectionWindowTests: WindowTestCase {
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
        let strokes = stored.document.pages[0].strokes
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

        let targets = try run(URL(fileURLWithPath: xclip), ["-selection", "clipboard", "-t", "TARGETS", "-o"], stderr: false)
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
        XCTAssertEqual(stored.document.pages[0].strokes.count, 2)
        stored.close()
    }
}
