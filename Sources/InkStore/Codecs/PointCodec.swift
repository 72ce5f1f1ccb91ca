import InkCore

/// The compact encoding of a stroke's points in a `.oekaki` BLOB.
///
/// Layout (version 1), all integers are quantized:
/// - byte 0: version (1)
/// - varint: point count n (1 … `maxPoints`)
/// - zigzag varints: first x, first y, first time; one byte: first pressure
/// - four bytes: Rice parameters k for the x, y, pressure and time residual streams
/// - one bit stream (MSB first) with the n-1 residuals of x, then y, then pressure, then time.
///
/// Quantization: x and y to 1/20 page unit (error ≤ 0.025 unit, far below a device pixel), pressure to 8 bits,
/// time to 1/10 ms. x, y and time are predicted from the previous two points (constant velocity), pressure from
/// the previous one; residuals are zigzag-mapped and Rice-coded with the k that makes the stream shortest.
/// Smooth pen ink costs about 1.5–2.5 bytes per point.
public enum PointCodec {
    public static let version: UInt8 = 1
    /// Quanta per page unit for x and y.
    public static let coordinateScale = 20.0
    /// Quanta per millisecond for time.
    public static let timeScale = 10.0
    /// Largest stroke a blob may hold; a decoder never allocates more than this.
    public static let maxPoints = 10_000_000
    /// Coordinates beyond this (page units) are refused: no real page is that big.
    public static let maxCoordinate = 1e9
    public static let maxTime = 1e15

    /// Largest rounding error of x and y after a round trip.
    public static var coordinateTolerance: Double { 0.5 / coordinateScale }

    private static let escapeQuotient: UInt64 = 24

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case empty
        case tooManyPoints(Int)
        case outOfRange(String)
        case truncated
        case overlong
        case unknownVersion(UInt8)
        case invalid(String)

