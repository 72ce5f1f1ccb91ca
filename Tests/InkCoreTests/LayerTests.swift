import XCTest
@testable import InkCore

/// Layers: every layer operation as one edit, done, undone and redone; where ink goes; what erasers and selection
/// reach; notebook layers on every page and on pages added later; the event log's `layer` lines and the summary.
final class LayerTests: XCTestCase {
    /// Per page, per layer bottom first: "name[-hidden]:ids".
    private func layout(_ e: Editor) -> [[String]] {
        e.document.pages.map { p in
            p.layers.map { l in "\(l.name)\(l.visible ? "" : "-hidden"):\(l.drawing.strokes.map { String($0.id) }.joined(separator: ","))" }
        }
    }

    /// Undoes every step checking each state, then redoes them all checking each state again.
    private func assertWalk(_ e: Editor, _ states: [[[String]]], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(layout(e), states.last, "now", file: file, line: line)
        for s in states.reversed().dropFirst() {
            _ = e.undo()
            XCTAssertEqual(layout(e), s, "after undo", file: file, line: line)
        }
        for s in states.dropFirst() {
            _ = e.redo()
            XCTAssertEqual(layout(e), s, "after redo", file: file, line: line)
        }
    }

    func testANewPageHasOneLayerAndInkGoesToTheCurrentLayer() throws {
        let e = Editor()
        XCTAssertEqual(e.page.layers.map(\.name), ["Layer 1"])
        XCTAssertEqual(e.page.layers[0].id, e.page.id, "a page's first layer has its id")
        let a = try XCTUnwrap(e.line(from: (10, 10), to: (100, 10)))
        XCTAssertEqual(a.layer, e.page.id)
        let u = e.addLayer(named: "Notes")
        XCTAssertTrue(u.pagesChanged, "the page repaints")
        XCTAssertEqual(e.currentLayer, 1, "the new layer is current")
        let b = try XCTUnwrap(e.line(from: (10, 50), to: (100, 50)))
        XCTAssertEqual(b.layer, e.page.layers[1].id)
        XCTAssertEqual(layout(e), [["Layer 1:\(a.id)", "Notes:\(b.id)"]])
        // Text goes to the current layer too.
        e.selectLayer(0)
        _ = e.addText(TextBox(text: "hi"), at: Point(0, 200), height: 20)
        XCTAssertEqual(e.page.layers[0].drawing.strokes.count, 2)
    }

    /// Applying layer steps to a page whose items moved since the steps were made (a shared board's doing): a
    /// delete takes only the items it names (others go to the top layer), and an item a layer brings back leaves
    /// the layer it was shown on meanwhile; no item is ever lost or shown twice.
    func testLayerStepsKeepEveryItemOnExactlyOneLayer() throws {
        let e = Editor()
        let a = try XCTUnwrap(e.line(from: (10, 10), to: (100, 10)))
        _ = e.addLayer(named: "Notes")
        let notes = e.page.layers[1]
        var page = e.page
        // Someone else's item on Notes, then the undo of adding Notes (its step names no item).
        var theirs = a
        theirs.id = 900; theirs.layer = notes.id
        page.insert(theirs)
        XCTAssertEqual(page.strays(of: .delete(page: page.id, layer: notes, at: 1)).map(\.id), [900])
        page.apply(.delete(page: page.id, layer: notes, at: 1))
        XCTAssertEqual(page.layers.map { $0.drawing.strokes.map(\.id) }, [[a.id, 900]], "their item on the top layer")
        // The layer comes back holding `a` (a delete of it undone): `a` leaves Layer 1.
        var back = notes
        back.drawing.insert(a)
        page.apply(.add(page: page.id, layer: back, at: 1))
        XCTAssertEqual(page.layers.map { $0.drawing.strokes.map(\.id) }, [[900], [a.id]])
    }

