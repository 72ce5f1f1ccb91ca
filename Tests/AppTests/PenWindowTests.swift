import Foundation
import XCTest

/// The pen's preferences in the real window: what the settings file keeps is what the next launch draws with.
/// (Xvfb has no pen, so proximity and the stylus's buttons are the engine's and replay's tests.)
final class PenWindowTests: WindowTestCase {
    /// A shaky horizontal line (every other point 9 px off) drawn with the mouse; the stored stroke's height.
    private func shakyLineHeight(settings: String) throws -> Double {
        let config = home.appendingPathComponent("config/oekaki")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try settings.write(to: config.appendingPathComponent("settings"), atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("shaky-\(UUID().uuidString.prefix(6)).oekaki").path
        try launch(file)
        var points = [(300, 600)]
        for k in 1...24 { points.append((300 + 20 * k, k % 2 == 0 ? 600 : 609)) }
        points.append((800, 600))
        drag(points)
        XCTAssertTrue(try screenshot().hasInk(near: 550, 603), "the line is drawn")
        usleep(500_000)
        quit()
        let r = try run(AppWindowTests.oekakiBinary(), ["info", file])
        guard let json = try JSONSerialization.jsonObject(with: Data(r.output.utf8)) as? [String: Any],
              let items = json["items"] as? [[String: Any]], let b = items.first?["bounds"] as? [NSNumber], b.count == 4 else {
            XCTFail("no stroke stored: \(r.output)")
            return 0
        }
        return b[3].doubleValue - b[1].doubleValue
    }

    func testTheStabilizerChosenInPreferencesSteadiesTheLineAsItIsDrawn() throws {
        let off = try shakyLineHeight(settings: "stabilizer=off\n")
        let high = try shakyLineHeight(settings: "stabilizer=high\npressure-curve=soft\n")
        XCTAssertGreaterThanOrEqual(off, 8, "unsteadied, the line keeps the shake")
        XCTAssertLessThan(high, off * 0.6, "high: \(high), off: \(off)")
        // The preferences window wrote nothing over what was set: the next launch keeps it.
        let kept = try String(contentsOf: home.appendingPathComponent("config/oekaki/settings"), encoding: .utf8)
        XCTAssertTrue(kept.contains("stabilizer=high"), kept)
        XCTAssertTrue(kept.contains("pressure-curve=soft"), kept)
    }

    /// The ink being drawn has a layer of its own over the canvas, covering only the stroke's box: while the mouse
    /// draws, only that layer has frames (the canvas keeps its last picture, so GTK repaints the box, not the
    /// window), and the ink shows where it is drawn, then stays once finished.
    func testInkInProgressIsDrawnWithoutRepaintingTheCanvas() throws {
        let (during, shot) = try sweep("live", y: 500, pause: 20_000) {
            xdotool(["mousedown", "1"])
            usleep(200_000)
        }
        xdotool(["mouseup", "1"])
        XCTAssertGreaterThanOrEqual(during.filter { $0.hasPrefix("ink frame ") }.count, 5, "the ink's own frames: \(during)")
        XCTAssertEqual(during.filter { $0.hasPrefix("frame ") }.count, 0, "no canvas frame while the ink is drawn: \(during)")
        XCTAssertTrue(shot.hasInk(near: 450, 500), "the ink in progress shows where it is drawn")
        XCTAssertFalse(shot.hasInk(near: 450, 530), "and only there")
        XCTAssertTrue(try waitFor { $0.hasInk(near: 450, 500) }.hasInk(near: 580, 500), "and stays once finished")
    }

    /// The eraser's outline follows the hovering pointer in a patch of its own: moving it repaints the ring's box,
    /// not the canvas, and the ring shows around the pointer with paper inside it.
    func testTheEraserOutlineFollowsThePointerWithoutRepaintingTheCanvas() throws {
        let (during, shot) = try sweep("ring", y: 450, pause: 30_000) {
            xdotool(["key", "e"])
            usleep(400_000)
        }
        XCTAssertGreaterThanOrEqual(during.filter { $0.hasPrefix("eraser frame ") }.count, 5, "the ring's own frames: \(during)")
        XCTAssertEqual(during.filter { $0.hasPrefix("frame ") }.count, 0, "no canvas frame while the eraser hovers: \(during)")
        // A ring around (600, 450): dark dashes on it, paper in the middle, nothing left where the pointer was.
        XCTAssertGreaterThan(shot.brightness(600, 450), 200, "paper inside the ring")
        let ring = (x: 580..<621, y: 430..<471)
        XCTAssertGreaterThan(shot.darkPixels(in: ring), 6, "the ring around the pointer")
        XCTAssertEqual(shot.darkPixels(in: (x: 280..<321, y: 430..<471)), 0, "no ring left where it was")
    }

    /// The laser's glow has a patch of its own over everything: while it is drawn and while it fades, only that
    /// patch has frames (on a big drawing a canvas frame per event was most of the work), and it glows where it is
    /// drawn and then fades away by itself.
    func testTheLaserGlowsAndFadesWithoutRepaintingTheCanvas() throws {
        let (during, shot) = try sweep("laser", y: 400, pause: 20_000) {
            xdotool(["key", "k"])
            usleep(300_000)
            xdotool(["mousedown", "1"])
            usleep(200_000)
        }
        XCTAssertGreaterThanOrEqual(during.filter { $0.hasPrefix("laser frame ") }.count, 5, "the laser's own frames: \(during)")
        XCTAssertEqual(during.filter { $0.hasPrefix("frame ") }.count, 0, "no canvas frame while the laser is drawn: \(during)")
        XCTAssertLessThan(shot.brightness(450, 400), 200, "the laser glows where it is drawn")
        XCTAssertGreaterThan(shot.brightness(450, 440), 240, "and only there")
        let trace = home.appendingPathComponent("trace.txt")
        let before = try String(contentsOf: trace, encoding: .utf8)
        xdotool(["mouseup", "1"])
        let faded = try waitFor(seconds: 5) { $0.brightness(450, 400) > 240 }
        XCTAssertGreaterThan(faded.brightness(450, 400), 240, "the laser has faded away")
        let fading = try String(contentsOf: trace, encoding: .utf8).dropFirst(before.count).split(separator: "\n")
        XCTAssertGreaterThanOrEqual(fading.filter { $0.hasPrefix("laser frame ") }.count, 5, "the fade's own frames: \(fading)")
        XCTAssertEqual(fading.filter { $0.hasPrefix("frame ") }.count, 0, "no canvas frame while it fades: \(fading)")
    }

    /// Opens a new drawing with the trace on, puts the mouse at (300, `y`), runs `start` (a button down, a tool's
    /// key), moves to x = 600 in steps of 20 px `pause` µs apart: the trace lines written meanwhile, and the screen.
    private func sweep(_ name: String, y: Int, pause: useconds_t, start: () -> Void) throws -> (during: [Substring], shot: Screenshot) {
        let trace = home.appendingPathComponent("trace.txt")
        try launch(home.appendingPathComponent("\(name).oekaki").path, environment: ["OEKAKI_TRACE": trace.path])
        _ = try waitForPage()
        func traced() -> String { (try? String(contentsOf: trace, encoding: .utf8)) ?? "" }
        xdotool(["mousemove", "300", "\(y)"])
        start()
        let before = traced()
        for x in stride(from: 320, through: 600, by: 20) {
            xdotool(["mousemove", "\(x)", "\(y)"])
            usleep(pause)
        }
        usleep(400_000)
        return (traced().dropFirst(before.count).split(separator: "\n"), try screenshot())
    }
}
