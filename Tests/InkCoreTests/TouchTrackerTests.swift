import XCTest
@testable import InkCore

/// Points 1–3 of issue 2: multi-touch, phases, taps.
final class TouchTrackerTests: XCTestCase {
    func testThreeInterleavedFingersGiveThreeStrokesThatNeverMix() {
        let editor = Editor()
        // Finger k draws a horizontal line at y = 100·k; events are interleaved round-robin.
        var events: [InputEvent] = []
        for step in 0...20 {
            for finger in 1...3 {
                let phase: InputEvent.Phase = step == 0 ? .began : (step == 20 ? .ended : .moved)
                events.append(event(PointerID(finger), phase, Double(step * 10), Double(finger * 100)))
            }
        }
        var livePeak = 0
        for e in events {
            _ = editor.handle(e)
            livePeak = max(livePeak, editor.liveStrokes.count)
        }
        XCTAssertEqual(livePeak, 3, "all three fingers draw at the same time")
        XCTAssertEqual(editor.drawing.strokes.count, 3)
        XCTAssertTrue(editor.liveStrokes.isEmpty)
        for (k, s) in editor.drawing.strokes.enumerated() {
            XCTAssertEqual(s.points.count, 21)
            XCTAssertTrue(s.points.allSatisfy { $0.y == Double((k + 1) * 100) }, "stroke \(k) holds only its finger's points")
            XCTAssertEqual(s.points.map(\.x), (0...20).map { Double($0 * 10) })
        }
        XCTAssertEqual(editor.history.undoStack.count, 3, "each finger's stroke is its own undoable edit")
    }

    func testLiveStrokesAreVisibleWhileDrawing() {
        let editor = Editor()
        let u = editor.handle(event(7, .began, 50, 60))
        XCTAssertEqual(editor.liveStrokes.count, 1)
        XCTAssertTrue(editor.drawing.strokes.isEmpty, "not in the drawing before it ends")
        let dirty = try! XCTUnwrap(u.dirty)
        XCTAssertTrue(dirty.contains(Point(50, 60)))
        XCTAssertTrue(u.changes.isEmpty, "nothing to store while live")
        let moved = editor.handle(event(7, .moved, 80, 60))
        XCTAssertTrue(try! XCTUnwrap(moved.dirty).contains(Point(80, 60)))
        XCTAssertFalse(try! XCTUnwrap(moved.dirty).contains(Point(200, 60)), "dirty rect covers only the new segment")
    }

    func testCancelledTouchRecordsNothing() {
        let editor = Editor()
        editor.play([event(1, .began, 0, 0), event(1, .moved, 10, 10)])
        let u = editor.handle(event(1, .cancelled, 20, 20))
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        XCTAssertTrue(editor.liveStrokes.isEmpty)
        XCTAssertFalse(editor.history.canUndo)
        XCTAssertTrue(u.changes.isEmpty)
        XCTAssertNotNil(u.dirty, "the live stroke's pixels must be repainted away")
        // A later move of the cancelled id is ignored.
        XCTAssertNil(editor.handle(event(1, .moved, 30, 30)).dirty)
        XCTAssertTrue(editor.liveStrokes.isEmpty)
    }

    func testEventsForUnknownIdsAreIgnored() {
        let editor = Editor()
        editor.line(1, from: (0, 0), to: (10, 0))
        for phase in [InputEvent.Phase.moved, .ended, .cancelled] {
            let u = editor.handle(event(99, phase, 5, 5))
            XCTAssertNil(u.dirty); XCTAssertTrue(u.changes.isEmpty)
        }
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        XCTAssertEqual(editor.history.undoStack.count, 1)
    }

    func testBeganForLiveIdEndsThatStrokeFirst() {
        let editor = Editor()
        editor.play([event(1, .began, 0, 0), event(1, .moved, 10, 0)])
        let u = editor.handle(event(1, .began, 100, 100))
        XCTAssertEqual(editor.drawing.strokes.count, 1, "the first stroke was committed")
        XCTAssertEqual(editor.drawing.strokes[0].points.map(\.x), [0, 10])
        XCTAssertEqual(u.changes.count, 1)
        XCTAssertEqual(editor.liveStrokes.count, 1)
        XCTAssertEqual(editor.liveStrokes[0].points.map(\.point), [Point(100, 100)], "the new stroke starts clean")
        editor.handle(event(1, .ended, 110, 100))
        XCTAssertEqual(editor.drawing.strokes.count, 2)
        XCTAssertLessThan(editor.drawing.strokes[0].id, editor.drawing.strokes[1].id)
    }

    func testTapIsAOnePointStrokeDrawnAsARoundDotOfThePenWidth() {
        let editor = Editor()
        editor.style.width = 10
        editor.play([event(4, .began, 200, 300), event(4, .ended, 200, 300)])
        let s = try! XCTUnwrap(editor.drawing.strokes.first)
        XCTAssertEqual(s.points.count, 1)
        let outline = StrokeShape.outline(of: s)
        XCTAssertGreaterThanOrEqual(outline.count, 8)
        for p in outline { XCTAssertEqual(p.distance(to: Point(200, 300)), 5, accuracy: 1e-9, "on a circle of the pen's radius") }
        XCTAssertTrue(isFilled(outline, Point(200, 300)))
        XCTAssertTrue(isFilled(outline, Point(204.5, 300)))
        XCTAssertTrue(isFilled(outline, Point(200, 295.5)))
        XCTAssertFalse(isFilled(outline, Point(205.5, 300)))
        // Round, not square: the box corner at radius·√2 is outside.
        XCTAssertFalse(isFilled(outline, Point(204, 304)))
    }

