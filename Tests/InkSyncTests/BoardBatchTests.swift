import XCTest
import InkCore
@testable import InkSync

/// A drawing uploaded to a board: its strokes come back from the log in batches and take the board's place in the
/// drawing order. Read in a batch, they move in one edit per page; the result is what reading them one by one
/// gives, on the replica and in a document that follows its edits (the file, the editor).
final class BoardBatchTests: XCTestCase {
    func testUploadReadInBatchesEndsAsReadOneByOne() throws {
        var doc = Document()
        var strokes: [Stroke] = []
        for k in 0..<400 {
            let y = Double(k % 50) * 10
            strokes.append(Stroke(id: doc.makeStrokeID(), style: StrokeStyle(width: 1 + Double(k % 3)),
                                  points: (0..<8).map { InkPoint(x: Double($0) * 5, y: y, pressure: 0.5) }))
        }
        doc.apply(.add(strokes))
        var batched = BoardReplica(client: 1, document: doc)
        var single = batched
        let ops = batched.operations(batched.outbox())
        XCTAssertEqual(ops.count, 400)
        // Someone else draws in between: their strokes are placed among mine by the board's order.
        var other = BoardReplica(client: 2, document: Document())
        let theirs = Stroke(id: other.newStrokeID(), style: StrokeStyle(), points: [InkPoint(x: 1, y: 1), InkPoint(x: 9, y: 9)])
        other.perform(.add([theirs]))
        var log = Array(ops[..<150]) + other.operations(other.outbox()) + Array(ops[150...])
        // A duplicate of one of mine (a retry past the de-duplication window) is skipped in a batch too.
        log.insert(ops[10], at: 300)
        var file = doc, followedEdits = 0
        for start in stride(from: 0, to: log.count, by: 128) {
            batched.startBatch()
            for k in start..<min(start + 128, log.count) { batched.receive(log[k], sequence: UInt64(k + 1)) }
            batched.endBatch()
            let edits = batched.takeFollowed()
            followedEdits += edits.count
            for e in edits { file.apply(e) }
        }
        for (k, op) in log.enumerated() { single.receive(op, sequence: UInt64(k + 1)) }
        XCTAssertEqual(batched.drawing.strokes, single.drawing.strokes)
        XCTAssertEqual(file.pages[0].strokes, single.drawing.strokes, "the file follows the same edits")
        XCTAssertEqual(single.drawing.strokes.count, 401)
        XCTAssertEqual(single.drawing.strokes[150].id, single.ledger[BoardStrokeID(client: 2, number: theirs.id)]?.local, "theirs in its place among mine")
        XCTAssertLessThanOrEqual(followedEdits, 8, "mine moved once per batch (and theirs added), not one edit each")
        XCTAssertEqual(batched.ledger.lastSequence, UInt64(log.count))
        batched.settle(); single.settle()
        XCTAssertTrue(batched.isSettled)
        XCTAssertTrue(single.isSettled)
    }
    /// The engine keeps a batch open over many reads of the log until all of its entries are back: a local edit (or
    /// the outbox's comparison) meanwhile first puts the waiting strokes in place.
    func testALocalEditDuringAnOpenBatchSeesTheBoardsOrder() throws {
        var doc = Document()
        let strokes = (0..<40).map { k in
            Stroke(id: doc.makeStrokeID(), style: StrokeStyle(), points: [InkPoint(x: 0, y: Double(k)), InkPoint(x: 30, y: Double(k))])
        }
        doc.apply(.add(strokes))
        var batched = BoardReplica(client: 1, document: doc)
        var single = batched
        let ops = batched.operations(batched.outbox())
        batched.startBatch()
        for (k, op) in ops.prefix(25).enumerated() { batched.receive(op, sequence: UInt64(k + 1)); single.receive(op, sequence: UInt64(k + 1)) }
        XCTAssertTrue(batched.placesAreWaiting)
        let erased = try XCTUnwrap(single.drawing.stroke(strokes[30].id))
        batched.perform(.remove([erased])); single.perform(.remove([erased]))
        XCTAssertFalse(batched.placesAreWaiting)
        XCTAssertEqual(batched.drawing.strokes, single.drawing.strokes)
        for (k, op) in ops.dropFirst(25).enumerated() { batched.receive(op, sequence: UInt64(k + 26)); single.receive(op, sequence: UInt64(k + 26)) }
        batched.settle(); single.settle()
        XCTAssertEqual(batched.drawing.strokes, single.drawing.strokes)
        XCTAssertEqual(batched.outbox(), single.outbox())
        XCTAssertEqual(batched.outbox().count, 1, "the erase, nothing else: \(batched.outbox())")
        batched.endBatch()
    }
}
