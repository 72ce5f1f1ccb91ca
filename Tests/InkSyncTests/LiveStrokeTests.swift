import XCTest
import InkCore
@testable import InkSync

final class LiveStrokeTests: XCTestCase {
    let id = BoardStrokeID(client: 9, number: 4)

    func testDeltasAddUpAndEndOrSilenceRemovesTheStroke() throws {
        let style = StrokeStyle(tool: .highlighter, color: RGBA(r: 1, g: 2, b: 3, a: 4), width: 12)
        let first = LiveStroke(id: id, style: style, points: [InkPoint(x: 1, y: 2, pressure: 1), InkPoint(x: 5, y: 6)], ended: false)
        let back = try XCTUnwrap(LiveStroke(first.encoded()))
        XCTAssertEqual(back.points.map(\.x), [1, 5]); XCTAssertEqual(back.style, style); XCTAssertEqual(back.id, id)

        var live = LiveStrokes()
        live.receive(back, at: 0)
        live.receive(LiveStroke(id: id, style: style, points: [InkPoint(x: 9, y: 9)], ended: false), at: 0.03)
        XCTAssertEqual(live.shown.map { $0.points.count }, [3])
        XCTAssertFalse(live.expire(at: 1.9))
        XCTAssertTrue(live.expire(at: 2.1), "silent for 2 s: gone")
        live.receive(back, at: 3)
        live.receive(LiveStroke(id: id, style: style, points: [], ended: true), at: 3.1)
        XCTAssertTrue(live.isEmpty, "the pen lifted")
    }

    func testThePageTravelsWithTheInk() throws {
        let page = BoardPageID(client: 0x1234_5678_9abc, number: 300)
        let m = LiveStroke(id: id, page: page, style: StrokeStyle(tool: .laser, color: .laserRed, width: 4), points: [InkPoint(x: 3, y: 4)], ended: true)
        let back = try XCTUnwrap(LiveStroke(m.encoded()))
        XCTAssertEqual(back, LiveStroke(id: id, page: page, style: m.style, points: [InkPoint(x: 3, y: 4, pressure: 0.5019607843137255)], ended: true))
        XCTAssertEqual(m.encoded()[2], 2)
        XCTAssertNil(LiveStroke(Array(m.encoded().prefix(7))), "cut inside the page")
    }

    func testMalformedMessagesAreIgnored() {
        let good = LiveStroke(id: id, style: StrokeStyle(), points: [InkPoint(x: 1, y: 1)], ended: false).encoded()
        XCTAssertNil(LiveStroke(Array(good.dropLast())))
        XCTAssertNil(LiveStroke(good + [0]))
        var nan = good
        let at = good.count - 9
        for i in 0..<4 { nan[at + i] = withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { $0[i] } }
        XCTAssertNil(LiveStroke(nan))
        var rng = SeededRandom(seed: 1)
        for _ in 0..<2000 { _ = LiveStroke((0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }) }
    }
}
