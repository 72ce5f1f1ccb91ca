import Foundation
import InkCore
@testable import InkStore
import XCTest

/// `StrokeStream`: the strokes a streaming export sees are the ones a full open gives, in the same order,
/// however the drawing is cut into runs, and a damaged file is refused with the same words.
final class StrokeStreamTests: TempDirTestCase {
    /// `count` pen strokes with ids 1…count, of varied lengths so runs by stored size differ from runs by count.
    func drawing(_ count: Int, seed: UInt64 = 3) -> Drawing {
        var rng = SeededRandom(seed: seed)
        var strokes: [Stroke] = []
        for i in 1...max(count, 1) where count > 0 {
            let style = i % 5 == 0 ? StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 12) : StrokeStyle(tool: .pen, color: .black, width: 3)
            let start = Point(100 + Double(i % 40) * 10, 100)
            strokes.append(Stroke(id: StrokeID(i), style: style, points: PenInk.stroke(points: 5 + (i * 37) % 120, start: start, rng: &rng)))
        }
        return Drawing(pageSize: Size(width: 800, height: 600), strokes: strokes)
    }

    /// A document whose drawing is `d` minus the strokes `removed` removes, with that removal undoable.
    func document(_ d: Drawing, removing removed: [StrokeID] = []) throws -> String {
        let file = path("doc.oekaki")
        let doc = try DocumentFile.create(path: file, drawing: d)
        if !removed.isEmpty { try doc.commit([.did(.remove(removed.compactMap { d.stroke($0) }))]) }
        doc.close()
        return file
    }

    func streamed(_ s: StrokeStream, run: StrokeStream.Run? = nil) throws -> [Stroke] {
        var out: [Stroke] = []
        try s.forEachStroke(in: run) { out.append($0) }
        return out
    }

    func testStreamGivesTheLiveStrokesOfAFullOpenInOrder() throws {
        let file = try document(drawing(60), removing: [7, 8, 30])
        let full = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(full.drawing.strokes.count, 57)
        let s = try StrokeStream.open(path: file)
        defer { s.close() }
        XCTAssertEqual(s.pageSize, full.drawing.pageSize)
        XCTAssertEqual(s.background, full.drawing.background)
        XCTAssertEqual(try streamed(s), full.drawing.strokes)
        for k in 1...7 {
            let runs = try s.runs(k)
            XCTAssertEqual(runs.count, k, "60 rows make \(k) runs")
            XCTAssertFalse(runs.contains { $0.rows == 0 })
            XCTAssertEqual(runs.reduce(0) { $0 + $1.rows }, 60, "removed rows are read (and checked) too")
            XCTAssertEqual(try runs.flatMap { try streamed(s, run: $0) }, full.drawing.strokes, "\(k) runs")
        }
    }

    /// Runs cut from the ids alone cover the drawing in order as well, with about the same number of rows each,
    /// a stroke moved to the front or back (drawn by its order, not its id) included.
    func testEvenRunsCoverTheDrawingInOrder() throws {
        var d = drawing(90)
        var moved = d.strokes[10]
        _ = d.remove(moved.id)
        moved.order = 1_000
        d.insert(moved)
        var back = d.strokes[50]
        _ = d.remove(back.id)
        back.order = StrokeID(bitPattern: -5)
        d.insert(back)
        let file = try document(d, removing: [7, 8])
        let full = try DocumentFile.open(path: file, readOnly: true)
        let s = try StrokeStream.open(path: file)
        defer { s.close() }
        for k in [1, 2, 3, 7, 200] {
            let runs = try s.evenRuns(k)
            XCTAssertEqual(runs.count, min(k, 90), "\(k) runs")
            XCTAssertEqual(runs.reduce(0) { $0 + $1.rows }, 90)
            for r in runs { XCTAssertEqual(Double(r.rows), 90 / Double(runs.count), accuracy: 1, "\(k) runs") }
            XCTAssertEqual(try runs.flatMap { try streamed(s, run: $0) }, full.drawing.strokes, "\(k) runs")
        }
    }

    func testRunsHaveAboutEqualStoredBytes() throws {
        let s = try StrokeStream.open(path: try document(drawing(400)))
        defer { s.close() }
        let runs = try s.runs(3)
        let total = runs.reduce(0) { $0 + $1.bytes }
        for r in runs { XCTAssertEqual(Double(r.bytes), Double(total) / 3, accuracy: Double(total) * 0.05, "\(runs)") }
        let many = try s.runs(1000)
        XCTAssertLessThanOrEqual(many.count, 400, "never more runs than rows")
        XCTAssertEqual(many.reduce(0) { $0 + $1.rows }, 400)
    }

    func testEmptyDrawingHasNoRuns() throws {
        let s = try StrokeStream.open(path: try document(Drawing()))
        defer { s.close() }
        XCTAssertEqual(try s.runs(4), [])
        XCTAssertEqual(try streamed(s), [])
    }

    func testRunsReadFromSeveralThreadsAtOnce() throws {
        let d = drawing(300)
        let s = try StrokeStream.open(path: try document(d))
        defer { s.close() }
        let runs = try s.runs(4)
        let results = ResultBox(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            results.set(i, Result { try streamed(s, run: runs[i]) })
        }
        XCTAssertEqual(try results.values.flatMap { try $0.get() }, try DocumentFile.open(path: s.path, readOnly: true).drawing.strokes)
    }

    /// Point data cut short in the middle of the drawing: the strokes before it arrive, then the same error
    /// a full open gives, naming the stroke.
    func testTruncatedBlobMidStreamIsRefusedWithTheFullOpensWords() throws {
        let file = try document(drawing(50))
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        try db.execute("UPDATE strokes SET points = substr(points, 1, length(points) / 2) WHERE id = 31")
        db.close()
        var fullError = ""
        XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) { fullError = "\($0)" }
        XCTAssertTrue(fullError.contains("stroke 31: point data"), fullError)

        let s = try StrokeStream.open(path: file)
        defer { s.close() }
        var seen: [StrokeID] = []
        XCTAssertThrowsError(try s.forEachStroke { seen.append($0.id) }) { XCTAssertEqual("\($0)", fullError) }
        XCTAssertEqual(seen, Array(1...30))
    }

    func testDamagedFilesAreRefusedAtOpenAsAFullOpenRefusesThem() throws {
        let cases: [(String, String)] = [
            ("UPDATE pages SET width = -5", "page size"),
            ("UPDATE pages SET position = 3", "at place 3"),
            ("UPDATE pages SET style = 'tartan'", "unknown background 'tartan'"),
            ("UPDATE strokes SET page = 7 WHERE id = 2", "page 7, which the file does not have"),
            // An add of stroke 999: no removed, one added, id 999 as zigzag varint (1998 = CE 0F).
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 1, 0, x'0001CE0F')", "missing stroke 999"),
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 1, 10, x'0000')", "kind 10"),
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (1, 1, 0, x'0005')", "claim 0 + 5 ids in 2 bytes"),
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 1, 0, x'01010204')", "adds strokes but also removes some"),
            // Page edits: a move without places, a move to an absurd place, a format with a negative size.
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 1, 6, x'0000')", "edits pages but does not say how"),
            ("INSERT INTO history(stack, position, kind, strokes, pages) VALUES (0, 1, 6, x'0000', '0 99999')", "page place '99999'"),
            ("INSERT INTO history(stack, position, kind, strokes, pages) VALUES (0, 1, 7, x'0000', '1 - - plain #ffffffff #000000ff 24 -5 9 plain #ffffffff #000000ff 24')", "page size -5"),
        ]
        for (sql, words) in cases {
            let file = try document(drawing(10))
            let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
            try db.execute(sql)
            db.close()
            var fullError = "", streamError = ""
            XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) { fullError = "\($0)" }
            XCTAssertThrowsError(try StrokeStream.open(path: file)) { streamError = "\($0)" }
            XCTAssertEqual(streamError, fullError, sql)
            XCTAssertTrue(streamError.contains(words) && streamError.contains("damaged"), streamError)
            try FileManager.default.removeItem(atPath: file)
        }
        // Not a database at all: the header check speaks, as for a full open.
        let text = path("notes.oekaki")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertFalse(StrokeStream.looksLikeDocument(path: text))
        XCTAssertTrue(StrokeStream.looksLikeDocument(path: try document(drawing(2))))
    }

    /// A long history's stroke ids are looked up together, not one by one: a missing stroke and a damaged edit
    /// are still refused with a full open's words, whichever comes first in the history.
    func testALongHistoryNamingAMissingStrokeIsRefusedAsAFullOpenRefusesIt() throws {
        let d = drawing(120)
        let cases: [(String?, String)] = [
            (nil, "edit 50 of stack 0 refers to missing stroke 50"),
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 500, 10, x'0000')", "refers to missing stroke 50"),
            ("INSERT INTO history(stack, position, kind, strokes) VALUES (0, 0, 10, x'0000')", "kind 10"),
        ]
        for (sql, words) in cases {
            let file = path("history.oekaki")
            let doc = try DocumentFile.create(path: file, drawing: Drawing(pageSize: d.pageSize))
            for s in d.strokes { try doc.commit([.did(.add([s]))]) }
            doc.close()
            let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
            try db.execute("DELETE FROM strokes WHERE id = 50")
            if let sql { try db.execute(sql) }
            db.close()
            var fullError = "", streamError = ""
            XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) { fullError = "\($0)" }
            XCTAssertThrowsError(try StrokeStream.open(path: file)) { streamError = "\($0)" }
            XCTAssertEqual(streamError, fullError, sql ?? "")
            XCTAssertTrue(streamError.contains(words), streamError)
            try FileManager.default.removeItem(atPath: file)
        }
        // Whole, the same history opens.
        let file = path("whole.oekaki")
        let doc = try DocumentFile.create(path: file, drawing: Drawing(pageSize: d.pageSize))
        for s in d.strokes { try doc.commit([.did(.add([s]))]) }
        doc.close()
        XCTAssertEqual(try streamed(try StrokeStream.open(path: file)).count, 120)
    }

    /// A writer has the document open (its log not yet folded into the file): the stream sees every committed
    /// stroke, and nothing committed after it opened (one snapshot for all runs).
    func testDocumentOpenInAWriterStreamsItsCommittedSnapshot() throws {
        let d = drawing(40)
        let file = path("live.oekaki")
        let writer = try DocumentFile.create(path: file, drawing: Drawing(pageSize: d.pageSize))
        defer { writer.close() }
        try writer.commit(d.strokes.prefix(30).map { .did(.add([$0])) })
        XCTAssertTrue(FileManager.default.fileExists(atPath: file + "-wal"))
        let s = try StrokeStream.open(path: file)
        defer { s.close() }
        let runs = try s.runs(2)
        var first: [Stroke] = []
        try s.forEachStroke(in: runs[0]) { first.append($0) }
        try writer.commit(d.strokes.suffix(10).map { .did(.add([$0])) })
        var rest: [Stroke] = []
        try s.forEachStroke(in: runs[1]) { rest.append($0) }
        XCTAssertEqual((first + rest).map(\.id), Array(1...30))
        assertSameStrokes(first + rest, Array(d.strokes.prefix(30)))
    }

    func testOpeningNeverChangesTheFile() throws {
        let file = try document(drawing(20))
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let s = try StrokeStream.open(path: file)
        _ = try streamed(s)
        s.close()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + "-wal"))
    }
}

/// One slot per concurrent iteration.
private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<[Stroke], Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ r: Result<[Stroke], Error>) { lock.lock(); slots[i] = r; lock.unlock() }
    var values: [Result<[Stroke], Error>] { slots.map { $0 ?? .failure(StoreError.closed) } }
}
