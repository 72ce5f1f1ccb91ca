import InkCore

/// `strokes.content` (format 9): what a text box or image item holds, as a small checked blob. NULL is ink.
///
///     text:  0x01, size f64, width f64, colour u32 (0xRRGGBBAA), font length varint, font UTF-8, text UTF-8 (the rest)
///     image: 0x02, 64 hex digits of the file's SHA-256, pixel width varint, pixel height varint
///
/// Numbers are little-endian. The blob is untrusted on read: lengths, UTF-8, finite numbers and ranges are checked.
public enum ContentCodec {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Nil for ink (stored as NULL).
    public static func encode(_ c: StrokeContent) throws -> [UInt8]? {
        switch c {
        case .ink: return nil
        case .text(let t):
            if let p = t.problem { throw Failure(description: p) }
            var out: [UInt8] = [1]
            out.reserveCapacity(32 + t.font.utf8.count + t.text.utf8.count)
            put(t.size.bitPattern, 8, &out); put(t.width.bitPattern, 8, &out)
            put(UInt64(t.color.packed), 4, &out)
            varint(UInt64(t.font.utf8.count), &out)
            out += t.font.utf8; out += t.text.utf8
            return out
        case .image(let i):
            if let p = i.problem { throw Failure(description: p) }
            var out: [UInt8] = [2]
            out += i.file.hex.utf8
            varint(UInt64(i.pixelWidth), &out); varint(UInt64(i.pixelHeight), &out)
            return out
        }
    }

    public static func decode(_ b: [UInt8]) throws -> StrokeContent {
        var i = 1
        func need(_ n: Int) throws {
            guard n >= 0, b.count - i >= n else { throw Failure(description: "content ends early") }
        }
        func fixed(_ n: Int) throws -> UInt64 {
            try need(n)
            var v: UInt64 = 0
            for k in 0..<n { v |= UInt64(b[i + k]) << (8 * UInt64(k)) }
            i += n
            return v
        }
        func number() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                try need(1)
                let byte = b[i]; i += 1
                guard shift < 35 else { throw Failure(description: "content holds a number too large") }
                v |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return v }
                shift += 7
            }
        }
        guard let kind = b.first else { throw Failure(description: "content is empty") }
        switch kind {
        case 1:
            let size = Double(bitPattern: try fixed(8)), width = Double(bitPattern: try fixed(8))
            let color = RGBA(packed: UInt32(try fixed(4)))
            let fontLength = try number()
            guard fontLength <= UInt64(TextBox.maxFontBytes) else { throw Failure(description: "font name of \(fontLength) bytes") }
            try need(Int(fontLength))
            guard let font = String(validating: b[i..<(i + Int(fontLength))], as: UTF8.self) else { throw Failure(description: "font name is not UTF-8") }
            i += Int(fontLength)
            // Checked before decoding so an oversized text costs no string.
            guard b.count - i <= TextBox.maxTextBytes else { throw Failure(description: "text of \(b.count - i) bytes is over the \(TextBox.maxTextBytes)-byte limit of a text box") }
            guard let text = String(validating: b[i...], as: UTF8.self) else { throw Failure(description: "text is not UTF-8") }
            let box = TextBox(text: text, font: font, size: size, color: color, width: width)
            if let p = box.problem { throw Failure(description: p) }
            return .text(box)
        case 2:
            try need(64)
            guard let hash = ContentHash(hex: String(decoding: b[i..<(i + 64)], as: UTF8.self)) else { throw Failure(description: "image names no valid file hash") }
            i += 64
            let w = try number(), h = try number()
            guard i == b.count else { throw Failure(description: "image content has \(b.count - i) bytes left over") }
            let box = ImageBox(file: hash, pixelWidth: Int(w), pixelHeight: Int(h))
            if let p = box.problem { throw Failure(description: p) }
            return .image(box)
        default:
            throw Failure(description: "unknown content kind \(kind)")
        }
    }

    /// `pages.pdf` and the page-edit text: "HASH:INDEX".
    static func pdfText(_ r: PDFPageRef) -> String { "\(r.file.hex):\(r.index)" }

    static func pdf(_ s: Substring) throws -> PDFPageRef {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let h = ContentHash(hex: parts[0]), let i = Int(parts[1]), i >= 0, i <= PDFPageRef.maxIndex else {
            throw Failure(description: "PDF background '\(s.prefix(80))' is not HASH:PAGE")
        }
        return PDFPageRef(file: h, index: i)
    }

    private static func put(_ v: UInt64, _ n: Int, _ out: inout [UInt8]) {
        for k in 0..<n { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
    }

    private static func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
}
