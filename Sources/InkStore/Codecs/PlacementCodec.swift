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
        var out = ByteWriter()
        if t.isTranslation { out.doubles(t.tx, t.ty) } else { out.matrix(t) }
        return out.bytes
    }

    static func decodeTransform(_ b: [UInt8]) throws -> AffineMap {
        var r = reader(b)
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
        var out = ByteWriter([1])
        out.matrix(t.matrix); out.double(t.widthScale)
        if let a = t.area { out.append(1); out.doubles(a.minX, a.minY, a.maxX, a.maxY) } else { out.append(0) }
        var distinct: [Placement] = []
        var index: [Placement: Int] = [:]
        var which: [Int] = []
        which.reserveCapacity(t.before.count)
        for p in t.before {
            if let i = index[p] { which.append(i); continue }
            index[p] = distinct.count; which.append(distinct.count); distinct.append(p)
        }
        out.varint(UInt64(distinct.count))
        for p in distinct { out.matrix(p.transform); out.double(p.width) }
        if distinct.count > 1 { for i in which { out.varint(UInt64(i)) } }
        return out.bytes
    }

    /// Decodes and checks a transform edit of the strokes `ids`: finite numbers, usable matrices, widths in range,
    /// indexes in range, nothing left over.
    static func decodeEdit(_ b: [UInt8], ids: [StrokeID]) throws -> StrokeTransform {
        var r = reader(b)
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

    private static func reader(_ b: [UInt8]) -> ByteReader {
        ByteReader(b, endsEarly: Failure(description: "a transform ends early"),
                   tooLarge: Failure(description: "a transform holds a number too large"))
    }
}
