import Foundation
import InkCore
import InkStore
import XCTest
import TestSupport

/// Pages in the real window under its own Xvfb: a page added from the page menu stacks
/// below the first, a stroke drawn on it belongs to it and stays there after scrolling back and reopening.
final class PagesWindowTests: WindowTestCase {
    func testAddAPageDrawOnItScrollBackAndReopen() throws {
        // A notebook of one fixed 600×400 page (the event log's canvas line sizes page 1).
        let log = home.appendingPathComponent("page.jsonl")
        try #"{"type":"canvas","width":600,"height":400}"#.appending("\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("notebook.oekaki").path
        let replay = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(replay.status, 0, replay.output)

        try launch(file)
        let start = try screenshot()
        let page = try XCTUnwrap(paperCorner(start), "page 1 is on screen")
        // The page opens centred across the canvas: as much desk to its left as to its right.
        let row = page.y + 20
        let left = (0..<page.x).reversed().prefix { start.isDesk($0, row) }.count
        let right = ((page.x + 600)..<Self.screen.width).prefix { start.isDesk($0, row) }.count
        XCTAssertGreaterThan(left, 100, "desk beside the page")
        XCTAssertLessThanOrEqual(abs(left - right), 2, "the page is centred: \(left) px of desk to its left, \(right) to its right")
        // Pages are stacked with a gap; navigation puts a page's top half a gap below the view's top.
        let top = page.y + Int(PageLayout.gap / 2), step = 400 + Int(PageLayout.gap)

        // Page menu ▸ Add page: page 2 (same size) comes after page 1 and is scrolled to.
        try clickControl(startingWith: "Pages:")
        try clickControl(startingWith: "Add a page after this one")
        usleep(400_000)
        let added = try screenshot()
        XCTAssertTrue(added.isPaper(page.x + 300, top + 200), "page 2 is in view")
        XCTAssertTrue(added.isDesk(page.x + 300, top - 6), "the gap above page 2 shows the desk")

        // A stroke on page 2.
        drag([(page.x + 100, top + 100), (page.x + 250, top + 125), (page.x + 400, top + 150)])
        let drawn = try screenshot()
        XCTAssertTrue(drawn.hasInk(near: page.x + 250, top + 125), "the stroke is drawn on page 2")

        // Home scrolls back to page 1: it is blank where page 2 has its stroke, and page 2 below it kept the stroke.
        key("Home")
        let back = try waitFor { !$0.hasInk(near: page.x + 250, top + 125) && $0.hasInk(near: page.x + 250, top + step + 125) }
        XCTAssertTrue(back.isPaper(page.x + 250, top + 125), "page 1 is blank paper where page 2 has ink")
        XCTAssertTrue(back.hasInk(near: page.x + 250, top + step + 125), "page 2's stroke is still on page 2, a page further down")
        XCTAssertTrue(back.isDesk(page.x + 250, top + 400 + Int(PageLayout.gap / 2)), "the desk between the pages")

        // A stroke on page 1 stays on page 1; one crossing page 1's bottom edge is clipped there.
        drag([(page.x + 100, top + 300), (page.x + 300, top + 300)])
        drag([(page.x + 500, top + 350), (page.x + 500, top + 412)])
        let both = try waitFor { $0.hasInk(near: page.x + 200, top + 300) && $0.hasInk(near: page.x + 500, top + 390) }
        XCTAssertTrue(both.hasInk(near: page.x + 200, top + 300), "the stroke on page 1")
        XCTAssertTrue(both.hasInk(near: page.x + 500, top + 390), "the crossing stroke on page 1")
        XCTAssertTrue(both.isDesk(page.x + 500, top + 406), "ink is clipped at the page's edge")

        // The file: two pages, the first stroke on page 2, the others on page 1.
        usleep(500_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let doc = stored.document
        stored.close()
        XCTAssertEqual(doc.pages.count, 2)
        XCTAssertEqual(doc.pages.first?.strokes.count, 2)
        XCTAssertEqual(doc.pages.last?.strokes.count, 1)
        if let b = doc.pages.last?.strokes.first?.bounds {
            XCTAssertEqual(b.minY, 100, accuracy: 3, "page 2's stroke is in page 2's coordinates")
        }

        // Reopened, Ctrl+Page Down shows page 2 with its stroke where it was drawn.
        try launch(file)
        key("ctrl+Next")
        let reopened = try waitFor { $0.hasInk(near: page.x + 250, top + 125) }
        XCTAssertTrue(reopened.hasInk(near: page.x + 250, top + 125), "page 2's stroke after reopening")
        XCTAssertFalse(reopened.hasInk(near: page.x + 200, top + 300), "page 1's stroke is not on page 2")
    }

    // MARK: driving the app

    private func clickControl(startingWith prefix: String) throws {
        let report = home.appendingPathComponent("layout.txt")
        let deadline = Date().addingTimeInterval(5)
        repeat {
            if let text = try? String(contentsOf: report, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.split(separator: " ", maxSplits: 5).last?.hasPrefix(prefix) == true }) {
                let f = line.split(separator: " ").dropFirst().prefix(4).compactMap { Int($0) }
                if f.count == 4 {
                    xdotool(["mousemove", "\(f[0] + f[2] / 2)", "\(f[1] + f[3] / 2)", "click", "1"])
                    usleep(300_000)
                    return
                }
            }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("no control \"\(prefix)…\" in the layout report")
        throw XCTSkip("no control")
    }
}

extension Screenshot {
    /// White paper (every channel at full).
    func isPaper(_ x: Int, _ y: Int) -> Bool { brightness(x, y) >= 254 }
    /// The desk's grey: neither paper nor ink.
    func isDesk(_ x: Int, _ y: Int) -> Bool { (150...240).contains(brightness(x, y)) }
}
