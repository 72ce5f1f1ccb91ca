/// A small, strict JSON reader for one object per line, written for the event log: it is fast (no Foundation,
/// no intermediate tree for the values we do not need) and its errors name the column.
/// Nested objects are validated and skipped (only their kind is kept); arrays keep their values (a pressure
/// curve's points), bounded by the line's length.
struct JSONObjectReader {
    enum Value: Equatable {
        case string(String)
        case number(Double, integer: Int64?)
        case bool(Bool)
        case null
        indirect case array([Value])
        case object

        var kind: Wording {
            switch self {
            case .string: return Wording("a string")
            case .number: return Wording("a number")
            case .bool: return Wording("a boolean")
            case .null: return .verbatim("null")
            case .array: return Wording("an array")
            case .object: return Wording("an object")
            }
        }
    }

    struct Failure: Error {
        var wording: Wording
        var message: String { wording.description }
    }

    /// Deepest nesting accepted inside an ignored value (bounds the recursion).
    static let maxDepth = 64

    private let bytes: [UInt8]
    private var pos: Int
    private let end: Int

    private init(_ bytes: [UInt8], _ range: Range<Int>) { self.bytes = bytes; pos = range.lowerBound; end = range.upperBound }

    /// Parses `bytes[range]` as exactly one JSON object; returns its members in order.
    /// Returns nil for a line of only whitespace.
    static func members(of bytes: [UInt8], in range: Range<Int>) throws -> [(key: String, value: Value)]? {
        var r = JSONObjectReader(bytes, range)
        r.skipSpace()
        if r.pos == r.end { return nil }
        guard r.bytes[r.pos] == UInt8(ascii: "{") else {
            throw Failure(wording: Wording("not JSON: {0} at column {1}", Wording("expected an object"), r.column))
        }
        let out = try r.object(keep: true, depth: 0)
        r.skipSpace()
        guard r.pos == r.end else { throw Failure(wording: Wording("not JSON: {0} at column {1}", Wording("unexpected text after the object"), r.column)) }
        return out
    }

    private var column: Int { pos + 1 }

    private func fail(_ what: Wording) -> Failure {
        if pos >= end { return Failure(wording: Wording("not JSON: {0} at end of line", what)) }
        return Failure(wording: Wording("not JSON: {0} at column {1}", what, column))
    }

    private mutating func skipSpace() {
        while pos < end {
            let c = bytes[pos]
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { return }
            pos += 1
        }
    }

    private mutating func expect(_ c: UInt8, _ what: Wording) throws {
        skipSpace()
        guard pos < end, bytes[pos] == c else { throw fail(what) }
        pos += 1
    }