        public var description: String {
            switch self {
            case .empty: return "a stroke has no points"
            case .tooManyPoints(let n): return "a stroke has \(n) points (at most \(PointCodec.maxPoints) are allowed)"
            case .outOfRange(let m): return m
            case .truncated: return "point data is truncated"
            case .overlong: return "point data has extra bytes after the last point"
            case .unknownVersion(let v): return "point data uses encoding version \(v); this Oekaki reads version \(PointCodec.version)"
            case .invalid(let m): return "point data is invalid: \(m)"
            }
        }
    }

    // MARK: encoding

    public static func encode(_ points: [InkPoint]) throws -> [UInt8] {
        let n = points.count
        guard n > 0 else { throw Failure.empty }
        guard n <= maxPoints else { throw Failure.tooManyPoints(n) }
        var xs = [Int64](), ys = [Int64](), ps = [Int64](), ts = [Int64]()
        xs.reserveCapacity(n); ys.reserveCapacity(n); ps.reserveCapacity(n); ts.reserveCapacity(n)
        for p in points {
            guard p.x.isFinite, p.y.isFinite, abs(p.x) <= maxCoordinate, abs(p.y) <= maxCoordinate else {
                throw Failure.outOfRange("a point lies outside the page range (\(p.x), \(p.y))")
            }
            let t = p.time.isFinite && abs(p.time) <= maxTime ? p.time : 0
            let pr = p.pressure.isFinite ? min(max(p.pressure, 0), 1) : 0.5
            xs.append(Int64((p.x * coordinateScale).rounded()))
            ys.append(Int64((p.y * coordinateScale).rounded()))
            ps.append(Int64((pr * 255).rounded()))
            ts.append(Int64((t * timeScale).rounded()))
        }
        // The header goes into the bit writer's own bytes (whole bytes, before any bit), so nothing is copied.
        var w = BitWriter(out: ByteWriter([version], capacity: 16 + n * 3))
        w.out.varint(UInt64(n))
        w.out.signedVarint(xs[0]); w.out.signedVarint(ys[0]); w.out.signedVarint(ts[0])
        w.out.append(UInt8(ps[0]))
        let streams = [residuals(xs, order: 2), residuals(ys, order: 2), residuals(ps, order: 1), residuals(ts, order: 2)]
        let ks = streams.map(bestK)
        w.out.append(contentsOf: ks.map(UInt8.init))
        for (s, k) in zip(streams, ks) { for u in s { w.rice(u, k: k, escape: escapeQuotient) } }
        return w.finish()
    }

    /// Zigzagged prediction errors of values 1..<n.
    private static func residuals(_ v: [Int64], order: Int) -> [UInt64] {
        var out = [UInt64]()
        out.reserveCapacity(v.count)
        for i in 1..<max(v.count, 1) {
            let pred = (order == 2 && i >= 2) ? v[i - 1] &* 2 &- v[i - 2] : v[i - 1]
            out.append(ByteWriter.zigzag(v[i] &- pred))
        }
        return out
    }

    private static func bestK(_ s: [UInt64]) -> Int {
        guard !s.isEmpty else { return 0 }
        var best = 0, bestBits = Int.max
        for k in 0...40 {
            var bits = 0
            for u in s {
                let q = u >> UInt64(k)
                bits += q < escapeQuotient ? Int(q) + 1 + k : Int(escapeQuotient) + 7 + (64 - u.leadingZeroBitCount)
            }
            if bits < bestBits { bestBits = bits; best = k }
            // Once the stream only grows with k there is no better k further on.
            if bits > bestBits && k > best + 2 { break }
        }
        return best
    }

    // MARK: decoding

    /// Decodes and validates a blob. Never trusts a count or length it has not checked against the data.
    public static func decode(_ bytes: [UInt8]) throws -> [InkPoint] {
        var c = PointColumns()
        try decode(bytes, into: &c, keepingTimes: true)
        var out = [InkPoint]()
        out.reserveCapacity(c.count)
        for i in 0..<c.count { out.append(InkPoint(x: c.x[i], y: c.y[i], pressure: c.pressure[i], time: c.time[i])) }
        return out
    }

    /// Decodes and validates a blob into `columns` (replacing what they held), with the values and the errors of
    /// `decode(_:)`. Times are always decoded and checked, but kept only when asked: a thumbnail never reads them.
    public static func decode(_ bytes: [UInt8], into columns: inout PointColumns, keepingTimes: Bool = false) throws {
        columns.removeAll()
        var r = ByteReader(bytes, endsEarly: Failure.truncated, tooLarge: Failure.invalid("varint too long"))
        let v = try r.byte()
        guard v == version else { throw Failure.unknownVersion(v) }
        let count = try r.varint()
        guard count >= 1 else { throw Failure.empty }
        guard count <= UInt64(maxPoints) else { throw Failure.tooManyPoints(count > UInt64(Int.max) ? Int.max : Int(count)) }
        let n = Int(count)
        let x0 = try r.signedVarint(), y0 = try r.signedVarint(), t0 = try r.signedVarint()
        let p0 = Int64(try r.byte())
        var ks = (0, 0, 0, 0)
        for i in 0..<4 {
            let k = Int(try r.byte())
            guard k <= 58 else { throw Failure.invalid("Rice parameter \(k)") }
            switch i { case 0: ks.0 = k; case 1: ks.1 = k; case 2: ks.2 = k; default: ks.3 = k }
        }
        // Every residual takes at least one bit: refuse counts the remaining bytes cannot hold before allocating.
        let bitsLeft = r.remaining * 8
        guard (n - 1) * 4 <= bitsLeft else { throw Failure.truncated }

        let limitXY = Int64(maxCoordinate * coordinateScale), limitT = Int64(maxTime * timeScale)
        var bits = BitReader(bytes: bytes, pos: r.position)
        // Checked before anything uses them (and without abs, which traps on Int64.min from a hostile blob).
        guard x0.magnitude <= UInt64(limitXY), y0.magnitude <= UInt64(limitXY), t0.magnitude <= UInt64(limitT) else {
            throw Failure.invalid("first point out of range")
        }
        let cs = 1 / coordinateScale, tsc = 1 / timeScale
        try bits.column(first: x0, count: n, order: 2, k: ks.0, limit: limitXY, escape: escapeQuotient, into: &columns.x, unit: cs)
        try bits.column(first: y0, count: n, order: 2, k: ks.1, limit: limitXY, escape: escapeQuotient, into: &columns.y, unit: cs)
        // A negative pressure is reported only once the whole blob has decoded (a truncated one says so first).
        let badPressure = try bits.column(first: p0, count: n, order: 1, k: ks.2, limit: 255, escape: escapeQuotient,
                                            into: &columns.pressure, unit: 255, dividing: true)
        if keepingTimes {
            try bits.column(first: t0, count: n, order: 2, k: ks.3, limit: limitT, escape: escapeQuotient, into: &columns.time, unit: tsc)
        } else {
            try bits.skipColumn(first: t0, count: n, order: 2, k: ks.3, limit: limitT, escape: escapeQuotient)
        }
        if let p = badPressure { throw Failure.invalid("pressure \(p) out of 0…255") }
        guard bits.remainingWholeBytes == 0 else { throw Failure.overlong }
    }
}

