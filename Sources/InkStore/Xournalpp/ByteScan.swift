import Foundation

/// Finding one byte in a long run of bytes with the C library's `memchr`, which compares many bytes per
/// instruction: a `.xopp`'s stroke coordinates are tens of megabytes of text between tags, and a Swift loop
/// over them was a good part of reading one. The numbers in that text are read here too, from raw memory.
enum ByteScan {
    /// Whitespace-separated tokens of `text` in order: each plain decimal parsed by `XoppImport.fastDouble`'s rules
    /// straight from memory, anything else (nan, inf, 16+ digits) given to `slow`; a token over 64 bytes is NaN
    /// and sets `overlong`. Checked indexing of the slice was a fifth of reading a `.xopp` of pressure ink.
    static func decimals(_ text: ArraySlice<UInt8>, slow: (ArraySlice<UInt8>) -> Double) -> (values: [Double], overlong: Bool) {
        var values: [Double] = []
        values.reserveCapacity(text.count / 8)
        var overlong = false
        text.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress else { return }
            let n = buf.count
            var k = 0
            while k < n {
                while k < n, isSpace(base[k]) { k += 1 }
                let s = k
                while k < n, !isSpace(base[k]) { k += 1 }
                guard k > s else { continue }
                if k - s > 64 { overlong = true; values.append(.nan); continue }
                let lo = text.startIndex + s, hi = text.startIndex + k
                values.append(decimal(base + s, k - s) ?? slow(text[lo..<hi]))
            }
        }
        return (values, overlong)
    }

    @inline(__always) private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    private static let powersOf10: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

    /// `XoppImport.fastDouble` over raw memory: the same decimals accepted, the same (correctly rounded) values.
    @inline(__always) private static func decimal(_ t: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var i = 0
        var negative = false
        if t[0] == 0x2D { negative = true; i = 1 } else if t[0] == 0x2B { i = 1 }
        var mantissa: UInt64 = 0, digits = 0, fraction = 0
        var sawDot = false, anyDigit = false
        while i < count {
            let c = t[i]
            if c &- 0x30 < 10 {
                anyDigit = true
                if digits >= 15 { return nil }
                mantissa = mantissa * 10 + UInt64(c &- 0x30)
                if mantissa > 0 { digits += 1 }
                if sawDot { fraction += 1 }
            } else if c == 0x2E && !sawDot {
                sawDot = true
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < count {
            guard t[i] == 0x65 || t[i] == 0x45 else { return nil }
            i += 1
            var eneg = false
            if i < count, t[i] == 0x2D { eneg = true; i += 1 } else if i < count, t[i] == 0x2B { i += 1 }
            guard i < count else { return nil }
            while i < count {
                let c = t[i]
                guard c &- 0x30 < 10, exponent < 1000 else { return nil }
                exponent = exponent * 10 + Int(c &- 0x30)
                i += 1
            }
            if eneg { exponent = -exponent }
        }
        guard anyDigit else { return nil }
        let e = exponent - fraction
        guard abs(e) <= 22 else { return nil }
        var v = Double(mantissa)
        v = e >= 0 ? v * powersOf10[e] : v / powersOf10[-e]
        return negative ? -v : v
    }

    /// The first index of `byte` in `bytes[from..<to]`, or `to` when there is none.
    static func first(_ byte: UInt8, in bytes: [UInt8], from: Int, to: Int) -> Int {
        guard from < to, from >= 0, to <= bytes.count else { return max(from, to) }
        return bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}
