/// Image file bytes made in tests: PNG and JPEG headers with no pixel data, and the EXIF segment a camera
/// writes. What the header reader, the decoder and the exporters are tested with (shared by their test targets).
public enum ImageBytes {
    /// A PNG signature and IHDR claiming `w`×`h` (no pixel data: the header alone must decide).
    public static func pngHeader(width w: UInt32, height h: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(w) + be(h) + [8, 6, 0, 0, 0] + be(0)
            + be(0) + Array("IEND".utf8) + be(0)
    }

    /// SOI, an APP0 segment, a baseline frame header of `w`×`h`, a scan, and EOI unless `truncated`.
    public static func jpegSkeleton(width w: Int, height h: Int, truncated: Bool = false) -> [UInt8] {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        b += [0xFF, 0xC0, 0, 11, 8, UInt8(h >> 8), UInt8(h & 255), UInt8(w >> 8), UInt8(w & 255), 1, 1, 0x11, 0]
        b += [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0] + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        if !truncated { b += [0xFF, 0xD9] }
        return b
    }

    /// An APP1 segment of EXIF data whose IFD0 holds `entries` (tag, type, count, value) in that byte order:
    /// what a camera writes, Orientation (0x0112) among other tags.
    public static func exifSegment(orientation: Int, littleEndian: Bool = false, entries extra: [(Int, Int, Int, Int)] = [(0x010F, 2, 4, 0)],
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
    public static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] { Array(jpeg[..<2]) + segment + Array(jpeg[2...]) }
}