    func testStrokesEndInTheOrderTheyAreRecordedAndIdsGrow() {
        let editor = Editor()
        editor.play([event(1, .began, 0, 0), event(2, .began, 0, 50)])
        editor.play([event(2, .ended, 10, 50), event(1, .ended, 10, 0)])
        let ids = editor.drawing.strokes.map(\.id)
        XCTAssertEqual(ids, ids.sorted(), "drawing order is id order")
        XCTAssertEqual(editor.drawing.strokes.map { $0.points[0].y }, [0, 50], "id is fixed when the finger goes down")
    }

    func testSimulatedPressureForTouchAndRealPressureForPen() {
        let editor = Editor()
        // Pen: stored pressure is what the pen reported.
        editor.play([event(1, .began, 0, 0, pressure: 0.2), event(1, .moved, 5, 0, pressure: 0.9), event(1, .ended, 10, 0, pressure: 0.6)])
        XCTAssertEqual(editor.drawing.strokes[0].points.map(\.pressure), [0.2, 0.9, 0.6])
        // Touch without pressure: slow movement gives more pressure than fast movement.
        var slow: [InputEvent] = [], fast: [InputEvent] = []
        for k in 0..<30 {
            let phase: InputEvent.Phase = k == 0 ? .began : (k == 29 ? .ended : .moved)
            slow.append(event(2, phase, Double(k) * 0.5, 100))
            fast.append(event(3, phase, Double(k) * 40, 200))
        }
        editor.play(slow); editor.play(fast)
        let sp = editor.drawing.strokes[1].points.map(\.pressure), fp = editor.drawing.strokes[2].points.map(\.pressure)
        XCTAssertEqual(sp[0], 0.5); XCTAssertEqual(fp[0], 0.5)
        XCTAssertGreaterThan(sp.last!, 0.7)
        XCTAssertLessThan(fp.last!, 0.3)
        XCTAssertTrue((sp + fp).allSatisfy { (0...1).contains($0) })
    }

    func testSimulatedPressureUsesTimestampsWhenPresent() {
        let sim = SimulatedPressure()
        let a = InkPoint(x: 0, y: 0, time: 0)
        // Same 20-unit step: fast when it took 2 ms, slow when it took 200 ms.
        var fastState = sim.next(previous: nil, sample: a, state: nil, width: 3).state
        var slowState = fastState
        var fastP = 0.0, slowP = 0.0
        for k in 1...20 {
            let f = sim.next(previous: InkPoint(x: Double(k - 1) * 20, y: 0, time: Double(k - 1) * 2),
                             sample: InkPoint(x: Double(k) * 20, y: 0, time: Double(k) * 2), state: fastState, width: 3)
            let s = sim.next(previous: InkPoint(x: Double(k - 1) * 20, y: 0, time: Double(k - 1) * 200),
                             sample: InkPoint(x: Double(k) * 20, y: 0, time: Double(k) * 200), state: slowState, width: 3)
            fastState = f.state; slowState = s.state; fastP = f.pressure; slowP = s.pressure
        }
        XCTAssertLessThan(fastP, 0.25)
        XCTAssertGreaterThan(slowP, 0.7)
    }

    func testLongStrokeAppendsInConstantTimePerPoint() {
        // Appending must not copy the stroke (copy-on-write through the dictionary would make this quadratic).
        var tracker = TouchTracker()
        tracker.begin(1, stroke: Stroke(id: 1, style: StrokeStyle()))
        let start = Date()
        for k in 1...100_000 { tracker.append(1, InkPoint(x: Double(k), y: 0), hasPressure: true) }
        XCTAssertEqual(tracker.live[1]?.points.count, 100_000)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testNonFiniteSamplesAreDropped() {
        let editor = Editor()
        editor.play([event(1, .began, 0, 0), event(1, .moved, .nan, 3), event(1, .moved, .infinity, 3), event(1, .ended, 5, 5)])
        XCTAssertEqual(editor.drawing.strokes[0].points.map(\.point), [Point(0, 0), Point(5, 5)])
    }
}

final class TouchTrackerScaleTests: XCTestCase {
    func testManyLivePointersStayCheap() {
        // A hostile log can hold 100,000 touches that never end; each began/ended must stay O(1).
        let editor = Editor()
        let start = Date()
        for k in 0..<100_000 { _ = editor.handle(event(PointerID(k), .began, Double(k % 1000), Double(k / 1000))) }
        XCTAssertEqual(editor.liveStrokes.count, 100_000)
        XCTAssertEqual(editor.tracker.order.prefix(3), [0, 1, 2], "live strokes keep the order their pointers went down")
        for k in stride(from: 0, to: 100_000, by: 2) { _ = editor.handle(event(PointerID(k), .ended, 0, 0)) }
        _ = editor.cancelAll()
        XCTAssertEqual(editor.drawing.strokes.count, 50_000)
        XCTAssertTrue(editor.liveStrokes.isEmpty)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
    }
}
