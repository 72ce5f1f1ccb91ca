import XCTest
import InkCore
@testable import InkSync

final class OperationCodecTests: XCTestCase {
    let a = BoardStrokeID(client: 0xabc, number: 7), b = BoardStrokeID(client: 1, number: 1 << 40)

    func stroke(_ id: BoardStrokeID, place: BoardStrokeID? = nil) -> BoardStroke {
        BoardStroke(id: id, place: place, style: StrokeStyle(tool: .highlighter, color: RGBA(r: 1, g: 2, b: 3, a: 4), width: 16),
                    points: [InkPoint(x: 1.5, y: 2, pressure: 0.2, time: 3), InkPoint(x: 10, y: 20.25, pressure: 1, time: 9)])
    }

    func testEveryKindRoundTrips() throws {
        var shaped = stroke(a); shaped.shape = .ellipse; shaped.style.trace = .polyline  // shapes are polylines
        var imported = stroke(b); imported.style.trace = .polyline                      // drawn as written, no shape
        for change: BoardOperation.Change in [.add(stroke(a)), .add(shaped), .add(imported), .remove([a, b]), .restore([b]),
                                              .replace(removed: [a], added: [stroke(b, place: a)])] {
            let op = BoardOperation(client: 42, number: 9, change: change)
            XCTAssertEqual(try OperationCodec.decode(try OperationCodec.encode(op)), op)
        }
    }

    func testHostileEntriesAreErrorsNotCrashes() throws {
        let good = try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(stroke(a))))
        var unknown = good; unknown[3] = 9
        XCTAssertThrowsError(try OperationCodec.decode(unknown)) { XCTAssertTrue("\($0)".contains("unknown operation kind 9")) }
        for cut in 0..<good.count { XCTAssertThrowsError(try OperationCodec.decode(Array(good[..<cut]))) }
        XCTAssertThrowsError(try OperationCodec.decode(good + [0]))
        XCTAssertThrowsError(try OperationCodec.decode([UInt8](repeating: 0x4F, count: OperationCodec.maxBytes + 1))) {
            XCTAssertTrue("\($0)".contains("limit"))
        }
        // A NaN width; NaN points cannot be written at all (the point codec refuses them).
        var nanWidth = good
        let widthAt = 3 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 4   // magic+version, kind, client, number, id(2 bytes), flag, tool, rgba
        for i in 0..<8 { nanWidth[widthAt + i] = withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { $0[i] } }
        XCTAssertThrowsError(try OperationCodec.decode(nanWidth)) { XCTAssertTrue("\($0)".contains("width")) }
        var nanStroke = stroke(a); nanStroke.points[1].x = .nan
        XCTAssertThrowsError(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(nanStroke))))
        // A list claiming more ids than allowed is refused before anything is allocated.
        var many: [UInt8] = [0x4F, 0x4B, 1, 2, 1, 1]
        OperationCodec.varint(UInt64(OperationCodec.maxIDs + 1), &many)
        XCTAssertThrowsError(try OperationCodec.decode(many))
        var rng = SeededRandom(seed: 5)
        for _ in 0..<2000 {
            var bytes = good
            for _ in 0..<3 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? OperationCodec.decode(bytes)
        }
    }
}
