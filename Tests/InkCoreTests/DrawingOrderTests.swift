import XCTest
@testable import InkCore

/// Area-eraser pieces keep the drawing-order place of the stroke they were cut from.
final class DrawingOrderTests: XCTestCase {
    /// A highlighter stroke, a pen stroke across it, then the area eraser through the middle of the highlighter
    /// (away from the pen ink).
    static func cutHighlighterUnderPen() -> (editor: Editor, highlighter: Stroke, pen: Stroke) {
        let editor = Editor()
        editor.tool = .highlighter
        let hl = editor.line(1, from: (0, 50), to: (200, 50))!
        editor.tool = .pen
        let pen = editor.line(1, from: (20, 0), to: (20, 100))!
        editor.tool = .areaEraser
        editor.style.width = 20
        editor.play(gesture(9, [(100, 0), (100, 100)]))
        return (editor, hl, pen)
    }

    func testCutHighlighterStaysBelowLaterInk() throws {
        let (editor, hl, pen) = Self.cutHighlighterUnderPen()
        let s = editor.drawing.strokes
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(s.map(\.style.tool), [.highlighter, .highlighter, .pen], "both pieces below the pen stroke")
        XCTAssertEqual(s[2], pen)
        XCTAssertEqual(s[0].order, hl.id)
        XCTAssertEqual(s[1].order, hl.id)
        XCTAssertGreaterThan(s[0].id, pen.id, "pieces still get new ids")
        XCTAssertTrue(s[0].points.last!.x < 100 && s[1].points.first!.x > 100, "left piece first, then right")
        // Hit tests return drawing order too (the screen cache repaints in that order).
        XCTAssertEqual(editor.drawing.strokes(in: Rect(minX: 0, minY: 0, maxX: 200, maxY: 100)).map(\.id), s.map(\.id))
        XCTAssertEqual(editor.drawing.stroke(s[1].id), s[1], "lookup by id finds a reordered stroke")

        _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes, [hl, pen], "undo restores the original in its place")
        _ = editor.redo()
        XCTAssertEqual(editor.drawing.strokes, s, "redo puts the pieces back in place")
    }

    func testCuttingAPieceAgainKeepsTheOriginalsPlace() throws {
        let (editor, _, pen) = Self.cutHighlighterUnderPen()
        editor.tool = .areaEraser
        editor.play(gesture(9, [(50, 0), (50, 100)]))
        let s = editor.drawing.strokes
        XCTAssertEqual(s.map(\.style.tool), [.highlighter, .highlighter, .highlighter, .pen])
        XCTAssertEqual(s.last, pen)
        _ = editor.undo(); _ = editor.undo()
        XCTAssertEqual(editor.drawing.strokes.map(\.style.tool), [.highlighter, .pen])
    }

    func testInsertAndRemoveKeepOrderAndIdLookup() {
        var d = Drawing()
        d.insert(stroke(1, [(0, 0), (1, 1)]))
        d.insert(stroke(2, [(0, 0), (1, 1)]))
        var piece = stroke(5, [(0, 0), (1, 1)])
        piece.order = 1
        d.insert(piece)
        d.insert(stroke(3, [(0, 0), (1, 1)]))
        XCTAssertEqual(d.strokes.map(\.id), [1, 5, 2, 3])
        XCTAssertEqual(d.stroke(5)?.order, 1)
        // Replacing a stroke under another order moves it.
        piece.order = 3
        d.insert(piece)
        XCTAssertEqual(d.strokes.map(\.id), [1, 2, 3, 5])
        XCTAssertNotNil(d.remove(5))
        XCTAssertNil(d.stroke(5))
        XCTAssertEqual(d.strokes.map(\.id), [1, 2, 3])
        // A drawing built from unsorted strokes sorts them.
        var p = stroke(9, [(0, 0)]); p.order = 2
        let built = Drawing(strokes: [stroke(3, [(0, 0)]), p, stroke(1, [(0, 0)])])
        XCTAssertEqual(built.strokes.map(\.id), [1, 9, 3])
        XCTAssertEqual(built.nextStrokeID, 10)
    }
}
