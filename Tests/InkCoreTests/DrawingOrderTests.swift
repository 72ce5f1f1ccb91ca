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
    /// Many strokes at once (a board's batch: moved in the order, restyled, moved on the page, new) end up exactly
    /// as inserting them one after the other: the same order, the same lookups, the same hits in the index.
    func testInsertingABatchIsInsertingEachInTurn() {
        var rng = SeededRandom(seed: 7)
        var base = Drawing()
        for k in 1...300 {
            let x = rng.range(0, 1500), y = rng.range(0, 900)
            base.insert(Stroke(id: StrokeID(k), style: StrokeStyle(width: 2), points: [InkPoint(x: x, y: y), InkPoint(x: x + 40, y: y + 10)]))
        }
        for round in 0..<20 {
            var batch: [Stroke] = []
            for _ in 0..<(5 + round * 10) {
                var s = base.strokes[Int(rng.next() % UInt64(base.strokes.count))]
                switch rng.next() % 4 {
                case 0: s.order = 1_000_000 + rng.next() % 1000
                case 1: s.style.width = 7
                case 2: s.setTransform(.translation(rng.range(-50, 50), 0))
                default: s = Stroke(id: StrokeID(10_000 + rng.next() % 500), style: StrokeStyle(), points: [InkPoint(x: 5, y: 5)])
                }
                batch.append(s)
            }
            var each = base, all = base
            for s in batch { each.insert(s) }
            all.insert(contentsOf: batch)
            XCTAssertEqual(all.strokes, each.strokes, "round \(round)")
            for s in each.strokes { XCTAssertEqual(all.stroke(s.id), s) }
            for r in [Rect(minX: 0, minY: 0, maxX: 400, maxY: 400), Rect(minX: 700, minY: 300, maxX: 1600, maxY: 1000)] {
                XCTAssertEqual(all.strokes(in: r).map(\.id), each.strokes(in: r).map(\.id), "round \(round)")
            }
            base = all
        }
    }
}
