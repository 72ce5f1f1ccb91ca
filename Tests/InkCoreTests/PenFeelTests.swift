import XCTest
@testable import InkCore

/// The pen's feel in the engine: the pressure curve, palm rejection and the stabilizer, through `Editor.handle`
/// and event logs exactly as the app and `oekaki replay` drive them.
final class PenFeelTests: XCTestCase {
    // MARK: pressure curve

    func testPresetsAreMonotoneAndOrdered() throws {
        for preset in PressureCurve.Preset.allCases {
            let c = PressureCurve(preset)
            var last = -1.0
            for k in 0...100 {
                let v = c.value(at: Double(k) / 100)
                XCTAssert((0...1).contains(v), "\(preset) at \(k)")
                XCTAssertGreaterThanOrEqual(v, last - 1e-12, "\(preset) falls at \(k)")
                last = v
            }
            XCTAssertEqual(c.preset, preset)
        }
        XCTAssertGreaterThan(PressureCurve.soft.value(at: 0.2), PressureCurve.linear.value(at: 0.2))
        XCTAssertLessThan(PressureCurve.firm.value(at: 0.2), PressureCurve.linear.value(at: 0.2))
        XCTAssertEqual(PressureCurve.linear.value(at: 0.37), 0.37, accuracy: 1e-12)
        XCTAssertEqual(PressureCurve.constant.value(at: 0.1), 0.5)
        XCTAssertEqual(PressureCurve.constant.value(at: 0.9), 0.5)
    }

    func testCustomCurvePassesItsPointsWithoutOvershoot() throws {
        let c = try PressureCurve(points: [Point(0, 0), Point(0.4, 0.2), Point(0.5, 0.2), Point(1, 1)])
        XCTAssertEqual(c.value(at: 0.4), 0.2, accuracy: 1e-12)
        XCTAssertEqual(c.value(at: 1), 1, accuracy: 1e-12)
        // The flat piece stays flat (a cubic through these points without Fritsch–Carlson would dip and rise).
        XCTAssertEqual(c.value(at: 0.45), 0.2, accuracy: 1e-12)
        var last = 0.0
        for k in 0...1000 {
            let v = c.value(at: Double(k) / 1000)
            XCTAssertGreaterThanOrEqual(v, last - 1e-12)
            last = v
        }
        XCTAssertEqual(c.text, "[[0,0],[0.4,0.2],[0.5,0.2],[1,1]]")
    }

    func testBadCurvesAreRefused() {
        for bad in [[Point(0, 0)], [Point(0, 0), Point(1, 1.5)], [Point(0.5, 0), Point(0.4, 1)], [Point(0, 0.6), Point(1, 0.5)],
                    [Point(0, .nan), Point(1, 1)]] {
            XCTAssertThrowsError(try PressureCurve(points: bad), "\(bad)")
        }
    }

    func testDraggingAPointKeepsTheCurveMonotone() {
        let c = PressureCurve.soft.moving(1, to: Point(2, -1))
        XCTAssertLessThan(c.points[1].x, 1)
        XCTAssertGreaterThanOrEqual(c.points[1].y, 0)
        let ends = PressureCurve.linear.moving(0, to: Point(0.5, 0.3))
        XCTAssertEqual(ends.points[0], Point(0, 0.3))
    }

