import InkCore

/// Fast text output for the vector writers: numbers formatted straight into bytes (no String, no printf).
extension Array where Element == UInt8 {
    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func appendHex(_ v: UInt8) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        append(digits[Int(v >> 4)]); append(digits[Int(v & 15)])
    }

    mutating func appendNumber(_ v: Double, decimals: Int = 2) {
        guard v.isFinite else { append(UInt8(ascii: "0")); return }
        if decimals == 2 { appendCentis(Int((v * 100).rounded())); return }
        let q = Int((v * 1000).rounded())
        appendInt(q / 1000, negative: q < 0)
        var f = abs(q % 1000)
        guard f != 0 else { return }
        append(UInt8(ascii: "."))
        var div = 100
        while f != 0 { append(UInt8(ascii: "0") + UInt8(f / div)); f %= div; div /= 10 }
    }

    /// A value in hundredths, e.g. -1234 → "-12.34", 50 → "0.5".
    mutating func appendCentis(_ q: Int) {
        appendInt(q / 100, negative: q < 0)
        let f = abs(q % 100)
        guard f != 0 else { return }
        append(UInt8(ascii: "."))
        append(UInt8(ascii: "0") + UInt8(f / 10))
        if f % 10 != 0 { append(UInt8(ascii: "0") + UInt8(f % 10)) }
    }

    /// A space before the number unless its minus sign already separates it.
    mutating func appendSeparated(_ q: Int) {
        if q >= 0 { append(UInt8(ascii: " ")) }
        appendCentis(q)
    }

    mutating func appendInt(_ whole: Int, negative: Bool) {
        if negative { append(UInt8(ascii: "-")) }
        var m = abs(whole)
        if m == 0 { append(UInt8(ascii: "0")); return }
        let start = count
        while m > 0 { append(UInt8(ascii: "0") + UInt8(m % 10)); m /= 10 }
        self[start...].reverse()
    }
}