private struct BitWriter {
    var out: ByteWriter
    var acc: UInt64 = 0
    var used = 0

    mutating func put(_ v: UInt64, bits: Int) {
        // Writes the low `bits` bits of v, most significant first, in chunks that fit the accumulator.
        var remaining = bits
        while remaining > 0 {
            let take = min(remaining, 56 - used)
            let chunk = (v >> UInt64(remaining - take)) & (take == 64 ? ~0 : (UInt64(1) << UInt64(take)) - 1)
            acc = (acc << UInt64(take)) | chunk
            used += take; remaining -= take
            while used >= 8 { used -= 8; out.append(UInt8((acc >> UInt64(used)) & 0xff)) }
        }
    }

    mutating func rice(_ u: UInt64, k: Int, escape: UInt64) {
        let q = u >> UInt64(k)
        if q < escape {
            var ones = Int(q)
            while ones > 0 { let c = min(ones, 32); put((UInt64(1) << UInt64(c)) - 1, bits: c); ones -= c }
            put(0, bits: 1)
            if k > 0 { put(u, bits: k) }
        } else {
            // Escape: `escape` ones and a zero, then the value's bit width (6 bits) and the value itself.
            put((UInt64(1) << escape) - 1, bits: Int(escape))
            put(0, bits: 1)
            let width = max(64 - u.leadingZeroBitCount, 1)
            put(UInt64(width - 1), bits: 6)
            put(u, bits: width)
        }
    }

    mutating func finish() -> [UInt8] {
        if used > 0 { out.append(UInt8((acc << UInt64(8 - used)) & 0xff)); used = 0 }
        return out.bytes
    }
}

private struct BitReader {
    let bytes: [UInt8]
    var pos: Int
    /// Unread bits, aligned to the top of the word.
    var window: UInt64 = 0
    var avail = 0

    init(bytes: [UInt8], pos: Int) { self.bytes = bytes; self.pos = pos }

    @inline(__always) mutating func refill() {
        while avail <= 56 && pos < bytes.count {
            window |= UInt64(bytes[pos]) &<< UInt64(56 - avail)
            avail += 8; pos += 1
        }
    }

    // Shifts are masking ones (&<<, &>>): every amount here is below 64, and Swift's checked shifts cost a compare
    // and a select each, in the loop that decodes every residual.
    @inline(__always) mutating func take(_ bits: Int) throws -> UInt64 {
        // 1 ≤ bits ≤ 58 on every call path.
        if avail < bits { refill(); guard avail >= bits else { throw PointCodec.Failure.truncated } }
        let v = window &>> UInt64(64 - bits)
        window = window &<< UInt64(bits)
        avail -= bits
        return v
    }

