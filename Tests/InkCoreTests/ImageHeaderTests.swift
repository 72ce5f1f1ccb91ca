import InkCore
import XCTest

final class ImageHeaderTests: XCTestCase {
    /// A PNG signature and IHDR claiming `w`×`h` (no pixel data: the header alone must decide).
    static func pngHeader(width w: UInt32, height h: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(w) + be(h) + [8, 6, 0, 0, 0] + be(0)
            + be(0) + Array("IEND".utf8) + be(0)
    }

    /// SOI, an APP0 segment, a baseline frame header of `w`×`h`, a scan, and EOI unless `truncated`.
    static func jpegSkeleton(width w: Int, height h: Int, truncated: Bool = false) -> [UInt8] {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        b += [0xFF, 0xC0, 0, 11, 8, UInt8(h >> 8), UInt8(h & 255), UInt8(w >> 8), UInt8(w & 255), 1, 1, 0x11, 0]
        b += [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0] + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        if !truncated { b += [0xFF, 0xD9] }
        return b
    }

    func testPNGSizeComesFromItsHeader() throws {
        let h = try ImageHeader(reading: Self.pngHeader(width: 640, height: 480))
        XCTAssertEqual(h, ImageHeader(format: .png, width: 640, height: 480))
    }

    func testJPEGSizeComesFromItsFrameHeaderAfterOtherSegments() throws {
        let h = try ImageHeader(reading: Self.jpegSkeleton(width: 1234, height: 567))
        XCTAssertEqual(h, ImageHeader(format: .jpeg, width: 1234, height: 567))
    }

    func testDecompressionBombIsRefusedFromTheHeader() {
        XCTAssertThrowsError(try ImageHeader(reading: Self.pngHeader(width: 100_000, height: 100_000))) { e in
            XCTAssertEqual(e as? ImageError, .tooLarge(format: .png, width: 100_000, height: 100_000))
            XCTAssertTrue("\(e)".contains("100000×100000"), "\(e)")
            XCTAssertFalse("\(e)".contains("\n"))
        }
        // Within each side but over the area limit.
        XCTAssertThrowsError(try ImageHeader(reading: Self.pngHeader(width: 16384, height: 16384)))
        XCTAssertThrowsError(try ImageHeader(reading: Self.jpegSkeleton(width: 20000, height: 10)))
        XCTAssertNoThrow(try ImageHeader(reading: Self.pngHeader(width: 16384, height: 3000)))
    }

    func testPNGChunkClaimingMoreThanTheFileIsRefused() {
        // IHDR, then a text chunk claiming 2 GB in a file of 60 bytes (libpng would allocate the claim first).
        var b = Self.pngHeader(width: 10, height: 10)
        b.removeLast(12)
        b += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + Array(repeating: 0, count: 8)
        XCTAssertThrowsError(try ImageHeader(reading: b)) { e in
            guard case .damaged(let why)? = e as? ImageError else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("truncated"), why)
        }
        // Without IEND: cut short.
        XCTAssertThrowsError(try ImageHeader(reading: Array(Self.pngHeader(width: 10, height: 10).dropLast(12))))
    }

    func testTruncatedJPEGIsRefused() {
        XCTAssertThrowsError(try ImageHeader(reading: Self.jpegSkeleton(width: 10, height: 10, truncated: true))) { e in
            guard case .damaged(let why)? = e as? ImageError else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("truncated"), why)
        }
        // Cut anywhere before the end marker: refused, never a crash.
        let whole = Self.jpegSkeleton(width: 10, height: 10)
        for n in 0..<(whole.count - 1) { XCTAssertThrowsError(try ImageHeader(reading: Array(whole[..<n])), "cut at \(n)") }
    }

    func testJunkAndEmptySizesAreRefused() {
        XCTAssertThrowsError(try ImageHeader(reading: [])) { XCTAssertEqual($0 as? ImageError, .notAnImage) }
        XCTAssertThrowsError(try ImageHeader(reading: Array("GIF89a junk".utf8))) { XCTAssertEqual($0 as? ImageError, .notAnImage) }
        XCTAssertThrowsError(try ImageHeader(reading: Self.pngHeader(width: 0, height: 10)))
        XCTAssertThrowsError(try ImageHeader(reading: Array(Self.pngHeader(width: 10, height: 10)[..<20])))
        XCTAssertThrowsError(try ImageHeader(reading: Self.jpegSkeleton(width: 10, height: 0)))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var b = Self.jpegSkeleton(width: 10, height: 10)
            b[Int.random(in: 2..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            _ = try? ImageHeader(reading: b)
        }
    }
}
