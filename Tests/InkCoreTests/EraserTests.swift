import XCTest
@testable import InkCore

/// Point 5 of issue 2: pen, highlighter, stroke eraser (by real width), area eraser (vector cut).
final class EraserTests: XCTestCase {
    private func editorWithLines() -> Editor {
        let editor = Editor()
        editor.style.width = 4
        editor.line(1, from: (0, 0), to: (100, 0))      // A
        editor.line(1, from: (0, 50), to: (100, 50))    // B
        editor.line(1, from: (0, 100), to: (100, 100))  // C
        return editor
    }

    private func erase(_ editor: Editor, _ tool: Tool, width: Double, _ path: [(Double, Double)], id: PointerID = 9) -> Update {
        editor.tool = tool
        editor.style.width = width
        return editor.play(gesture(id, path))
    }

    func testPenAndHighlighterKeepTheirStyles() {
        let editor = Editor()
        editor.style = StrokeStyle(color: RGBA(r: 10, g: 20, b: 30), width: 5)
        editor.line(from: (0, 0), to: (10, 0))
        editor.tool = .highlighter
        editor.line(from: (0, 10), to: (10, 10))
        let s = editor.drawing.strokes
        XCTAssertEqual(s[0].style, StrokeStyle(tool: .pen, color: RGBA(r: 10, g: 20, b: 30), width: 5))
        XCTAssertEqual(s[1].style.tool, .highlighter)
        XCTAssertLessThan(s[1].style.color.a, 255, "the highlighter is translucent")
        XCTAssertEqual(StrokeShape.options(for: s[1].style).thinning, 0, "one flat width")
        editor.tool = .pen
        XCTAssertEqual(editor.style.width, 5, "each tool remembers its own style")
    }

    func testStrokeEraserUsesTheInkedWidthNotTheBoundingBox() {
        let editor = Editor()
        editor.style.width = 20 // radius 10
        // A diagonal line: its bounding box is big, its ink is narrow.
        editor.line(1, from: (0, 0), to: (100, 100))
        // Eraser (radius 2) inside the bounding box but 30 units from the line: nothing happens.
        var u = erase(editor, .strokeEraser, width: 4, [(80, 20), (81, 21)])
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        XCTAssertTrue(u.changes.isEmpty)
        XCTAssertFalse(editor.history.undoStack.count > 1)
        // 11 units from the centre line: beyond the line's own radius (10) but within it plus the eraser radius (2).
        let c = Point(50 + 11 / 2.0.squareRoot(), 50 - 11 / 2.0.squareRoot())
        u = erase(editor, .strokeEraser, width: 4, [(c.x, c.y)])
        XCTAssertTrue(editor.drawing.strokes.isEmpty, "touches the ink, so the stroke goes")
        XCTAssertEqual(u.changes.count, 1)
    }

    func testStrokeEraserMissesJustOutsideTheInk() {
        let editor = Editor()
        editor.style.width = 20
        editor.line(1, from: (0, 0), to: (100, 0))
        _ = erase(editor, .strokeEraser, width: 4, [(50, 12.5)]) // 12.5 > 10 + 2
        XCTAssertEqual(editor.drawing.strokes.count, 1)
        _ = erase(editor, .strokeEraser, width: 4, [(50, 11.5)])
        XCTAssertEqual(editor.drawing.strokes.count, 0)
    }

