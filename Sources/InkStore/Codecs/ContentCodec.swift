import InkCore

/// `strokes.content` (format 9): what a text box or image item holds, as a small checked blob. NULL is ink.
///
///     text:  0x01, size f64, width f64, colour u32 (0xRRGGBBAA), font length varint, font UTF-8, text UTF-8 (the rest)
///     image: 0x02, 64 hex digits of the file's SHA-256, pixel width varint, pixel height varint
///            then, for a LaTeX formula (format 15): source length varint, source UTF-8, and the 64 hex digits of
///            its PDF's SHA-256 when it has one
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
            var out = ByteWriter([1], capacity: 32 + t.font.utf8.count + t.text.utf8.count)
            out.doubles(t.size, t.width)
            out.littleEndian(t.color.packed)
            out.varint(UInt64(t.font.utf8.count))
            out.append(contentsOf: t.font.utf8); out.append(contentsOf: t.text.utf8)
            return out.bytes
        case .image(let i):
            if let p = i.problem { throw Failure(description: p) }
            var out = ByteWriter([2])
            out.append(contentsOf: i.file.hex.utf8)
            out.varint(UInt64(i.pixelWidth)); out.varint(UInt64(i.pixelHeight))
            if let f = i.formula {
                out.varint(UInt64(f.source.utf8.count)); out.append(contentsOf: f.source.utf8)
                if let pdf = f.pdf { out.append(contentsOf: pdf.hex.utf8) }
            }
            return out.bytes
        }
    }

    public static func decode(_ b: [UInt8]) throws -> StrokeContent {
        // Numbers in content are small: a varint of more than 35 bits is refused.
        var r = ByteReader(b, endsEarly: Failure(description: "content ends early"),
                           tooLarge: Failure(description: "content holds a number too large"))
        guard let kind = b.first else { throw Failure(description: "content is empty") }
        r.position = 1
        switch kind {
        case 1:
            let size = try r.double(), width = try r.double()
            let color = RGBA(packed: try r.littleEndian(UInt32.self))
            let fontLength = try r.varint(bits: 35)
            guard fontLength <= UInt64(TextBox.maxFontBytes) else { throw Failure(description: "font name of \(fontLength) bytes") }
            guard let font = String(validating: try r.take(Int(fontLength)), as: UTF8.self) else { throw Failure(description: "font name is not UTF-8") }
            // Checked before decoding so an oversized text costs no string.
            guard r.remaining <= TextBox.maxTextBytes else { throw Failure(description: "text of \(r.remaining) bytes is over the \(TextBox.maxTextBytes)-byte limit of a text box") }
            guard let text = String(validating: try r.take(r.remaining), as: UTF8.self) else { throw Failure(description: "text is not UTF-8") }
            let box = TextBox(text: text, font: font, size: size, color: color, width: width)
            if let p = box.problem { throw Failure(description: p) }
            return .text(box)
        case 2:
            guard let hash = ContentHash(hex: String(decoding: try r.take(64), as: UTF8.self)) else { throw Failure(description: "image names no valid file hash") }
            let w = try r.varint(bits: 35), h = try r.varint(bits: 35)
            var formula: Formula?
            if !r.atEnd {
                let n = try r.varint(bits: 35)
                guard n > 0 else { throw Failure(description: "image content has a formula with no source") }
                guard n <= UInt64(Formula.maxSourceBytes) else { throw Failure(description: "formula source of \(n) bytes") }
                guard let source = String(validating: try r.take(Int(n)), as: UTF8.self) else { throw Failure(description: "formula source is not UTF-8") }
                var pdf: ContentHash?
                if !r.atEnd {
                    guard r.remaining == 64, let h = ContentHash(hex: String(decoding: try r.take(64), as: UTF8.self)) else {
                        throw Failure(description: "formula names no valid PDF hash")
                    }
                    pdf = h
                }
                formula = Formula(source: source, pdf: pdf)
            }
            let box = ImageBox(file: hash, pixelWidth: Int(w), pixelHeight: Int(h), formula: formula)
            if let p = box.problem { throw Failure(description: p) }
            return .image(box)
        default:
            throw Failure(description: "unknown content kind \(kind)")
        }
    }

    /// `pages.pdf` and the page-edit text: "HASH:INDEX".
    static func pdfText(_ r: PDFPageRef) -> String { "\(r.file.hex):\(r.index)" }

    /// `pages.picture` and the page-edit text: the picture's hash.
    static func picture(_ s: Substring) throws -> ContentHash {
        guard let h = ContentHash(hex: s) else { throw Failure(description: "picture background '\(s.prefix(80))' is not a hash") }
        return h
    }

    static func pdf(_ s: Substring) throws -> PDFPageRef {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let h = ContentHash(hex: parts[0]), let i = Int(parts[1]), i >= 0, i <= PDFPageRef.maxIndex else {
            throw Failure(description: "PDF background '\(s.prefix(80))' is not HASH:PAGE")
        }
        return PDFPageRef(file: h, index: i)
    }
}
