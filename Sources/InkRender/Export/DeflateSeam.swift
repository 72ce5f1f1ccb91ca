/// Makes a raw deflate stream that libdeflate wrote joinable to another: libdeflate writes whole streams only, whose
/// last block carries the final flag (BFINAL) and whose bits end anywhere in the last byte. The stream is walked
/// block by block, decoding its Huffman codes without writing anything, to find that flag and the stream's last bit;
/// the flag is cleared and an empty stored block (the marker zlib's sync flush writes) brings the end to a byte
/// boundary, where the next piece begins. The walk costs a small fraction of the compression it makes usable.
enum DeflateSeam {
    struct Damaged: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens the end of the raw deflate stream in `p[0..<count]` (which `capacity` leaves at least 5 bytes beyond)
    /// and returns its new length.
    static func open(_ p: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) throws -> Int {
        guard capacity >= count + 5 else { throw Damaged(description: "no room after the deflate stream") }
        let (last, end) = try walk(UnsafePointer(p), count: count)
        p[last >> 3] &= ~UInt8(1 << (last & 7))
        var length = (end + 7) >> 3
        let used = end & 7
        if used != 0 { p[length - 1] &= UInt8((1 << used) - 1) }
        // The stored block's three header bits (not final, type 0) are zero: they fit in the last byte's unused
        // bits when three are left, else in one more zero byte; then LEN 0 and NLEN 0xFFFF.
        if used == 0 || used > 5 { p[length] = 0; length += 1 }
        for b: UInt8 in [0x00, 0x00, 0xFF, 0xFF] { p[length] = b; length += 1 }
        return length
    }

    /// The bit where the final block begins and the bit after the stream's last.
    static func walk(_ base: UnsafePointer<UInt8>, count: Int) throws -> (lastBlock: Int, end: Int) {
        var bits = Bits(base: base, count: count)
        while true {
            let start = bits.pos
            bits.refill()
            let final = bits.take(1) == 1
            switch bits.take(2) {
            case 0:
                bits.seek((bits.pos + 7) & ~7)
                bits.refill()
                let len = bits.take(16), nlen = bits.take(16)
                guard len ^ nlen == 0xFFFF else { throw Damaged(description: "a stored block's length is damaged") }
                bits.seek(bits.pos + len * 8)
            case 1:
                try codes(&bits, literals: Self.fixedLiterals, distances: Self.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables(&bits)
                try codes(&bits, literals: literals, distances: distances)
            default:
                throw Damaged(description: "a block of the reserved type")
            }
            guard bits.pos <= count * 8 else { throw Damaged(description: "the stream is truncated") }
            if final { return (start, bits.pos) }
        }
    }

    /// Bits read least significant first, as deflate packs them, from a 64-bit buffer refilled a word at a time;
    /// past the end they read as zero (the caller checks the position after each block, and `refill` stops a walk
    /// that runs far past the end).
    private struct Bits {
        let base: UnsafePointer<UInt8>
        let count: Int
        /// The next byte to load, and the bits loaded but not taken (the low `available` bits of `buffer`).
        var next = 0
        var buffer: UInt64 = 0
        var available = 0

        init(base: UnsafePointer<UInt8>, count: Int) { self.base = base; self.count = count }

        var pos: Int { next * 8 - available }

        mutating func seek(_ bit: Int) {
            next = bit >> 3; buffer = 0; available = 0
            refill()
            take(bit & 7)
        }

        /// At least 56 bits available afterwards.
        @inline(__always) mutating func refill() {
            if next + 8 <= count {
                buffer |= UInt64(littleEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self)) << UInt64(available)
                next += (63 - available) >> 3
                available |= 56
            } else {
                while available <= 56 {
                    if next < count { buffer |= UInt64(base[next]) << UInt64(available) }
                    next += 1; available += 8
                }
            }
        }

        @inline(__always) func peek(_ n: Int) -> Int { Int(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1)) }

        @inline(__always) mutating func skip(_ n: Int) { buffer >>= UInt64(n); available -= n }