    /// The curve shapes real pressure as it comes in; the stroke keeps its base width; simulated pressure is not
    /// touched.
    func testCurveAppliesToRealPressureOnly() {
        let editor = Editor()
        editor.pressureCurve = .soft
        _ = editor.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 0, y: 0, pressure: 0.2), device: .pen))
        _ = editor.handle(InputEvent(pointer: 1, phase: .ended, point: InkPoint(x: 50, y: 0, pressure: 0.2), device: .pen))
        let pen = editor.drawing.strokes[0]
        XCTAssertEqual(pen.style.width, 3)
        XCTAssertEqual(pen.points[0].pressure, PressureCurve.soft.value(at: 0.2), accuracy: 1e-12)
        editor.pressureCurve = .constant
        _ = editor.handle(InputEvent(pointer: 2, phase: .began, point: InkPoint(x: 0, y: 10), device: .mouse))
        _ = editor.handle(InputEvent(pointer: 2, phase: .ended, point: InkPoint(x: 50, y: 10), device: .mouse))
        XCTAssertEqual(editor.drawing.strokes[1].points[0].pressure, SimulatedPressure().initial)
        XCTAssertNotEqual(editor.drawing.strokes[1].points[1].pressure, 0.5)
    }

    func testLogCurveMakesLightStrokesWiderWhenSoft() throws {
        func radius(_ curve: String) throws -> Double {
            let log = """
            {"type":"tool","tool":"pen","width":10,"pressureCurve":\(curve)}
            {"type":"touch","phase":"began","id":1,"x":0,"y":0,"pressure":0.15,"device":"pen","t":0}
            {"type":"touch","phase":"ended","id":1,"x":100,"y":0,"pressure":0.15,"device":"pen","t":50}
            """
            let s = try EventLogReplay.replay(log).drawing.strokes[0]
            XCTAssertEqual(s.style.width, 10)
            return StrokeShape.outline(of: s).map(\.y).max() ?? 0
        }
        let soft = try radius("\"soft\""), firm = try radius("\"firm\""), custom = try radius("[[0,0],[0.4,0.2],[1,1]]")
        XCTAssertGreaterThan(soft, firm * 1.3)
        XCTAssertLessThan(custom, try radius("\"linear\""))
    }

    // MARK: palm rejection

    private func touch(_ id: PointerID, _ phase: InputEvent.Phase, _ x: Double, _ t: Double, _ device: InputEvent.Device = .touch) -> InputEvent {
        InputEvent(pointer: id, phase: phase, point: InkPoint(x: x, y: 100, time: t), device: device)
    }

    private func stroke(_ editor: Editor, _ id: PointerID, from t: Double, device: InputEvent.Device = .touch) {
        _ = editor.handle(touch(id, .began, 0, t, device))
        _ = editor.handle(touch(id, .moved, 30, t + 10, device))
        _ = editor.handle(touch(id, .ended, 60, t + 20, device))
    }

    private func judging() -> Editor {
        let editor = Editor()
        editor.palmRejection.enabled = true
        return editor
    }

    func testTouchesDoNotDrawWhileThePenIsNearAndForTheDelayAfter() {
        let editor = judging()
        _ = editor.proximity(near: true, at: 1000)
        stroke(editor, 1, from: 1100)
        XCTAssertEqual(editor.drawing.strokes.count, 0)
        XCTAssertFalse(editor.touchMayNavigate(at: 1200))
        _ = editor.proximity(near: false, at: 2000)
        stroke(editor, 2, from: 2400)
        XCTAssertEqual(editor.drawing.strokes.count, 0, "within 500 ms of leaving")
        stroke(editor, 3, from: 2500)
        XCTAssertEqual(editor.drawing.strokes.count, 1, "500 ms after leaving a finger draws again")
        XCTAssertTrue(editor.touchMayNavigate(at: 2600))
        XCTAssertFalse(editor.history.undoStack.isEmpty)
    }

    func testDelayIsAPreference() {
        let editor = judging()
        editor.palmRejection.delay = 100
        _ = editor.proximity(near: true, at: 0)
        _ = editor.proximity(near: false, at: 10)
        stroke(editor, 1, from: 120)
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        editor.palmRejection.enabled = false
        _ = editor.proximity(near: true, at: 200)
        stroke(editor, 2, from: 210)
        XCTAssertEqual(editor.drawing.strokes.count, 2, "off: touches are never judged")
    }

    func testAPenWithoutProximityIsNearWhileItMovesAndForTheDelayAfterItLifts() {
        let editor = judging()
        _ = editor.handle(touch(9, .began, 0, 0, .pen))
        _ = editor.handle(touch(9, .moved, 40, 100, .pen))
        stroke(editor, 1, from: 150)
        _ = editor.handle(touch(9, .ended, 80, 300, .pen))
        stroke(editor, 2, from: 600)
        XCTAssertEqual(editor.drawing.strokes.count, 1, "only the pen's stroke")
        stroke(editor, 3, from: 900)
        XCTAssertEqual(editor.drawing.strokes.count, 2)
    }

    func testAPalmThatLandedJustBeforeThePenIsTakenBackAsIfNeverDrawn() {
        let editor = judging()
        // A finger's stroke long before the pen stays.
        stroke(editor, 1, from: 0)
        // A palm lands 250 ms before the pen: finished, and another still down.
        stroke(editor, 2, from: 750)
        _ = editor.handle(touch(3, .began, 0, 900))
        _ = editor.handle(touch(3, .moved, 20, 950))
        XCTAssertEqual(editor.drawing.strokes.count, 2)
        XCTAssertEqual(editor.liveStrokes.count, 1)
        let u = editor.proximity(near: true, at: 1000)
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        XCTAssertEqual(editor.liveStrokes.count, 0)
        XCTAssertNotNil(u.dirty)
        XCTAssertEqual(u.changes.count, 1)
        // The palm's later events draw nothing; the history holds only the finger's stroke, nothing to redo.
        _ = editor.handle(touch(3, .ended, 40, 1050))
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        XCTAssertEqual(editor.history.undoStack.count, 1)
        XCTAssertTrue(editor.history.redoStack.isEmpty)
    }

    func testLogsJudgeTouchesFromTheirFirstProximityLine() throws {
        let before = """
        {"type":"touch","phase":"began","id":1,"x":0,"y":0,"device":"pen","pressure":0.5,"t":0}
        {"type":"touch","phase":"began","id":2,"x":0,"y":50,"t":10}
        {"type":"touch","phase":"ended","id":2,"x":50,"y":50,"t":20}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0,"device":"pen","pressure":0.5,"t":30}
        """
        XCTAssertEqual(try EventLogReplay.replay(before).drawing.strokes.count, 2, "a log without proximity replays as it always did")
        let after = """
        {"type":"touch","phase":"began","id":5,"x":0,"y":90,"t":0}
        {"type":"touch","phase":"ended","id":5,"x":50,"y":90,"t":100}
        {"type":"proximity","phase":"in","device":"pen","t":200}
        {"type":"touch","phase":"began","id":2,"x":0,"y":50,"t":210}
        {"type":"touch","phase":"ended","id":2,"x":50,"y":50,"t":220}
        {"type":"touch","phase":"began","id":1,"x":0,"y":0,"device":"pen","pressure":0.5,"t":230}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0,"device":"pen","pressure":0.5,"t":240}
        {"type":"proximity","phase":"out","device":"pen","t":300}
        {"type":"touch","phase":"began","id":3,"x":0,"y":20,"t":700}
        {"type":"touch","phase":"ended","id":3,"x":50,"y":20,"t":710}
        {"type":"touch","phase":"began","id":4,"x":0,"y":30,"device":"touch","t":800}
        {"type":"touch","phase":"ended","id":4,"x":50,"y":30,"device":"touch","t":810}
        """
        let strokes = try EventLogReplay.replay(after).drawing.strokes
        XCTAssertEqual(strokes.map(\.points[0].y), [0, 30], "the palm before the pen, the touch near it and the one in the delay make nothing")
    }

    /// A log whose touches name `"device":"touch"` is judged as the app judges, proximity lines or not: a pen seen
    /// without them is near while it moves and for the delay after, and a palm that began just before it is taken back.
    func testLogsThatNameTouchesAreJudgedAgainstAPenWithoutProximity() throws {
        let pen = #""device":"pen","pressure":0.5"#
        let log = """
        {"type":"touch","phase":"began","id":7,"x":0,"y":70,"device":"touch","t":0}
        {"type":"touch","phase":"ended","id":7,"x":50,"y":70,"device":"touch","t":100}
        {"type":"touch","phase":"began","id":2,"x":0,"y":20,"device":"touch","t":800}
        {"type":"touch","phase":"ended","id":2,"x":50,"y":20,"device":"touch","t":850}
        {"type":"touch","phase":"began","id":1,"x":0,"y":0,\(pen),"t":1000}
        {"type":"touch","phase":"began","id":3,"x":0,"y":30,"device":"touch","t":1050}
        {"type":"touch","phase":"ended","id":3,"x":50,"y":30,"device":"touch","t":1060}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0,\(pen),"t":1100}
        {"type":"touch","phase":"began","id":4,"x":0,"y":40,"device":"touch","t":1599}
        {"type":"touch","phase":"ended","id":4,"x":50,"y":40,"device":"touch","t":1650}
        {"type":"touch","phase":"began","id":5,"x":0,"y":50,"device":"touch","t":1600}
        {"type":"touch","phase":"ended","id":5,"x":50,"y":50,"device":"touch","t":1650}
        """
        let editor = try EventLogReplay.replay(log)
        // The finger long before the pen, the pen, and the touch 500 ms after it lifted; not the palm 200 ms
        // before it, the touch while it moved, nor the one 499 ms after.
        XCTAssertEqual(editor.drawing.strokes.map(\.points[0].y), [70, 0, 50])
        XCTAssertEqual(editor.history.undoStack.count, 3)
    }

    func testBadPenLinesAreNamed() {
        let cases: [(String, String)] = [
            (#"{"type":"proximity","phase":"near","t":0}"#, "unknown proximity phase \"near\" (in or out)"),
            (#"{"type":"proximity","phase":"in","device":"touch","t":0}"#, "proximity is the pen's, not \"touch\" (\"device\" must be \"pen\")"),
            (#"{"type":"tool","tool":"pen","pressureCurve":"squishy"}"#, "unknown pressure curve \"squishy\" (soft, linear, firm, constant, or [[x,y],…] points)"),
            (#"{"type":"tool","tool":"pen","pressureCurve":[[0,0],[0.5,1.5]]}"#, "pressure curve point 2 is outside 0..1"),
            (#"{"type":"tool","tool":"pen","pressureCurve":[[0,0.5],[1,0.2]]}"#, "pressure curve point 2 is lower than the one before (the curve must not fall)"),
            (#"{"type":"tool","tool":"pen","pressureCurve":[[0,0],"x"]}"#, "pressure curve point 2 is not a pair of numbers [x,y]"),
            (#"{"type":"tool","tool":"pen","pressureCurve":3}"#, "\"pressureCurve\" must be a string or an array, not a number"),
            (#"{"type":"tool","tool":"pen","stabilizer":"max"}"#, "unknown stabilizer \"max\" (off, low or high)"),
        ]
        for (line, message) in cases {
            XCTAssertThrowsError(try EventLogReplay.replay("{\"type\":\"clear\"}\n" + line)) { e in
                XCTAssertEqual((e as? EventLogError)?.description, "line 2: " + message)
            }
        }
    }

    // MARK: stabilizer

    /// A straight line drawn by a shaky hand: the samples wander off it by up to `jitter`.
    private func jitteryLine(_ stabilizer: String, samples: Int = 120, jitter: Double = 2) throws -> Stroke {
        var random = SeededRandom(seed: 7)
        var log = "{\"type\":\"tool\",\"tool\":\"pen\",\"stabilizer\":\"\(stabilizer)\"}\n"
        for k in 0..<samples {
            let phase = k == 0 ? "began" : k == samples - 1 ? "ended" : "moved"
            let y = 100 + (random.unit() * 2 - 1) * jitter
            log += "{\"type\":\"touch\",\"phase\":\"\(phase)\",\"id\":1,\"x\":\(Double(k) * 2),\"y\":\(y),\"device\":\"pen\",\"pressure\":0.5,\"t\":\(k * 5)}\n"
        }
        return try EventLogReplay.replay(log).drawing.strokes[0]
    }

    private func meanDistance(_ s: Stroke) -> Double { s.points.map { abs($0.y - 100) }.reduce(0, +) / Double(s.points.count) }

    func testHighStabilizerSteadiesAJitteryLine() throws {
        let off = try jitteryLine("off"), low = try jitteryLine("low"), high = try jitteryLine("high")
        XCTAssertLessThanOrEqual(meanDistance(high), 0.4 * meanDistance(off), "\(meanDistance(high)) vs \(meanDistance(off))")
        XCTAssertLessThan(meanDistance(low), meanDistance(off))
        XCTAssertGreaterThan(meanDistance(low), meanDistance(high))
        for s in [off, low, high] {
            XCTAssertLessThanOrEqual(s.points.last!.point.distance(to: off.points.last!.point), 2, "ends at the pen's last sample")
            XCTAssertLessThanOrEqual(s.points.first!.point.distance(to: off.points.first!.point), Stabilizer.endGap, "starts where the pen went down")
        }
    }

    func testStabilizedLineHasNoJumpAtLift() throws {
        let high = try jitteryLine("high", jitter: 0)
        var longest = 0.0
        for (a, b) in zip(high.points, high.points.dropFirst()) { longest = max(longest, a.point.distance(to: b.point)) }
        XCTAssertLessThanOrEqual(longest, 2.5, "no step longer than the samples' own spacing")
        XCTAssertEqual(high.points.last!.x, 238)
        XCTAssertTrue(high.points.allSatisfy { abs($0.y - 100) < 1e-9 })
    }

    /// The live line is the filtered one: what the app draws while the pen is down.
    func testStabilizerAppliesLive() {
        let editor = Editor()
        editor.stabilizer = .high
        _ = editor.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 0, y: 0), device: .pen))
        _ = editor.handle(InputEvent(pointer: 1, phase: .moved, point: InkPoint(x: 60, y: 0), device: .pen))
        // The mean of the samples so far (the window fills as the stroke begins).
        XCTAssertEqual(editor.liveStrokes[0].points.last!.x, 30, accuracy: 1e-9)
        _ = editor.handle(InputEvent(pointer: 1, phase: .moved, point: InkPoint(x: 90, y: 0), device: .pen))
        XCTAssertEqual(editor.liveStrokes[0].points.last!.x, 50, accuracy: 1e-9)
        editor.tool = .areaEraser
        _ = editor.handle(InputEvent(pointer: 1, phase: .ended, point: InkPoint(x: 90, y: 0), device: .pen))
        XCTAssertEqual(editor.drawing.strokes[0].points.last!.x, 90)
    }
}
