import XCTest
import Foundation
@testable import InkCore
@testable import InkStore
@testable import InkSync

/// Format step 10: a replica stores the board's pages (global id, visibility, key, format; deleted pages kept
/// without a place) and each stroke's board look; a replica of format 9 upgrades and reads with neither. The board's
/// tables are InkSync's (`BoardTables`), written in the document's transactions through `StoreRows`.
final class BoardFormatTests: XCTestCase {
    private var dir: String!
    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "board-format-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }
    private func path(_ name: String) -> String { dir + "/" + name }

    private func line(_ id: StrokeID, page: PageID) -> Stroke {
        Stroke(id: id, style: StrokeStyle(color: RGBA(r: 9, g: 9, b: 9)), points: [InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)], page: page)
    }

    func testPagesAndLooksRoundTrip() throws {
        let file = path("replica.oekaki")
        let doc = try DocumentFile.create(path: file, document: Document())
        let ruled = PageFormat.fixed(Size(width: 595, height: 842), Background(style: .ruled))
        let turned = AffineMap.rotation(degrees: 30, about: Point(x: 4, y: 4))
        var second = Drawing()
        second.insert(line(2, page: 2))
        // The edits the board made, applied with `Document.apply` in the file as in memory.
        var c = BoardCommit(client: 7, url: "nats://h:1/b", lastSequence: 12, applied: [7: 3, 9: 4], hidden: [line(3, page: 3)],
                            edits: [.add([line(1, page: 1)]), .addPage(Page(id: 2, format: ruled, drawing: second), at: 0)])
        c.parkedPages = [(id: 3, format: .fixed(Size(width: 100, height: 100)))]
        c.pageEntries = [BoardRecord.PageEntry(local: 1, client: 0, number: 0, visible: true, key: [0x8000], format: .endless),
                         BoardRecord.PageEntry(local: 2, client: 9, number: 5, visible: true, key: [0x7fff, 3], format: ruled),
                         BoardRecord.PageEntry(local: 3, client: 7, number: 3, visible: false, key: [0x9000], format: .endless)]
        c.entries = [BoardRecord.Entry(local: 1, client: 7, number: 1, visible: true, order: 1 << 20,
                                       look: .init(transform: .identity, width: 3, color: RGBA(r: 1, g: 2, b: 3, a: 4))),
                     BoardRecord.Entry(local: 2, client: 9, number: 8, visible: true, order: UInt64(bitPattern: -(5 << 20)),
                                       look: .init(transform: turned, width: 0.5, color: .black), was: 3 << 20),
                     BoardRecord.Entry(local: 3, client: 7, number: 2, visible: true, order: 2 << 20)]
        try BoardTables.commit(c, to: doc)
        XCTAssertEqual(doc.document.pages.map(\.id), [2, 1], "the open document follows the board's pages")
        XCTAssertEqual(doc.document.pages.map { $0.strokes.map(\.id) }, [[2], [1]])
        doc.close()

        let back = try DocumentFile.open(path: file)
        defer { back.close() }
        XCTAssertEqual(back.document.pages.map(\.id), [2, 1])
        XCTAssertEqual(back.document.pages.map(\.format), [ruled, .endless])
        let r = try XCTUnwrap(try BoardTables.read(back))
        XCTAssertEqual(r.lastSequence, 12)
        XCTAssertEqual(r.applied, [7: 3, 9: 4])
        XCTAssertEqual(Set(r.pages), Set(c.pageEntries))
        XCTAssertEqual(r.parkedPages.map(\.id), [3])
        XCTAssertEqual(r.parkedPages.map(\.format), [.fixed(Size(width: 100, height: 100))])
        XCTAssertEqual(r.hidden.map(\.id), [3], "a stroke of a deleted page is kept without being shown")
        XCTAssertEqual(Set(r.entries), Set(c.entries))
    }

    func testReplicaOfFormat9UpgradesWithoutPagesOrLooks() throws {
        let file = path("v9.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(Schema.boardPagesVersion - 1) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(Schema.boardPagesVersion - 1)")
        try db.execute("INSERT INTO pages(id, position, width, height, style, paper, line, spacing) VALUES(1, 0, 800, 600, 'plain', \(RGBA.white.packed), \(RGBA.black.packed), 20)")
        let blob = try PointCodec.encode([InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
        try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(5, 'pen', 255, 2, ?, 1)").bind(1, blob).run()
        try db.execute("""
            INSERT INTO board(id, client, url, last_seq) VALUES(1, 77, 'nats://h:1/b', 3);
            INSERT INTO board_strokes(stroke, client, number, visible, board_order) VALUES(5, 12, 1, 1, 3145728);
            INSERT INTO board_clients(client, applied) VALUES(12, 1);
            """)
        db.close()
        let doc = try DocumentFile.open(path: file)
        defer { doc.close() }
        let r = try XCTUnwrap(try BoardTables.read(doc))
        XCTAssertEqual(r.client, 77)
        XCTAssertEqual(r.entries, [BoardRecord.Entry(local: 5, client: 12, number: 1, visible: true, order: 3 << 20, look: nil)])
        XCTAssertTrue(r.pages.isEmpty)
        XCTAssertTrue(r.parkedPages.isEmpty)
    }

    func testHostileBoardRowsAreRefused() throws {
        let file = path("bad.oekaki")
        let doc = try DocumentFile.create(path: file, document: Document())
        var c = BoardCommit(client: 1, url: "nats://h:1/b", lastSequence: 1)
        c.pageEntries = [BoardRecord.PageEntry(local: 1, client: 0, number: 0, visible: true, key: [1], format: .endless)]
        try BoardTables.commit(c, to: doc)
        doc.close()
        for (sql, what) in [("UPDATE board_pages SET key = x'010203'", "key"), ("UPDATE board_pages SET format = 'a b c'", "format"),
                            ("INSERT INTO board_strokes VALUES(9, 1, 1, 1, 1, x'0102')", "look")] {
            let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
            try db.execute(sql)
            db.close()
            let d = try DocumentFile.open(path: file)
            XCTAssertThrowsError(try BoardTables.read(d)) { XCTAssertTrue("\($0)".contains(what), "\($0)") }
            d.close()
            let fix = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
            try fix.execute("DELETE FROM board_strokes; UPDATE board_pages SET key = x'0001', format = '- - plain #ffffffff #40a0ffff 24 0 -'")
            fix.close()
        }
    }
}
