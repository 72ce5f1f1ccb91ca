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

    /// An APP1 segment of EXIF data whose IFD0 holds `entries` (tag, type, count, value) in that byte order:
    /// what a camera writes, Orientation (0x0112) among other tags.
    static func exifSegment(orientation: Int, littleEndian: Bool = false, entries extra: [(Int, Int, Int, Int)] = [(0x010F, 2, 4, 0)],
                            ifdOffset: Int = 8) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { littleEndian ? [UInt8(v & 255), UInt8(v >> 8 & 255)] : [UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func u32(_ v: Int) -> [UInt8] { littleEndian ? u16(v & 0xFFFF) + u16(v >> 16) : u16(v >> 16) + u16(v & 0xFFFF) }
        let entries = (extra + [(0x0112, 3, 1, orientation)]).sorted { $0.0 < $1.0 }
        var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(ifdOffset)
        tiff += u16(entries.count)
        for (tag, type, count, value) in entries {
            // A SHORT sits in the first two bytes of the value field.
            tiff += u16(tag) + u16(type) + u32(count) + (type == 3 ? u16(value) + [0, 0] : u32(value))
        }
        tiff += u32(0)
        let data = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1, UInt8((data.count + 2) >> 8), UInt8((data.count + 2) & 255)] + data
    }

    /// `jpeg` with `segment` right after its start marker (where cameras put EXIF).
    static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] { Array(jpeg[..<2]) + segment + Array(jpeg[2...]) }

    func testEXIFOrientationTurnsTheReportedSize() throws {
        let jpeg = Self.jpegSkeleton(width: 4032, height: 3024)
        for little in [false, true] {
            for o in 1...8 {
                let h = try ImageHeader(reading: Self.inserting(Self.exifSegment(orientation: o, littleEndian: little), into: jpeg))
                XCTAssertEqual(h.orientation, o, "orientation \(o), little-endian \(little)")
                // 5…8 turn the picture a quarter: a landscape-stored phone photo is shown portrait.
                XCTAssertEqual([h.width, h.height], o >= 5 ? [3024, 4032] : [4032, 3024], "orientation \(o)")
                XCTAssertEqual([h.storedWidth, h.storedHeight], [4032, 3024])
            }
        }
        // No EXIF, a value out of range, a wrong type, an IFD past the segment: shown as stored, never refused.
        for bytes in [jpeg,
                      Self.inserting(Self.exifSegment(orientation: 9), into: jpeg),
                      Self.inserting(Self.exifSegment(orientation: 0), into: jpeg),
                      Self.inserting(Self.exifSegment(orientation: 6, ifdOffset: 4000), into: jpeg),
                      Self.inserting(Array(Self.exifSegment(orientation: 6).prefix(4)) + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D], into: jpeg)] {
            let h = try ImageHeader(reading: bytes.count > 8 && bytes[3] == 0xE1 ? Self.fixingLength(bytes) : bytes)
            XCTAssertEqual(h.orientation, 1)
            XCTAssertEqual([h.width, h.height], [4032, 3024])
        }
        // The limits hold whichever way the picture is turned.
        XCTAssertThrowsError(try ImageHeader(reading: Self.inserting(Self.exifSegment(orientation: 6), into: Self.jpegSkeleton(width: 10, height: 20000))))
        // Damaged EXIF bytes anywhere: a header or an ImageError, never a crash.
        var rng = SystemRandomNumberGenerator()
        let good = Self.inserting(Self.exifSegment(orientation: 6, littleEndian: true), into: jpeg)
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
            let header = (try? ImageHeader(reading: Self.pngHeader(width: UInt32(w), height: UInt32(h)))) != nil
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
