import XCTest
@testable import InkCore

/// The laser pointer: glowing ink that fades, never part of the document or its history.
final class LaserPointerTests: XCTestCase {
    func laserStroke(_ e: Editor, _ id: PointerID, from t0: Double, _ pts: [(Double, Double)]) -> Update {
        var u = Update()
        for (k, p) in pts.enumerated() {
            let phase: InputEvent.Phase = k == 0 ? .began : (k == pts.count - 1 ? .ended : .moved)
            u.merge(e.handle(InputEvent(pointer: id, phase: phase, point: InkPoint(x: p.0, y: p.1, time: t0 + Double(k) * 10), device: .mouse)))
        }
        return u
    }

    func testLaserMakesNoItemAndLeavesUndoAlone() {
        let e = Editor()
        e.line(from: (0, 0), to: (100, 0))
        e.tool = .laser
        let u = laserStroke(e, 2, from: 0, [(10, 50), (60, 60), (120, 40)])
        XCTAssertEqual(e.drawing.strokes.count, 1, "only the pen's line")
        XCTAssertTrue(u.changes.isEmpty, "nothing to store")
        XCTAssertNotNil(u.dirty, "the glow is repainted")
        XCTAssertEqual(e.laser.trails.count, 1)
        XCTAssertEqual(e.laser.trails[0].stroke.points.count, 3)
        XCTAssertEqual(e.laser.trails[0].liftedAt, 20)
        // Undo takes back the pen's line, not the laser.
        _ = e.undo()
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        XCTAssertFalse(e.history.canUndo)
        XCTAssertEqual(e.laser.trails.count, 1)
    }

    func testLaserInkFadesAfterTheLift() {
        let e = Editor()
        e.tool = .laser
        _ = laserStroke(e, 1, from: 1000, [(0, 0), (50, 0)])   // lifts at 1010
        let t = e.laser.trails[0]
        XCTAssertEqual(t.opacity(at: 1010), 1)
        XCTAssertEqual(t.opacity(at: 1010 + LaserPointer.hold), 1)
        XCTAssertEqual(t.opacity(at: 1010 + 1200), 0.5, accuracy: 1e-9)
        XCTAssertEqual(t.opacity(at: 1010 + 1500), 0)
        XCTAssertTrue(e.laser.isFading)
        XCTAssertNil(e.expireLaser(at: 1010 + 1400).dirty)
        XCTAssertEqual(e.laser.trails.count, 1)
        let u = e.expireLaser(at: 1010 + 1500)
        XCTAssertNotNil(u.dirty)
        XCTAssertTrue(e.laser.isEmpty)
        XCTAssertFalse(e.laser.isFading, "nothing left to animate")
    }

    func testStrokesDrawnInOneGoFadeTogether() {
        let e = Editor()
        e.tool = .laser
        _ = laserStroke(e, 1, from: 0, [(0, 0), (50, 0)])            // lifts at 10
        _ = e.handle(InputEvent(pointer: 2, phase: .began, point: InkPoint(x: 0, y: 20, time: 500), device: .mouse))
        XCTAssertEqual(e.laser.trails.map(\.liftedAt), [nil, nil], "held while the next stroke is drawn")
        XCTAssertFalse(e.laser.isFading)
        _ = e.handle(InputEvent(pointer: 2, phase: .ended, point: InkPoint(x: 50, y: 20, time: 700), device: .mouse))
        XCTAssertEqual(e.laser.trails.map(\.liftedAt), [700, 700])
        // Ink already fading when a new stroke starts fades on its own.
        _ = e.handle(InputEvent(pointer: 3, phase: .began, point: InkPoint(x: 0, y: 40, time: 700 + 1000), device: .mouse))
        XCTAssertEqual(e.laser.trails.map(\.liftedAt), [700, 700, nil])
        XCTAssertNotNil(e.expireLaser(at: 2200).dirty)
        XCTAssertEqual(e.laser.trails.count, 1, "the stroke being drawn stays")
    }

    func testCancelAndEscapeDropLaserInkBeingDrawn() {
        let e = Editor()
        e.tool = .laser
        _ = e.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 0, y: 0), device: .mouse))
        _ = e.handle(InputEvent(pointer: 1, phase: .cancelled, point: InkPoint(x: 0, y: 0), device: .mouse))
        XCTAssertTrue(e.laser.isEmpty)
        _ = e.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 0, y: 0), device: .mouse))
        XCTAssertTrue(e.isLive(1))
        _ = e.cancelAll()
        XCTAssertTrue(e.laser.isEmpty)
        XCTAssertFalse(e.isLive(1))
    }

    func testThePointerKeepsItsToolAndTheLogSaysLaser() throws {
        let e = try EventLogReplay.replay("""
        {"type":"tool","tool":"laser"}
        {"type":"touch","phase":"began","id":1,"x":10,"y":10}
        {"type":"tool","tool":"pen"}
        {"type":"touch","phase":"moved","id":1,"x":50,"y":10}
        {"type":"touch","phase":"ended","id":1,"x":90,"y":10}
        {"type":"touch","phase":"began","id":2,"x":10,"y":30}
        {"type":"touch","phase":"ended","id":2,"x":90,"y":30}
        {"type":"undo"}
        {"type":"tool","tool":"laser"}
        {"type":"touch","phase":"began","id":3,"x":10,"y":50}
        {"type":"touch","phase":"ended","id":3,"x":90,"y":50}
        {"type":"redo"}

        """)
        XCTAssertEqual(e.drawing.strokes.count, 1, "the pen's stroke, redone; the laser neither drew nor broke the redo")
        XCTAssertEqual(e.drawing.strokes[0].points.first?.y, 30)
        XCTAssertEqual(e.laser.trails.count, 2)
    }
}