    /// Reads an object starting at `{`. With `keep` false it only validates.
    private mutating func object(keep: Bool, depth: Int) throws -> [(key: String, value: Value)] {
        pos += 1 // {
        var out: [(key: String, value: Value)] = []
        skipSpace()
        if pos < end, bytes[pos] == UInt8(ascii: "}") { pos += 1; return out }
        while true {
            skipSpace()
            guard pos < end, bytes[pos] == UInt8(ascii: "\"") else { throw fail(Wording("expected a key in quotes")) }
            let key = try string()
            try expect(UInt8(ascii: ":"), Wording("expected ':' after key"))
            let v = try value(depth: depth + 1)
            if keep {
                if out.contains(where: { $0.key == key }) { throw Failure(wording: Wording("duplicate key {0}", EventLog.quoted(key))) }
                out.append((key, v))
            }
            skipSpace()
            guard pos < end else { throw fail(Wording("expected ',' or '}'")) }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "}") { pos += 1; return out }
            throw fail(Wording("expected ',' or '}'"))
        }
    }

    private mutating func array(depth: Int) throws -> [Value] {
        pos += 1 // [
        var out: [Value] = []
        skipSpace()
        if pos < end, bytes[pos] == UInt8(ascii: "]") { pos += 1; return out }
        while true {
            out.append(try value(depth: depth + 1))
            skipSpace()
            guard pos < end else { throw fail(Wording("expected ',' or ']'")) }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            if bytes[pos] == UInt8(ascii: "]") { pos += 1; return out }
            throw fail(Wording("expected ',' or ']'"))
        }
    }

    private mutating func value(depth: Int) throws -> Value {
        skipSpace()
        guard pos < end else { throw fail(Wording("expected a value")) }
        if depth > JSONObjectReader.maxDepth { throw Failure(wording: Wording("not JSON: nested deeper than {0} levels", JSONObjectReader.maxDepth)) }
        switch bytes[pos] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): _ = try object(keep: false, depth: depth); return .object
        case UInt8(ascii: "["): return .array(try array(depth: depth))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail(Wording("expected a value"))
        }
    }

    private mutating func literal(_ word: String) throws {
        var i = pos
        for c in word.utf8 {
            guard i < end, bytes[i] == c else { throw fail(Wording("expected a value")) }
            i += 1
        }
        pos = i
    }

    private static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// JSON number grammar; the value is exact for integers and correctly rounded otherwise.
    private mutating func number() throws -> Value {
        let start = pos
        var negative = false
        if bytes[pos] == UInt8(ascii: "-") { negative = true; pos += 1 }
        guard pos < end, isDigit(bytes[pos]) else { throw fail(Wording("expected a digit")) }
        var mantissa: UInt64 = 0, digits = 0, fracDigits = 0
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
        } else {
            while pos < end, isDigit(bytes[pos]) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[pos] - 48) }
                digits += 1; pos += 1
            }
        }
        var simple = true
        if pos < end, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard pos < end, isDigit(bytes[pos]) else { throw fail(Wording("expected a digit after '.'")) }
            while pos < end, isDigit(bytes[pos]) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(bytes[pos] - 48); fracDigits += 1 }
                if mantissa != 0 || bytes[pos] != UInt8(ascii: "0") { digits += 1 }
                pos += 1
            }
        }
        if pos < end, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            simple = false
            pos += 1
            if pos < end, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < end, isDigit(bytes[pos]) else { throw fail(Wording("expected a digit in the exponent")) }
            while pos < end, isDigit(bytes[pos]) { pos += 1 }
        }
        // Fast path (Clinger): mantissa and power of ten both exact in a Double, so one division rounds correctly.
        if simple && digits <= 15 && fracDigits <= 22 {
            var v = Double(mantissa)
            if fracDigits > 0 { v /= JSONObjectReader.exactPowers[fracDigits] }
            if negative { v = -v }
            let integer: Int64? = fracDigits == 0 ? (negative ? -Int64(mantissa) : Int64(mantissa)) : (v == v.rounded() ? Int64(v) : nil)
            return .number(v, integer: integer)
        }
        let text = String(decoding: bytes[start..<pos], as: UTF8.self)
        guard let v = Double(text) else { throw Failure(wording: Wording("not JSON: {0} at column {1}", Wording("bad number"), start + 1)) }
        var integer: Int64?
        if simple && fracDigits == 0 { integer = Int64(text) } // exact for long integers
        else if v.isFinite, v == v.rounded(), abs(v) < 9.2e18 { integer = Int64(v) }
        return .number(v, integer: integer)
    }

    @inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private mutating func string() throws -> String {
        pos += 1 // opening quote
        let start = pos
        // Fast path: no escapes.
        while pos < end {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") { pos += 1; return String(decoding: bytes[start..<(pos - 1)], as: UTF8.self) }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail(Wording("control character in string")) }
            pos += 1
        }
        var out = Array(bytes[start..<pos])
        while pos < end {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") { pos += 1; return String(decoding: out, as: UTF8.self) }
            if c < 0x20 { throw fail(Wording("control character in string")) }
            if c != UInt8(ascii: "\\") { out.append(c); pos += 1; continue }
            pos += 1
            guard pos < end else { break }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), end - pos >= 6, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                    pos += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) { scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00) } else { scalar = 0xFFFD }
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                pos -= 1
                throw fail(Wording("bad escape in string"))
            }
        }
        throw fail(Wording("unterminated string"))
    }

    private mutating func hex4() throws -> UInt32 {
        guard end - pos >= 4 else { throw fail(Wording("bad \\u escape")) }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: throw fail(Wording("bad \\u escape"))
            }
            v = v << 4 | UInt32(d)
            pos += 1
        }
        return v
    }
}
