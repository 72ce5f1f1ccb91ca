/// Where a page sits in a board's page order: a fraction in (0, 1) written as base-65536 digits and compared digit
/// by digit. There is always a key between two keys, so a page put between two others, or moved there, gets a
/// key of its own without renumbering any other page: concurrent inserts and moves never touch the same entry,
/// and two pages given the same key at once are ordered by their global ids.
public struct PageKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Never empty and never ending in 0, so there is always room below a key too.
    public let digits: [UInt16]
    /// Most digits a key from the log may have (a key grows by a digit every ~16 inserts at one spot).
    public static let maxDigits = 256

    /// The key of a board's first page.
    public static let first = PageKey(unchecked: [0x8000])

    init(unchecked digits: [UInt16]) { self.digits = digits }

    /// A key read from the log; nil when it breaks the rules above.
    public init?(digits: [UInt16]) {
        guard !digits.isEmpty, digits.count <= Self.maxDigits, digits.last != 0 else { return nil }
        self.digits = digits
    }

    public static func < (a: PageKey, b: PageKey) -> Bool { a.digits.lexicographicallyPrecedes(b.digits) }

    public var description: String { digits.map { String($0, radix: 16) }.joined(separator: ".") }

    /// A key above `a` and below `b` (nil: no bound). Appending takes small steps, so a list built by adding page
    /// after page keeps short keys.
    public static func between(_ a: PageKey?, _ b: PageKey?) -> PageKey {
        // Only ever asked with a < b; anything else gets a key above `a` rather than a loop that never ends.
        var upper = b
        if let a, let b, !(a < b) { upper = nil }
        let low = a?.digits ?? []
        var out: [UInt16] = []
        var bounded = upper != nil
        var i = 0
        while true {
            let lo = i < low.count ? Int(low[i]) : 0
            let hi = bounded ? (i < upper!.digits.count ? Int(upper!.digits[i]) : 0) : 65_536
            if hi - lo >= 2 {
                let step = bounded ? (hi - lo) / 2 : Swift.max(1, Swift.min(16, (hi - lo) / 2))
                out.append(UInt16(lo + step))
                return PageKey(unchecked: out)
            }
            out.append(UInt16(lo))
            // One below b's digit here: whatever follows stays below b.
            if hi > lo { bounded = false }
            i += 1
        }
    }
}
