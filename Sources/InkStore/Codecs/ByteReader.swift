import InkCore

/// Reads what `ByteWriter` writes, from untrusted bytes: every read is checked against the end, and a varint
/// longer than its number may be is refused. The errors are the caller's own, so each format keeps its words
/// ("content ends early", "entry ends early").
public struct ByteReader {
    public let bytes: [UInt8]
    /// The next byte to read.
    public var position: Int
    private let endsEarly: any Error
    private let tooLarge: any Error

    /// `endsEarly` is thrown by a read past the end, `tooLarge` by a varint over its bits.
    public init(_ bytes: [UInt8], at position: Int = 0, endsEarly: any Error, tooLarge: any Error) {
        self.bytes = bytes; self.position = position; self.endsEarly = endsEarly; self.tooLarge = tooLarge
    }

    public var remaining: Int { bytes.count - position }
    public var atEnd: Bool { position == bytes.count }

    public mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw endsEarly }
        defer { position += 1 }
        return bytes[position]
    }

    /// The next `n` bytes (checked: `n` may come from the data).
    public mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard n >= 0, bytes.count - position >= n else { throw endsEarly }
        defer { position += n }
        return bytes[position..<(position + n)]
    }

    /// A varint of at most `bits` bits (64, or fewer where the format's numbers are small).
    public mutating func varint(bits: UInt64 = 64) throws -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            let b = try byte()
            // The last byte that fits may carry only the bits that are left.
            guard shift < bits, shift + 7 <= bits || UInt64(b) >> (bits - shift) == 0 else { throw tooLarge }
            v |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return v }
            shift += 7
        }
    }

    public mutating func signedVarint() throws -> Int64 { Self.unzigzag(try varint()) }

    public mutating func littleEndian<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let n = T.bitWidth / 8
        guard bytes.count - position >= n else { throw endsEarly }
        var v: T = 0
        for k in 0..<n { v |= T(truncatingIfNeeded: bytes[position + k]) << (8 * k) }
        position += n
        return v
    }

    public mutating func double() throws -> Double { Double(bitPattern: try littleEndian(UInt64.self)) }

    /// Six doubles as an affine map (not checked: the caller says what a usable one is).
    public mutating func matrix() throws -> AffineMap {
        AffineMap(a: try double(), b: try double(), c: try double(), d: try double(), tx: try double(), ty: try double())
    }

    public static func unzigzag(_ u: UInt64) -> Int64 { Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }
}
