import XCTest
@testable import InkCore

/// Two numberers of one document in two lanes (the app's editor and a board's replica on two threads) never hand
/// out the same id, and a new stroke is numbered above every stroke's drawing order.
final class IDSourceTests: XCTestCase {
    func testTwoLanesNeverMeetAndEachStaysAboveWhatItsDocumentSaw() {
        let editorLane = IDSource(lane: 0, of: 2), replicaLane = IDSource(lane: 1, of: 2)
        var mine = Document(), theirs = Document()
        var made: [StrokeID] = []
        for k in 0..<50 {
            // Each side numbers from its own copy; now and then one hears of the other's ids (as edits cross over).
            made.append(mine.makeStrokeID(in: editorLane))
            made.append(theirs.makeStrokeID(in: replicaLane))
            if k % 7 == 0 { theirs.reserveStrokeIDs(through: made[made.count - 2]) }
            if k % 5 == 0 { mine.reserveStrokeIDs(through: made[made.count - 1]) }
        }
        XCTAssertEqual(Set(made).count, made.count, "no id is handed out twice")
        XCTAssertTrue(made.enumerated().allSatisfy { $0.element % 2 == UInt64($0.offset % 2) }, "each side keeps to its lane")
        var alone = Document()
        let first = alone.nextPageID
        XCTAssertEqual((0..<3).map { _ in alone.makePageID() }, [first, first + 1, first + 2], "alone, every id in turn")
        XCTAssertEqual((0..<2).map { _ in alone.makeStrokeID() }, [1, 2])
    }

    func testANewStrokeIsNumberedAboveAStrokeOrderedAboveItsID() {
        var d = Document()
        let page = d.pages[0].id
        // A stroke placed by a shared board's log: its order (the log's sequence) is far above its id.
        let placed = Stroke(id: 3, style: StrokeStyle(), points: [InkPoint(x: 1, y: 1)], order: 5 << 20, page: page, layer: d.pages[0].layers[0].id)
        d.apply(.add([placed]))
        let next = d.makeStrokeID(in: IDSource(lane: 0, of: 2))
        XCTAssertGreaterThan(next, placed.order, "a new stroke draws on top")
        XCTAssertEqual(next % 2, 0)
        // A stroke sent to the back (a negative order) claims nothing above its id.
        var e = Document()
        let back = Stroke(id: 4, style: StrokeStyle(), points: [InkPoint(x: 1, y: 1)], order: StrokeID(bitPattern: -2), page: page, layer: e.pages[0].layers[0].id)
        e.apply(.add([back]))
        XCTAssertEqual(e.makeStrokeID(), 5)
    }
}
