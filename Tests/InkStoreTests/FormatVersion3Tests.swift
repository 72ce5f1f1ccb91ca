import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Format 3: the compact history table, drawing order kept through the area eraser, and the upgrade from 2.
final class FormatVersion3Tests: TempDirTestCase {
    // MARK: helpers

    @discardableResult
    func draw(_ editor: Editor, _ tool: Tool, width: Double? = nil, _ pts: [(Double, Double)], pointer: PointerID = 1) -> Update {
        editor.tool = tool
        if let width { editor.style.width = width }
        var u = Update()
        for (i, p) in pts.enumerated() {
            let phase: InputEvent.Phase = i == 0 ? .began : (i == pts.count - 1 ? .ended : .moved)
            u.merge(editor.handle(InputEvent(pointer: pointer, phase: phase, point: InkPoint(x: p.0, y: p.1), device: .pen)))
        }
        return u
    }

    static func line(_ a: (Double, Double), _ b: (Double, Double), steps: Int = 20) -> [(Double, Double)] {
        (0...steps).map { k in let t = Double(k) / Double(steps); return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t) }
    }

    /// A highlighter line, a pen line across it, then the area eraser through the middle of the highlighter.
    func cutHighlighterUnderPen(_ editor: Editor, commit: (Update) throws -> Void) throws {
        try commit(draw(editor, .highlighter, Self.line((0, 50), (200, 50))))
        try commit(draw(editor, .pen, Self.line((20, 0), (20, 100))))
        try commit(draw(editor, .areaEraser, width: 20, [(105, 0), (105, 50), (105, 100)], pointer: 9))
    }

    /// Writes `drawing` and `history` the way format 2 did (tables `edits` and `edit_strokes`).
    func writeVersion2(_ file: String, _ drawing: Drawing, _ history: History) throws {
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        defer { db.close() }
        try db.execute(Schema.steps[0])
        try db.execute(Schema.steps[1])
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 2")
        try db.statement("INSERT INTO document VALUES(1, ?, ?, ?)").bind(1, drawing.pageSize.width)
            .bind(2, drawing.pageSize.height).bind(3, Int64(drawing.background.packed)).run()
        var all: [StrokeID: (Stroke, Bool)] = [:]
        for e in history.undoStack + history.redoStack { for s in e.removed + e.added { all[s.id] = (s, false) } }
        for s in drawing.strokes { all[s.id] = (s, true) }
        for (s, present) in all.values {
            try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(?, ?, ?, ?, ?, ?)")
                .bind(1, Int64(s.id)).bind(2, s.style.tool.rawValue).bind(3, Int64(s.style.color.packed))
                .bind(4, s.style.width).bind(5, try PointCodec.encode(s.points)).bind(6, Int64(present ? 1 : 0)).run()
        }
        var editID: Int64 = 0
        for (stack, edits) in [(Int64(0), history.undoStack), (1, history.redoStack)] {
            for (position, e) in edits.enumerated() {
                editID += 1
                try db.statement("INSERT INTO edits VALUES(?, ?, ?, ?)").bind(1, editID).bind(2, stack)
                    .bind(3, Int64(position + 1)).bind(4, e.kind.rawValue).run()
                for (role, list) in [(Int64(0), e.removed), (1, e.added)] {
                    for (seq, s) in list.enumerated() {
                        try db.statement("INSERT INTO edit_strokes VALUES(?, ?, ?, ?)").bind(1, editID).bind(2, role)
                            .bind(3, Int64(seq)).bind(4, Int64(s.id)).run()
                    }
                }
            }
        }
    }

    func tables(_ file: String) throws -> Set<String> {
        let db = try SQLiteDatabase(path: file, mode: .readOnly)
        defer { db.close() }
        let q = try db.statement("SELECT name FROM sqlite_schema")
        var names = Set<String>()
        while try q.step() { names.insert(q.text(0) ?? "") }
        q.reset()
        return names
    }

    func streamed(_ file: String) throws -> [Stroke] {
        let s = try StrokeStream.open(path: file)
        defer { s.close() }
        var out: [Stroke] = []
        try s.forEachStroke { out.append($0) }
        // Cut into runs, the order is the same.
        var runs: [Stroke] = []
        for r in try s.runs(3) { try s.forEachStroke(in: r) { runs.append($0) } }
        XCTAssertEqual(runs.map(\.id), out.map(\.id), "runs cover the drawing order in order")
        return out
    }

    // MARK: tests

    /// A format-2 file with a cut stroke and both stacks: read-only reads the old layout without touching the
    /// file; read-write upgrades it once, and undo/redo continue across the upgrade.
    func testMigrationFromVersion2() throws {
        let editor = Editor()
        try cutHighlighterUnderPen(editor) { _ in }
        draw(editor, .pen, Self.line((150, 10), (190, 90)))
        _ = editor.undo()                                   // redo stack: the last pen stroke
        // Format 2 had no drawing order: what it stored is id order.
        let v2Drawing = Drawing(pageSize: editor.drawing.pageSize, strokes: editor.drawing.strokes.map {
            Stroke(id: $0.id, style: $0.style, points: $0.points)
        })
        let file = path("v2.oekaki")
        try writeVersion2(file, v2Drawing, editor.history)

        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let ro = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(ro.foundVersion, 2)
        XCTAssertEqual(ro.drawing.strokes.map(\.id), v2Drawing.strokes.map(\.id))
        assertSameHistory(ro.history, editor.history)
        XCTAssertEqual(try streamed(file).map(\.id), v2Drawing.strokes.map(\.id))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "reading a format-2 file leaves it alone")
        XCTAssertTrue(try tables(file).isSuperset(of: ["edits", "edit_strokes"]))

        let rw = try DocumentFile.open(path: file)
        XCTAssertEqual(rw.foundVersion, 2)
        assertSameHistory(rw.history, editor.history)
        let again = Editor(drawing: rw.drawing, history: rw.history)
        try rw.commit(again.redo().changes)
        try rw.commit(again.undo().changes)
        try rw.commit(again.undo().changes)                 // the cut undone: the highlighter is back
        XCTAssertEqual(again.drawing.strokes.map(\.style.tool), [.highlighter, .pen])
        rw.close()

        let v3 = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(v3.foundVersion, Schema.currentVersion)
        assertSameStrokes(v3.drawing.strokes, again.drawing.strokes)
        assertSameHistory(v3.history, again.history)
        XCTAssertEqual(v3.history.redoStack.count, 2)
        let names = try tables(file)
        XCTAssertTrue(names.contains("history") && names.contains("strokes_by_order"), "\(names)")
        XCTAssertFalse(names.contains("edits") || names.contains("edit_strokes"), "the old tables are gone: \(names)")
    }

    /// Version 1 reaches 3 through 2 (no history yet, and order = id).
    func testMigrationFromVersion1ReachesVersion3() throws {
        let file = path("v1.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        try db.execute(Schema.steps[0])
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 1")
        try db.execute("INSERT INTO document VALUES(1, 640, 480, \(0xFFFF_FFFF as UInt32))")
        for id in [3, 8] {
            let blob = try PointCodec.encode([InkPoint(x: 1, y: Double(id)), InkPoint(x: 30, y: 40)])
            try db.statement("INSERT INTO strokes VALUES(?, 'pen', 255, 2, ?)").bind(1, Int64(id)).bind(2, blob).run()
        }
        db.close()
        XCTAssertEqual(try streamed(file).map(\.id), [3, 8])
        let rw = try DocumentFile.open(path: file)
        let editor = Editor(drawing: rw.drawing, history: rw.history)
        try rw.commit(draw(editor, .areaEraser, width: 4, [(15, 0), (15, 60)], pointer: 9).changes)
        rw.close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.foundVersion, Schema.currentVersion)
        assertSameStrokes(back.drawing.strokes, editor.drawing.strokes)
        XCTAssertEqual(back.drawing.strokes.map(\.order), [3, 3, 8, 8], "pieces keep their originals' places")
        XCTAssertEqual(try streamed(file).map(\.id), editor.drawing.strokes.map(\.id))
    }

    /// The cut highlighter stays below the later pen stroke after saving and reopening, in the loaded drawing
    /// and in the streamed one; undo and redo after reopening put strokes back exactly in place.
    func testDrawingOrderSurvivesReopenWithUndoRedoAcrossEraseGestures() throws {
        let file = path("order.oekaki")
        let editor = Editor()
        let doc = try DocumentFile.create(path: file, drawing: editor.drawing)
        try cutHighlighterUnderPen(editor) { try doc.commit($0.changes) }
        // A second gesture: the stroke eraser takes the pen stroke, then that is undone.
        try doc.commit(draw(editor, .strokeEraser, width: 6, [(20, 10), (20, 20)], pointer: 9).changes)
        try doc.commit(editor.undo().changes)
        let cut = editor.drawing.strokes
        XCTAssertEqual(cut.map(\.style.tool), [.highlighter, .highlighter, .pen])
        doc.close()

        let back = try DocumentFile.open(path: file)
        assertSameStrokes(back.drawing.strokes, cut)
        XCTAssertEqual(back.drawing.strokes.map(\.order), cut.map(\.order))
        XCTAssertEqual(try streamed(file).map(\.id), cut.map(\.id), "the export stream draws in the same order")
        assertSameHistory(back.history, editor.history)

        let again = Editor(drawing: back.drawing, history: back.history)
        try back.commit(again.undo().changes)               // the cut undone
        XCTAssertEqual(again.drawing.strokes.map(\.style.tool), [.highlighter, .pen])
        XCTAssertEqual(again.drawing.strokes[0].points.count, 21, "the whole highlighter")
        try back.commit(again.redo().changes)               // and redone: pieces in place, below the pen
        assertSameStrokes(again.drawing.strokes, cut)
        try back.commit(again.undo().changes)
        back.close()

        let third = try DocumentFile.open(path: file, readOnly: true)
        assertSameStrokes(third.drawing.strokes, again.drawing.strokes)
        assertSameHistory(third.history, again.history)
        let fourth = Editor(drawing: third.drawing, history: third.history)
        _ = fourth.redo()
        assertSameStrokes(fourth.drawing.strokes, cut)
        XCTAssertEqual(fourth.drawing.strokes.map(\.order), cut.map(\.order))
    }

    /// A new edit drops the redo stack, and the strokes only it named leave the file; strokes an undo edit still
    /// names stay.
    func testDiscardedRedoDeletesOnlyUnreferencedStrokes() throws {
        let file = path("gc.oekaki")
        let editor = Editor()
        let doc = try DocumentFile.create(path: file, drawing: editor.drawing)
        try cutHighlighterUnderPen(editor) { try doc.commit($0.changes) }
        try doc.commit(editor.undo().changes)               // pieces only on the redo stack
        try doc.commit(editor.undo().changes)               // pen stroke too
        func rows() throws -> Int {
            let db = try SQLiteDatabase(path: file, mode: .readOnly)
            defer { db.close() }
            return Int(try db.integer("SELECT count(*) FROM strokes") ?? -1)
        }
        XCTAssertEqual(try rows(), 4)
        try doc.commit(draw(editor, .pen, Self.line((0, 0), (9, 9))).changes)
        XCTAssertEqual(try rows(), 2, "the two pieces and the pen stroke are gone, the new stroke is in")
        doc.close()
        let back = try DocumentFile.open(path: file)
        assertSameStrokes(back.drawing.strokes, editor.drawing.strokes)
        assertSameHistory(back.history, editor.history)
        let again = Editor(drawing: back.drawing, history: back.history)
        try back.commit(again.undo().changes)
        try back.commit(again.undo().changes)
        XCTAssertTrue(again.drawing.strokes.isEmpty)
        try back.commit(draw(again, .pen, Self.line((5, 5), (9, 9))).changes)
        XCTAssertEqual(try rows(), 1)
    }

    func testEditStrokesBlobRoundTripsAndRefusesBadBytes() throws {
        for (r, a) in [([], []), ([], [1]), ([5, 3, 9_000_000_000], [2, 2]), ([StrokeID(Int64.max)], [1])] as [([StrokeID], [StrokeID])] {
            let e = EditStrokes(removed: r, added: a)
            XCTAssertEqual(try EditStrokes(decoding: e.encoded), e)
        }
        XCTAssertEqual(EditStrokes(removed: [], added: [300]).encoded.count, 4, "one new stroke costs 4 bytes")
        for bad: [UInt8] in [[], [0], [0, 1], [0, 9, 2], [0, 1, 0], [0, 1, 1], [0, 1, 2, 7], [0xff, 0xff, 0xff],
                             [0, 1] + [UInt8](repeating: 0xff, count: 10) + [1]] {
            XCTAssertThrowsError(try EditStrokes(decoding: bad), "\(bad)")
        }
    }

    /// Issue 5's size goal with the history a drawing made in the app has: one `.add` edit per stroke.
    func testBytesPerPointWithOneEditPerStroke() throws {
        let file = path("sized.oekaki")
        let d = PenInk.drawing(strokes: 3_000)
        try DocumentFile.create(path: file, drawing: d, history: History(undo: d.strokes.map { .add([$0]) })).close()
        let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
        let perPoint = Double(size) / Double(d.pointCount)
        print(String(format: "with history: %.3f bytes/point", perPoint))
        XCTAssertLessThanOrEqual(perPoint, 3.0)
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.history.undoStack.count, 3_000)
        XCTAssertEqual(back.drawing.pointCount, d.pointCount)
    }
}
