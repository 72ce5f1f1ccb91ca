import XCTest
@testable import InkCore

/// Point 6 of issue 2: undo/redo of every edit, redo emptied by new edits, memory proportional to edits.
final class HistoryTests: XCTestCase {
    func testUndoRedoOfDrawing() {
        let editor = Editor()
        editor.line(from: (0, 0), to: (10, 0))
        editor.line(from: (0, 10), to: (10, 10))
        let both = editor.drawing.strokes
        var u = editor.undo()
        XCTAssertEqual(editor.drawing.strokes, [both[0]])
        guard case .undid(.add(let s))? = u.changes.first else { return XCTFail() }
        XCTAssertEqual(s, [both[1]])
        XCTAssertNotNil(u.dirty)
        u = editor.redo()
        XCTAssertEqual(editor.drawing.strokes, both)
        guard case .redid(.add)? = u.changes.first else { return XCTFail() }
        // Nothing more to redo; undo past the start does nothing.
        XCTAssertTrue(editor.redo().changes.isEmpty)
        _ = editor.undo(); _ = editor.undo()
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        XCTAssertTrue(editor.undo().changes.isEmpty)
        XCTAssertEqual(editor.history.redoStack.count, 2)
    }

    func testNewEditEmptiesRedo() {
        let editor = Editor()
        editor.line(from: (0, 0), to: (10, 0))
        editor.line(from: (0, 10), to: (10, 10))
        _ = editor.undo()
        XCTAssertTrue(editor.history.canRedo)
        editor.line(from: (0, 20), to: (10, 20))
        XCTAssertFalse(editor.history.canRedo)
        XCTAssertTrue(editor.redo().changes.isEmpty)
        XCTAssertEqual(editor.drawing.strokes.map { $0.points[0].y }, [0, 20])
    }

    func testClearIsUndoable() {
        let editor = Editor()
        for k in 0..<5 { editor.line(from: (0, Double(k) * 10), to: (10, Double(k) * 10)) }
        let all = editor.drawing.strokes
        let u = editor.clear()
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        guard case .did(.clear(let cleared))? = u.changes.first else { return XCTFail() }
        XCTAssertEqual(cleared, all)
        XCTAssertTrue(editor.clear().changes.isEmpty, "clearing an empty page records nothing")
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes, all)
        _ = editor.redo()
        XCTAssertTrue(editor.drawing.strokes.isEmpty)
        _ = editor.undo()
        // The index is restored too: erasing still finds the strokes.
        XCTAssertEqual(editor.drawing.strokes(in: Rect(around: Point(5, 20), radius: 1)).count, 1)
    }

    func testUndoRedoOfBothErasersAcrossManySteps() {
        let editor = Editor()
        for k in 0..<4 { editor.line(from: (0, Double(k) * 20), to: (100, Double(k) * 20)) }
        var snapshots = [editor.drawing.strokes]
        editor.tool = .strokeEraser
        editor.play(gesture(5, [(50, -5), (50, 25)]))
        snapshots.append(editor.drawing.strokes)
        editor.tool = .areaEraser
        editor.style.width = 10
        editor.play(gesture(5, [(30, -5), (30, 70)]))
        snapshots.append(editor.drawing.strokes)
        _ = editor.clear()
        snapshots.append(editor.drawing.strokes)
        XCTAssertEqual(snapshots.map(\.count), [4, 2, 4, 0])
        for k in stride(from: 2, through: 0, by: -1) {
            _ = editor.undo()
            XCTAssertEqual(editor.drawing.strokes, snapshots[k], "after undo back to step \(k)")
        }
        for k in 1...3 {
            _ = editor.redo()
            XCTAssertEqual(editor.drawing.strokes, snapshots[k], "after redo to step \(k)")
        }
    }

    func testHistoryMemoryGrowsWithEditsNotWithTheDrawing() {
        let editor = Editor()
        // A large drawing: 2,000 strokes × 11 points.
        for k in 0..<2000 { editor.line(from: (0, Double(k)), to: (100, Double(k))) }
        let base = editor.history.pointCount
        XCTAssertEqual(base, editor.drawing.pointCount, "each add edit holds just its stroke")
        // 50 small edits (a tap each) add 50 points, not 50 copies of the drawing.
        for k in 0..<50 { editor.play([event(1, .began, 500, Double(k) * 10), event(1, .ended, 500, Double(k) * 10)]) }
        XCTAssertEqual(editor.history.pointCount - base, 50)
        // Erasing one stroke costs that stroke's points.
        editor.tool = .strokeEraser
        editor.style.width = 1
        editor.play(gesture(2, [(500, 10)]))
        XCTAssertEqual(editor.history.pointCount - base, 51)
        XCTAssertEqual(editor.history.undoStack.last?.pointCount, 1)
    }

    func testRemovedStrokeComesBackInItsPlace() {
        let editor = Editor()
        for k in 0..<3 { editor.line(from: (0, Double(k) * 20), to: (100, Double(k) * 20)) }
        let order = editor.drawing.strokes.map(\.id)
        editor.tool = .strokeEraser
        editor.play(gesture(5, [(50, 20)]))
        XCTAssertEqual(editor.drawing.strokes.count, 2)
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.map(\.id), order, "drawing order (id order) restored")
    }
}