    func testStrokeEraserGestureIsOneEditAndUpdatesLive() {
        let editor = editorWithLines()
        editor.tool = .strokeEraser
        editor.style.width = 6
        var u = editor.handle(event(9, .began, 50, -20))
        XCTAssertEqual(editor.drawing.strokes.count, 3)
        u = editor.handle(event(9, .moved, 50, 60)) // sweeps across A and B
        XCTAssertEqual(editor.drawing.strokes.count, 1, "the drawing updates while dragging")
        XCTAssertNotNil(u.dirty)
        XCTAssertTrue(u.changes.isEmpty, "nothing is committed before release")
        XCTAssertFalse(editor.history.undoStack.contains { if case .remove = $0 { return true }; return false })
        u = editor.handle(event(9, .ended, 50, 70))
        XCTAssertEqual(u.changes.count, 1)
        guard case .did(.remove(let removed)) = u.changes[0] else { return XCTFail("expected one .remove edit, got \(u.changes)") }
        XCTAssertEqual(removed.map { $0.points[0].y }, [0, 50])
        XCTAssertEqual(editor.history.undoStack.count, 4)
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.count, 3, "one undo brings back everything the gesture erased")
        _ = editor.redo()
        XCTAssertEqual(editor.drawing.strokes.map { $0.points[0].y }, [100])
    }

    func testCancelledEraserRestoresEverythingAndRecordsNothing() {
        for tool in [Tool.strokeEraser, .areaEraser] {
            let editor = editorWithLines()
            let before = editor.drawing.strokes
            editor.tool = tool
            editor.style.width = 10
            editor.play([event(9, .began, 50, -20), event(9, .moved, 50, 120)])
            XCTAssertNotEqual(editor.drawing.strokes, before, "\(tool) erased live")
            let u = editor.handle(event(9, .cancelled, 50, 120))
            XCTAssertEqual(editor.drawing.strokes, before, "\(tool) cancel restores the strokes")
            XCTAssertTrue(u.changes.isEmpty)
            XCTAssertNotNil(u.dirty)
            XCTAssertEqual(editor.history.undoStack.count, 3)
            XCTAssertFalse(editor.isErasing)
        }
    }

    func testAreaEraserCutsAStrokeIntoTwoVectorPieces() {
        let editor = Editor()
        editor.style = StrokeStyle(color: RGBA(r: 200, g: 0, b: 0), width: 4)
        // Pen with real, varying pressure so we can check pieces keep it.
        var events: [InputEvent] = []
        for k in 0...10 {
            let phase: InputEvent.Phase = k == 0 ? .began : (k == 10 ? .ended : .moved)
            events.append(event(1, phase, Double(k) * 10, 0, pressure: Double(k) / 10))
        }
        editor.play(events)
        let original = editor.drawing.strokes[0]
        let u = erase(editor, .areaEraser, width: 20, [(50, -30), (50, 30)]) // radius 10, vertical swipe at x = 50
        let pieces = editor.drawing.strokes
        XCTAssertEqual(pieces.count, 2)
        XCTAssertTrue(pieces.allSatisfy { $0.style == original.style })
        XCTAssertTrue(pieces.allSatisfy { $0.id > original.id }, "pieces get new ids, so drawing order stays id order")
        XCTAssertEqual(pieces[0].points.map(\.x), [0, 10, 20, 30, 40], "left piece: originals up to the boundary at x = 40")
        XCTAssertEqual(pieces[1].points.map(\.x), [60, 70, 80, 90, 100])
        XCTAssertEqual(pieces[0].points.map(\.pressure), [0, 0.1, 0.2, 0.3, 0.4].map { $0 }, "original pressures kept")
        XCTAssertEqual(pieces[1].points.first!.pressure, 0.6, accuracy: 1e-12)
        guard case .did(.replace(let removed, let added))? = u.changes.first else { return XCTFail("expected .replace, got \(u.changes)") }
        XCTAssertEqual(removed, [original]); XCTAssertEqual(added, pieces)
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes, [original])
        _ = editor.redo()
        XCTAssertEqual(editor.drawing.strokes, pieces)
    }

    func testAreaEraserInterpolatesSplitPointsOnTheCircle() {
        let editor = Editor()
        editor.style.width = 2
        editor.line(1, from: (0, 0), to: (100, 0), steps: 2) // samples at 0, 50, 100
        let u = erase(editor, .areaEraser, width: 16, [(30, 6)]) // circle r = 8 around (30, 6): cuts x in 30 ± √(64-36)
        XCTAssertFalse(u.changes.isEmpty)
        let pieces = editor.drawing.strokes
        XCTAssertEqual(pieces.count, 2)
        let h = (64.0 - 36.0).squareRoot()
        XCTAssertEqual(pieces[0].points.last!.x, 30 - h, accuracy: 1e-9)
        XCTAssertEqual(pieces[1].points.first!.x, 30 + h, accuracy: 1e-9)
        XCTAssertEqual(pieces[1].points.map(\.x).dropFirst(), [50, 100])
        for p in [pieces[0].points.last!, pieces[1].points.first!] {
            XCTAssertEqual(p.point.distance(to: Point(30, 6)), 8, accuracy: 1e-9, "split point lies on the eraser's boundary")
        }
    }

    func testAreaEraserGestureOverSeveralStrokesIsOneReplaceEdit() {
        let editor = editorWithLines()
        // Drag across all three lines, then back over a piece it made: still one edit, only originals in `removed`.
        let u = erase(editor, .areaEraser, width: 10, [(50, -20), (50, 120), (20, 120), (20, -20)])
        XCTAssertEqual(u.changes.count, 1)
        guard case .did(.replace(let removed, let added))? = u.changes.first else { return XCTFail("\(u.changes)") }
        XCTAssertEqual(removed.count, 3)
        XCTAssertEqual(added.count, 9, "each line cut twice → three pieces each")
        XCTAssertEqual(Set(added.map(\.id)), Set(editor.drawing.strokes.map(\.id)))
        XCTAssertEqual(editor.history.undoStack.count, 4)
        for s in editor.drawing.strokes {
            for p in s.points {
                XCTAssertFalse(abs(p.x - 50) < 4.999 || abs(p.x - 20) < 4.999, "no sample left under the eraser")
            }
        }
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.count, 3)
        XCTAssertEqual(editor.drawing.strokes.map(\.points.count), [11, 11, 11])
    }

    func testAreaEraserRemovesWholeStrokesAndDotsItCovers() {
        let editor = Editor()
        editor.line(1, from: (10, 10), to: (12, 10))
        editor.play([event(2, .began, 40, 10), event(2, .ended, 40, 10)]) // a dot
        let u = erase(editor, .areaEraser, width: 100, [(25, 10)])
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        guard case .did(.remove(let removed))? = u.changes.first else { return XCTFail("\(u.changes)") }
        XCTAssertEqual(removed.count, 2)
    }

    func testEraserThatTouchesNothingRecordsNothing() {
        let editor = editorWithLines()
        for tool in [Tool.strokeEraser, .areaEraser] {
            let u = erase(editor, tool, width: 4, [(500, 500), (600, 600)])
            XCTAssertTrue(u.changes.isEmpty)
            XCTAssertEqual(editor.history.undoStack.count, 3)
        }
    }

    func testUndoDuringAnEraserGestureRecordsItFirst() {
        let editor = editorWithLines()
        editor.tool = .strokeEraser
        editor.play([event(9, .began, 50, 0)])
        XCTAssertEqual(editor.drawing.strokes.count, 2)
        let u = editor.undo()
        XCTAssertEqual(u.changes.count, 2, "the gesture is recorded, then undone")
        XCTAssertEqual(editor.drawing.strokes.count, 3)
        _ = editor.handle(event(9, .moved, 50, 100)) // that gesture is over: ignored
        XCTAssertEqual(editor.drawing.strokes.count, 3)
        XCTAssertTrue(editor.history.canRedo)
    }

    func testPenDrawingWhileAnotherFingerErases() {
        let editor = editorWithLines()
        editor.tool = .strokeEraser
        _ = editor.handle(event(9, .began, 50, 0))     // erases A
        editor.tool = .pen
        _ = editor.handle(event(1, .began, 0, 200))    // finger 1 draws with the pen
        _ = editor.handle(event(9, .moved, 50, 50))    // finger 9 still erases (its tool was fixed at began): erases B
        _ = editor.handle(event(1, .ended, 100, 200))
        _ = editor.handle(event(9, .ended, 50, 50))
        XCTAssertEqual(editor.drawing.strokes.map { $0.points[0].y }, [100, 200])
        XCTAssertEqual(editor.history.undoStack.count, 5)
        _ = editor.undo() // the erase
        XCTAssertEqual(editor.drawing.strokes.count, 4)
    }

    /// Found by the event-log fuzzer: a finger still erasing with the area eraser has cut line A in two; meanwhile
    /// the mouse selects everything and recolours it (taking the pieces), and the eraser goes on. Every step is in
    /// the history: the erasing up to the recolouring, the recolouring, the erasing after it; undoing all empties
    /// the page and redoing all brings back the same ink (before, the pieces were in no recorded edit, and undo left
    /// a recoloured piece on the page). Escape afterwards cancels only the erasing since the recolouring.
    func testAnEditTakingPiecesOfAnEraserStillDownRecordsTheErasingFirst() throws {
        let editor = editorWithLines()
        editor.tool = .areaEraser
        editor.style.width = 10
        _ = editor.handle(event(9, .began, 50, -20))
        _ = editor.handle(event(9, .moved, 50, 20))      // A cut in two; the finger stays down
        XCTAssertEqual(editor.drawing.strokes.count, 4)
        try editor.apply(.all)
        try editor.apply(.style(color: RGBA(r: 200, g: 0, b: 0), keepsAlpha: true, width: nil))
        XCTAssertEqual(editor.history.undoStack.count, 5, "three lines, the erasing so far, the recolouring")
        _ = editor.handle(event(9, .moved, 50, 70))      // the same finger cuts B
        XCTAssertEqual(editor.drawing.strokes.count, 5)
        _ = editor.cancelAll()                          // Escape: B is whole again, A stays cut and red
        XCTAssertEqual(editor.drawing.strokes.count, 4)
        XCTAssertEqual(Set(editor.drawing.strokes.map(\.style.color.r)), [200])
        let ink = editor.drawing.strokes.map { $0.points.map(\.point) }
        let undoable = editor.history.undoStack.count
        for _ in 0..<undoable { _ = editor.undo() }
        XCTAssertEqual(editor.drawing.strokes.count, 0, "undo all empties the page")
        for _ in 0..<undoable { _ = editor.redo() }
        XCTAssertEqual(editor.drawing.strokes.map { $0.points.map(\.point) }, ink, "redo all brings back the same ink")
    }

    /// The same when the pieces are moved to another layer while the eraser is down (before, Escape then took the
    /// moved pieces off the other layer and put A back whole on the first).
    func testPiecesMovedToAnotherLayerWhileTheEraserIsDownStayInTheHistory() throws {
        let editor = editorWithLines()
        _ = editor.addLayer()
        editor.selectLayer(0)
        editor.tool = .areaEraser
        editor.style.width = 10
        _ = editor.handle(event(9, .began, 50, -20))
        _ = editor.handle(event(9, .moved, 50, 20))      // A cut in two on the bottom layer
        try editor.apply(.all)
        _ = try editor.moveSelection(toLayer: 1)
        XCTAssertEqual(editor.document.pages[0].layers[1].drawing.strokes.count, 4, "A's pieces, B and C on the new layer")
        _ = editor.handle(event(9, .moved, 50, 70))
        // Escape cancels only what the eraser did after the move: A's pieces stay where they were moved.
        _ = editor.cancelAll()
        XCTAssertEqual(editor.document.pages[0].layers.map(\.drawing.strokes.count), [0, 4])
        let ink = editor.document.pages[0].layers.map { $0.drawing.strokes.map { $0.points.map(\.point) } }
        let undoable = editor.history.undoStack.count
        for _ in 0..<undoable { _ = editor.undo() }
        XCTAssertEqual(editor.document.pages[0].strokes.count, 0, "undo all empties the page")
        for _ in 0..<undoable { _ = editor.redo() }
        XCTAssertEqual(editor.document.pages[0].layers.map { $0.drawing.strokes.map { $0.points.map(\.point) } }, ink,
                       "redo all brings back the same ink on the same layers")
    }

    func testCapsuleInsideInterval() {
        let c = Capsule(from: Point(0, 0), to: Point(10, 0), radius: 2)
        let iv = try! XCTUnwrap(c.inside(Point(-10, 0), Point(20, 0)))
        XCTAssertEqual(iv.t0, 8.0 / 30, accuracy: 1e-12)
        XCTAssertEqual(iv.t1, 22.0 / 30, accuracy: 1e-12)
        let across = try! XCTUnwrap(c.inside(Point(5, -10), Point(5, 10)))
        XCTAssertEqual(across.t0, 0.4, accuracy: 1e-12); XCTAssertEqual(across.t1, 0.6, accuracy: 1e-12)
        XCTAssertNil(c.inside(Point(-10, 3), Point(20, 3)))
        XCTAssertNil(c.inside(Point(13, 0), Point(20, 0)))
        let disc = Capsule(center: Point(0, 0), radius: 1)
        let d = try! XCTUnwrap(disc.inside(Point(-2, 0), Point(2, 0)))
        XCTAssertEqual(d.t0, 0.25, accuracy: 1e-12); XCTAssertEqual(d.t1, 0.75, accuracy: 1e-12)
        let huge = Capsule(center: Point(1e12, 1e12), radius: 1)
        XCTAssertNotNil(huge.inside(Point(1e12 - 2, 1e12), Point(1e12 + 2, 1e12)))
    }
}
