import XCTest
import Foundation
import InkCore
@testable import InkStore

/// The pages of the .oekaki format (from format 5). Every page operation is committed, undone and redone, and after each step the reopened file
/// holds exactly the editor's pages (ids, places, formats, strokes) and history.
final class PagesFormatTests: TempDirTestCase {
    private let a4 = PageFormat.fixed(PagePreset.a4.size, Background(style: .lined, paper: RGBA(r: 255, g: 250, b: 235), spacing: 20))

    /// What a file must agree on with the editor: pages in order with their formats and stroke ids.
    private struct Shape: Equatable {
        var pages: [PageID]
        var formats: [PageFormat]
        var strokes: [[StrokeID]]
        var strokePages: [[PageID]]
        var undo: Int
        var redo: Int
        init(_ d: Document, _ h: History) {
            pages = d.pages.map(\.id); formats = d.pages.map(\.format)
            strokes = d.pages.map { $0.strokes.map(\.id) }
            strokePages = d.pages.map { $0.strokes.map(\.page) }
            undo = h.undoStack.count; redo = h.redoStack.count
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

    /// Commits `u`, then checks the reopened file against the editor.
    private func commit(_ u: Update, _ doc: DocumentFile, _ e: Editor, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(u.changes.isEmpty, what, file: file, line: line)
        try doc.commit(u.changes)
        XCTAssertEqual(Shape(doc.document, doc.history), Shape(e.document, e.history), "in memory: \(what)", file: file, line: line)
        let back = try DocumentFile.open(path: doc.path, readOnly: true)
        XCTAssertEqual(Shape(back.document, back.history), Shape(e.document, e.history), "reopened: \(what)", file: file, line: line)
        XCTAssertEqual(back.history.undoStack.map(\.shapeForTest), e.history.undoStack.map(\.shapeForTest), "reopened undo: \(what)", file: file, line: line)
        XCTAssertEqual(back.history.redoStack.map(\.shapeForTest), e.history.redoStack.map(\.shapeForTest), "reopened redo: \(what)", file: file, line: line)
    }

    func testEveryPageOperationDoneUndoneAndRedonePersists() throws {
        let e = Editor(document: Document(pages: [Page(format: a4)]))
        let doc = try DocumentFile.create(path: path("p.oekaki"), document: e.document)
        try commit(draw(e, at: 10), doc, e, "ink on page 1")
        try commit(e.addPage(), doc, e, "add page")
        try commit(draw(e, at: 20), doc, e, "ink on page 2")
        try commit(e.duplicatePage(), doc, e, "duplicate page 2")
        try commit(e.addPage(.endless), doc, e, "add an endless page")
        try commit(e.movePage(by: -1), doc, e, "move up")
        try commit(e.movePage(by: -1), doc, e, "move up again")
        try commit(e.movePage(by: 1), doc, e, "move down")
        try commit(e.setBackground(Background(style: .graph, line: RGBA(r: 10, g: 20, b: 30, a: 128), spacing: 7.5)), doc, e, "graph here")
        try commit(e.setSize(PagePreset.letter.size, allPages: true), doc, e, "letter everywhere")
        _ = e.goToPage(1)
        try commit(e.deletePage(), doc, e, "delete page 2 with its ink")
        _ = e.goToPage(0)
        try commit(e.clear(), doc, e, "clear a page")
        XCTAssertEqual(e.document.pages.count, 3)
        let steps = e.history.undoStack.count
        for k in 0..<steps { try commit(e.undo(), doc, e, "undo \(k + 1)") }
        XCTAssertEqual(e.document.pages.count, 1)
        for k in 0..<steps { try commit(e.redo(), doc, e, "redo \(k + 1)") }
        // Reopened for writing, the history goes on: undo the clear and the delete in the new session.
        doc.close()
        let again = try DocumentFile.open(path: path("p.oekaki"))
        let e2 = Editor(document: again.document, history: again.history)
        try commit(e2.undo(), again, e2, "undo the clear after reopening")
        try commit(e2.undo(), again, e2, "undo the delete after reopening")
        XCTAssertEqual(e2.document.pages.count, 4)
        XCTAssertEqual(e2.document.pages.map { $0.strokes.count }, [1, 1, 0, 1], "page 1, page 2, the endless page, the copy")
        XCTAssertEqual(e2.document.pages.map(\.isEndless), [false, false, false, false], "letter everywhere")
        XCTAssertEqual(e2.document.pages.map(\.background.style), [.lined, .lined, .graph, .lined])
    }

    /// On a shared board: I erase a stroke on page 2, someone deletes page 2, I undo the erase. The window (as
    /// `Document.apply`) has no page to show it on; the file keeps it, not shown, with its page. It showed it on the
    /// deleted page, and the file no longer opened ("stroke … is shown on deleted page …"); such a file from an
    /// earlier build opens too.
    func testAnEraseUndoneOnAPageDeletedSinceKeepsTheFileOpen() throws {
        let e = Editor(document: Document(pages: [Page(format: .fixed(PagePreset.a4.size)), Page(id: 2, format: .fixed(PagePreset.a4.size))]))
        let doc = try DocumentFile.create(path: path("erase.oekaki"), document: e.document)
        _ = e.goToPage(1)
        try doc.commit(draw(e, at: 50).changes)
        let s = try XCTUnwrap(e.page.strokes.first)
        try doc.commit([.did(.remove([s]))])
        // The board deletes page 2 (followed, outside the history), then my undo brings the stroke back.
        try doc.follow([.deletePage(try XCTUnwrap(doc.document.pages.last), at: 1)])
        try doc.commit([.undid(.remove([s]))])
        XCTAssertEqual(doc.document.pages.count, 1)
        doc.close()
        let back = try DocumentFile.open(path: path("erase.oekaki"), readOnly: true)
        XCTAssertEqual(back.document.pages.map(\.id), [e.document.pages[0].id])
        XCTAssertTrue(back.document.pages[0].strokes.isEmpty)
        back.close()

        // A file an earlier build wrote that way opens, the stroke kept with its deleted page.
        let db = try SQLiteDatabase(path: path("erase.oekaki"), mode: .readWrite(create: false))
        try db.execute("UPDATE strokes SET present = 1 WHERE id = \(s.id)")
        XCTAssertEqual(db.changes, 1)
        db.close()
        let old = try DocumentFile.open(path: path("erase.oekaki"), readOnly: true)
        XCTAssertTrue(old.document.pages[0].strokes.isEmpty)
        old.close()
    }

    func testDeletingTheOnlyPageKeepsAnEmptyPageInTheFile() throws {
        let e = Editor()
        let doc = try DocumentFile.create(path: path("one.oekaki"), document: e.document)
        try commit(draw(e, at: 10), doc, e, "ink")
        try commit(e.deletePage(), doc, e, "delete the only page")
        XCTAssertEqual(e.document.pages.count, 1)
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        try commit(e.undo(), doc, e, "undo")
    }

    /// A page added and then undone is forgotten once a new edit discards the redo stack: no row stays behind.
    func testDiscardedPagesLeaveNoRows() throws {
        let e = Editor()
        let doc = try DocumentFile.create(path: path("d.oekaki"), document: e.document)
        try commit(e.addPage(), doc, e, "add")
        try commit(draw(e, at: 10), doc, e, "ink on the new page")
        try commit(e.undo(), doc, e, "undo ink")
        try commit(e.undo(), doc, e, "undo add")
        try commit(draw(e, at: 30), doc, e, "new ink discards the redo stack")
        doc.close()
        let db = try SQLiteDatabase(path: path("d.oekaki"), mode: .readOnly)
        defer { db.close() }
        XCTAssertEqual(try db.integer("SELECT count(*) FROM pages"), 1)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM strokes"), 1)
    }

    /// A one-page file has no index of strokes by page (it never asks for a page's strokes, and the index cost
    /// 3 % of its size); the second page brings it, and each page's strokes are still found either way.
    func testTheStrokesByPageIndexComesWithTheSecondPage() throws {
        let e = Editor()
        let doc = try DocumentFile.create(path: path("i.oekaki"), document: e.document)
        try commit(draw(e, at: 10), doc, e, "ink on the first page")
        func hasIndex() throws -> Bool {
            let db = try SQLiteDatabase(path: path("i.oekaki"), mode: .readOnly)
            defer { db.close() }
            return try db.integer("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'strokes_by_page'") == 1
        }
        XCTAssertFalse(try hasIndex())
        try commit(e.addPage(), doc, e, "add a page")
        try commit(draw(e, at: 30), doc, e, "ink on the second page")
        XCTAssertTrue(try hasIndex())
        try commit(e.clear(), doc, e, "clear the second page")
        doc.close()
        let again = try DocumentFile.open(path: path("i.oekaki"))
        defer { again.close() }
        XCTAssertEqual(again.document.pages.map { $0.strokes.count }, [1, 0])
    }

    /// A format-3 file (one page in `document`) opens as one fixed page of its size and paper, upgrades in one
    /// transaction, keeps its history, and its strokes are on page 1.
    func testUpgradeFromFormat3() throws {
        let file = path("v3.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(3) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 3")
        try db.execute("INSERT INTO document VALUES(1, 800, 600, \(RGBA(r: 1, g: 2, b: 3).packed))")
        for id in [1, 2] {
            let blob = try PointCodec.encode([InkPoint(x: 1, y: Double(id)), InkPoint(x: 30, y: 40)])
            try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(?, 'pen', 255, 2, ?, ?)")
                .bind(1, Int64(id)).bind(2, blob).bind(3, Int64(id == 1 ? 1 : 0)).run()
        }
        // Stroke 1 added, stroke 2 added then removed (undo stack), so undo brings stroke 2 back.
        try db.statement("INSERT INTO history VALUES(0, 1, 0, ?)").bind(1, EditStrokes(removed: [], added: [1]).encoded).run()
        try db.statement("INSERT INTO history VALUES(0, 2, 0, ?)").bind(1, EditStrokes(removed: [], added: [2]).encoded).run()
        try db.statement("INSERT INTO history VALUES(0, 3, 1, ?)").bind(1, EditStrokes(removed: [2], added: []).encoded).run()
        db.close()

        let ro = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(ro.foundVersion, 3)
        let rw = try DocumentFile.open(path: file)
        XCTAssertEqual(rw.foundVersion, 3)
        for d in [ro.document, rw.document] {
            XCTAssertEqual(d.pages.map(\.id), [Page.firstID])
            XCTAssertEqual(d.pages[0].format, .fixed(Size(width: 800, height: 600), Background(paper: RGBA(r: 1, g: 2, b: 3))))
            XCTAssertEqual(d.pages[0].strokes.map(\.id), [1])
        }
        let e = Editor(document: rw.document, history: rw.history)
        try rw.commit(e.undo().changes)
        try rw.commit(e.addPage().changes)
        rw.close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.foundVersion, DocumentFile.formatVersion)
        XCTAssertEqual(Shape(back.document, back.history), Shape(e.document, e.history))
        XCTAssertEqual(back.document.pages.map { $0.strokes.map(\.id) }, [[1, 2], []])
        let check = try SQLiteDatabase(path: file, mode: .readOnly)
        defer { check.close() }
        XCTAssertEqual(try check.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'document'"), 0, "the old page table is gone")
    }

    /// A file from before the graph margin (format 7): no `margin` column, page edits with six format fields. It opens,
    /// upgrades, and its history still undoes and redoes.
    func testUpgradeFromBeforeTheGraphMargin() throws {
        let file = path("m.oekaki")
        let e = Editor()
        let doc = try DocumentFile.create(path: file, document: e.document)
        try doc.commit(e.addPage(a4).changes)
        try doc.commit(e.setBackground(Background(style: .graph, spacing: 10)).changes)
        doc.close()
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        try db.execute("ALTER TABLE pages DROP COLUMN margin; ALTER TABLE pages DROP COLUMN pdf; ALTER TABLE pages DROP COLUMN picture; ALTER TABLE strokes DROP COLUMN content; ALTER TABLE strokes DROP COLUMN line; DROP TABLE files; DROP TABLE board_pages; ALTER TABLE board_strokes DROP COLUMN look; DROP TABLE layers; DROP TABLE stroke_layers")
        // The format texts as format 7 wrote them: six fields a format (no margin, PDF or picture, the last three of nine).
        let rows = try db.statement("SELECT stack, position, kind, pages FROM history WHERE pages IS NOT NULL")
        var rewritten: [(Int64, Int64, String)] = []
        while try rows.step() {
            var f = (rows.text(3) ?? "").split(separator: " ").map(String.init)
            switch rows.int(2) {
            case Schema.EditKind.addPage.rawValue, Schema.EditKind.deletePage.rawValue: f.removeLast(3)
            case Schema.EditKind.setFormat.rawValue: f.removeLast(3); f.removeSubrange(7...9)
            default: break
            }
            rewritten.append((rows.int(0), rows.int(1), f.joined(separator: " ")))
        }
        rows.reset()
        XCTAssertEqual(rewritten.count, 2)
        for (stack, position, text) in rewritten {
            try db.statement("UPDATE history SET pages = ? WHERE stack = ? AND position = ?").bind(1, text).bind(2, stack).bind(3, position).run()
        }
        try db.execute("PRAGMA user_version = \(Schema.marginVersion - 1)")
        db.close()
        let old = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(old.foundVersion, Schema.marginVersion - 1)
        XCTAssertEqual(Shape(old.document, old.history), Shape(e.document, e.history))
        let rw = try DocumentFile.open(path: file)
        let e2 = Editor(document: rw.document, history: rw.history)
        try commit(e2.undo(), rw, e2, "undo the graph after the upgrade")
        try commit(e2.undo(), rw, e2, "undo the page after the upgrade")
        try commit(e2.redo(), rw, e2, "redo the page")
        XCTAssertEqual(e2.document.pages.map(\.format), [PageFormat.endless, a4])
        rw.close()
        XCTAssertEqual(try DocumentFile.open(path: file, readOnly: true).foundVersion, DocumentFile.formatVersion)
    }

    /// Every page a stored page edit names is checked as strictly as the pages themselves.
    func testStoredPageEditsAreChecked() throws {
        let e = Editor()
        let doc = try DocumentFile.create(path: path("c.oekaki"), document: e.document)
        try doc.commit(e.addPage(a4).changes)
        doc.close()
        let cases: [(String, String)] = [
            ("UPDATE history SET pages = '2 1'", "has 2 fields, not 11"),
            ("UPDATE history SET pages = '2 1 1e12 5 plain #ffffffff #000000ff 24'", "page size 1000000000000.0"),
            ("UPDATE history SET pages = '2 1 - - checkered #ffffffff #000000ff 24'", "unknown background 'checkered'"),
            ("UPDATE history SET pages = '2 1 - - plain #ffffffff #000000ff 0'", "spacing '0'"),
            ("UPDATE history SET pages = NULL", "edits pages but does not say how"),
            ("UPDATE pages SET position = NULL", "no page"),
        ]
        for (sql, words) in cases {
            let copy = path("c-\(words.count).oekaki")
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: path("c.oekaki"), toPath: copy)
            let db = try SQLiteDatabase(path: copy, mode: .readWrite(create: false))
            try db.execute(sql)
            db.close()
            XCTAssertThrowsError(try DocumentFile.open(path: copy, readOnly: true), sql) {
                XCTAssertTrue("\($0)".contains(words) && "\($0)".contains("damaged"), "\(sql): \($0)")
            }
        }
    }
}

private extension Edit {
    /// An edit as stored: kind, stroke ids and the page text (points are quantized by the codec, so not compared).
    var shapeForTest: String {
        "\(kind) \(removed.map(\.id)) \(added.map(\.id)) \(PageEditText.encode(self) ?? "")"
    }
}
