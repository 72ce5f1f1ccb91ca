import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Layers in the .oekaki format (from format 13): every layer operation is committed, undone and redone, and after
/// each step the reopened file holds exactly the editor's layers (ids, order, names, visibility, which layer each
/// item is on) and a history that undoes and redoes them after reopening; a format-12 file opens as one layer a page.
final class LayerStorageTests: TempDirTestCase {
    /// Per page, per layer bottom first: "id name visible every: item ids".
    private func shape(_ d: Document) -> [[String]] {
        d.pages.map { p in
            p.layers.map { l in "\(l.id) \(l.name) \(l.visible) \(l.everyPage): \(l.drawing.strokes.map { "\($0.id)@\($0.layer)" }.joined(separator: " "))" }
        }
    }

    private func draw(_ e: Editor, at y: Double) -> Update {
        var u = Update()
        for (i, x) in stride(from: 10.0, through: 110, by: 20).enumerated() {
            let phase: InputEvent.Phase = i == 0 ? .began : (x >= 110 ? .ended : .moved)
            u.merge(e.handle(InputEvent(pointer: 1, phase: phase, point: InkPoint(x: x, y: y), device: .pen)))
        }
        return u
    }

    private func commit(_ u: Update, _ doc: DocumentFile, _ e: Editor, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(u.changes.isEmpty, what, file: file, line: line)
        try doc.commit(u.changes)
        XCTAssertEqual(shape(doc.document), shape(e.document), "in memory: \(what)", file: file, line: line)
        let back = try DocumentFile.open(path: doc.path, readOnly: true)
        XCTAssertEqual(shape(back.document), shape(e.document), "reopened: \(what)", file: file, line: line)
        XCTAssertEqual(back.history.undoStack.count, e.history.undoStack.count, file: file, line: line)
        XCTAssertEqual(back.history.redoStack.count, e.history.redoStack.count, file: file, line: line)
    }

