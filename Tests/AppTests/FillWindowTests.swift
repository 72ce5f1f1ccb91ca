import Foundation
import XCTest

/// The pen's fill and line style from the shape button's menu: a rectangle drawn after picking "Medium fill" and
/// "Dashed line" is translucent inside with gaps along its outline, on screen and in the file; the next run (same
/// settings folder) draws the same without the menu being touched.
final class FillWindowTests: WindowTestCase {
    func testAFilledDashedRectangleFromTheShapesMenu() throws {
        let file = home.appendingPathComponent("fill.oekaki").path
        try launch(file)
        _ = try waitForPage()

        try clickReportedControl(startingWith: "Choose a shape")
        try clickReportedControl(startingWith: "Medium fill")
        try clickReportedControl(startingWith: "Dashed line")
        key("Escape")
        usleep(300_000)
        try drawFilledDashedRectangle()
        usleep(500_000)
        quit()
        try assertStoredRectangleIsFilledAndDashed(file)

        // A restart keeps the choice: the settings file carries it, and new ink is drawn with it.
        let settings = try String(contentsOf: home.appendingPathComponent("config/oekaki/settings"), encoding: .utf8)
        XCTAssertTrue(settings.contains("pen-fill=128\n") && settings.contains("pen-line=dash\n"), settings)
        let again = home.appendingPathComponent("again.oekaki").path
        try launch(again)
        _ = try waitForPage()
        try drawFilledDashedRectangle()
        usleep(500_000)
        quit()
        try assertStoredRectangleIsFilledAndDashed(again)
    }

    /// A rectangle with the pen's current style: checks on screen that it is filled at half alpha and dashed.
    private func drawFilledDashedRectangle() throws {
        // A fine pen (1.5 units) keeps gaps between Xournal++'s 6-on, 3-off dashes (round caps eat half a width at
        // each end); about 195 % makes them 3 px wide.
        key("1")
        for _ in 0..<3 { key("ctrl+plus"); usleep(200_000) }
        key("r")
        usleep(300_000)
        let (x0, y0, x1, y1) = (400, 350, 800, 550)
        let before = try screenshot()
        XCTAssertTrue((x0 - 10...x1 + 10).allSatisfy { before.brightness($0, y0) >= 250 }, "paper where the rectangle goes")
        drag([(x0, y0), (600, 450), (x1, y1)])
        let shot = try waitFor { $0.brightness(600, 450) < 200 }

        // Inside: black at half alpha over white paper.
        let inside = shot.brightness(600, 450)
        XCTAssertEqual(Double(inside), 127, accuracy: 25, "the inside is filled translucent")
        // Along the top edge, each column's darkest pixel: ink in a dash, the fill (or paper) in a gap.
        let columns = (x0 + 20...x1 - 20).map { x in (y0 - 4...y0 + 2).map { shot.brightness(x, $0) }.min() ?? 255 }
        let dashes = columns.filter { $0 < 60 }.count, gaps = columns.filter { $0 > 100 }.count
        XCTAssertGreaterThan(dashes, columns.count / 2, "dashes along the top edge")
        XCTAssertGreaterThan(gaps, columns.count / 10, "gaps between the dashes: \(columns.prefix(40))")
    }

    private func assertStoredRectangleIsFilledAndDashed(_ file: String) throws {
        let r = try run(AppWindowTests.oekakiBinary(), ["info", file])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains(#""fill":128"#), "the stored rectangle is filled: \(r.output)")
        XCTAssertTrue(r.output.contains(#""style":"dash""#), "the stored rectangle is dashed: \(r.output)")
        XCTAssertTrue(r.output.contains(#""shape":"rectangle""#), r.output)
    }
}

/// The pen's colour and width from the toolbar come back in the next run: a bold blue line drawn after a restart.
final class InkPreferencesWindowTests: WindowTestCase {
    func testThePensColourAndWidthComeBackAfterARestart() throws {
        try launch(home.appendingPathComponent("first.oekaki").path)
        _ = try waitForPage()
        try clickReportedControl(startingWith: "Blue")
        key("3")
        usleep(500_000)
        quit()
        let settings = try String(contentsOf: home.appendingPathComponent("config/oekaki/settings"), encoding: .utf8)
        XCTAssertTrue(settings.contains("pen-color=#1c71d8ff\n") && settings.contains("pen-width=6.0\n"), settings)

        let again = home.appendingPathComponent("again.oekaki").path
        try launch(again)
        _ = try waitForPage()
        drag([(400, 400), (600, 400), (800, 400)])
        let shot = try waitFor { $0.brightness(600, 400) < 200 }
        let p = shot.pixel(600, 400)
        XCTAssertTrue(p.b > 150 && p.r < 80, "the new line is blue: \(p)")
        // Bold is 6 units: at 100 % about 6 pixels of ink across the line.
        let across = (390...410).filter { shot.brightness(600, $0) < 200 }.count
        XCTAssertGreaterThanOrEqual(across, 5, "a bold line")
        usleep(500_000)
        quit()
        let r = try run(AppWindowTests.oekakiBinary(), ["info", again])
        XCTAssertTrue(r.output.contains(#""width":6"#) && r.output.contains("1c71d8"), r.output)
    }
}
