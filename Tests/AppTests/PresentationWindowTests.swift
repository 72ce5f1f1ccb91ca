import Foundation
import InkStore
import XCTest
import TestSupport

/// Presentation mode in the real window under its own Xvfb: F5 shows one page fitted to the window on black,
/// Page Down and a click turn the pages (a click draws nothing), the laser glows and fades without being kept,
/// Escape brings the window back.
final class PresentationWindowTests: WindowTestCase {
    func testF5NextPageClickLaserAndEscape() throws {
        // Three 400×400 pages, each with one thick stroke in its own place: top left, middle, bottom right.
        let marks = [(100.0, 100.0), (200.0, 200.0), (300.0, 300.0)]
        var lines = [#"{"type":"canvas","width":400,"height":400}"#, #"{"type":"tool","tool":"pen","width":30}"#]
        for (k, m) in marks.enumerated() {
            if k > 0 { lines.append(#"{"type":"page","op":"add"}"#) }
            lines.append(#"{"type":"touch","phase":"began","id":1,"x":\#(m.0 - 30),"y":\#(m.1)}"#)
            lines.append(#"{"type":"touch","phase":"ended","id":1,"x":\#(m.0 + 30),"y":\#(m.1)}"#)
        }
        lines.append(#"{"type":"page","op":"goto","index":1}"#)
        let log = home.appendingPathComponent("pages.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("lesson.oekaki").path
        XCTAssertEqual(try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file]).status, 0)
        let before = try DocumentFile.open(path: file, readOnly: true)
        let edits = before.history.undoStack.count
        before.close()

        try launch(file)
        let normal = try waitForPage()
        let corner = try XCTUnwrap(paperCorner(normal), "page 1 is on screen")
        XCTAssertTrue(normal.isDesk(corner.x - 10, corner.y + 50), "the desk beside the page, before presenting")

        key("F5")
        let first = try waitFor(seconds: 5) { s in Self.presentedPage(s).map { s.isBlack($0.x - 8, $0.y + $0.height / 2) } ?? false }
        let page = try XCTUnwrap(Self.presentedPage(first), "one page fitted on black")
        XCTAssertGreaterThan(page.height, 600, "fitted to the window's height: larger than at 100 %")
        XCTAssertEqual(Double(page.width) / Double(page.height), 1, accuracy: 0.03, "the page keeps its shape")
        XCTAssertTrue(first.isBlack(page.x - 8, page.y + page.height / 2), "black left of the page")
        XCTAssertTrue(first.isBlack(page.x + page.width + 8, page.y + page.height / 2), "black right of the page")
        func at(_ m: (Double, Double)) -> (Int, Int) {
            (page.x + Int(m.0 / 400 * Double(page.width)), page.y + Int(m.1 / 400 * Double(page.height)))
        }
        func shows(_ s: Screenshot, _ k: Int) -> Bool { let p = at(marks[k]); return s.hasInk(near: p.0, p.1) }
        XCTAssertTrue(shows(first, 0), "page 1's stroke")
        XCTAssertFalse(shows(first, 1) || shows(first, 2), "only page 1")
        // The bar says which page is shown, between its page buttons.
        let previous = try waitForReportedControl(startingWith: "Previous page (")
        let report = (try? String(contentsOf: home.appendingPathComponent("layout.txt"), encoding: .utf8)) ?? ""
        XCTAssertTrue(report.split(separator: "\n").contains { $0.hasPrefix("label ") && $0.hasSuffix(" 1 / 3") }, "the bar reads 1 / 3:\n\(report)")

        // Page Down: page 2 alone, in the same place.
        key("Next")
        let second = try waitFor { shows($0, 1) && !shows($0, 0) }
        XCTAssertTrue(shows(second, 1), "page 2's stroke after Page Down")
        XCTAssertFalse(shows(second, 0), "page 1 is gone")
        XCTAssertEqual(Self.presentedPage(second)?.x, page.x, "the same place on the screen")

        // A click (no movement) turns to page 3 and draws no dot.
        let blank = at((330, 60))
        xdotool(["mousemove", "\(blank.0)", "\(blank.1)", "click", "1"])
        let third = try waitFor { shows($0, 2) && !shows($0, 1) }
        XCTAssertTrue(shows(third, 2), "page 3's stroke after a click")
        XCTAssertTrue(third.isPaper(blank.0, blank.1), "the click left no dot")

        // The laser (K): it glows where dragged, then fades away by itself.
        key("k")
        let a = at((60, 330)), b = at((220, 330))
        drag([a, ((a.0 + b.0) / 2, a.1 + 10), b])
        let glow = try waitFor(seconds: 1) { !$0.isPaper((a.0 + b.0) / 2, a.1 + 10) }
        XCTAssertFalse(glow.isPaper((a.0 + b.0) / 2, a.1 + 10), "the laser glows")
        let faded = try waitFor(seconds: 4) { $0.isPaper((a.0 + b.0) / 2, a.1 + 10) }
        XCTAssertTrue(faded.isPaper((a.0 + b.0) / 2, a.1 + 10), "the laser has faded away")

        // The bar's previous-page button (the pointer moved, so the bar shows): page 2 again.
        xdotool(["mousemove", "\(previous[0] + previous[2] / 2)", "\(previous[1] + previous[3] / 2)"])
        usleep(300_000)
        xdotool(["click", "1"])
        let back2 = try waitFor { shows($0, 1) && !shows($0, 2) }
        XCTAssertTrue(shows(back2, 1), "page 2's stroke after the bar's previous-page button")

        // Escape: the window is back, with the desk beside the page.
        key("Escape")
        let back = try waitFor { s in !s.isBlack(10, s.height / 2) && Self.presentedPage(s) == nil }
        XCTAssertFalse(back.isBlack(10, back.height / 2), "no black any more")

        usleep(500_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        defer { stored.close() }
        XCTAssertEqual(stored.document.pages.map { $0.layers.reduce(0) { $0 + $1.drawing.strokes.count } }, [1, 1, 1], "no dot from the click, no laser ink")
        XCTAssertFalse(stored.history.canRedo)
        XCTAssertEqual(stored.history.undoStack.count, edits, "presenting made no edit")
    }

    /// The white page on black: the widest run of paper in the rows with black at both ends (nil in normal view).
    static func presentedPage(_ s: Screenshot) -> (x: Int, y: Int, width: Int, height: Int)? {
        var rows: [(y: Int, x0: Int, x1: Int)] = []
        for y in stride(from: 0, to: s.height, by: 2) {
            var best = (0, 0), x = 0
            while x < s.width {
                guard s.isPaper(x, y) else { x += 1; continue }
                let start = x
                while x < s.width, s.isPaper(x, y) { x += 1 }
                if x - start > best.1 - best.0 { best = (start, x) }
            }
            if best.1 - best.0 > 300, s.isBlack(best.0 - 4, y), s.isBlack(best.1 + 3, y) { rows.append((y, best.0, best.1)) }
        }
        guard let top = rows.first, let bottom = rows.last else { return nil }
        let x0 = rows.map(\.x0).min() ?? top.x0, x1 = rows.map(\.x1).max() ?? top.x1
        return (x0, top.y, x1 - x0, bottom.y - top.y + 2)
    }
}

extension Screenshot {
    func isBlack(_ x: Int, _ y: Int) -> Bool { brightness(x, y) <= 8 }
}