    func testEveryLayerOperationIsOneEditWithAnExactInverse() throws {
        let e = Editor()
        let a = try XCTUnwrap(e.line(from: (10, 10), to: (100, 10)))
        var states = [layout(e)]
        e.addLayer(named: "Notes"); states.append(layout(e))
        let b = try XCTUnwrap(e.line(from: (10, 50), to: (100, 50))); states.append(layout(e))
        try e.renameLayer(.index(1), to: "Answers"); states.append(layout(e))
        try e.setLayerVisible(.index(1), false); states.append(layout(e))
        try e.moveLayer(.index(1), by: -1); states.append(layout(e))
        XCTAssertEqual(layout(e), [["Answers-hidden:\(b.id)", "Layer 1:\(a.id)"]])
        try e.setLayerVisible(.name("Answers"), true); states.append(layout(e))
        e.selectLayer(1)
        _ = try e.apply(.all)
        try e.moveSelection(toLayer: 0); states.append(layout(e))
        XCTAssertEqual(layout(e), [["Answers:\(a.id),\(b.id)", "Layer 1:"]], "items keep their drawing order in the new layer")
        try e.deleteLayer(.index(0)); states.append(layout(e))
        XCTAssertEqual(layout(e), [["Layer 1:"]])
        assertWalk(e, states)
    }

    func testDeletingTheOnlyLayerLeavesOneEmptyLayer() throws {
        let e = Editor()
        e.line(from: (10, 10), to: (100, 10))
        try e.renameLayer(.index(0), to: "Ink")
        try e.deleteLayer(.index(0))
        XCTAssertEqual(e.page.layers.count, 1)
        XCTAssertEqual(e.page.layers[0].name, "Layer 1")
        XCTAssertEqual(e.page.strokeCount, 0)
        _ = e.undo()
        XCTAssertEqual(layout(e), [["Ink:1"]], "one undo brings it back")
    }

    func testNotebookLayerIsOnEveryPageAndOnPagesAddedLater() throws {
        let e = Editor()
        _ = e.addPage()
        _ = e.goToPage(0)
        e.addLayer(named: "Answers", allPages: true)
        XCTAssertEqual(e.document.pages.map { $0.layers.map(\.name) }, [["Layer 1", "Answers"], ["Layer 1", "Answers"]])
        let s = try XCTUnwrap(e.line(from: (10, 10), to: (90, 10)))
        _ = e.goToPage(1)
        let t = try XCTUnwrap(e.line(from: (10, 10), to: (90, 10)))
        XCTAssertEqual(e.document.pages[1].layers[1].drawing.strokes.map(\.id), [t.id], "the notebook layer is current on every page")
        _ = e.addPage()
        XCTAssertEqual(e.page.layers.map(\.name), ["Layer 1", "Answers"], "a later page gets it too")
        XCTAssertEqual(e.currentLayer, 1)
        // Hiding it by name is one undo step over every page.
        try e.setLayerVisible(.name("Answers"), false)
        XCTAssertEqual(e.document.pages.map { $0.layers[1].visible }, [false, false, false])
        XCTAssertTrue(e.document.pages[0].shownStrokes.isEmpty)
        XCTAssertFalse(e.document.pages[0].strokes.isEmpty, "kept, not drawn")
        _ = e.undo()
        XCTAssertEqual(e.document.pages.map { $0.layers[1].visible }, [true, true, true])
        try e.deleteLayer(.name("Answers"))
        XCTAssertEqual(e.document.pages.map { $0.layers.map(\.name) }, [["Layer 1"], ["Layer 1"], ["Layer 1"]])
        XCTAssertNil(e.document.pages[0].stroke(s.id))
        _ = e.undo()
        XCTAssertEqual(e.document.pages[0].stroke(s.id)?.layer, e.document.pages[0].layers[1].id)
        _ = e.undo()   // the page added later (the hide was undone before the delete)
        _ = e.undo()   // t
        _ = e.undo()   // s
        _ = e.undo()   // the notebook layer
        XCTAssertEqual(e.document.pages.map { $0.layers.map(\.name) }, [["Layer 1"], ["Layer 1"]], "added as one step")
    }

