import InkCore

/// `strokes.line` (format 12): a stroke's fill, caps and dashes as words in Xournal++'s own terms,
/// e.g. `fill=128;cap=butt;dashes=6.0 3.0`; a board entry of version 3 carries the same words. NULL for solid, unfilled, round-capped ink (nearly all ink: one byte).
public enum LineLookCodec {
    public struct Failure: Error, CustomStringConvertible { public var description: String }

    public static func encode(_ style: StrokeStyle) -> String? {
        guard !style.isPlainLine else { return nil }
        var words: [String] = []
        if let f = style.fill { words.append("fill=\(f)") }
        if style.cap != .round { words.append("cap=\(style.cap.rawValue)") }
        if !style.line.isSolid { words.append("dashes=" + style.line.dashes.map { "\($0)" }.joined(separator: " ")) }
        return words.joined(separator: ";")
    }

    /// Applies stored words to `style`; anything this build does not know is an error (never a silent change).
    public static func decode(_ text: String, into style: inout StrokeStyle) throws {
        guard text.utf8.count <= 1024 else { throw Failure(description: "a line style of \(text.utf8.count) bytes") }
        for word in text.split(separator: ";") {
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw Failure(description: "a line style word '\(word)' without a value") }
            let value = String(parts[1])
            switch parts[0] {
            case "fill":
                guard let f = UInt8(value) else { throw Failure(description: "a fill '\(value)' outside 0…255") }
                style.fill = f
            case "cap":
                guard let c = CapStyle(rawValue: value) else { throw Failure(description: "an unknown cap '\(value)'") }
                style.cap = c
            case "dashes":
                let numbers = value.split(separator: " ").map { Double($0) }
                guard !numbers.contains(nil), let l = LineStyle(dashes: numbers.compactMap { $0 }), !l.isSolid else {
                    throw Failure(description: "a dash pattern '\(value)' cairo cannot draw")
                }
                style.line = l
            default: throw Failure(description: "an unknown line style word '\(parts[0])'")
            }
        }
    }
}
