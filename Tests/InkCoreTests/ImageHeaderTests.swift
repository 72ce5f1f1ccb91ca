import InkCore
import TestSupport
import XCTest

final class ImageHeaderTests: XCTestCase {
    func testEXIFOrientationTurnsTheReportedSize() throws {
        let jpeg = ImageBytes.jpegSkeleton(width: 4032, height: 3024)
        for little in [false, true] {
            for o in 1...8 {
                let h = try ImageHeader(reading: ImageBytes.inserting(ImageBytes.exifSegment(orientation: o, littleEndian: little), into: jpeg))
                XCTAssertEqual(h.orientation, o, "orientation \(o), little-endian \(little)")
                // 5…8 turn the picture a quarter: a landscape-stored phone photo is shown portrait.
                XCTAssertEqual([h.width, h.height], o >= 5 ? [3024, 4032] : [4032, 3024], "orientation \(o)")
                XCTAssertEqual([h.storedWidth, h.storedHeight], [4032, 3024])
            }
        }
        // No EXIF, a value out of range, a wrong type, an IFD past the segment: shown as stored, never refused.
        for bytes in [jpeg,
                      ImageBytes.inserting(ImageBytes.exifSegment(orientation: 9), into: jpeg),
                      ImageBytes.inserting(ImageBytes.exifSegment(orientation: 0), into: jpeg),
                      ImageBytes.inserting(ImageBytes.exifSegment(orientation: 6, ifdOffset: 4000), into: jpeg),
                      ImageBytes.inserting(Array(ImageBytes.exifSegment(orientation: 6).prefix(4)) + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D], into: jpeg)] {
            let h = try ImageHeader(reading: bytes.count > 8 && bytes[3] == 0xE1 ? Self.fixingLength(bytes) : bytes)
            XCTAssertEqual(h.orientation, 1)
            XCTAssertEqual([h.width, h.height], [4032, 3024])
        }
        // The limits hold whichever way the picture is turned.
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.inserting(ImageBytes.exifSegment(orientation: 6), into: ImageBytes.jpegSkeleton(width: 10, height: 20000))))
        // Damaged EXIF bytes anywhere: a header or an ImageError, never a crash.
        var rng = SystemRandomNumberGenerator()
        let good = ImageBytes.inserting(ImageBytes.exifSegment(orientation: 6, littleEndian: true), into: jpeg)
        for _ in 0..<2000 {
            var b = good
            b[Int.random(in: 6..<60, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            _ = try? ImageHeader(reading: b)
        }
    }

    /// Sets an APP1 segment's length (right after SOI) to what the bytes up to the next marker hold.
    static func fixingLength(_ b: [UInt8]) -> [UInt8] {
        var out = b
        var end = 4
        while end + 1 < b.count, !(b[end] == 0xFF && b[end + 1] == 0xE0) { end += 1 }
        let n = end - 4
        out[4] = UInt8(n >> 8); out[5] = UInt8(n & 255)
        return out
    }

    /// The header reader and an image item judge a size by the one `ImageLimits`: what one accepts the other keeps.
    func testHeadersAndImageItemsShareOneLimit() {
        let side = ImageLimits.maxSide, area = ImageLimits.maxPixels
        let sizes = [(side, 1), (side + 1, 1), (1, side + 1), (side, area / side), (side, area / side + 1),
                     (8000, 8000), (8001, 8000), (20000, 100), (30000, 1), (1, 1), (0, 5)]
        for (w, h) in sizes {
            let header = (try? ImageHeader(reading: ImageBytes.pngHeader(width: UInt32(w), height: UInt32(h)))) != nil
            let item = ImageBox(file: ContentHash(of: [1]), pixelWidth: w, pixelHeight: h).problem == nil
            XCTAssertEqual(header, ImageLimits.allow(width: w, height: h), "header \(w)×\(h)")
            XCTAssertEqual(item, ImageLimits.allow(width: w, height: h), "item \(w)×\(h)")
        }
        XCTAssertTrue(ImageLimits.allow(width: side, height: area / side), "the largest accepted at the full side")
        XCTAssertFalse(ImageLimits.allow(width: side, height: area / side + 1), "one row more is over the area")
        XCTAssertFalse(ImageLimits.allow(width: side + 1, height: 1))
        XCTAssertFalse(ImageLimits.allow(width: 8001, height: 8000), "64,008,000 pixels")
        XCTAssertTrue(ImageLimits.allow(width: 8000, height: 8000))
    }

    func testPNGSizeComesFromItsHeader() throws {
        let h = try ImageHeader(reading: ImageBytes.pngHeader(width: 640, height: 480))
        XCTAssertEqual(h, ImageHeader(format: .png, width: 640, height: 480))
    }

    func testJPEGSizeComesFromItsFrameHeaderAfterOtherSegments() throws {
        let h = try ImageHeader(reading: ImageBytes.jpegSkeleton(width: 1234, height: 567))
        XCTAssertEqual(h, ImageHeader(format: .jpeg, width: 1234, height: 567))
    }

    func testDecompressionBombIsRefusedFromTheHeader() {
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.pngHeader(width: 100_000, height: 100_000))) { e in
            XCTAssertEqual(e as? ImageError, .tooLarge(format: .png, width: 100_000, height: 100_000))
            XCTAssertTrue("\(e)".contains("100000×100000"), "\(e)")
            XCTAssertFalse("\(e)".contains("\n"))
        }
        // Within each side but over the area limit.
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.pngHeader(width: 16384, height: 16384)))
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.jpegSkeleton(width: 20000, height: 10)))
        XCTAssertNoThrow(try ImageHeader(reading: ImageBytes.pngHeader(width: 16384, height: 3000)))
    }

    func testPNGChunkClaimingMoreThanTheFileIsRefused() {
        // IHDR, then a text chunk claiming 2 GB in a file of 60 bytes (libpng would allocate the claim first).
        var b = ImageBytes.pngHeader(width: 10, height: 10)
        b.removeLast(12)
        b += [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8) + Array(repeating: 0, count: 8)
        XCTAssertThrowsError(try ImageHeader(reading: b)) { e in
            guard case .damaged(let why)? = e as? ImageError else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("truncated"), why)
        }
        // Without IEND: cut short.
        XCTAssertThrowsError(try ImageHeader(reading: Array(ImageBytes.pngHeader(width: 10, height: 10).dropLast(12))))
    }

    func testTruncatedJPEGIsRefused() {
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.jpegSkeleton(width: 10, height: 10, truncated: true))) { e in
            guard case .damaged(let why)? = e as? ImageError else { return XCTFail("\(e)") }
            XCTAssertTrue(why.contains("truncated"), why)
        }
        // Cut anywhere before the end marker: refused, never a crash.
        let whole = ImageBytes.jpegSkeleton(width: 10, height: 10)
        for n in 0..<(whole.count - 1) { XCTAssertThrowsError(try ImageHeader(reading: Array(whole[..<n])), "cut at \(n)") }
    }

    func testJunkAndEmptySizesAreRefused() {
        XCTAssertThrowsError(try ImageHeader(reading: [])) { XCTAssertEqual($0 as? ImageError, .notAnImage) }
        XCTAssertThrowsError(try ImageHeader(reading: Array("GIF89a junk".utf8))) { XCTAssertEqual($0 as? ImageError, .notAnImage) }
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.pngHeader(width: 0, height: 10)))
        XCTAssertThrowsError(try ImageHeader(reading: Array(ImageBytes.pngHeader(width: 10, height: 10)[..<20])))
        XCTAssertThrowsError(try ImageHeader(reading: ImageBytes.jpegSkeleton(width: 10, height: 0)))
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var b = ImageBytes.jpegSkeleton(width: 10, height: 10)
            b[Int.random(in: 2..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            _ = try? ImageHeader(reading: b)
        }
    }
}
