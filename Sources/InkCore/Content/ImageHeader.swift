/// What a PNG or JPEG says about itself before any pixel is decoded: its kind and size. Read in pure Swift from
/// the first bytes, so a picture claiming 100,000 × 100,000 pixels (a decompression bomb) is refused before a
/// decoder allocates anything (`ImageLimits`), and a JPEG cut short is refused before a decoder sees it.
public struct ImageHeader: Hashable, Sendable {
    public enum Format: String, Hashable, Sendable { case png, jpeg }

    public var format: Format
    /// The size as the picture is shown: a JPEG's EXIF orientation applied (a phone photo taken upright is stored
    /// landscape with orientation 6 and shown portrait).
    public var width: Int
    public var height: Int
    /// EXIF orientation 1…8 (1: as stored; 2–4 mirrored or turned 180°; 5–8 also swap the sides); 1 for PNG.
    public var orientation: Int = 1

    public init(format: Format, width: Int, height: Int, orientation: Int = 1) {
        self.format = format; self.width = width; self.height = height; self.orientation = orientation
    }

    /// The size of the pixels as stored (before the orientation turns them).
    public var storedWidth: Int { orientation >= 5 ? height : width }
    public var storedHeight: Int { orientation >= 5 ? width : height }

    /// The header of `bytes`; throws `ImageError` for anything that is not a whole PNG or JPEG of a size we
    /// decode.
    public init(reading bytes: [UInt8]) throws {
        if bytes.starts(with: ImageHeader.pngSignature) {
            self = try ImageHeader.png(bytes)
        } else if bytes.starts(with: ImageHeader.jpegSignature) {
            self = try ImageHeader.jpeg(bytes)
        } else {
            throw ImageError.notAnImage
        }
        guard width > 0, height > 0 else { throw ImageError.damaged("\(format.name) of \(width)×\(height) pixels") }
        guard ImageLimits.allow(width: width, height: height) else {
            throw ImageError.tooLarge(format: format, width: width, height: height)
        }
        if format == .png { try ImageHeader.checkPNGChunks(bytes) }
    }

    /// Every PNG chunk must fit in the file up to IEND: libpng allocates a chunk's claimed length before reading
    /// it (a 2 GB claim in 100 bytes), and a file cut short ends inside a chunk.
    private static func checkPNGChunks(_ b: [UInt8]) throws {
        var i = 8
        while true {
            guard i + 12 <= b.count else { throw ImageError.damaged("PNG is truncated (it ends before its IEND chunk)") }
            let length = be32(b, i)
            guard length <= b.count - i - 12 else { throw ImageError.damaged("PNG is truncated (a chunk claims \(length) bytes)") }
            if b[i + 4] == 0x49, b[i + 5] == 0x45, b[i + 6] == 0x4E, b[i + 7] == 0x44 { return }   // IEND
            i += 12 + length
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// A JPEG's first bytes (start of image, then a marker).
    public static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// A PNG starts with its signature and then the IHDR chunk: length 13, "IHDR", width, height (big-endian).
    private static func png(_ b: [UInt8]) throws -> ImageHeader {
        guard b.count >= 33 else { throw ImageError.damaged("PNG ends before its header") }
        guard be32(b, 8) == 13, Array(b[12..<16]) == Array("IHDR".utf8) else {
            throw ImageError.damaged("PNG without its IHDR header")
        }
        return ImageHeader(format: .png, width: be32(b, 16), height: be32(b, 20))
    }

    /// A JPEG is a run of marker segments; the frame header (SOF0…SOF15 but DHT, JPG and DAC) holds the size.
    /// The picture ends with EOI after the scans: without it the file was cut short.
    private static func jpeg(_ b: [UInt8]) throws -> ImageHeader {
        var i = 2
        var size: (w: Int, h: Int)?
        var orientation: Int?
        while true {
            // Markers may be preceded by any number of 0xFF fill bytes.
            guard i < b.count, b[i] == 0xFF else { throw ImageError.damaged("JPEG ends early or its markers are damaged") }
            while i < b.count, b[i] == 0xFF { i += 1 }
            guard i < b.count else { throw ImageError.damaged("JPEG ends early") }
            let marker = b[i]; i += 1
            switch marker {
            case 0xD0...0xD7, 0x01: continue // no length
            case 0xD9: throw ImageError.damaged("JPEG ends before its first scan")
            default: break
            }
            guard i + 2 <= b.count else { throw ImageError.damaged("JPEG ends early") }
            let length = be16(b, i)
            guard length >= 2, i + length <= b.count else { throw ImageError.damaged("JPEG ends inside a segment") }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard length >= 8 else { throw ImageError.damaged("JPEG frame header too short") }
                size = (w: be16(b, i + 5), h: be16(b, i + 3))
            }
            if marker == 0xE1, orientation == nil {
                orientation = exifOrientation(b[(i + 2)..<(i + length)])
            }
            if marker == 0xDA {
                guard let size else { throw ImageError.damaged("JPEG scan before its frame header") }
                let o = orientation ?? 1
                // Entropy-coded data escapes 0xFF as FF 00, so FF D9 after the first scan is the real end.
                var j = i + length
                while j + 1 < b.count {
                    if b[j] == 0xFF, b[j + 1] == 0xD9 {
                        return ImageHeader(format: .jpeg, width: o >= 5 ? size.h : size.w, height: o >= 5 ? size.w : size.h, orientation: o)
                    }
                    j += 1
                }
                throw ImageError.damaged("JPEG is truncated (no end marker after its image data)")
            }
            i += length
        }
    }

    /// The Orientation tag (0x0112) of an APP1 segment's EXIF data ("Exif\0\0", a TIFF header, IFD0), nil when the
    /// segment is not EXIF or has none; a value outside 1…8 or an entry reaching past the segment counts as none.
    static func exifOrientation(_ seg: ArraySlice<UInt8>) -> Int? {
        let d = Array(seg)
        guard d.count >= 14, d[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let t = 6   // the TIFF header; its offsets count from here
        let little: Bool
        switch (d[t], d[t + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ k: Int) -> Int? {
            guard k >= 0, k + 2 <= d.count else { return nil }
            return little ? Int(d[k]) | Int(d[k + 1]) << 8 : Int(d[k]) << 8 | Int(d[k + 1])
        }
        func u32(_ k: Int) -> Int? {
            guard let a = u16(k), let b = u16(k + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(t + 2) == 42, let ifd = u32(t + 4), let count = u16(t + ifd) else { return nil }
        for e in 0..<min(count, 1000) {
            let entry = t + ifd + 2 + e * 12
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (type 3), one value, held in the first two bytes of the value field.
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let v = u16(entry + 8), (1...8).contains(v) else { return nil }
            return v
        }
        return nil
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
}

extension ImageHeader.Format {
    var name: String { self == .png ? "PNG" : "JPEG" }
}

/// Why an image was refused, one line a user can act on.
public enum ImageError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAnImage
    case tooLarge(format: ImageHeader.Format, width: Int, height: Int)
    case damaged(String)
    case undecodable(String)

    public var description: String {
        switch self {
        case .notAnImage: return "not a PNG or JPEG image"
        case let .tooLarge(f, w, h):
            return "the \(f.name) claims \(w)×\(h) pixels; images \(ImageLimits.wording) are accepted"
        case .damaged(let why): return "damaged image: \(why)"
        case .undecodable(let why): return "the image does not decode: \(why)"
        }
    }
}
