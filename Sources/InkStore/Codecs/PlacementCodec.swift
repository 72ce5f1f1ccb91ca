import InkCore

/// How the file stores transforms (format 5): a stroke's `transform` column, and the `placement` column of a
/// history row for a move, resize or rotation.
///
/// - A stroke transform is NULL for the identity, 16 bytes (tx, ty) for a pure move, else 48 bytes
///   (a, b, c, d, tx, ty); little-endian IEEE doubles, so reading gives back exactly what was written.
/// - A transform edit: version byte 1; the matrix as 48 bytes; the width scale (8); a flag byte and the area
///   (32 bytes when the flag is 1); then the placements before: a varint count k of distinct placements,
///   k × (48-byte transform + 8-byte width), and when k > 1 one varint per stroke naming its placement.
///   Strokes moved together share their placement, so moving 10,000 of them again costs a few bytes, not 10,000 × 56.
enum PlacementCodec {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func encode(_ t: AffineMap) -> [UInt8]? {
        if t.isIdentity { return nil }
        var out: [UInt8] = []
        if t.isTranslation { put([t.tx, t.ty], &out) } else { put([t.a, t.b, t.c, t.d, t.tx, t.ty], &out) }
        return out
    }

    static func decodeTransform(_ b: [UInt8]) throws -> AffineMap {
        var r = Reader(bytes: b)
        let t: AffineMap
        switch b.count {
        case 16: t = .translation(try r.double(), try r.double())
        case 48: t = try r.matrix()
        default: throw Failure(description: "a stroke transform of \(b.count) bytes")
        }
        guard t.isUsable else { throw Failure(description: "a stroke transform that is not usable") }
        return t
    }

    static func encode(_ t: StrokeTransform) -> [UInt8] {
        var out: [UInt8] = [1]
        put([t.matrix.a, t.matrix.b, t.matrix.c, t.matrix.d, t.matrix.tx, t.matrix.ty, t.widthScale], &out)
        if let a = t.area { out.append(1); put([a.minX, a.minY, a.maxX, a.maxY], &out) } else { out.append(0) }
        var distinct: [Placement] = []
        var index: [Placement: Int] = [:]
        var which: [Int] = []
        which.reserveCapacity(t.before.count)
        for p in t.before {
            if let i = index[p] { which.append(i); continue }
            index[p] = distinct.count; which.append(distinct.count); distinct.append(p)
        }
        putVarint(UInt64(distinct.count), &out)
        for p in distinct {
            let m = p.transform
            put([m.a, m.b, m.c, m.d, m.tx, m.ty, p.width], &out)
        }
        if distinct.count > 1 { for i in which { putVarint(UInt64(i), &out) } }
        return out
    }

    /// Decodes and checks a transform edit of the strokes `ids`: finite numbers, usable matrices, widths in range,
    /// indexes in range, nothing left over.
    static func decodeEdit(_ b: [UInt8], ids: [StrokeID]) throws -> StrokeTransform {
        var r = Reader(bytes: b)
        guard try r.byte() == 1 else { throw Failure(description: "a transform edit of an unknown version") }
        let m = try r.matrix()
        let scale = try r.double()
        guard m.isUsable, scale.isFinite, scale > 0 else { throw Failure(description: "a transform edit that is not usable") }
        var area: Rect?
        switch try r.byte() {
        case 0: break
        case 1:
            let a = Rect(minX: try r.double(), minY: try r.double(), maxX: try r.double(), maxY: try r.double())
            guard a.minX.isFinite, a.minY.isFinite, a.maxX.isFinite, a.maxY.isFinite, !a.isEmpty else {
                throw Failure(description: "a transform edit with a bad area")
            }
            area = a
        default: throw Failure(description: "a transform edit with a bad area flag")
        }
        let k = try r.varint()
        // Every placement takes 56 bytes: bounds the count before anything is allocated.
        guard k >= 1 || ids.isEmpty, k <= UInt64(b.count / 56), k <= UInt64(max(ids.count, 1)) else {
            throw Failure(description: "a transform edit claims \(k) placements")
        }
        var distinct: [Placement] = []
        for _ in 0..<k {
            let t = try r.matrix(), w = try r.double()
            guard t.isUsable, w.isFinite, w > 0, w <= Schema.maxStrokeWidth else {
                throw Failure(description: "a transform edit holds an unusable placement")
            }
            distinct.append(Placement(transform: t, width: w))
        }
        var before: [Placement] = []
        before.reserveCapacity(ids.count)
        for _ in ids {
            let i = distinct.count > 1 ? try r.varint() : 0
            guard i < UInt64(distinct.count) else { throw Failure(description: "a transform edit names placement \(i)") }
            before.append(distinct[Int(i)])
        }
        guard r.atEnd else { throw Failure(description: "a transform edit has bytes left over") }
        return StrokeTransform(ids: ids, before: before, matrix: m, widthScale: scale, area: area)
    }

    private static func put(_ values: [Double], _ out: inout [UInt8]) {
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
    }

    private static func putVarint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var atEnd: Bool { i == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard i < bytes.count else { throw Failure(description: "a transform ends early") }
            defer { i += 1 }
            return bytes[i]
        }
        mutating func double() throws -> Double {
            guard bytes.count - i >= 8 else { throw Failure(description: "a transform ends early") }
            var bits: UInt64 = 0
            for k in 0..<8 { bits |= UInt64(bytes[i + k]) << (8 * UInt64(k)) }
            i += 8
            return Double(bitPattern: bits)
        }
        mutating func matrix() throws -> AffineMap {
            AffineMap(a: try double(), b: try double(), c: try double(), d: try double(), tx: try double(), ty: try double())
        }
        mutating func varint() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 63 || b <= 1 else { throw Failure(description: "a transform holds a number too large") }
                v |= UInt64(b & 0x7f) << shift
                if b < 0x80 { return v }
                shift += 7
            }
        }
    }
}
