import XCTest
import InkCore
@testable import InkStore

final class PointCodecTests: XCTestCase {
    func assertClose(_ a: [InkPoint], _ b: [InkPoint], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (p, q) in zip(a, b) {
            XCTAssertEqual(p.x, q.x, accuracy: PointCodec.coordinateTolerance + 1e-9, file: file, line: line)
            XCTAssertEqual(p.y, q.y, accuracy: PointCodec.coordinateTolerance + 1e-9, file: file, line: line)
            XCTAssertEqual(p.pressure, q.pressure, accuracy: 0.5 / 255 + 1e-9, file: file, line: line)
            XCTAssertEqual(p.time, q.time, accuracy: 0.05 + 1e-9, file: file, line: line)
        }
    }

    func testRoundTripPenInk() throws {
        var rng = SeededRandom(seed: 7)
        for n in [1, 2, 3, 17, 100, 1000] {
            let pts = PenInk.stroke(points: n, start: Point(500, 500), rng: &rng)
            assertClose(try PointCodec.decode(try PointCodec.encode(pts)), pts)
        }
    }

    func testRoundTripExtremes() throws {
        // Jumps that need the escape code, negative coordinates, the range limits, odd times.
        let pts = [InkPoint(x: 0, y: 0, pressure: 0, time: 0),
                   InkPoint(x: 1e9, y: -1e9, pressure: 1, time: 1e15),
                   InkPoint(x: -1e9, y: 1e9, pressure: 0.5, time: -1e15),
                   InkPoint(x: 0.025, y: 123456.78, pressure: 0.2, time: 3.3),
                   InkPoint(x: 0.025, y: 123456.78, pressure: 0.2, time: 3.3)]
        assertClose(try PointCodec.decode(try PointCodec.encode(pts)), pts)
    }

    func testRefusesNonFiniteAndHugeCoordinates() {
        XCTAssertThrowsError(try PointCodec.encode([InkPoint(x: .nan, y: 0)]))
        XCTAssertThrowsError(try PointCodec.encode([InkPoint(x: 0, y: .infinity)]))
        XCTAssertThrowsError(try PointCodec.encode([InkPoint(x: 2e9, y: 0)]))
        XCTAssertThrowsError(try PointCodec.encode([]))
    }

    /// The issue's goal: at most 3 bytes per point on real pen input (Xournal++ needs about 7.8).
    func testAtMostThreeBytesPerPointOnPenInk() throws {
        let d = PenInk.drawing(strokes: 500)
        var bytes = 0
        for s in d.strokes { bytes += try PointCodec.encode(s.points).count }
        let perPoint = Double(bytes) / Double(d.pointCount)
        print("point codec: \(String(format: "%.2f", perPoint)) bytes per point")
        XCTAssertLessThanOrEqual(perPoint, 3.0)
        XCTAssertGreaterThan(perPoint, 0.5, "suspiciously small: is the data really there?")
    }

    func testRejectsTruncatedAndOverlongBlobs() throws {
        var rng = SeededRandom(seed: 3)
        let blob = try PointCodec.encode(PenInk.stroke(points: 200, start: Point(10, 10), rng: &rng))
        for cut in [0, 1, 2, 5, blob.count / 2, blob.count - 1] {
            XCTAssertThrowsError(try PointCodec.decode(Array(blob.prefix(cut))), "cut at \(cut)")
        }
        XCTAssertThrowsError(try PointCodec.decode(blob + [0, 0])) { XCTAssertEqual($0 as? PointCodec.Failure, .overlong) }
        var wrongVersion = blob; wrongVersion[0] = 9
        XCTAssertThrowsError(try PointCodec.decode(wrongVersion)) { XCTAssertEqual($0 as? PointCodec.Failure, .unknownVersion(9)) }
    }

    func testHugeCountIsRefusedBeforeAllocating() {
        // Claims 2^40 points in a 12-byte blob.
        var b = ByteWriter([1])
        b.varint(1 << 40)
        b.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertThrowsError(try PointCodec.decode(b.bytes)) { XCTAssertEqual($0 as? PointCodec.Failure, .tooManyPoints(1 << 40)) }
        var c = ByteWriter([1])
        c.varint(5_000_000)
        c.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0, 0xff])
        XCTAssertThrowsError(try PointCodec.decode(c.bytes)) { XCTAssertEqual($0 as? PointCodec.Failure, .truncated) }
    }

    /// Random and mutated bytes never crash or hang the decoder; whatever it accepts is in range.
    func testRandomAndMutatedBytes() throws {
        var rng = SeededRandom(seed: 99)
        let good = try PointCodec.encode(PenInk.stroke(points: 50, start: Point(300, 300), rng: &rng))
        for i in 0..<20_000 {
            var b: [UInt8]
            if i % 2 == 0 {
                b = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if !b.isEmpty && i % 4 == 0 { b[0] = 1 }
            } else {
                b = good
                for _ in 0..<Int.random(in: 1...4, using: &rng) { b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            }
            if let pts = try? PointCodec.decode(b) {
                XCTAssertFalse(pts.isEmpty)
                for p in pts {
                    XCTAssert(p.x.isFinite && abs(p.x) <= PointCodec.maxCoordinate)
                    XCTAssert(p.pressure >= 0 && p.pressure <= 1)
                }
            }
        }
    }
}
