import XCTest
@testable import InkCore

/// Undo on a shared board: other people's strokes arrive through `follow` and never enter this user's history;
/// an undo whose effect someone else already brought about is passed over.
final class SharedUndoTests: XCTestCase {
    func line(_ id: StrokeID, y: Double) -> Stroke {
        Stroke(id: id, style: StrokeStyle(), points: [InkPoint(x: 0, y: y), InkPoint(x: 50, y: y)])
    }

    func testUndoSkipsAnEditWhoseEffectIsAlreadyGoneAndNeverTouchesOthersStrokes() {
        let editor = Editor()
        let a = line(editor.newStrokeID(), y: 10), b = line(editor.newStrokeID(), y: 20)
        _ = editor.perform(.add([a]))
        _ = editor.perform(.add([b]))
        // Someone else's stroke arrives, and someone erases my b.
        let theirs = line(1000, y: 30)
        XCTAssertNotNil(editor.follow([.add([theirs]), .remove([b])]).dirty)
        XCTAssertEqual(editor.drawing.strokes.map(\.id), [a.id, theirs.id])

        // One undo: taking b away again would change nothing, so it goes on to a.
        let u = editor.undo()
        XCTAssertEqual(u.changes.count, 2)
        XCTAssertEqual(editor.drawing.strokes.map(\.id), [theirs.id], "their stroke is never undone")
        XCTAssertFalse(editor.history.canUndo)

        // Redo brings a back first (a visible change), then b.
        _ = editor.redo()
        XCTAssertEqual(Set(editor.drawing.strokes.map(\.id)), [a.id, theirs.id])
        _ = editor.redo()
        XCTAssertEqual(Set(editor.drawing.strokes.map(\.id)), [a.id, b.id, theirs.id])
    }

    func testAloneEveryUndoIsOneStep() {
        let editor = Editor()
        for y in [10.0, 20, 30] { _ = editor.perform(.add([line(editor.newStrokeID(), y: y)])) }
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.count, 2)
        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.count, 1)
    }
}