    func testErasersAndSelectionReachTheCurrentLayerOrEveryVisibleLayer() throws {
        let e = Editor()
        let low = try XCTUnwrap(e.line(from: (0, 100), to: (200, 100)))
        e.addLayer(named: "Top")
        let high = try XCTUnwrap(e.line(from: (0, 140), to: (200, 140)))
        e.tool = .strokeEraser
        e.play(gesture(9, [(100, 80), (100, 160)]))
        XCTAssertNotNil(e.page.stroke(low.id), "the current layer only")
        XCTAssertNil(e.page.stroke(high.id))
        _ = e.undo()
        e.layerScope = .visible
        try e.setLayerVisible(.index(1), false)
        e.play(gesture(9, [(100, 80), (100, 160)]))
        XCTAssertNil(e.page.stroke(low.id), "every visible layer")
        XCTAssertNotNil(e.page.stroke(high.id), "a hidden layer is not erased")
        _ = e.undo()
        try e.setLayerVisible(.index(1), true)
        _ = try e.apply(.all)
        XCTAssertEqual(e.selectedStrokes.map(\.id), [low.id, high.id], "bottom layer first")
        e.layerScope = .current
        _ = try e.apply(.all)
        XCTAssertEqual(e.selectedStrokes.map(\.id), [high.id])
        XCTAssertEqual(e.topmostStroke(at: Point(100, 100))?.id, nil, "the other layer's ink is not picked")
    }

    func testRenderersSeeOnlyShownLayersBottomToTop() throws {
        let e = Editor()
        let a = try XCTUnwrap(e.line(from: (0, 100), to: (200, 100)))
        e.addLayer(named: "Over")
        let b = try XCTUnwrap(e.line(from: (0, 100), to: (200, 100)))
        try e.moveLayer(.index(1), by: -1)
        XCTAssertEqual(e.page.shownStrokes.map(\.id), [b.id, a.id])
        XCTAssertEqual(e.page.shownStrokes(in: Rect(x: 0, y: 90, width: 50, height: 20)).map(\.id), [b.id, a.id])
        try e.setLayerVisible(.index(0), false)
        XCTAssertEqual(e.page.shownDrawings.count, 1)
        XCTAssertEqual(e.page.shownStrokes.map(\.id), [a.id])
    }

    func testDuplicatedPageCopiesItsLayers() throws {
        let e = Editor()
        e.line(from: (0, 100), to: (200, 100))
        e.addLayer(named: "Notes")
        e.line(from: (0, 140), to: (200, 140))
        try e.setLayerVisible(.index(0), false)
        _ = e.duplicatePage()
        let copy = e.document.pages[1]
        XCTAssertEqual(copy.layers.map(\.name), ["Layer 1", "Notes"])
        XCTAssertEqual(copy.layers.map(\.visible), [false, true])
        XCTAssertEqual(copy.layers.map { $0.drawing.strokes.count }, [1, 1])
        XCTAssertTrue(copy.strokes.allSatisfy { $0.page == copy.id && copy.layerIndex(of: $0.layer) != nil })
    }

    // MARK: event log

