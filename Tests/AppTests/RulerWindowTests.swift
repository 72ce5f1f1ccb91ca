import Foundation
import XCTest
import TestSupport

/// The ruler in the real window under its own Xvfb: chosen from the teaching menu, it straightens a wobbly mouse
/// stroke begun near its edge, and the window's event log (`OEKAKI_EVENT_LOG`) records where it lay, so
/// `oekaki replay` of that log gives the same straight stroke.
final class RulerWindowTests: WindowTestCase {
    func testRulerStraightensAStrokeAndTheEventLogReplaysIt() throws {
        let report = home.appendingPathComponent("layout.txt")
        let log = home.appendingPathComponent("events.jsonl")
        let file = home.appendingPathComponent("ruler.oekaki").path
        let trace = home.appendingPathComponent("trace.txt")
        try launch(arguments: [file], title: "ruler.oekaki",
                   environment: ["OEKAKI_LAYOUT_REPORT": report.path, "OEKAKI_EVENT_LOG": log.path, "OEKAKI_TRACE": trace.path])
        xdotool(["search", "--onlyvisible", "--name", "ruler\\.oekaki", "windowsize", "%1", "1024", "700"])
        var menu: Layout.Control?
        let deadline = Date().addingTimeInterval(5)
        while menu == nil && Date() < deadline {
            if let text = try? String(contentsOf: report, encoding: .utf8), let l = Layout(text), l.window.width <= 1024 {
                menu = l.controls.first { $0.tip.hasPrefix("Ruler, set square") }
            }
            if menu == nil { usleep(100_000) }
        }
        let button = try XCTUnwrap(menu, "the teaching menu is on the toolbar")
        let before = try screenshot()
        // The menu's first item, "Ruler", lies under the button's left edge.
        xdotool(["mousemove", "\(Int(button.rect.midX))", "\(Int(button.rect.midY))", "click", "1"])
        usleep(700_000)
        xdotool(["mousemove", "\(Int(button.rect.midX) - 33)", "\(Int(button.rect.maxY) + 35)", "click", "1"])
        usleep(300_000)
        key("Escape")
        // The ruler lies level across the middle of the canvas: find its edge, a dark row where the page was white.
        let shown = try waitFor { s in (200..<600).contains { y in !before.hasInk(near: 500, y) && s.hasInk(near: 500, y) } }
        // `hasInk` looks 4 px around: the edge's line lies 4 px below the first row that sees it.
        let edge = try XCTUnwrap((200..<600).first { y in !before.hasInk(near: 500, y) && shown.hasInk(near: 500, y) },
                                 "the ruler is drawn") + 4

        // A wobbly stroke begun 12 px above the edge, wandering between 2 and 12 px off it.
        var points: [(Int, Int)] = []
        for (k, x) in stride(from: 150, through: 700, by: 50).enumerated() { points.append((x, edge - 12 + (k % 3) * 5)) }
        let traced = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
        drag(points)
        usleep(800_000)
        quit()
        // With the ruler out the ink in progress is drawn in the canvas, under the ruler as finished ink is, not by
        // the live ink's own layer above everything.
        let during = ((try? String(contentsOf: trace, encoding: .utf8)) ?? "").dropFirst(traced.count).split(separator: "\n")
        XCTAssertGreaterThanOrEqual(during.filter { $0.hasPrefix("frame ") }.count, 5, "canvas frames while drawing: \(during.count) lines")
        XCTAssertEqual(during.filter { $0.hasPrefix("ink frame ") }.count, 0, "no frame of the live ink's layer")

        func item(_ json: String) throws -> [Double] {
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let items = try XCTUnwrap(object?["items"] as? [[String: Any]])
            XCTAssertEqual(items.count, 1, "one stroke: \(json)")
            return try XCTUnwrap(items.first?["bounds"] as? [Double])
        }
        let drawn = try item(try run(AppWindowTests.oekakiBinary(), ["info", file]).output)
        XCTAssertEqual(drawn[1], drawn[3], accuracy: 0.5, "the stroke is straight along the level ruler: \(drawn)")
        XCTAssertGreaterThan(drawn[2] - drawn[0], 400, "from where it began to where it ended")

        let recorded = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(recorded.contains(#"{"type":"ruler","op":"place""#), "the log records the ruler: \(recorded.prefix(300))")
        let replayed = try item(try run(AppWindowTests.oekakiBinary(), ["replay", log.path], stderr: false).output)
        for k in 0..<4 { XCTAssertEqual(replayed[k], drawn[k], accuracy: 0.01, "the replay draws the window's stroke") }
    }
}