        @discardableResult @inline(__always) mutating func take(_ n: Int) -> Int {
            let v = peek(n)
            skip(n)
            return v
        }
    }

    /// A canonical Huffman code: a table indexed by the next `fastBits` input bits for its shorter codes (nearly
    /// every code read), and the codes sorted by length for the rare longer ones. An entry holds the code's length
    /// (bits 0–3; 0 for a longer code), the extra bits that follow it (4–7) and what it is (8–9: `literal`, `length`,
    /// `endOfBlock`, `invalid`); symbol values for code-length codes.
    private struct Table {
        static let literal = 0, length = 1, endOfBlock = 2, invalid = 3
        static let maxFastBits = 10

        var fast: [UInt32]
        var fastBits: Int
        /// Codes per length, and each code's entry in code order (canonical: by length, then by symbol).
        var counts = [Int](repeating: 0, count: 16)
        var sorted: [UInt32] = []

        /// `meaning(symbol)`: the entry's bits above the code length.
        init(lengths: [Int], meaning: (Int) -> Int) throws {
            let maxLength = lengths.max() ?? 0
            fastBits = min(maxLength, Self.maxFastBits)
            fast = [UInt32](repeating: 0, count: 1 << fastBits)
            guard maxLength > 0 else { return }
            for l in lengths where l > 0 { counts[l] += 1 }
            var next = [Int](repeating: 0, count: 16)
            var offsets = [Int](repeating: 0, count: 16)
            var code = 0, left = 1
            for l in 1...15 {
                code = (code + counts[l - 1]) << 1
                next[l] = code
                if l > 1 { offsets[l] = offsets[l - 1] + counts[l - 1] }
                left = left * 2 - counts[l]
                guard left >= 0 else { throw Damaged(description: "an over-subscribed Huffman code") }
            }
            sorted = [UInt32](repeating: 0, count: counts.reduce(0, +))
            let fastBits = fastBits
            fast.withUnsafeMutableBufferPointer { t in
                for (symbol, l) in lengths.enumerated() where l > 0 {
                    let entry = UInt32(meaning(symbol) << 4 | l)
                    sorted[offsets[l]] = entry
                    offsets[l] += 1
                    let c = next[l]
                    next[l] += 1
                    guard l <= fastBits else { continue }
                    var reversed = 0
                    for k in 0..<l where c & (1 << k) != 0 { reversed |= 1 << (l - 1 - k) }
                    var i = reversed
                    while i < t.count { t[i] = entry; i += 1 << l }
                }
            }
        }

        /// A literal/length code: literals, length codes with their extra bits, end of block.
        init(literals lengths: [Int]) throws {
            try self.init(lengths: lengths) { s in
                s < 256 ? Table.literal << 4 : s == 256 ? Table.endOfBlock << 4
                    : s <= 285 ? Table.length << 4 | DeflateSeam.lengthExtra[s - 257] : Table.invalid << 4
            }
        }

        /// A distance code: its extra bits.
        init(distances lengths: [Int]) throws {
            try self.init(lengths: lengths) { s in s < 30 ? (s < 4 ? 0 : (s - 2) / 2) : Table.invalid << 4 }
        }

        /// Takes the next code and returns its entry (at least 15 bits must be available).
        @inline(__always) func take(_ b: inout Bits, _ t: UnsafeBufferPointer<UInt32>) throws -> Int {
            let e = Int(t[b.peek(fastBits)])
            if e & 15 != 0 { b.skip(e & 15); return e }
            return try long(&b)
        }

        /// A code longer than `fastBits`, bit by bit (as zlib's `puff` decodes).
        func long(_ b: inout Bits) throws -> Int {
            var code = 0, first = 0, index = 0
            for l in 1...15 {
                code |= b.take(1)
                let n = counts[l]
                if code - first < n { return Int(sorted[index + code - first]) }
                index += n; first = (first + n) << 1; code <<= 1
            }
            throw Damaged(description: "a code that is not in the block's table")
        }
    }

    private static let fixedLiterals = try! Table(literals: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    private static let fixedDistances = try! Table(distances: [Int](repeating: 5, count: 30))

    /// Extra bits after length symbols 257…285.
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

    /// The order the code-length code's lengths are sent in.
    private static let lengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static func dynamicTables(_ bits: inout Bits) throws -> (Table, Table) {
        bits.refill()
        let literalCount = bits.take(5) + 257, distanceCount = bits.take(5) + 1, lengthCount = bits.take(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw Damaged(description: "too many codes in a block's header") }
        var codeLengths = [Int](repeating: 0, count: 19)
        bits.refill()
        for k in 0..<lengthCount { codeLengths[lengthOrder[k]] = bits.take(3) }
        let lengthTable = try Table(lengths: codeLengths) { $0 }
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        try lengthTable.fast.withUnsafeBufferPointer { t in
            while lengths.count < literalCount + distanceCount {
                bits.refill()
                let symbol = try lengthTable.take(&bits, t) >> 4
                switch symbol {
                case 0...15: lengths.append(symbol)
                case 16:
                    guard let previous = lengths.last else { throw Damaged(description: "a repeat with nothing to repeat") }
                    lengths += repeatElement(previous, count: 3 + bits.take(2))
                case 17: lengths += repeatElement(0, count: 3 + bits.take(3))
                default: lengths += repeatElement(0, count: 11 + bits.take(7))
                }
                guard bits.pos <= bits.count * 8 else { throw Damaged(description: "the stream is truncated") }
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] > 0 else { throw Damaged(description: "a block's code lengths are damaged") }
        return (try Table(literals: Array(lengths[0..<literalCount])), try Table(distances: Array(lengths[literalCount...])))
    }

    /// Walks one block's codes up to its end-of-block code. The hot loop of the walk: the bit buffer lives in local
    /// registers here (an `inout` struct stays in memory), and the arithmetic cannot overflow (shifts below 64).
    private static func codes(_ bits: inout Bits, literals: Table, distances: Table) throws {
        let limit = bits.count * 8, base = bits.base, count = bits.count
        var buffer = bits.buffer, available = bits.available, next = bits.next
        defer { bits.buffer = buffer; bits.available = available; bits.next = next }
        let literalMask = UInt64(1) << UInt64(literals.fastBits) &- 1, distanceMask = UInt64(1) << UInt64(distances.fastBits) &- 1
        /// Takes the next code of `table` (its fast entries `t`) and returns its entry.
        @inline(__always) func code(_ table: Table, _ t: UnsafeBufferPointer<UInt32>, _ mask: UInt64) throws -> Int {
            let e = Int(t[Int(truncatingIfNeeded: buffer & mask)])
            if e & 15 != 0 {
                buffer >>= UInt64(e & 15); available &-= e & 15
                return e
            }
            bits.buffer = buffer; bits.available = available; bits.next = next
            defer { buffer = bits.buffer; available = bits.available; next = bits.next }
            return try table.long(&bits)
        }
        try literals.fast.withUnsafeBufferPointer { lt in
            try distances.fast.withUnsafeBufferPointer { dt in
                while true {
                    // 48 bits cover a literal/length code and its extra bits (20), then a distance and its (28).
                    if available < 48 {
                        guard next &* 8 &- available <= limit else { throw Damaged(description: "the stream is truncated") }
                        if next &+ 8 <= count {
                            buffer |= UInt64(littleEndian: UnsafeRawPointer(base + next).loadUnaligned(as: UInt64.self)) << UInt64(available)
                            next &+= (63 &- available) >> 3
                            available |= 56
                        } else {
                            bits.buffer = buffer; bits.available = available; bits.next = next
                            bits.refill()
                            buffer = bits.buffer; available = bits.available; next = bits.next
                        }
                    }
                    let e = try code(literals, lt, literalMask)
                    let kind = e >> 8
                    if kind == Table.literal { continue }
                    if kind == Table.endOfBlock { return }
                    guard kind == Table.length else { throw Damaged(description: "an invalid length code") }
                    buffer >>= UInt64(e >> 4 & 15); available &-= e >> 4 & 15
                    let d = try code(distances, dt, distanceMask)
                    guard d >> 8 != Table.invalid else { throw Damaged(description: "an invalid distance code") }
                    buffer >>= UInt64(d >> 4 & 15); available &-= d >> 4 & 15
                }
            }
        }
    }
}
