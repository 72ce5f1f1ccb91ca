import Foundation

/// Finding one byte in a long run of bytes with the C library's `memchr`, which compares many bytes per
/// instruction: a `.xopp`'s stroke coordinates are tens of megabytes of text between tags, and a Swift loop
/// over them was a good part of reading one. The numbers in that text are read here too, from raw memory.
enum ByteScan {
    /// Whitespace-separated tokens of `text` in order, parsed in one pass over raw memory: a plain decimal
    /// (`-12.345`) whose digits make an exact double mantissa and whose fraction an exact power of ten is divided
    /// once, so correctly rounded, as `Double(String)` would; anything else (an exponent, nan, inf, more digits) is
    /// given to `slow`. A token over 64 bytes is NaN and sets `overlong`. Pressure ink is three million numbers a
    /// page: checked indexing, then a second pass over each token, were a fifth and then a tenth of reading one.
    static func decimals(_ text: ArraySlice<UInt8>, slow: (ArraySlice<UInt8>) -> Double) -> (values: [Double], overlong: Bool) {
        var overlong = false
        let values = text.withUnsafeBufferPointer { buf -> [Double] in
            guard let base = buf.baseAddress, buf.count > 0 else { return [] }
            let n = buf.count
            return [Double](unsafeUninitializedCapacity: (n + 1) / 2) { out, count in
                var k = 0, m = 0
                while k < n {
                    if isSpace(base[k]) { k += 1; continue }
                    let s = k
                    var i = k
                    var negative = false
                    if base[i] == 0x2D { negative = true; i += 1 } else if base[i] == 0x2B { i += 1 }
                    var mantissa: UInt64 = 0
                    /// Reads a run of digits into the mantissa; how many.
                    @inline(__always) func digitRun() -> Int {
                        let from = i
                        while i < n {
                            let d = base[i] &- 0x30
                            guard d < 10 else { break }
                            mantissa = mantissa &* 10 &+ UInt64(d)
                            i += 1
                        }
                        return i - from
                    }
                    var digits = digitRun(), fraction = 0
                    if i < n, base[i] == 0x2E {
                        i += 1
                        fraction = digitRun()
                        digits += fraction
                    }
                    // Exact: the digits fit (no wrap), the mantissa is a double, and so is 10^fraction.
                    if digits > 0, digits <= 19, mantissa <= 1 << 53, fraction <= 22, i == n || isSpace(base[i]) {
                        var v = Double(mantissa)
                        if fraction > 0 { v /= powersOf10[fraction] }
                        out[m] = negative ? -v : v
                        m += 1
                        k = i
                        continue
                    }
                    // Anything else (an exponent, nan, inf, more digits): the whole token, by the slow path.
                    k = i
                    while k < n, !isSpace(base[k]) { k += 1 }
                    if k - s > 64 { overlong = true; out[m] = .nan } else { out[m] = slow(text[(text.startIndex + s)..<(text.startIndex + k)]) }
                    m += 1
                }
                count = m
            }
        }
        return (values, overlong)
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    private static let powersOf10: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

    /// The first index of `byte` in `bytes[from..<to]`, or `to` when there is none.
    static func first(_ byte: UInt8, in bytes: [UInt8], from: Int, to: Int) -> Int {
        guard from < to, from >= 0, to <= bytes.count else { return max(from, to) }
        return bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}
