import InkCore

/// What a layer edit did, as the short text stored in `history.pages` of a layer edit (format 13): one step a line.
///
///     add or delete layer:  "a PAGE LAYER AT" / "d PAGE LAYER AT"   (the layer's look is its `layers` row, its items
///                                                                      the edit's strokes on it)
///     move layer:           "m PAGE FROM TO"
///     rename, hide, show:   "l PAGE LAYER VISIBLE =NAME VISIBLE =NAME" (before, after; VISIBLE 0 or 1)
///     move items:           "i PAGE FROM TO ID,ID,…"
///
/// A NAME is percent-encoded (every byte outside `!`…`~`, and `%`), so it holds no space or line break.
enum LayerEditText {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Most steps one edit may hold (a notebook layer on every page of the largest document, twice).
    static let maxSteps = 2 * Schema.maxPages + 2

    static func encode(_ e: Edit) -> String? {
        guard case .layers(let steps) = e else { return nil }
        return steps.map { st -> String in
            switch st {
            case .add(let p, let l, let at): return "a \(p) \(l.id) \(at)"
            case .delete(let p, let l, let at): return "d \(p) \(l.id) \(at)"
            case .move(let p, let f, let t): return "m \(p) \(f) \(t)"
            case .look(let p, let l, let f, let t): return "l \(p) \(l) \(f.visible ? 1 : 0) =\(escape(f.name)) \(t.visible ? 1 : 0) =\(escape(t.name))"
            case .moveItems(let p, let ids, let f, let t): return "i \(p) \(f) \(t) \(ids.map(String.init).joined(separator: ","))"
            }
        }.joined(separator: "\n")
    }

    /// One stored step with the layers of add and delete steps named by id (the reader fills them in).
    enum Step {
        case add(page: PageID, layer: LayerID, at: Int)
        case delete(page: PageID, layer: LayerID, at: Int)
        case other(LayerStep)
    }

    static func decode(_ text: String) throws -> [Step] {
        // A step is at most a few dozen bytes plus its item ids; this bounds the work before anything is split.
        guard text.utf8.count <= 64 << 20 else { throw Failure(description: "layer steps are \(text.utf8.count) bytes long") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty, lines.count <= maxSteps else { throw Failure(description: "\(lines.count) layer steps") }
        return try lines.map { line in
            let t = line.split(separator: " ", omittingEmptySubsequences: false)
            func need(_ n: Int) throws { guard t.count == n else { throw Failure(description: "layer step '\(line.prefix(40))' has \(t.count) fields") } }
            switch t.first {
            case "a", "d":
                try need(4)
                let p = try id(t[1]), l = try id(t[2]), at = try place(t[3])
                return t[0] == "a" ? .add(page: p, layer: l, at: at) : .delete(page: p, layer: l, at: at)
            case "m":
                try need(4)
                return .other(.move(page: try id(t[1]), from: try place(t[2]), to: try place(t[3])))
            case "l":
                try need(7)
                let from = LayerLook(name: try name(t[4]), visible: try flag(t[3])), to = LayerLook(name: try name(t[6]), visible: try flag(t[5]))
                return .other(.look(page: try id(t[1]), layer: try id(t[2]), from: from, to: to))
            case "i":
                try need(5)
                let ids = try t[4].split(separator: ",").map { try id($0) }
                return .other(.moveItems(page: try id(t[1]), items: ids, from: try id(t[2]), to: try id(t[3])))
            default:
                throw Failure(description: "unknown layer step '\(line.prefix(40))'")
            }
        }
    }

    private static func id(_ s: Substring) throws -> UInt64 {
        guard let v = Int64(s), v > 0 else { throw Failure(description: "'\(s.prefix(24))' is not an id") }
        return UInt64(v)
    }
    private static func place(_ s: Substring) throws -> Int {
        guard let v = Int(s), v >= 0, v <= 1_000_000 else { throw Failure(description: "'\(s.prefix(24))' is not a layer place") }
        return v
    }
    private static func flag(_ s: Substring) throws -> Bool {
        guard s == "0" || s == "1" else { throw Failure(description: "'\(s.prefix(24))' is not 0 or 1") }
        return s == "1"
    }
    private static func name(_ s: Substring) throws -> String {
        guard s.first == "=" else { throw Failure(description: "'\(s.prefix(24))' is not a layer name") }
        guard let n = unescape(s.dropFirst()) else { throw Failure(description: "layer name '\(s.prefix(24))' is badly encoded") }
        return n
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if b > 0x20, b < 0x7F, b != 0x25 { out.unicodeScalars.append(Unicode.Scalar(b)) } else {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String? {
        var bytes: [UInt8] = []
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b == 0x25 {
                guard let h = it.next(), let l = it.next(), let v = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
            } else { bytes.append(b) }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
