import XCTest
@testable import InkCore

/// The event log's ruler, set square and compass lines, replayed as the contract says.
final class GuideEventLogTests: XCTestCase {
    func testPlaceDrawRemove() throws {
        let e = try EventLogReplay.replay("""
        {"type":"ruler","op":"place","x":100,"y":100,"degrees":45}
        {"type":"touch","phase":"began","id":1,"x":130,"y":80}
        {"type":"touch","phase":"moved","id":1,"x":170,"y":40}
        {"type":"touch","phase":"ended","id":1,"x":205,"y":15}
        {"type":"ruler","op":"remove"}
        {"type":"touch","phase":"began","id":1,"x":130,"y":80}
        {"type":"touch","phase":"ended","id":1,"x":205,"y":15}
        {"type":"compass","op":"place","x":0,"y":0,"radius":50}
        {"type":"touch","phase":"began","id":2,"x":60,"y":0}
        {"type":"touch","phase":"moved","id":2,"x":0,"y":45}
        {"type":"touch","phase":"moved","id":2,"x":-50,"y":5}
        {"type":"touch","phase":"ended","id":2,"x":-3,"y":-52}
        {"type":"compass","op":"remove"}
        {"type":"setsquare","op":"place","x":300,"y":300,"degrees":0,"size":200}
        {"type":"touch","phase":"began","id":3,"x":250,"y":290}
        {"type":"touch","phase":"ended","id":3,"x":350,"y":310}
        {"type":"setsquare","op":"remove"}

        """)
        XCTAssertTrue(e.guides.isEmpty)
        let s = e.drawing.strokes
        XCTAssertEqual(s.count, 4)
        // On the 45° line through (100, 100): x + y = 200.
        XCTAssertEqual(s[0].shape, .line)
        for p in s[0].points { XCTAssertEqual(p.x + p.y, 200, accuracy: 1e-9) }
        XCTAssertNil(s[1].shape, "the ruler was removed")
        // 270° round the compass, through the far side.
        for p in s[2].points { XCTAssertEqual(p.point.distance(to: Point(0, 0)), 50, accuracy: 1e-9) }
        // It ends where the last sample points from the centre.
        let end = Point(-3, -52) * (50 / Point(-3, -52).length)
        XCTAssertEqual(s[2].points.last!.point.distance(to: end), 0, accuracy: 1e-9)
        XCTAssertTrue(s[2].points.contains { $0.x < -49 }, "through the far side, not back the short way")
        XCTAssertEqual(s[3].points.map(\.point), [Point(250, 300), Point(350, 300)])
    }

    func testBadGuideLines() {
        let cases: [(String, String)] = [
            (#"{"type":"ruler","op":"place","x":1,"y":2}"#, #"line 1: missing "degrees""#),
            (#"{"type":"ruler","op":"turn"}"#, #"line 1: unknown ruler op "turn" (place or remove)"#),
            (#"{"type":"ruler"}"#, #"line 1: missing "op""#),
            (#"{"type":"compass","op":"place","x":1,"y":2,"radius":0}"#, #"line 1: "radius" 0 is outside 0..1000000000 (must be more than 0)"#),
            (#"{"type":"compass","op":"place","x":1,"y":2,"radius":"big"}"#, #"line 1: "radius" must be a number, not a string"#),
            (#"{"type":"compass","op":"place","x":1e300,"y":2,"radius":3}"#, #"line 1: "x" 1e+300 is too large (limit ±1000000000000000)"#),
            (#"{"type":"setsquare","op":"place","x":1,"y":2,"degrees":0,"size":-4}"#, #"line 1: "size" -4 is outside 0..1000000000 (must be more than 0)"#),
            (#"{"type":"tool","tool":"laser pointer"}"#, #"line 1: unknown tool "laser pointer""#),
        ]
        for (line, message) in cases {
            XCTAssertThrowsError(try EventLogReplay.replay(line + "\n"), line) { error in
                XCTAssertEqual((error as? EventLogError)?.description, message)
            }
        }
    }
}
