import XCTest
@testable import InkCore

/// The selection rule (half inside, wholly inside, tap = topmost by real width, Shift adds, nothing clears) and every
/// operation on a selection, each done, undone and redone.
final class SelectionTests: XCTestCase {
    /// An editor holding `strokes` (added as one edit, so the history starts after them).
    private func editor(_ strokes: [Stroke]) -> Editor {
        let e = Editor()
        for s in strokes { _ = e.perform(.add([s])) }
        return e
    }

    /// A horizontal stroke of `n` points from x0 with spacing 10 at height y.
    private func row(_ id: StrokeID, x0: Double, y: Double, n: Int = 10, width: Double = 4) -> Stroke {
        stroke(id, (0..<n).map { (x0 + Double($0) * 10, y) }, width: width)
    }

    private func lasso(_ e: Editor, _ loop: [(Double, Double)]) {
        e.tool = .lasso
        e.play(gesture(9, loop + [loop[0]]))
    }

    private func box(_ e: Editor, _ a: (Double, Double), _ b: (Double, Double)) {
        e.tool = .selectRect
        e.play(gesture(9, [a, ((a.0 + b.0) / 2, (a.1 + b.1) / 2), b]))
    }

    // MARK: the rule

    func testLassoTakesStrokesWithAtLeastHalfTheirPointsInside() {
        // Points at x = 0…90. A loop covering x < 55 holds 6 of 10 points; one covering x < 35 holds 4.
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 300)])
        lasso(e, [(-10, 80), (55, 80), (55, 120), (-10, 120)])
        XCTAssertEqual(e.selection, [1])
        lasso(e, [(-10, 280), (35, 280), (35, 320), (-10, 320)])
        XCTAssertEqual(e.selection, [], "4 of 10 points inside is not enough, and selecting nothing clears")
        lasso(e, [(-10, 280), (45, 280), (45, 320), (-10, 320)])
        XCTAssertEqual(e.selection, [2], "exactly half inside is enough")
    }

    func testWhollyInsidePreferenceNeedsEveryPoint() {
        let e = editor([row(1, x0: 0, y: 100)])
        e.selectionRule = .whollyInside
        lasso(e, [(-10, 80), (85, 80), (85, 120), (-10, 120)])
        XCTAssertEqual(e.selection, [], "9 of 10 points inside")
        lasso(e, [(-10, 80), (95, 80), (95, 120), (-10, 120)])
        XCTAssertEqual(e.selection, [1])
    }

    func testConcaveLassoIsJudgedByItsShapeNotItsBounds() {
        // A U-shaped loop whose bounds cover both strokes; the middle stroke lies in the notch.
        let e = editor([row(1, x0: 0, y: 10, n: 3), row(2, x0: 100, y: 10, n: 3), row(3, x0: 200, y: 10, n: 3)])
        lasso(e, [(-10, 0), (50, 0), (50, 100), (180, 100), (180, 0), (240, 0), (240, 150), (-10, 150)])
        XCTAssertEqual(e.selection, [1, 3], "the middle stroke sits in the notch (y < 100 between x 50 and 180)")
    }

    func testBoxSelectsFromBeganToEnded() {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 300)])
        box(e, (200, 350), (-5, 90))   // dragged up and left
        XCTAssertEqual(e.selection, [1, 2])
        box(e, (-5, 90), (200, 110))
        XCTAssertEqual(e.selection, [1])
    }

    func testTapSelectsTheTopmostStrokeByItsRealWidth() {
        // A thick stroke below, a thin one above it crossing; the thin one's bounds cover (50, 110) but its ink doesn't.
        let thick = stroke(1, [(0, 100), (100, 100)], width: 30)
        let thin = stroke(2, [(50, 0), (50, 200)], width: 2)
        let e = editor([thick, thin])
        e.tool = .lasso
        e.play(gesture(9, [(56, 110)]))
        XCTAssertEqual(e.selection, [1], "6 units right of the thin stroke: only the thick one's ink is there")
        e.play(gesture(9, [(50, 100)]))
        XCTAssertEqual(e.selection, [2], "where both are inked the topmost wins")
        e.play(gesture(9, [(50.5, 160)]))
        XCTAssertEqual(e.selection, [2])
        e.play(gesture(9, [(300, 300)]))
        XCTAssertEqual(e.selection, [], "a tap on empty paper clears")
    }

    func testShiftAddsToTheSelection() {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 300)])
        box(e, (-5, 90), (200, 110))
        e.addsToSelection = true
        box(e, (-5, 290), (200, 310))
        XCTAssertEqual(e.selection, [1, 2])
    }

    func testCancelledGestureLeavesTheSelection() {
        let e = editor([row(1, x0: 0, y: 100)])
        box(e, (-5, 90), (200, 110))
        e.play([event(3, .began, 500, 500), event(3, .moved, 600, 600), event(3, .cancelled, 600, 600)])
        XCTAssertEqual(e.selection, [1])
        XCTAssertEqual(e.drawing.strokes.count, 1, "a selection gesture draws nothing")
    }

    // MARK: transforms

    func testTranslateMovesEveryPointExactlyAndUndoRestoresBitForBit() throws {
        let s = stroke(1, [(0.1, 0.3), (10.7, 20.9), (33.3, 1.1)])
        let e = editor([s])
        _ = try e.apply(.all)
        try e.apply(.translate(dx: 12.5, dy: -3.25))
        let moved = try XCTUnwrap(e.drawing.stroke(1))
        for (p, q) in zip(s.points, moved.points) {
            XCTAssertEqual(q.x, p.x + 12.5); XCTAssertEqual(q.y, p.y - 3.25)
        }
        XCTAssertEqual(moved.drawnPoints, s.points, "points stay as drawn")
        XCTAssertEqual(moved.transform, .translation(12.5, -3.25))
        XCTAssertEqual(e.drawing.strokes(in: Rect(x: 0, y: 0, width: 0.2, height: 0.2)).count, 0, "the index moved with it")
        XCTAssertEqual(e.drawing.strokes(in: Rect(x: 12.6, y: -2.95, width: 0.1, height: 0.1)).map(\.id), [1])
        _ = e.undo()
        XCTAssertEqual(e.drawing.stroke(1), s)
        _ = e.redo()
        XCTAssertEqual(e.drawing.stroke(1), moved)
    }

    func testMovesComposeIntoOneTransformAndHistoryHoldsNoPoints() throws {
        let strokes = (1...50).map { row(StrokeID($0), x0: 0, y: Double($0) * 10, n: 200) }
        let e = editor(strokes)
        _ = try e.apply(.all)
        for _ in 0..<10 { try e.apply(.translate(dx: 1, dy: 2)) }
        XCTAssertEqual(e.drawing.stroke(7)?.transform, .translation(10, 20))
        let moves = e.history.undoStack.suffix(10)
        XCTAssertEqual(moves.reduce(0) { $0 + $1.pointCount }, 0, "a transform edit is command-sized")
        for _ in 0..<10 { _ = e.undo() }
        XCTAssertEqual(e.drawing.strokes, strokes)
    }

    func testScaleAboutAPointScalesWidthsUnlessKept() throws {
        let e = editor([stroke(1, [(10, 10), (20, 10)], width: 4)])
        _ = try e.apply(.all)
        try e.apply(.scale(sx: 2, sy: 8, about: Point(10, 10), keepWidths: nil))
        var s = try XCTUnwrap(e.drawing.stroke(1))
        XCTAssertEqual(s.points.map(\.point), [Point(10, 10), Point(30, 10)])
        XCTAssertEqual(s.style.width, 16, "√(2·8) = 4 times wider")
        e.keepLineWidths = true
        try e.apply(.scale(sx: 0.5, sy: 0.5, about: Point(10, 10), keepWidths: nil))
        s = try XCTUnwrap(e.drawing.stroke(1))
        XCTAssertEqual(s.style.width, 16, "keep line widths")
        try e.apply(.scale(sx: -1, sy: 1, about: Point(10, 10), keepWidths: false))
        s = try XCTUnwrap(e.drawing.stroke(1))
        XCTAssertEqual(s.points.map(\.point), [Point(10, 10), Point(0, 10)], "a mirror keeps the width: |det| = 1")
        XCTAssertEqual(s.style.width, 16)
        _ = e.undo(); _ = e.undo(); _ = e.undo()
        XCTAssertEqual(e.drawing.stroke(1)?.style.width, 4)
        XCTAssertEqual(e.drawing.stroke(1)?.transform, .identity)
    }

    func testRotateIsCounterClockwiseOnScreen() throws {
        let e = editor([stroke(1, [(10, 0), (20, 0)])])
        _ = try e.apply(.all)
        try e.apply(.rotate(degrees: 90, about: Point(0, 0)))
        // Screen y grows down: counter-clockwise takes +x to -y (up).
        XCTAssertEqual(e.drawing.stroke(1)?.points.map(\.point), [Point(0, -10), Point(0, -20)])
        for _ in 0..<3 { try e.apply(.rotate(degrees: 90, about: Point(0, 0))) }
        XCTAssertEqual(e.drawing.stroke(1)?.points.map(\.point), [Point(10, 0), Point(20, 0)], "four quarter turns are exact")
        try e.apply(.rotate(degrees: 45, about: Point(0, 0)))
        let p = try XCTUnwrap(e.drawing.stroke(1)?.points.first)
        XCTAssertEqual(p.x, 10 / 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(p.y, -10 / 2.0.squareRoot(), accuracy: 1e-9)
        for _ in 0..<5 { _ = e.undo() }
        XCTAssertEqual(e.drawing.stroke(1)?.points.map(\.point), [Point(10, 0), Point(20, 0)])
    }

    func testTransformBeyondThePageLimitsIsRefusedAndChangesNothing() throws {
        let e = editor([stroke(1, [(10, 10), (20, 10)])])
        _ = try e.apply(.all)
        XCTAssertThrowsError(try e.apply(.scale(sx: 1e9, sy: 1, about: Point(0, 0), keepWidths: true)))
        XCTAssertThrowsError(try e.apply(.translate(dx: 2e9, dy: 0)))
        XCTAssertThrowsError(try e.apply(.scale(sx: 1e6, sy: 1e6, about: Point(10, 10), keepWidths: false)), "width 3e6")
        XCTAssertEqual(e.drawing.stroke(1)?.transform, .identity)
        XCTAssertEqual(e.history.undoStack.count, 1)
    }

    func testAnAreaEraserCutOfAMovedStrokeKeepsWhereItIsShown() throws {
        let e = editor([stroke(1, (0...20).map { (Double($0) * 5, 0) }, width: 2)])
        _ = try e.apply(.all)
        try e.apply(.translate(dx: 0, dy: 100))
        e.tool = .areaEraser
        e.style.width = 10
        e.play(gesture(5, [(50, 80), (50, 120)]))
        let pieces = e.drawing.strokes
        XCTAssertEqual(pieces.count, 2)
        for p in pieces {
            XCTAssertEqual(p.transform, .identity, "pieces are baked where they were shown")
            XCTAssertTrue(p.points.allSatisfy { $0.y == 100 })
        }
    }

    // MARK: other operations

    func testDeleteAndUndo() throws {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 300)])
        box(e, (-5, 90), (200, 110))
        try e.apply(.delete)
        XCTAssertEqual(e.drawing.strokes.map(\.id), [2])
        XCTAssertEqual(e.selection, [])
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map(\.id), [1, 2])
        _ = e.redo()
        XCTAssertEqual(e.drawing.strokes.map(\.id), [2])
    }

    func testDuplicateOffsetsTheCopyAndSelectsIt() throws {
        let e = editor([row(1, x0: 0, y: 100)])
        _ = try e.apply(.all)
        try e.apply(.duplicate(dx: 20, dy: 20))
        XCTAssertEqual(e.drawing.strokes.count, 2)
        let copy = try XCTUnwrap(e.drawing.strokes.last)
        XCTAssertEqual(e.selection, [copy.id])
        XCTAssertEqual(copy.points.first?.point, Point(20, 120))
        XCTAssertEqual(copy.drawnPoints, e.drawing.stroke(1)?.points, "the copy shares the drawn points and carries a transform")
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map(\.id), [1])
        _ = e.redo()
        XCTAssertEqual(e.drawing.strokes.count, 2)
    }

    func testRestyleChangesColourAndWidthInPlace() throws {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 110), row(3, x0: 0, y: 300)])
        box(e, (-5, 95), (200, 105))
        let red = try XCTUnwrap(RGBA(hex: "#ff0000"))
        try e.apply(.style(color: red, keepsAlpha: true, width: 9))
        let items = e.drawing.strokes
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items[0].style.color, red, "still the bottom stroke")
        XCTAssertEqual(items[0].style.width, 9)
        XCTAssertEqual(items[1].style.color, .black)
        XCTAssertEqual(e.selection, [items[0].id])
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map(\.id), [1, 2, 3])
        XCTAssertEqual(e.drawing.stroke(1)?.style.width, 4)
        _ = e.redo()
        XCTAssertEqual(e.drawing.strokes.first?.style.width, 9)
    }

    func testRestyleFillsAndDashesTheSelectionAsOneUndoableEdit() throws {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 110), row(3, x0: 0, y: 300)])
        _ = try e.apply(.all)
        // As the app's fill and line choices send them, from a log line.
        guard case .selection(let fill)? = try EventLog.event(fromLine: #"{"type":"selection","op":"style","fill":128,"style":"dash"}"#) else {
            return XCTFail("a selection style line")
        }
        try e.apply(fill)
        XCTAssertEqual(e.drawing.strokes.map(\.style.fill), [128, 128, 128])
        XCTAssertEqual(e.drawing.strokes.map(\.style.line), [.dash, .dash, .dash])
        XCTAssertEqual(e.drawing.strokes.map(\.style.color), [.black, .black, .black], "colour untouched")
        XCTAssertEqual(e.selection.count, 3, "still selected")
        try e.apply(.style(color: nil, keepsAlpha: false, width: nil, fill: -1))
        XCTAssertEqual(e.drawing.strokes.map(\.style.fill), [nil, nil, nil], "-1 takes the fill away")
        XCTAssertEqual(e.drawing.strokes.map(\.style.line), [.dash, .dash, .dash], "the dashes stay")
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map(\.style.fill), [128, 128, 128])
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map(\.style.fill), [nil, nil, nil], "one undo takes the whole restyle back")
        XCTAssertEqual(e.drawing.strokes.map(\.style.line), [.solid, .solid, .solid])
        XCTAssertThrowsError(try EventLog.event(fromLine: #"{"type":"selection","op":"style","fill":300}"#))
    }

    func testFrontAndBackChangeTheDrawingOrder() throws {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 200), row(3, x0: 0, y: 300)])
        box(e, (-5, 95), (200, 105))   // stroke 1
        try e.apply(.front)
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [200, 300, 100])
        box(e, (-5, 295), (200, 305))   // stroke 3
        try e.apply(.back)
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [300, 200, 100])
        box(e, (-5, 195), (200, 205))
        try e.apply(.back)
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [200, 300, 100], "back again below a stroke already sent back")
        XCTAssertLessThan(e.drawing.strokes[0].drawKey, 1)
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [300, 200, 100])
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [200, 300, 100])
        _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [100, 200, 300])
        _ = e.redo(); _ = e.redo(); _ = e.redo()
        XCTAssertEqual(e.drawing.strokes.map { $0.points[0].y }, [200, 300, 100])
    }

    func testCutCopyAndPaste() throws {
        let e = editor([row(1, x0: 0, y: 100), row(2, x0: 0, y: 300)])
        box(e, (-5, 95), (200, 105))
        var clipboard = try XCTUnwrap(e.clipped(by: .copy))
        try e.apply(.copy)
        XCTAssertEqual(e.history.undoStack.count, 2, "copy is no edit")
        try e.apply(.paste(at: nil), pasting: clipboard)
        XCTAssertEqual(e.drawing.strokes.last?.points.first?.point, Point(20, 120), "copied place + (20, 20)")
        try e.apply(.paste(at: Point(500, 500)), pasting: clipboard)
        let placed = try XCTUnwrap(e.drawing.strokes.last)
        XCTAssertEqual(placed.bounds.map { ($0.minX + $0.maxX) / 2 }, 500)
        XCTAssertEqual(placed.bounds.map { ($0.minY + $0.maxY) / 2 }, 500)
        XCTAssertEqual(e.selection, [placed.id])
        box(e, (-5, 295), (200, 305))
        clipboard = try XCTUnwrap(e.clipped(by: .cut))
        try e.apply(.cut)
        XCTAssertEqual(e.drawing.strokes.count, 3)
        try e.apply(.paste(at: nil), pasting: clipboard)
        XCTAssertEqual(e.drawing.strokes.last?.points.first?.point, Point(20, 320))
        for _ in 0..<4 { _ = e.undo() }
        XCTAssertEqual(e.drawing.strokes.map(\.id), [1, 2])
        for _ in 0..<4 { _ = e.redo() }
        XCTAssertEqual(e.drawing.strokes.count, 4)
    }

    func testASelectionLivesOnOnePageAndPasteGoesToAnother() throws {
        let e = editor([row(1, x0: 0, y: 100)])
        _ = try e.apply(.all)
        let clipboard = try XCTUnwrap(e.clipped(by: .copy))
        _ = e.addPage()
        XCTAssertEqual(e.selection, [], "changing pages clears the selection")
        try e.apply(.paste(at: nil), pasting: clipboard)
        XCTAssertEqual(e.currentPage, 1)
        XCTAssertEqual(e.drawing.strokes.count, 1)
        XCTAssertEqual(e.drawing.strokes[0].page, e.page.id)
        try e.apply(.translate(dx: 10, dy: 0))
        XCTAssertEqual(e.drawing.strokes[0].points[0].point, Point(30, 120))
        XCTAssertEqual(e.document.pages[0].strokes[0].points[0].point, Point(0, 100), "the first page's stroke stayed")
        _ = e.undo(); _ = e.undo()
        XCTAssertEqual(e.drawing.strokes.count, 0)
        _ = e.redo(); _ = e.redo()
        XCTAssertEqual(e.drawing.strokes[0].points[0].point, Point(30, 120))
    }

    func testOperationsWithoutASelectionDoNothing() throws {
        let e = editor([row(1, x0: 0, y: 100)])
        let ops: [SelectionOp] = [.translate(dx: 1, dy: 1), .scale(sx: 2, sy: 2, about: Point(0, 0), keepWidths: nil),
                                  .rotate(degrees: 30, about: Point(0, 0)), .delete, .duplicate(dx: 20, dy: 20),
                                  .style(color: .black, keepsAlpha: false, width: 3), .front, .back, .copy, .cut, .paste(at: nil), .none]
        for op in ops {
            XCTAssertNil(e.clipped(by: op), "nothing selected, nothing to copy")
            try e.apply(op)
        }
        XCTAssertEqual(e.history.undoStack.count, 1)
        XCTAssertEqual(e.drawing.strokes.map(\.id), [1])
    }

    func testClipboardInkDrawsTheSameStrokesAgain() throws {
        let e = editor([stroke(1, [(10, 10), (20, 15), (40, 12)], width: 5, pressure: 0.7), row(2, x0: 0, y: 100, n: 4)])
        _ = try e.apply(.all)
        try e.apply(.rotate(degrees: 30, about: Point(0, 0)))
        let text = ClipboardInk.eventLog(of: e.selectedStrokes)
        let again = try XCTUnwrap(ClipboardInk.strokes(fromEventLog: Array(text.utf8)))
        XCTAssertEqual(again.count, 2)
        for (a, b) in zip(again, e.selectedStrokes) {
            XCTAssertEqual(a.style.width, b.style.width)
            XCTAssertEqual(a.style.color, b.style.color)
            XCTAssertEqual(a.points.map(\.point), b.points.map(\.point), "placed points, transform baked")
            XCTAssertEqual(a.points.map(\.pressure), b.points.map(\.pressure))
        }
        XCTAssertNil(ClipboardInk.strokes(fromEventLog: Array("not a log".utf8)))
        let d = try XCTUnwrap(ClipboardInk.drawing(of: e.selectedStrokes))
        XCTAssertEqual(Rect.union(of: d.strokes.compactMap(\.inkBounds))?.minX ?? -1, 0, accuracy: 1e-9, "the ink starts at the page's corner")
    }

    // MARK: event log

    func testEventLogSelectionLines() throws {
        let log = """
        {"type":"tool","tool":"pen"}
        {"type":"touch","phase":"began","id":1,"x":0,"y":100}
        {"type":"touch","phase":"moved","id":1,"x":50,"y":100}
        {"type":"touch","phase":"ended","id":1,"x":100,"y":100}
        {"type":"tool","tool":"lasso"}
        {"type":"touch","phase":"began","id":2,"x":-10,"y":50}
        {"type":"touch","phase":"moved","id":2,"x":120,"y":50}
        {"type":"touch","phase":"moved","id":2,"x":120,"y":150}
        {"type":"touch","phase":"ended","id":2,"x":-10,"y":150}
        {"type":"selection","op":"translate","dx":5,"dy":7}
        {"type":"selection","op":"duplicate"}
        """
        let e = try EventLogReplay.replay(log + "\n")
        XCTAssertEqual(e.drawing.strokes.count, 2)
        XCTAssertEqual(e.selectedStrokes.count, 1)
        XCTAssertEqual(e.drawing.strokes[0].bounds?.minX, 5)
        XCTAssertEqual(e.drawing.strokes[0].bounds?.minY, 107)
        XCTAssertEqual(e.drawing.strokes[1].bounds?.minY, 127)
    }

    func testEventLogRefusesBadSelectionLines() {
        func error(_ line: String) -> String? {
            do { _ = try EventLogReplay.replay("{\"type\":\"tool\",\"tool\":\"pen\"}\n" + line + "\n"); return nil } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(error(#"{"type":"selection","op":"scale","sx":0,"sy":1,"x":0,"y":0}"#),
                       #"line 2: "sx" is 0 (a scale must not flatten the selection)"#)
        XCTAssertEqual(error(#"{"type":"selection","op":"rotate","degrees":1e999,"x":0,"y":0}"#), #"line 2: "degrees" is not a finite number"#)
        XCTAssertEqual(error(#"{"type":"selection","op":"spin"}"#)?.hasPrefix(#"line 2: unknown selection op "spin""#), true)
        XCTAssertEqual(error(#"{"type":"selection","op":"paste","x":3}"#), #"line 2: paste needs both "x" and "y", or neither"#)
        XCTAssertNil(error(#"{"type":"selection","op":"translate","dx":1e12,"dy":0}"#), "no selection: a no-op")
        let beyond = """
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":10,"y":0}
        {"type":"selection","op":"all"}
        {"type":"selection","op":"translate","dx":1e12,"dy":0}
        """
        XCTAssertEqual(error(beyond)?.hasPrefix("line 5: that would move ink beyond the page limits"), true)
        // Within the coordinate limits and the width limit, but a placement no file or board takes (x scaled 1e10).
        let blownUp = """
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":0.001,"y":0.001}
        {"type":"selection","op":"all"}
        {"type":"selection","op":"scale","sx":100000,"sy":0.00001,"x":0,"y":0}
        {"type":"selection","op":"scale","sx":100000,"sy":0.00001,"x":0,"y":0}
        """
        XCTAssertEqual(error(blownUp)?.hasPrefix("line 6: that would move ink beyond the page limits"), true, error(blownUp) ?? "no error")
    }

    func testAHugeZigzagLoopIsThinnedNotSlow() {
        // 200,000 vertices of full-height zigzag: kept to `maxVertices`, so the bands stay small.
        let zigzag = (0..<200_000).map { Point(Double($0) * 0.01, $0 % 2 == 0 ? 0 : 1000) } + [Point(2000, 2000), Point(0, 2000)]
        let loop = Lasso(zigzag)
        XCTAssertEqual(loop?.points.count, Lasso.maxVertices)
        XCTAssertEqual(loop?.contains(Point(500, 1200)), true, "below the zigzag, inside the loop")
        XCTAssertEqual(loop?.contains(Point(500, 2500)), false)
    }

    func testLassoOverAnIndexSelectsOnlyNearbyStrokesQuickly() {
        // Correctness on many strokes: a loop around a block of a grid takes exactly that block.
        var strokes: [Stroke] = []
        var id: StrokeID = 1
        for gy in 0..<20 { for gx in 0..<20 {
            strokes.append(stroke(id, [(Double(gx) * 50, Double(gy) * 50), (Double(gx) * 50 + 20, Double(gy) * 50 + 20)])); id += 1
        } }
        let d = Drawing(strokes: strokes)
        let loop = Lasso([Point(95, 95), Point(305, 95), Point(305, 305), Point(95, 305)])!
        let picked = SelectionArea.loop(loop).strokes(of: d, rule: .whollyInside)
        XCTAssertEqual(picked.count, 16, "4 × 4 strokes start at 100…250")
    }
}
