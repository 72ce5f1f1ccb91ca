/// A small pull parser for the XML that `.xopp` files use: elements, attributes, text, CDATA, comments and
/// processing instructions. No DTDs and no entity definitions at all, so an entity bomb cannot expand;
/// only the five predefined entities and character references are decoded. Depth and attributes are bounded.
struct XMLSubset {
    enum Event {
        case start(name: String, attributes: Attributes)
        case end(name: String)
        /// Raw character data with entities decoded (CDATA as is). A slice of the input when nothing needed
        /// decoding, so megabytes of stroke coordinates are never copied.
        case text(ArraySlice<UInt8>)
    }

    /// An element's attributes in document order, each value's bytes with entities decoded (a slice of the input
    /// when nothing needed decoding). A stroke's `width` holds a number per point, so values become Strings only
    /// when asked for by name; an element has few attributes, so a look-up is a short scan.
    struct Attributes {
        private var pairs: [(name: String, value: ArraySlice<UInt8>)] = []

        var count: Int { pairs.count }

        func bytes(_ name: String) -> ArraySlice<UInt8>? {
            for p in pairs where p.name == name { return p.value }
            return nil
        }

        subscript(name: String) -> String? { bytes(name).map { String(decoding: $0, as: UTF8.self) } }

        mutating func append(_ name: String, _ value: ArraySlice<UInt8>) { pairs.append((name, value)) }
    }

    struct Failure: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "XML line \(line): \(message)" }
    }

    static let maxDepth = 64
    static let maxAttributes = 64
    static let maxNameLength = 256

    private let b: [UInt8]
    private var i = 0
    private var stack: [String] = []
    private var pendingEnd: String?
    private(set) var sawRoot = false

    init(_ bytes: [UInt8]) {
        b = bytes
        // Skip a UTF-8 byte order mark.
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
    }

    private var line: Int { b[0..<min(i, b.count)].reduce(1) { $1 == 10 ? $0 + 1 : $0 } }
    private func fail(_ m: String) -> Failure { Failure(line: line, message: m) }

    private func starts(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard i + u.count <= b.count else { return false }
        for k in 0..<u.count where b[i + k] != u[k] { return false }
        return true
    }

    private mutating func skip(past s: String, what: String) throws {
        let u = Array(s.utf8)
        while i + u.count <= b.count {
            if b[i] == u[0] && starts(s) { i += u.count; return }
            i += 1
        }
        throw fail("unterminated \(what)")
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            || c == 0x5F || c == 0x2D || c == 0x2E || c == 0x3A || c >= 0x80
    }

    private mutating func name() throws -> String {
        let s = i
        while i < b.count, Self.isNameByte(b[i]) { i += 1 }
        guard i > s else { throw fail("expected a name") }
        guard i - s <= Self.maxNameLength else { throw fail("name longer than \(Self.maxNameLength) bytes") }
        return String(decoding: b[s..<i], as: UTF8.self)
    }

    private mutating func spaces() { while i < b.count, Self.isSpace(b[i]) { i += 1 } }

    /// Decodes `&...;` references in b[from..<to].
    private func decode(_ from: Int, _ to: Int) throws -> ArraySlice<UInt8> {
        if ByteScan.first(0x26, in: b, from: from, to: to) == to, ByteScan.first(0x3C, in: b, from: from, to: to) == to { return b[from..<to] }
        var out: [UInt8] = []
        out.reserveCapacity(to - from)
        var k = from
        while k < to {
            let c = b[k]
            if c == 0x3C { throw fail("'<' inside a value") }
            guard c == 0x26 else { out.append(c); k += 1; continue }
            var e = k + 1
            while e < to, b[e] != 0x3B, e - k < 12 { e += 1 }
            guard e < to, b[e] == 0x3B else { throw fail("unterminated entity reference") }
            let ref = String(decoding: b[(k + 1)..<e], as: UTF8.self)
            switch ref {
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "amp": out.append(0x26)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                var v: UInt32?
                if ref.hasPrefix("#x") { v = UInt32(ref.dropFirst(2), radix: 16) } else if ref.hasPrefix("#") { v = UInt32(ref.dropFirst(), radix: 10) }
                guard let code = v, let scalar = Unicode.Scalar(code) else {
                    throw fail("entity '&\(ref);' is not allowed (only the predefined entities are read)")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = e + 1
        }
        return out[...]
    }

    mutating func next() throws -> Event? {
        if let n = pendingEnd { pendingEnd = nil; return .end(name: n) }
        while i < b.count {
            if b[i] != 0x3C {
                let s = i
                i = ByteScan.first(0x3C, in: b, from: i, to: b.count)
                if stack.isEmpty {
                    guard b[s..<i].allSatisfy(Self.isSpace) else { throw fail("text outside the root element") }
                    continue
                }
                return .text(try decode(s, i))
            }
            if starts("<?") { try skip(past: "?>", what: "processing instruction"); continue }
            if starts("<!--") { try skip(past: "-->", what: "comment"); continue }
            if starts("<![CDATA[") {
                i += 9
                let s = i
                try skip(past: "]]>", what: "CDATA section")
                guard !stack.isEmpty else { throw fail("CDATA outside the root element") }
                return .text(b[s..<(i - 3)])
            }
            if starts("<!") { throw fail("DOCTYPE and entity declarations are not allowed") }
            if starts("</") {
                i += 2
                let n = try name()
                spaces()
                guard i < b.count, b[i] == 0x3E else { throw fail("expected '>' after </\(n)") }
                i += 1
                guard let open = stack.popLast(), open == n else { throw fail("</\(n)> does not close the open element") }
                return .end(name: n)
            }
            i += 1
            let n = try name()
            guard !(stack.isEmpty && sawRoot) else { throw fail("a second root element <\(n)>") }
            var attrs = Attributes()
            while true {
                spaces()
                guard i < b.count else { throw fail("unterminated <\(n)>") }
                if b[i] == 0x3E { i += 1; break }
                if b[i] == 0x2F {
                    guard i + 1 < b.count, b[i + 1] == 0x3E else { throw fail("expected '/>'") }
                    i += 2
                    pendingEnd = n
                    break
                }
                let a = try name()
                spaces()
                guard i < b.count, b[i] == 0x3D else { throw fail("attribute \(a) has no value") }
                i += 1; spaces()
                guard i < b.count, b[i] == 0x22 || b[i] == 0x27 else { throw fail("attribute \(a) is not quoted") }
                let q = b[i]; i += 1
                let s = i
                i = ByteScan.first(q, in: b, from: i, to: b.count)
                guard i < b.count else { throw fail("unterminated value of \(a)") }
                let v = try decode(s, i)
                i += 1
                guard attrs.count < Self.maxAttributes else { throw fail("more than \(Self.maxAttributes) attributes") }
                guard attrs.bytes(a) == nil else { throw fail("attribute \(a) appears twice") }
                attrs.append(a, v)
            }
            sawRoot = true
            if pendingEnd == nil {
                stack.append(n)
                guard stack.count <= Self.maxDepth else { throw fail("elements nested deeper than \(Self.maxDepth)") }
            }
            return .start(name: n, attributes: attrs)
        }
        guard stack.isEmpty else { throw fail("the file ends inside <\(stack.last ?? "")> (truncated?)") }
        guard sawRoot else { throw fail("no root element") }
        return nil
    }
}
