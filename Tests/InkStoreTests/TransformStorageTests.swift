import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Moved, resized and rotated strokes in the file: points stay as drawn, the placement is stored beside them,
/// a reopened file shows them where they were moved and can undo and redo the moves; a move costs bytes per
/// stroke, never the points again.
final class TransformStorageTests: TempDirTestCase {
    private func strokes(_ n: Int, points: Int) -> [Stroke] {
        var rng = SeededRandom(seed: 5)
        return (1...n).map { i in
            Stroke(id: StrokeID(i), style: StrokeStyle(tool: .pen, color: .black, width: 3),
                   points: PenInk.stroke(points: points, start: Point(Double(i % 40) * 40, Double(i / 40) * 40), rng: &rng))
        }
    }

    func testReopenedFileKeepsMovedStrokesAndTheirUndoRedo() throws {
        let file = path("moved.oekaki")
        let doc = try DocumentFile.create(path: file, drawing: Drawing(strokes: strokes(3, points: 30)))
        // The stored (quantized) strokes, so what the editor shows compares exactly with what is read back.
        let editor = Editor(drawing: doc.drawing)
        let original = doc.drawing.strokes
        try doc.commit(try editor.apply(.all).changes)
        try doc.commit(try editor.apply(.translate(dx: 100, dy: 50)).changes)
        try doc.commit(try editor.apply(.rotate(degrees: 30, about: Point(200, 200))).changes)
        try doc.commit(try editor.apply(.scale(sx: 2, sy: 0.5, about: Point(0, 0), keepWidths: false)).changes)
        try doc.commit(editor.undo().changes)   // the scale waits on the redo stack
        let shown = editor.drawing.strokes
        doc.close()

        let back = try DocumentFile.open(path: file)
        XCTAssertEqual(back.drawing.strokes.map(\.transform), shown.map(\.transform), "placements read back bit for bit")
        XCTAssertEqual(back.drawing.strokes.map(\.style.width), shown.map(\.style.width))
        assertSameStrokes(back.drawing.strokes, shown)
        XCTAssertEqual(back.drawing.strokes.map(\.drawnPoints), original.map(\.points), "points stay as drawn")
        XCTAssertEqual(back.history.undoStack, editor.history.undoStack, "transform edits read back exactly")
        XCTAssertEqual(back.history.redoStack, editor.history.redoStack)

        let again = Editor(drawing: back.drawing, history: back.history)
        try back.commit(again.redo().changes)
        XCTAssertEqual(again.drawing.strokes.first?.style.width, 3 * 1.0.squareRoot())
        try back.commit(again.undo().changes)
        try back.commit(again.undo().changes)
        try back.commit(again.undo().changes)
        XCTAssertEqual(again.drawing.strokes.map(\.transform), [.identity, .identity, .identity])
        XCTAssertEqual(again.drawing.strokes.map(\.points), original.map(\.points))
        back.close()
        let last = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(last.drawing.strokes.map(\.transform), [.identity, .identity, .identity])
        XCTAssertEqual(last.history.redoStack.count, 3)
    }

    func testDuplicatesAndStrokesSentToTheBackRoundTrip() throws {
        let file = path("order.oekaki")
        let editor = Editor(drawing: Drawing(strokes: strokes(3, points: 10)))
        let doc = try DocumentFile.create(path: file, drawing: editor.drawing, history: editor.history)
        _ = try editor.apply(.all)
        try doc.commit(try editor.apply(.translate(dx: 5, dy: 5)).changes)
        try doc.commit(try editor.apply(.duplicate(dx: 20, dy: 20)).changes)
        try doc.commit(try editor.apply(.back).changes)
        XCTAssertLessThan(editor.drawing.strokes[0].drawKey, 1)
        doc.close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.drawing.strokes.map(\.id), editor.drawing.strokes.map(\.id), "the back-sent copies come first")
        XCTAssertEqual(back.drawing.strokes.map(\.transform), editor.drawing.strokes.map(\.transform))
        XCTAssertEqual(StrokeStreamOrder.ids(file), editor.drawing.strokes.map(\.id), "streaming reads keep that order")
    }

    func testMovingManyStrokesCostsBytesPerStrokeNotPoints() throws {
        let file = path("many.oekaki")
        let n = 1000
        let editor = Editor(drawing: Drawing(strokes: strokes(n, points: 20)))
        let doc = try DocumentFile.create(path: file, drawing: editor.drawing, history: editor.history)
        doc.close()
        let size0 = try fileSize(file)
        _ = try editor.apply(.all)
        var rw = try DocumentFile.open(path: file)
        try rw.commit(try editor.apply(.translate(dx: 0, dy: 1)).changes)
        rw.close()
        let first = try fileSize(file) - size0
        XCTAssertLessThanOrEqual(first, 64 * n, "\(first) bytes for the first move of \(n) strokes")
        rw = try DocumentFile.open(path: file)
        for k in 1..<10 { try rw.commit(try editor.apply(.translate(dx: Double(k), dy: 1)).changes) }
        rw.close()
        let next = try fileSize(file) - size0 - first
        XCTAssertLessThanOrEqual(next, 9 * 8 * n, "\(next) bytes for nine more moves: the placements are updated in place")
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.drawing.strokes.last?.transform, .translation(45, 10))
        XCTAssertEqual(back.history.undoStack.count, 10)
    }

    func testDamagedPlacementsAreRefused() throws {
        let file = path("bad.oekaki")
        let editor = Editor(drawing: Drawing(strokes: strokes(2, points: 5)))
        let doc = try DocumentFile.create(path: file, drawing: editor.drawing, history: editor.history)
        _ = try editor.apply(.all)
        try doc.commit(try editor.apply(.translate(dx: 1, dy: 1)).changes)
        doc.close()
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        try db.execute("UPDATE strokes SET transform = x'0011' WHERE id = 1")
        db.close()
        XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) { XCTAssertTrue("\($0)".contains("stroke 1 has a stroke transform of 2 bytes"), "\($0)") }
        let db2 = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        try db2.execute("UPDATE strokes SET transform = NULL WHERE id = 1; UPDATE history SET placement = x'01'")
        db2.close()
        XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) { XCTAssertTrue("\($0)".contains("transform ends early"), "\($0)") }
    }

    private func fileSize(_ p: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: p)[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// The ids a streaming read gives, in its order.
enum StrokeStreamOrder {
    static func ids(_ file: String) -> [StrokeID] {
        guard let s = try? StrokeStream.open(path: file) else { return [] }
        var out: [StrokeID] = []
        try? s.forEachStroke { out.append($0.id) }
        return out
    }
}
