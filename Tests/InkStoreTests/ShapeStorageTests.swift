import XCTest
import Foundation
import InkCore
@testable import InkStore

/// How a stroke is drawn (smoothed or polyline) and what shape it is survive `.oekaki` storage, a reopen and
/// a round trip through `.xopp`; older files upgrade with every stroke smoothed; unknown values are refused.
final class ShapeStorageTests: TempDirTestCase {
    /// One of each: freehand ink, every shape tool, a snapped polygon, an imported polyline.
    func editorWithShapes() -> Editor {
        let e = Editor()
        e.play([(Tool.pen, [(10.0, 10.0), (40, 30), (80, 20)])], e)
        for (k, tool) in [Tool.line, .arrow, .rectangle, .ellipse].enumerated() {
            let y = 100 + Double(k) * 80
            e.play([(tool, [(50, y), (250, y + 60)])], e)
        }
        _ = e.perform(.add([Stroke(id: 100 + StrokeID(e.drawing.strokes.count), style: StrokeStyle(tool: .pen, width: 2, trace: .polyline),
                                   points: [InkPoint(x: 300, y: 10, pressure: 0.2), InkPoint(x: 350, y: 60, pressure: 0.9), InkPoint(x: 400, y: 10)])]))
        _ = e.perform(.add([Stroke(id: 100 + StrokeID(e.drawing.strokes.count), style: StrokeStyle(tool: .highlighter, width: 12, trace: .polyline),
                                   points: [InkPoint(x: 300, y: 300), InkPoint(x: 400, y: 300), InkPoint(x: 350, y: 380), InkPoint(x: 300, y: 300)], shape: .triangle)]))
        return e
    }

    func assertSameLook(_ a: [Stroke], _ b: [Stroke], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.map(\.style.trace), b.map(\.style.trace), file: file, line: line)
        XCTAssertEqual(a.map(\.shape), b.map(\.shape), file: file, line: line)
    }

    func testTraceAndShapeSurviveStorageAndReopen() throws {
        let e = editorWithShapes()
        XCTAssertEqual(e.drawing.strokes.map(\.shape), [nil, .line, .arrow, .rectangle, .ellipse, nil, .triangle])
        let file = path("s.oekaki")
        try DocumentFile.create(path: file, document: e.document, history: e.history).close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        assertSameStrokes(back.drawing.strokes, e.drawing.strokes)
        assertSameLook(back.drawing.strokes, e.drawing.strokes)
        // Undo history keeps them too.
        let again = try DocumentFile.open(path: file)
        let e2 = Editor(document: again.document, history: again.history)
        try again.commit(e2.undo().changes)
        try again.commit(e2.undo().changes)
        try again.commit(e2.redo().changes)
        again.close()
        let third = try DocumentFile.open(path: file, readOnly: true)
        assertSameLook(third.drawing.strokes, e2.drawing.strokes)
        XCTAssertEqual(third.history.redoStack.first?.added.first?.shape, .triangle)
    }

    /// The same shape three ways: live, after pen-up, after reopening: within 0.25 px at 100 %.
    func testOneShapeThreeWays() throws {
        let e = Editor()
        e.tool = .ellipse
        _ = e.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 100.3, y: 80.7), device: .mouse))
        _ = e.handle(InputEvent(pointer: 1, phase: .moved, point: InkPoint(x: 333.1, y: 201.9), device: .mouse))
        let live = try XCTUnwrap(e.liveStrokes.first)
        _ = e.handle(InputEvent(pointer: 1, phase: .ended, point: InkPoint(x: 333.1, y: 201.9), device: .mouse))
        let done = try XCTUnwrap(e.drawing.strokes.first)
        let file = path("three.oekaki")
        try DocumentFile.create(path: file, document: e.document, history: e.history).close()
        let reopened = try XCTUnwrap(DocumentFile.open(path: file, readOnly: true).drawing.strokes.first)
        for other in [done, reopened] {
            let a = StrokeShape.outline(of: live), b = StrokeShape.outline(of: other)
            XCTAssertEqual(a.count, b.count)
            for (p, q) in zip(a, b) { XCTAssertLessThanOrEqual(p.distance(to: q), 0.25) }
        }
    }

    func testXoppRoundTripKeepsShapesAndPolylines() throws {
        let e = editorWithShapes()
        let file = path("s.xopp")
        try XoppExport.write(e.drawing, to: file)
        let r = try XoppImport.read(path: file)
        assertSameLook(r.drawing.strokes, e.drawing.strokes)
        // Shapes keep their exact points (to the 4 decimals .xopp holds).
        for (a, b) in zip(r.drawing.strokes, e.drawing.strokes) {
            XCTAssertEqual(a.points.count, b.points.count)
            for (p, q) in zip(a.points, b.points) { XCTAssertEqual(p.x, q.x, accuracy: 1e-4); XCTAssertEqual(p.y, q.y, accuracy: 1e-4) }
        }
    }

    func testOlderFilesUpgradeWithSmoothedInkAndBadValuesAreRefused() throws {
        let file = path("v5.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(Schema.shapesVersion - 1) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(Schema.shapesVersion - 1)")
        try db.execute("INSERT INTO pages VALUES(1, 0, 800, 600, 'plain', \(RGBA.white.packed), \(RGBA.black.packed), 20)")
        let blob = try PointCodec.encode([InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
        try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(1, 'pen', 255, 2, ?, 1)").bind(1, blob).run()
        db.close()
        let rw = try DocumentFile.open(path: file)
        XCTAssertEqual(rw.drawing.strokes.map(\.style.trace), [.smoothed])
        XCTAssertEqual(rw.drawing.strokes.map(\.shape), [nil])
        rw.close()
        let check = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Int64(Schema.currentVersion))
        try check.execute("UPDATE strokes SET shape = 42")
        check.close()
        XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) {
            XCTAssertTrue("\($0)".contains("stroke 1 has an unknown shape 42"), "\($0)")
        }
    }
}

private extension Editor {
    /// Drags each (tool, points) gesture with the mouse.
    func play(_ gestures: [(Tool, [(Double, Double)])], _ e: Editor) {
        for (tool, pts) in gestures {
            self.tool = tool
            for (i, p) in pts.enumerated() {
                let phase: InputEvent.Phase = i == 0 ? .began : (i == pts.count - 1 ? .ended : .moved)
                _ = handle(InputEvent(pointer: 1, phase: phase, point: InkPoint(x: p.0, y: p.1), device: .mouse))
            }
        }
    }
}
