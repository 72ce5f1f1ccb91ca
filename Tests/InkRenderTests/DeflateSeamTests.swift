import Foundation
import XCTest
@testable import InkRender
@testable import InkStore

/// The PNG writer's pieces: libdeflate's whole streams, opened by `DeflateSeam` and joined, must inflate (by zlib) to
/// their inputs one after another, whatever blocks libdeflate chose and wherever in a byte each stream ended.
final class DeflateSeamTests: XCTestCase {
    /// A piece as the PNG writer makes it: `input` deflated (in groups of `ParallelDeflate.groupBytes`), open unless last.
    private func piece(_ input: [UInt8], last: Bool, level: Int32 = 1) throws -> [UInt8] {
        let (chunk, piece) = try ParallelDeflate.chunk(units: input.count, unitSize: 1, last: last, level: level, prefix: []) { k, out in
            out.pointee = input[k]
        }
        XCTAssertEqual(piece.length, input.count)
        return Array(chunk[4...])
    }

    private func joined(_ inputs: [[UInt8]], level: Int32 = 1) throws -> [UInt8] {
        var stream: [UInt8] = []
        for (k, input) in inputs.enumerated() { stream += try piece(input, last: k == inputs.count - 1, level: level) }
        return stream
    }

    private func random(_ n: Int, seed: UInt64) -> [UInt8] {
        var s = seed
        return (0..<n).map { _ in
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: s >> 33)
        }
    }

    /// Rows of a page of ink as the PNG writer sees them: mostly paper, runs of colour, noise at the edges.
    private func inkRows(_ n: Int) -> [UInt8] {
        let noise = random(n, seed: 7)
        return (0..<n).map { (k: Int) -> UInt8 in
            if k % 997 < 700 { return 0xff }
            if k % 13 == 0 { return noise[k] }
            return UInt8(k / 61 % 4 * 60)
        }
    }

    func testPiecesOfEveryKindJoinIntoOneStream() throws {
        let inputs: [[UInt8]] = [
            inkRows(300_000),                               // dynamic Huffman blocks
            random(200_000, seed: 1),                       // incompressible: stored blocks
            [UInt8](repeating: 0, count: 70_000),           // one long run
            Array("the quick brown fox jumps over the lazy dog ".utf8),  // fixed Huffman
            [],                                             // an empty piece
            inkRows(ParallelDeflate.groupBytes * 2 + 12_345),  // several groups in one piece
            random(5, seed: 2),
        ]
        for level: Int32 in [1, 6, 12] {
            let stream = try joined(inputs, level: level)
            let back = try Deflate.inflate(stream, container: .raw, limit: 1 << 26)
            XCTAssertEqual(back, inputs.flatMap { $0 }, "level \(level)")
        }
    }

    func testStreamsEndingAtEveryBitOfAByteJoin() throws {
        // Short pieces end at every bit offset: three or more spare bits take the stored block's header in their
        // last byte, fewer (or none) need one more byte.
        var ends = Set<Int>()
        var inputs: [[UInt8]] = []
        let text = Array(String(repeating: "Xournal++ and Oekaki notes, page 12 of 36. ", count: 4).utf8)
        for n in 1...120 {
            for input in [random(n, seed: UInt64(n)), Array(text.prefix(n))] {
                let whole = try piece(input, last: true)
                let end = try whole.withUnsafeBufferPointer { try DeflateSeam.walk($0.baseAddress!, count: $0.count).end }
                XCTAssertEqual((end + 7) / 8, whole.count, "a stream's last byte holds its last bit")
                ends.insert(end % 8)
                inputs.append(input)
            }
        }
        XCTAssertEqual(ends, Set(0..<8), "the pieces end at every bit of a byte")
        let back = try Deflate.inflate(try joined(inputs), container: .raw, limit: 1 << 20)
        XCTAssertEqual(back, inputs.flatMap { $0 })
    }

    func testZlibsPieceJoinsLibdeflatesWhereAWalkFails() throws {
        // The fallback when a walk fails: zlib's sync-flushed piece between two opened ones.
        let middle = inkRows(50_000)
        var zlibPiece = [UInt8](repeating: 0, count: 60_000)
        var copy = middle
        let size = try copy.withUnsafeMutableBufferPointer { input in
            try zlibPiece.withUnsafeMutableBufferPointer {
                try ParallelDeflate.syncFlushed(input.baseAddress!, count: input.count, into: $0.baseAddress!, capacity: $0.count, level: 1)
            }
        }
        let first = inkRows(40_000), last = random(1000, seed: 3)
        let stream = try piece(first, last: false) + zlibPiece[0..<size] + piece(last, last: true)
        XCTAssertEqual(try Deflate.inflate(stream, container: .raw, limit: 1 << 20), first + middle + last)
    }

    func testDamagedStreamsAreRefusedWithoutHanging() throws {
        let whole = try piece(inkRows(100_000), last: true)
        for cut in [1, 2, 10, whole.count / 2, whole.count - 1] {
            XCTAssertThrowsError(try Array(whole[0..<cut]).withUnsafeBufferPointer { try DeflateSeam.walk($0.baseAddress!, count: $0.count) },
                                 "cut at \(cut) of \(whole.count)")
        }
        // The reserved block type.
        XCTAssertThrowsError(try [UInt8]([0x07, 0, 0, 0]).withUnsafeBufferPointer { try DeflateSeam.walk($0.baseAddress!, count: $0.count) })
        // A stored block whose length and its complement disagree.
        XCTAssertThrowsError(try [UInt8]([0x01, 0x05, 0x00, 0x00, 0x00]).withUnsafeBufferPointer { try DeflateSeam.walk($0.baseAddress!, count: $0.count) })
        // Noise ends or is refused, and never reads past its end.
        for seed in 0..<200 {
            let noise = random(64 + seed, seed: UInt64(seed) + 100)
            if let (last, end) = try? noise.withUnsafeBufferPointer({ try DeflateSeam.walk($0.baseAddress!, count: $0.count) }) {
                XCTAssertLessThanOrEqual(last, end)
                XCTAssertLessThanOrEqual(end, noise.count * 8)
            }
        }
    }

    func testOpeningNeedsRoomForTheMarker() throws {
        var whole = try piece([1, 2, 3], last: true)
        let n = whole.count
        XCTAssertThrowsError(try whole.withUnsafeMutableBufferPointer { try DeflateSeam.open($0.baseAddress!, count: n, capacity: n + 4) })
    }
}
