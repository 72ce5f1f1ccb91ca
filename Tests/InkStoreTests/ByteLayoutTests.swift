import XCTest
import InkCore
@testable import InkStore

/// The bytes every codec writes, pinned: the file format does not change when the code writing it does. The point
/// blobs were written by the codec before `ByteWriter` existed; the others are the documented layouts worked out by
/// hand (little-endian doubles from Python's `struct.pack('<d')`).
final class ByteLayoutTests: XCTestCase {
    private func hex(_ b: [UInt8]) -> String { b.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    /// A seeded wandering stroke with pressure and time.
    private func walk(_ n: Int, seed: UInt64) -> [InkPoint] {
        var rng = SeededRandom(seed: seed)
        var x = 300.0, y = 400.0, dx = 2.0, dy = 1.0, p = 0.5, t = 1000.0
        var out: [InkPoint] = []
        for _ in 0..<n {
            out.append(InkPoint(x: x, y: y, pressure: p, time: t))
            dx += rng.range(-0.5, 0.5); dy += rng.range(-0.5, 0.5)
            x += dx; y += dy; p = min(1, max(0, p + rng.range(-0.05, 0.05))); t += rng.range(6, 10)
        }
        return out
    }

    func testPointBlobsAreTheBytesOfFormatOne() throws {
        let cases: [([InkPoint], String)] = [
            ([InkPoint(x: 10.5, y: 20.25, pressure: 0.5, time: 0)], "0101a403aa06008000000000"),
            (walk(40, seed: 1), "0128e05d807da09c018003030304ffc8260d78e2a96b60a8122d11a15be101b36909cd9932b4ff2950a98df208430b653cd7195a794b0c132c196955c7194de9c323390024f09c62bc29ae2981d2cdc6105b8f0cea3ab6159ffd86361e8ebdc72b039c05f053afc55d7d9d73532331a8798e5463b1801bc0"),
            // Jumps that need the escape code, both signs, the range limits.
            ([InkPoint(x: 0, y: 0, pressure: 0, time: 0), InkPoint(x: 1e9, y: -1e9, pressure: 1, time: 1e15),
              InkPoint(x: -1e9, y: 1e9, pressure: 0.5, time: -1e15), InkPoint(x: 0.025, y: 123456.78, pressure: 0.2, time: 3.3)],
             "010400000000242408004a817c80057e11d5fff5f84758012540be3ffebf08eb000afc10d577efe7ea67fffffdb470de4df820000ffffff6faa535d3d0bfffffffffedf54a6ba7a1801080"),
        ]
        for (points, golden) in cases {
            let blob = try PointCodec.encode(points)
            XCTAssertEqual(hex(blob), golden)
            XCTAssertEqual(hex(try PointCodec.encode(try PointCodec.decode(blob))), golden, "a decoded blob writes back the same bytes")
        }
    }

    func testEditStrokesLayout() throws {
        // Counts 1 and 2, then the ids as zigzag varints of their differences: 5 (+5), 999 (+994), 1000 (+1).
        let e = EditStrokes(removed: [5], added: [999, 1000])
        XCTAssertEqual(hex(e.encoded), "01020ac40f02")
        XCTAssertEqual(try EditStrokes(decoding: e.encoded), e)
        // A falling id is a negative difference: 10, then 3 (-7 → 13).
        XCTAssertEqual(hex(EditStrokes(removed: [10], added: [3]).encoded), "0101140d")
    }

    func testContentLayout() throws {
        let text = StrokeContent.text(TextBox(text: "héllo", font: "Sans", size: 12, color: RGBA(r: 0x11, g: 0x22, b: 0x33, a: 0xff), width: 200))
        let t = try XCTUnwrap(try ContentCodec.encode(text))
        XCTAssertEqual(hex(t), "0100000000000028400000000000006940ff3322110453616e7368c3a96c6c6f")
        XCTAssertEqual(try ContentCodec.decode(t), text)
        let hash = ContentHash(of: Array("picture".utf8))
        let image = StrokeContent.image(ImageBox(file: hash, pixelWidth: 300, pixelHeight: 2))
        let i = try XCTUnwrap(try ContentCodec.encode(image))
        XCTAssertEqual(hex(i), "02" + hex(Array(hash.hex.utf8)) + "ac0202")
        XCTAssertEqual(try ContentCodec.decode(i), image)
        // Content numbers are at most 35 bits: a sixth varint byte is refused, a missing one is an early end.
        XCTAssertThrowsError(try ContentCodec.decode(Array(i.dropLast(3)) + [0x80, 0x80, 0x80, 0x80, 0x80, 0x01])) {
            XCTAssertEqual("\($0)", "content holds a number too large")
        }
        XCTAssertThrowsError(try ContentCodec.decode(Array(i.dropLast(3)) + [0x80])) { XCTAssertEqual("\($0)", "content ends early") }
    }

    /// Format 15: an image showing a LaTeX formula goes on with the source (length, UTF-8) and its PDF's hash.
    func testFormulaContentLayout() throws {
        let hash = ContentHash(of: Array("picture".utf8)), pdf = ContentHash(of: Array("%PDF".utf8))
        let plain = try XCTUnwrap(try ContentCodec.encode(.image(ImageBox(file: hash, pixelWidth: 300, pixelHeight: 2))))
        let formula = StrokeContent.image(ImageBox(file: hash, pixelWidth: 300, pixelHeight: 2, formula: Formula(source: "x²", pdf: pdf)))
        let f = try XCTUnwrap(try ContentCodec.encode(formula))
        XCTAssertEqual(hex(f), hex(plain) + "0378c2b2" + hex(Array(pdf.hex.utf8)), "the image's bytes as before, then the formula")
        XCTAssertEqual(try ContentCodec.decode(f), formula)
        // A formula that came as a picture has no PDF.
        let old = StrokeContent.image(ImageBox(file: hash, pixelWidth: 3, pixelHeight: 2, formula: Formula(source: "\\bullet")))
        XCTAssertEqual(try ContentCodec.decode(try XCTUnwrap(try ContentCodec.encode(old))), old)
        // Damaged: no source, a source longer than kept, not UTF-8, cut short; a PDF hash cut short or not hex.
        let bad: [([UInt8], String)] = [
            (plain + [0x00], "image content has a formula with no source"),
            (plain + [0x81, 0x80, 0x04], "formula source of 65537 bytes"),
            (plain + [0x01, 0xff], "formula source is not UTF-8"),
            (plain + [0x05, 0x78], "content ends early"),
            (plain + [0x01, 0x78] + Array(pdf.hex.utf8.dropLast()), "formula names no valid PDF hash"),
            (plain + [0x01, 0x78] + Array(repeating: 0x7a, count: 64), "formula names no valid PDF hash"),
        ]
        for (bytes, why) in bad {
            XCTAssertThrowsError(try ContentCodec.decode(bytes)) { XCTAssertEqual("\($0)", why) }
        }
        XCTAssertThrowsError(try ContentCodec.encode(.image(ImageBox(file: hash, pixelWidth: 3, pixelHeight: 2,
                                                                    formula: Formula(source: String(repeating: "x", count: Formula.maxSourceBytes + 1))))))
    }

    func testPlacementLayout() throws {
        XCTAssertNil(PlacementCodec.encode(AffineMap.identity))
        XCTAssertEqual(hex(try XCTUnwrap(PlacementCodec.encode(.translation(1.5, -2)))), "000000000000f83f00000000000000c0")
        let m = AffineMap(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 20)
        let mb = try XCTUnwrap(PlacementCodec.encode(m))
        XCTAssertEqual(hex(mb), "000000000000004000000000000000000000000000000000000000000000004000000000000024400000000000003440")
        XCTAssertEqual(try PlacementCodec.decodeTransform(mb), m)

        // Version 1, matrix, width scale, area flag and area, 2 distinct placements, then which one each stroke had.
        let p0 = Placement(transform: .identity, width: 3), p1 = Placement(transform: .translation(7, 8), width: 1.5)
        let edit = StrokeTransform(ids: [1, 2, 3], before: [p0, p1, p0], matrix: .translation(5, -5),
                                   area: Rect(minX: 0, minY: 0, maxX: 100, maxY: 50))
        let eb = PlacementCodec.encode(edit)
        XCTAssertEqual(hex(eb), "01000000000000f03f00000000000000000000000000000000000000000000f03f000000000000144000000000000014c0000000000000f03f01000000000000000000000000000000000000000000005940000000000000494002000000000000f03f00000000000000000000000000000000000000000000f03f000000000000000000000000000000000000000000000840000000000000f03f00000000000000000000000000000000000000000000f03f0000000000001c400000000000002040000000000000f83f000100")
        let back = try PlacementCodec.decodeEdit(eb, ids: [1, 2, 3])
        XCTAssertEqual(back.before, edit.before)
        XCTAssertEqual(back.matrix, edit.matrix)
        XCTAssertEqual(back.area, edit.area)
        XCTAssertThrowsError(try PlacementCodec.decodeEdit(Array(eb.prefix(30)), ids: [1, 2, 3])) { XCTAssertEqual("\($0)", "a transform ends early") }
    }

    func testReaderRefusesVarintsOverTheirBits() throws {
        func read(_ b: [UInt8], bits: UInt64 = 64) -> String {
            var r = ByteReader(b, endsEarly: CocoaError(.fileReadCorruptFile), tooLarge: CocoaError(.fileReadTooLarge))
            do { return String(try r.varint(bits: bits)) } catch { return (error as? CocoaError)?.code == .fileReadTooLarge ? "too large" : "ends early" }
        }
        let max64: [UInt8] = Array(repeating: 0xff, count: 9) + [0x01]
        XCTAssertEqual(read(max64), String(UInt64.max))
        XCTAssertEqual(read(Array(repeating: 0xff, count: 9) + [0x02]), "too large")
        XCTAssertEqual(read(Array(repeating: 0xff, count: 9) + [0x81, 0x00]), "too large")
        XCTAssertEqual(read([0xff, 0xff]), "ends early")
        XCTAssertEqual(read([0xff, 0xff, 0xff, 0xff, 0x7f], bits: 35), String((UInt64(1) << 35) - 1))
        XCTAssertEqual(read([0xff, 0xff, 0xff, 0xff, 0x80, 0x00], bits: 35), "too large")
        var w = ByteWriter()
        for v: UInt64 in [0, 1, 127, 128, 300, 1 << 35, UInt64.max] { w.varint(v) }
        for v: Int64 in [0, -1, 1, -64, 64, .min, .max] { w.signedVarint(v) }
        w.littleEndian(UInt32(0x11223344)); w.double(-0.0)
        var r = ByteReader(w.bytes, endsEarly: CocoaError(.fileReadCorruptFile), tooLarge: CocoaError(.fileReadTooLarge))
        for v: UInt64 in [0, 1, 127, 128, 300, 1 << 35, UInt64.max] { XCTAssertEqual(try r.varint(), v) }
        for v: Int64 in [0, -1, 1, -64, 64, .min, .max] { XCTAssertEqual(try r.signedVarint(), v) }
        XCTAssertEqual(try r.littleEndian(UInt32.self), 0x11223344)
        XCTAssertEqual(try r.double().bitPattern, (-0.0).bitPattern)
        XCTAssertTrue(r.atEnd)
        XCTAssertEqual(hex(Array(w.bytes.suffix(12))), "44332211" + "0000000000000080")
    }
}
