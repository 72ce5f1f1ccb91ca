import Foundation

/// Finds a query in text as a reader expects: case-insensitive (full case folding, "STRASSE" finds "Straße"),
/// accents ignored on Latin, Greek and Cyrillic letters ("cafe" finds "Café"), full- and half-width forms alike
/// ("ＡＢＣ" finds "abc", "ｶﾞｲﾄﾞ" finds "ガイド"), any run of spaces or line breaks the same as one space (a PDF's
/// line ends). Kana keep their voicing marks: "か" does not find "が", as Japanese readers expect.
/// Matches start and end on whole characters; ranges are in Unicode scalars of the searched text, the unit
/// poppler's per-character boxes use.
public struct TextMatcher: Sendable {
    /// The query folded; empty when the query has nothing to find.
    public let key: [Unicode.Scalar]

    public init(_ query: String) {
        var cache: [Character: [Unicode.Scalar]] = [:]
        key = Self.fold(query, cache: &cache).scalars.trimmingSpaces
    }

    public var isEmpty: Bool { key.isEmpty }

    /// One place `key` occurs: the matched characters as scalar offsets into the searched text, and the
    /// text around it (up to `context` characters either side, runs of white space shown as one space).
    public struct Match: Equatable, Sendable {
        public var scalars: Range<Int>
        public var snippet: String
    }

    /// Every non-overlapping occurrence of the query in `text`, in order.
    public func matches(in text: String, context: Int = 40) -> [Match] {
        guard !key.isEmpty else { return [] }
        var cache: [Character: [Unicode.Scalar]] = [:]
        let folded = Self.fold(text, cache: &cache)
        let s = folded.scalars, k = key
        var out: [Match] = []
        var i = 0
        while i + k.count <= s.count {
            guard s[i] == k[0], folded.startsCharacter[i], i + k.count == s.count || folded.startsCharacter[i + k.count] else { i += 1; continue }
            var j = 1
            while j < k.count, s[i + j] == k[j] { j += 1 }
            guard j == k.count else { i += 1; continue }
            let first = folded.character[i], last = folded.character[i + k.count - 1]
            let from = max(0, first - context), to = min(folded.characters.count, last + 1 + context)
            out.append(Match(scalars: folded.scalarStart[first]..<folded.scalarEnd[last],
                             snippet: String(folded.characters[from..<to])))
            i += k.count
        }
        return out
    }

    /// Text folded for comparison, with the way back to the original's characters and scalars.
    struct Folded {
        /// The searched characters with white space runs as one " ".
        var characters: [Character] = []
        /// Where each of `characters` starts and ends in the original's scalars.
        var scalarStart: [Int] = [], scalarEnd: [Int] = []
        /// The folded scalars, and for each, the index of its character and whether it is that character's first.
        var scalars: [Unicode.Scalar] = []
        var character: [Int] = []
        var startsCharacter: [Bool] = []
    }

    static func fold(_ text: String, cache: inout [Character: [Unicode.Scalar]]) -> Folded {
        var f = Folded()
        var offset = 0
        for c in text {
            let n = c.unicodeScalars.count
            defer { offset += n }
            if c.isWhitespace {
                if f.characters.last == " " { f.scalarEnd[f.characters.count - 1] = offset + n; continue }
                append(" ", [" "], offset, n, &f)
                continue
            }
            let key: [Unicode.Scalar]
            if let k = cache[c] { key = k } else { key = foldCharacter(c); cache[c] = key }
            append(c, key, offset, n, &f)
        }
        return f
    }

    private static func append(_ c: Character, _ key: [Unicode.Scalar], _ offset: Int, _ n: Int, _ f: inout Folded) {
        let index = f.characters.count
        f.characters.append(c)
        f.scalarStart.append(offset); f.scalarEnd.append(offset + n)
        for (j, u) in key.enumerated() {
            f.scalars.append(u); f.character.append(index); f.startsCharacter.append(j == 0)
        }
    }

    /// One character's comparison form: compatibility-decomposed (widths, ligatures, circled digits), case-folded,
    /// with Latin/Greek/Cyrillic combining accents dropped. A character that folds to nothing keeps itself.
    static func foldCharacter(_ c: Character) -> [Unicode.Scalar] {
        if c.isASCII, let a = c.asciiValue {
            return [Unicode.Scalar(a >= 65 && a <= 90 ? a + 32 : a)]
        }
        // Lower-casing after decomposing, then decomposing again: "İ" and the like lower-case into combining marks.
        let lowered = String(c).decomposedStringWithCompatibilityMapping.lowercased().decomposedStringWithCompatibilityMapping
        var out: [Unicode.Scalar] = []
        for u in lowered.unicodeScalars {
            switch u.value {
            case 0x0300...0x036F, 0x0483...0x0489, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: continue
            case 0x00DF: out += ["s", "s"]                      // ß
            case 0x03C2: out.append("\u{03C3}")                 // final sigma
            default: out.append(u)
            }
        }
        return out.isEmpty ? Array(c.unicodeScalars) : out
    }
}

private extension Array where Element == Unicode.Scalar {
    var trimmingSpaces: [Unicode.Scalar] {
        var a = self[...]
        while a.first == " " { a = a.dropFirst() }
        while a.last == " " { a = a.dropLast() }
        return Array(a)
    }
}