    func testEventLogLayerLinesAndSummary() throws {
        let log = """
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0}
        {"type":"layer","op":"add","name":"Notes"}
        {"type":"touch","phase":"began","id":1,"x":0,"y":20}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":20}
        {"type":"layer","op":"add","name":"Answers","allPages":true}
        {"type":"page","op":"add"}
        {"type":"layer","op":"select","index":1}
        {"type":"touch","phase":"began","id":1,"x":0,"y":40}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":40}
        {"type":"layer","op":"hide","name":"Answers"}
        {"type":"layer","op":"rename","index":1,"name":"Ink"}
        {"type":"page","op":"goto","index":1}
        {"type":"layer","op":"down","index":2}
        """
        let e = try EventLogReplay.replay(log)
        let json = DrawingSummary(e.document).json()
        XCTAssertTrue(json.contains(#""layers":[{"name":"Notes","visible":true,"strokes":1},{"name":"Layer 1","visible":true,"strokes":1},{"name":"Answers","visible":false,"strokes":0}]"#), json)
        XCTAssertTrue(json.contains(#""layers":[{"name":"Ink","visible":true,"strokes":1},{"name":"Answers","visible":false,"strokes":0}]"#), json)
        XCTAssertTrue(json.contains(#""page":1,"layer":1}"#) && json.contains(#""page":1,"layer":2}"#) && json.contains(#""page":2,"layer":1}"#), json)
    }

    func testDeletingAndMovingByNameInTheLog() throws {
        let e = try EventLogReplay.replay("""
        {"type":"layer","op":"add","name":"A","allPages":true}
        {"type":"layer","op":"delete","name":"A"}
        {"type":"layer","op":"delete","index":1}
        """)
        XCTAssertEqual(e.page.layers.map(\.name), ["Layer 1"], "the only layer deleted leaves one empty layer")
    }

    func testMoveLineTakesTheSelectionToALayer() throws {
        let e = try EventLogReplay.replay("""
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0}
        {"type":"layer","op":"add","name":"Top"}
        {"type":"touch","phase":"began","id":1,"x":0,"y":20}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":20}
        {"type":"layer","op":"select","index":1}
        {"type":"selection","op":"all"}
        {"type":"layer","op":"move","index":2}
        """)
        XCTAssertEqual(e.page.layers.map { $0.drawing.strokes.count }, [0, 2], "the selection went to Top")
        XCTAssertEqual(e.currentLayer, 1, "Top is current")
        XCTAssertEqual(e.selection.count, 1, "the moved item is still selected, on Top")
        _ = try e.setLayerVisible(.index(1), false)
        XCTAssertTrue(e.selection.isEmpty, "hiding a layer drops its items from the selection")
        _ = e.undo()
        _ = e.undo()
        XCTAssertEqual(e.page.layers.map { $0.drawing.strokes.count }, [1, 1])
        // Nothing selected: nothing moves, the layer becomes current.
        let none = try EventLogReplay.replay("""
        {"type":"touch","phase":"began","id":1,"x":0,"y":0}
        {"type":"touch","phase":"ended","id":1,"x":50,"y":0}
        {"type":"layer","op":"add","name":"Top"}
        {"type":"layer","op":"move","index":1}
        """)
        XCTAssertEqual(none.page.layers.map { $0.drawing.strokes.count }, [1, 0])
        XCTAssertEqual(none.currentLayer, 0)
    }

    func testMalformedLayerLinesSayWhatIsWrong() {
        let cases: [(String, String)] = [
            (#"{"type":"layer"}"#, #"line 1: missing "op""#),
            (#"{"type":"layer","op":"fold"}"#, #"line 1: unknown layer op "fold" (add, select, hide, show, delete, up, down, rename or move)"#),
            (#"{"type":"layer","op":"select"}"#, #"line 1: missing "index""#),
            (#"{"type":"layer","op":"select","index":0}"#, #"line 1: "index" 0 is not a layer number (1 or more, from the bottom)"#),
            (#"{"type":"layer","op":"hide"}"#, #"line 1: missing "index" or "name""#),
            (#"{"type":"layer","op":"hide","index":1,"name":"A"}"#, #"line 1: give "index" or "name", not both"#),
            (#"{"type":"layer","op":"rename","index":1}"#, #"line 1: missing "name""#),
            (#"{"type":"layer","op":"rename","index":1,"name":""}"#, #"line 1: "name" is empty"#),
            (#"{"type":"layer","op":"add","allPages":"yes"}"#, #"line 1: "allPages" must be true or false, not a string"#),
            (#"{"type":"layer","op":"hide","index":1.5}"#, #"line 1: "index" must be an integer, not 1.5"#),
            (#"{"type":"layer","op":"select","index":3}"#, "line 1: page 1 has no layer 3 (it has 1)"),
            (#"{"type":"layer","op":"show","name":"Nope"}"#, #"line 1: no page has a layer named "Nope""#),
            (#"{"type":"layer","op":"move"}"#, #"line 1: missing "index""#),
            (#"{"type":"layer","op":"move","index":2}"#, "line 1: page 1 has no layer 2 (it has 1)"),
        ]
        for (line, message) in cases {
            XCTAssertThrowsError(try EventLogReplay.replay(line), line) { error in
                XCTAssertEqual((error as? EventLogError)?.description, message, line)
            }
        }
    }
}