    func testEveryLayerOperationDoneUndoneAndRedonePersistsAcrossReopening() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(PagePreset.a4.size))]))
        let doc = try DocumentFile.create(path: path("l.oekaki"), document: e.document)
        try commit(draw(e, at: 10), doc, e, "ink on Layer 1")
        try commit(e.addLayer(named: "Notes 📝"), doc, e, "add a layer")
        try commit(draw(e, at: 20), doc, e, "ink on Notes")
        try commit(e.addPage(), doc, e, "add a page")
        _ = e.goToPage(0)
        try commit(e.addLayer(named: "Answers", allPages: true), doc, e, "a notebook layer")
        try commit(draw(e, at: 30), doc, e, "ink on Answers")
        try commit(try e.setLayerVisible(.name("Answers"), false), doc, e, "hide by name")
        try commit(try e.renameLayer(.index(1), to: "Notes, renamed"), doc, e, "rename")
        try commit(try e.moveLayer(.index(2), by: -2), doc, e, "move to the bottom")
        e.selectLayer(1)
        _ = try e.apply(.all)
        XCTAssertFalse(e.selection.isEmpty)
        try commit(try e.moveSelection(toLayer: 2), doc, e, "move items to a layer")
        try commit(e.addPage(), doc, e, "a later page gets the notebook layer")
        _ = e.goToPage(0)
        try commit(try e.deleteLayer(.index(1)), doc, e, "delete a layer with ink")
        try commit(try e.deleteLayer(.name("Answers")), doc, e, "delete the notebook layer everywhere")
        e.layerScope = .visible
        try commit(e.clear(), doc, e, "clear what erasers reach")
        doc.close()

        // Undo everything in a reopened file, reopening after each step; then redo everything.
        var states: [[[String]]] = []
        var file = try DocumentFile.open(path: path("l.oekaki"))
        var ed = Editor(document: file.document, history: file.history)
        while ed.history.canUndo {
            states.append(shape(ed.document))
            try file.commit(ed.undo().changes)
            file.close()
            file = try DocumentFile.open(path: path("l.oekaki"))
            XCTAssertEqual(shape(file.document), shape(ed.document), "after an undo, reopened")
            ed = Editor(document: file.document, history: file.history)
        }
        XCTAssertEqual(shape(ed.document).map(\.count), [1], "back to one page of one layer")
        while ed.history.canRedo {
            try file.commit(ed.redo().changes)
            file.close()
            file = try DocumentFile.open(path: path("l.oekaki"))
            XCTAssertEqual(shape(file.document), shape(ed.document), "after a redo, reopened")
            ed = Editor(document: file.document, history: file.history)
        }
        XCTAssertEqual(shape(ed.document), states.first, "redone to where it was")
        file.close()
    }

    /// Undoing a hide shows the layer again and nothing more: a name someone gave it since (followed from a board,
    /// outside this user's history) stays, in the editor and in the file.
    func testUndoingAHideKeepsANameGivenSince() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(PagePreset.a4.size))]))
        let doc = try DocumentFile.create(path: path("h.oekaki"), document: e.document)
        try commit(e.addLayer(named: "Answers"), doc, e, "add a layer")
        try commit(try e.setLayerVisible(.name("Answers"), false), doc, e, "hide it")
        let page = e.document.pages[0].id, layer = e.document.pages[0].layers[1].id
        let rename = Edit.layers([.look(page: page, layer: layer, from: LayerLook(name: "Answers", visible: false),
                                        to: LayerLook(name: "Solutions", visible: false))])
        _ = e.follow([rename])
        try doc.follow([rename])
        try commit(e.undo(), doc, e, "undo the hide")
        XCTAssertEqual(e.document.pages[0].layers[1].look, LayerLook(name: "Solutions", visible: true))
        try commit(e.redo(), doc, e, "redo the hide")
        XCTAssertEqual(e.document.pages[0].layers[1].look, LayerLook(name: "Solutions", visible: false))
        // The user's own rename and hide still undo one at a time, each only itself.
        try commit(try e.renameLayer(.name("Solutions"), to: "Key"), doc, e, "rename")
        try commit(e.undo(), doc, e, "undo the rename")
        XCTAssertEqual(e.document.pages[0].layers[1].look, LayerLook(name: "Solutions", visible: false))
        try commit(e.undo(), doc, e, "undo the hide again")
        XCTAssertEqual(e.document.pages[0].layers[1].look, LayerLook(name: "Solutions", visible: true))
    }

    func testCreateKeepsLayersAndTheirHistory() throws {
        let e = Editor()
        _ = draw(e, at: 10)
        e.addLayer(named: "Top")
        _ = draw(e, at: 20)
        try e.setLayerVisible(.index(0), false)
        try e.deleteLayer(.index(1))
        let doc = try DocumentFile.create(path: path("c.oekaki"), document: e.document, history: e.history)
        XCTAssertEqual(shape(doc.document), shape(e.document))
        let ed = Editor(document: doc.document, history: doc.history)
        try doc.commit(ed.undo().changes)
        XCTAssertEqual(ed.page.layers.map(\.name), ["Layer 1", "Top"], "the deleted layer comes back from the file")
        XCTAssertEqual(ed.page.layers[1].drawing.strokes.count, 1)
        doc.close()
        XCTAssertEqual(shape(try DocumentFile.open(path: path("c.oekaki"), readOnly: true).document), shape(ed.document))
    }

    func testAFormat12FileOpensAsOneLayerAPage() throws {
        let e = Editor()
        _ = draw(e, at: 10)
        _ = e.addPage()
        _ = draw(e, at: 20)
        let doc = try DocumentFile.create(path: path("old.oekaki"), document: e.document, history: e.history)
        doc.close()
        // Back to format 12 as it was: no layer tables.
        let db = try SQLiteDatabase(path: path("old.oekaki"), mode: .readWrite(create: false))
        try db.execute("DROP TABLE layers; DROP TABLE stroke_layers; ALTER TABLE pages DROP COLUMN picture; PRAGMA user_version = 12")
        db.close()
        let old = try DocumentFile.open(path: path("old.oekaki"))
        XCTAssertEqual(old.foundVersion, 12)
        XCTAssertEqual(old.document.pages.map { $0.layers.map(\.name) }, [["Layer 1"], ["Layer 1"]])
        XCTAssertEqual(old.document.pages.map { $0.layers[0].id }, old.document.pages.map(\.id))
        XCTAssertEqual(old.document.pages.map(\.strokeCount), [1, 1])
        let ed = Editor(document: old.document, history: old.history)
        try old.commit(ed.addLayer(named: "New").changes)
        old.close()
        XCTAssertEqual(try DocumentFile.open(path: path("old.oekaki"), readOnly: true).document.pages[0].layers.map(\.name), ["Layer 1", "New"])
    }

    func testAStreamedThumbnailSkipsHiddenLayersAndStacksTheRest() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(Size(width: 200, height: 200)))]))
        _ = draw(e, at: 10)
        e.addLayer(named: "Hidden")
        _ = draw(e, at: 20)
        e.addLayer(named: "Top")
        _ = draw(e, at: 30)
        try e.setLayerVisible(.index(1), false)
        try e.moveLayer(.index(2), by: -2)
        let doc = try DocumentFile.create(path: path("t.oekaki"), document: e.document, history: e.history)
        doc.close()
        let stream = try StrokeStream.open(path: path("t.oekaki"))
        var seen: [StrokeID] = []
        for run in try stream.evenRuns(4) { try stream.forEachStroke(in: run) { seen.append($0.id) } }
        XCTAssertEqual(seen, e.page.shownStrokes.map(\.id), "shown layers bottom to top")
        var all: [StrokeID] = []
        try stream.forEachStroke { all.append($0.id) }
        XCTAssertEqual(all, seen)
    }

    /// On a shared board someone else can draw on a layer this user added. Undoing that add takes the layer away,
    /// but not their ink, which no edit here names: it goes to the top layer (as ink whose layer is gone does),
    /// in memory and in the file, which opens again. The ink was lost here, and the file kept it on a layer that
    /// no longer existed, so it no longer opened ("stroke … is on layer …, which page … does not show").
    func testUndoingALayerSomeoneElseDrewOnKeepsTheirInkAndTheFileOpens() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(PagePreset.a4.size))]))
        let doc = try DocumentFile.create(path: path("shared.oekaki"), document: e.document)
        try commit(draw(e, at: 10), doc, e, "ink on Layer 1")
        try commit(e.addLayer(named: "Notes"), doc, e, "add a layer")
        let page = e.page.id, notes = try XCTUnwrap(e.page.layers.last?.id)
        // Their stroke on Notes, as a board brings it: followed by the file and the editor, in no history.
        var theirs = Stroke(id: 1 << 40, style: StrokeStyle(tool: .pen, color: .black, width: 2), page: page, layer: notes)
        theirs.setPoints([InkPoint(x: 50, y: 200), InkPoint(x: 150, y: 220)])
        try doc.follow([.add([theirs])])
        _ = e.follow([.add([theirs])])
        XCTAssertEqual(shape(doc.document), shape(e.document))

        try commit(e.undo(), doc, e, "undo the add of Notes")
        XCTAssertEqual(e.page.layers.count, 1)
        XCTAssertTrue(e.page.layers[0].drawing.strokes.contains { $0.id == theirs.id && $0.layer == page }, "their ink on the layer left")
        try commit(e.redo(), doc, e, "redo it: Notes comes back empty, their ink stays")
        XCTAssertEqual(e.page.layers.last?.drawing.strokes.count, 0)
        XCTAssertEqual(e.page.strokes.filter { $0.id == theirs.id }.count, 1)
        doc.close()
    }

    /// A file an earlier build left with ink on a deleted layer (the undo above) opens, that ink on the top layer.
    func testInkLeftOnADeletedLayerOpensOnTheTopLayer() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(PagePreset.a4.size))]))
        let doc = try DocumentFile.create(path: path("left.oekaki"), document: e.document)
        try commit(e.addLayer(named: "Notes"), doc, e, "add a layer")
        try commit(e.addLayer(named: "Answers"), doc, e, "add another")
        e.selectLayer(1)
        try commit(draw(e, at: 40), doc, e, "ink on Notes")
        let notes = e.page.layers[1].id, ink = try XCTUnwrap(e.page.layers[1].drawing.strokes.first?.id)
        doc.close()
        let db = try SQLiteDatabase(path: path("left.oekaki"), mode: .readWrite(create: false))
        try db.execute("UPDATE layers SET position = NULL WHERE id = \(notes); UPDATE layers SET position = 1 WHERE position = 2")
        db.close()
        let back = try DocumentFile.open(path: path("left.oekaki"), readOnly: true)
        defer { back.close() }
        XCTAssertEqual(back.document.pages[0].layers.map(\.name), ["Layer 1", "Answers"])
        XCTAssertEqual(back.document.pages[0].layers[1].drawing.strokes.map(\.id), [ink], "the ink on the top layer")
    }
}