    @inline(__always) mutating func rice(k: Int, escape: UInt64) throws -> UInt64 {
        if avail < 32 { refill() }
        // The usual residual, whose zero and k low bits are all in the window, in one step (the same bits and state
        // as the general path below, which takes everything else).
        let run = (~window).leadingZeroBitCount
        if run < avail, UInt64(truncatingIfNeeded: run) < escape, run &+ 1 &+ k <= avail {
            let rest = (window &<< UInt64(truncatingIfNeeded: run)) &<< 1
            window = rest &<< UInt64(truncatingIfNeeded: k)
            avail = avail &- (run &+ 1 &+ k)
            let q = UInt64(truncatingIfNeeded: run)
            return k == 0 ? q : (q &<< UInt64(truncatingIfNeeded: k)) | (rest &>> UInt64(truncatingIfNeeded: 64 &- k))
        }
        var q: UInt64 = 0
        while true {
            let ones = min((~window).leadingZeroBitCount, avail)
            if ones < avail {
                q += UInt64(ones)
                window = (window &<< UInt64(ones)) &<< 1; avail -= ones + 1
                break
            }
            q += UInt64(ones); window = 0; avail = 0
            refill()
            guard avail > 0 else { throw PointCodec.Failure.truncated }
            if q > escape { throw PointCodec.Failure.invalid("bad residual") }
        }
        if q < escape {
            return k == 0 ? q : (q &<< UInt64(k)) | (try take(k))
        }
        guard q == escape else { throw PointCodec.Failure.invalid("bad residual") }
        let width = Int(try take(6)) + 1
        return try takeWide(width)
    }

    @inline(__always) mutating func takeWide(_ bits: Int) throws -> UInt64 {
        if bits <= 32 { return try take(bits) }
        let hi = try take(bits - 32)
        return (hi << 32) | (try take(32))
    }

    /// The `count` values of one stream into `out` (replacing it): `first`, then each predicted from the one or
    /// two before (`order`) plus its residual, checked against ±`limit`; stored times `unit` (divided by it when
    /// `dividing`, as pressure is). Returns the first negative value, if any.
    @discardableResult
    mutating func column(first: Int64, count: Int, order: Int, k: Int, limit: Int64, escape: UInt64,
                         into out: inout [Double], unit: Double, dividing: Bool = false) throws -> Int64? {
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(0, count: count))
        out[0] = dividing ? Double(first) / unit : Double(first) * unit
        var prev2 = first, prev1 = first
        var negative: Int64? = first < 0 ? first : nil
        for i in 1..<max(count, 1) {
            let x = try next(prev1, prev2, order: i >= 2 ? order : 1, k: k, limit: limit, escape: escape)
            prev2 = prev1; prev1 = x
            if x < 0, negative == nil { negative = x }
            out[i] = dividing ? Double(x) / unit : Double(x) * unit
        }
        return negative
    }

    /// The same stream, checked but not kept.
    mutating func skipColumn(first: Int64, count: Int, order: Int, k: Int, limit: Int64, escape: UInt64) throws {
        var prev2 = first, prev1 = first
        for i in 1..<max(count, 1) {
            let x = try next(prev1, prev2, order: i >= 2 ? order : 1, k: k, limit: limit, escape: escape)
            prev2 = prev1; prev1 = x
        }
    }

    @inline(__always)
    private mutating func next(_ prev1: Int64, _ prev2: Int64, order: Int, k: Int, limit: Int64, escape: UInt64) throws -> Int64 {
        let u = try rice(k: k, escape: escape)
        let pred = order == 2 ? prev1 &* 2 &- prev2 : prev1
        let x = pred &+ ByteReader.unzigzag(u)
        guard x >= -limit && x <= limit else { throw PointCodec.Failure.invalid("value out of range") }
        return x
    }

    /// Whole bytes left unread; a well-formed blob ends inside its last byte.
    var remainingWholeBytes: Int { (bytes.count - pos) + avail / 8 }
}
