import InkCore

/// Appends the pieces every binary format of Oekaki is made of: bytes, LEB128 varints (zigzagged when signed)
/// and little-endian numbers. The point blobs, content, placements, edit strokes and board entries all write
/// through it, so a number is laid out one way everywhere.
public struct ByteWriter {
    public private(set) var bytes: [UInt8]

    public init(_ prefix: [UInt8] = [], capacity: Int = 0) {
        bytes = prefix
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    public mutating func append(_ byte: UInt8) { bytes.append(byte) }

    public mutating func append<S: Sequence>(contentsOf s: S) where S.Element == UInt8 { bytes.append(contentsOf: s) }

    /// Seven bits a byte, low first; the top bit says another byte follows.
    public mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }

    /// A signed number as the varint of its zigzag (0, -1, 1, -2 … → 0, 1, 2, 3 …), so small magnitudes stay short.
    public mutating func signedVarint(_ v: Int64) { varint(Self.zigzag(v)) }

    /// The integer's bytes, least significant first (`UInt32` writes 4, `UInt64` 8).
    public mutating func littleEndian<T: FixedWidthInteger>(_ v: T) {
        var v = v
        for _ in 0..<(T.bitWidth / 8) { bytes.append(UInt8(truncatingIfNeeded: v)); v >>= 8 }
    }

    /// An IEEE double's 8 bytes, little-endian: reading gives back exactly the value written.
    public mutating func double(_ v: Double) { littleEndian(v.bitPattern) }

    public mutating func doubles(_ values: Double...) { for v in values { double(v) } }

    /// An affine map as six doubles: a, b, c, d, tx, ty.
    public mutating func matrix(_ m: AffineMap) { doubles(m.a, m.b, m.c, m.d, m.tx, m.ty) }

    public static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}
