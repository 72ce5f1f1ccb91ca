import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// The board's outbox (`board_outbox`, written by the document's commit hook): a commit writes exactly its rows in
/// its own transaction, a change committed but never published goes out after the file is reopened, and
/// publishing looks at what the edit named, whatever the board holds.
final class BoardOutboxTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sync-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func line(_ id: StrokeID, y: Double, page: PageID = Page.firstID) -> Stroke {
        var s = Stroke(id: id, style: StrokeStyle(), points: (0..<8).map { InkPoint(x: Double(10 * $0), y: y, pressure: 0.5) })
        s.page = page
        return s
    }

    /// The outbox rows as stored: the (stroke, page) pairs each names, and whether it changed pages.
    func rows(_ file: DocumentFile) throws -> [(strokes: [[UInt64]], pages: Bool)] {
        try file.rows { r in
            var out: [(strokes: [[UInt64]], pages: Bool)] = []
            guard try r.hasTable("board_outbox") else { return out }
            try r.query("SELECT strokes, pages FROM board_outbox ORDER BY seq") { row in
                let b = row.blob(0)
                // Little-endian 64-bit numbers, read here byte by byte (not through the code under test).
                func number(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
                let pairs = stride(from: 0, to: b.count, by: 16).map { [number($0), number($0 + 8)] }
                out.append((pairs, row.int(1) != 0))
            }
            return out
        }
    }

    func testACommitWritesExactlyItsOutboxRowsInItsOwnTransaction() throws {
        let file = try DocumentFile.create(path: path("a.oekaki"), drawing: Drawing())
        let sync = try BoardSync(document: file, url: try BoardURL("nats://127.0.0.1:1/lesson"))
        XCTAssertEqual(try rows(file).count, 0)

        try sync.commit([.did(.add([line(1, y: 10), line(2, y: 20)]))])
        var r = try rows(file)
        XCTAssertEqual(r.count, 1, "one row for one change")
        XCTAssertEqual(r[0].strokes, [[1, 1], [2, 1]], "it names the strokes the edit added, with their page")
        XCTAssertFalse(r[0].pages)

        let page = Page(id: 7, format: .fixed(Size(width: 100, height: 100)))
        try sync.commit([.did(.addPage(page, at: 1)), .did(.remove([line(1, y: 10)]))])
        r = try rows(file)
        XCTAssertEqual(r.count, 3, "one row per change")
        XCTAssertEqual(r[1].strokes, [])
        XCTAssertTrue(r[1].pages)
        XCTAssertEqual(r[2].strokes, [[1, 1]])
        XCTAssertEqual(sync.waiting, 3)

        // The row is part of the change's transaction: when the transaction fails after the row was written, the
        // stroke is not in the file either, and neither is the row.
        struct Refused: Error {}
        let hook = file.onCommit
        file.onCommit = { change, rows in try hook?(change, rows); throw Refused() }
        XCTAssertThrowsError(try file.commit([.did(.add([line(3, y: 30)]))]))
        file.onCommit = hook
        XCTAssertEqual(try rows(file).count, 3)
        file.close()
        let reopened = try DocumentFile.open(path: path("a.oekaki"), readOnly: true)
        XCTAssertEqual(reopened.document.pages[0].strokes.map(\.id), [2], "the failed change left nothing behind")
        XCTAssertEqual(reopened.document.pages.count, 2)
    }

    func testAChangeCommittedButNeverPublishedGoesOutAfterReopening() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let url = try BoardURL(server.url + "/crash?snapshots=0")
        let a = try BoardSync(document: try DocumentFile.create(path: path("a.oekaki"), drawing: Drawing()), url: url)
        a.note = { _ in }
        try a.connect(timeoutMs: 2000)
        try a.commit([.did(.add([line(1, y: 10)]))])
        try a.syncOnce()
        // Committed, then the process is gone before it published: the file is all that is left.
        try a.commit([.did(.add([line(2, y: 20)]))])
        a.disconnect(); a.unlink(); a.document.close()

        let again = try BoardSync(document: try DocumentFile.open(path: path("a.oekaki")), url: url)
        again.note = { _ in }
        XCTAssertEqual(again.waiting, 1, "the outbox row survived")
        try again.connect(timeoutMs: 2000)
        try again.syncOnce()
        XCTAssertEqual(again.waiting, 0)
        XCTAssertEqual(try rows(again.document).count, 0, "published rows go")

        let b = try BoardSync(document: try DocumentFile.create(path: path("b.oekaki"), drawing: Drawing()), url: url)
        b.note = { _ in }
        try b.connect(timeoutMs: 2000)
        try b.syncOnce()
        XCTAssertEqual(b.replica.drawing.strokes.map { Int($0.points[0].y) }, [10, 20], "each stroke on the board exactly once")
        // Opening the file again republishes nothing (the board has it already).
        again.disconnect(); again.unlink(); again.document.close()
        let third = try BoardSync(document: try DocumentFile.open(path: path("a.oekaki")), url: url)
        XCTAssertEqual(third.waiting, 0)
    }

    func testPublishingLooksAtTheEditNotTheBoard() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        var looked: [Int: (pending: Int, rows: Int, sent: Int)] = [:]
        for size in [1, 2_000] {
            let strokes = (0..<size).map { line(StrokeID($0 + 1), y: Double($0 % 900)) }
            let url = try BoardURL(server.url + "/size\(size)?snapshots=0")
            let a = try BoardSync(document: try DocumentFile.create(path: path("s\(size).oekaki"), drawing: Drawing(strokes: strokes)), url: url)
            a.note = { _ in }
            try a.connect(timeoutMs: 2000)
            try a.syncOnce(timeoutMs: 60_000)
            XCTAssertEqual(a.replica.pendingStrokes.count, 0, "settled: nothing is looked at while nothing is pending")
            XCTAssertTrue(a.replica.outbox().isEmpty)
            let id = a.replica.document.nextStrokeID
            try a.commit([.did(.add([line(id, y: 5)]))])
            let pending = a.replica.pendingStrokes.count
            let rows = try rows(a.document).count
            let sent = try a.push()
            looked[size] = (pending, rows, sent)
            try a.syncOnce()
            XCTAssertEqual(a.replica.pendingStrokes.count, 0)
            a.disconnect(); a.document.close()
        }
        // The same work for one stroke on a board of one stroke and on one of two thousand.
        XCTAssertEqual(looked[1]?.pending, 1)
        XCTAssertEqual(looked[2_000]?.pending, 1, "the outbox compares only the stroke the edit named")
        XCTAssertEqual(looked[2_000]?.rows, 1)
        XCTAssertEqual(looked[2_000]?.sent, 1, "one entry published")
        XCTAssertEqual(looked[1]?.sent, 1)
    }
    /// A stroke moved and then erased before either went out: the erase goes out and the replica is settled (a
    /// writer that never settles writes no snapshots); undoing the erase later brings the move out with it.
    func testAMovedThenErasedStrokeLetsTheReplicaSettle() throws {
        var r = BoardReplica(client: 1, document: Document())
        var log: [BoardOperation] = []
        func sync() {
            for op in r.operations(r.outbox()) { log.append(op); r.receive(op, sequence: UInt64(log.count)) }
            r.settle()
        }
        let s = line(r.newStrokeID(), y: 5)
        r.perform(.add([s]))
        sync()
        XCTAssertTrue(r.isSettled)
        let placed = try XCTUnwrap(r.drawing.stroke(s.id))
        r.perform(.transform(StrokeTransform(page: placed.page, ids: [placed.id], before: [Placement(of: placed)], matrix: .translation(30, 0))))
        let moved = try XCTUnwrap(r.drawing.stroke(s.id))
        r.perform(.remove([moved]))
        sync()
        XCTAssertTrue(r.isSettled, "still pending: \(r.pendingStrokes)")
        r.perform(.add([moved]))
        sync()
        XCTAssertTrue(r.isSettled)
        var other = BoardReplica(client: 2, document: Document())
        for (k, op) in log.enumerated() { other.receive(op, sequence: UInt64(k + 1)) }
        XCTAssertEqual(other.drawing.strokes.count, 1)
        XCTAssertEqual(other.drawing.strokes.first?.points.first?.x, 30, "back where it was moved to")
    }
}
