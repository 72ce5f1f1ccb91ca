/// The name of an embedded file (an image or a PDF): the lowercase hex SHA-256 of its bytes, so the same
/// content is stored once however often it is inserted.
public struct ContentHash: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hex: String

    /// The hash of `bytes`.
    public init(of bytes: some Collection<UInt8>) {
        let digits = Array("0123456789abcdef".utf8)
        var s: [UInt8] = []
        s.reserveCapacity(64)
        for b in SHA256.hash(bytes) { s.append(digits[Int(b >> 4)]); s.append(digits[Int(b & 15)]) }
        hex = String(decoding: s, as: UTF8.self)
    }

    /// A stored name, checked: exactly 64 lowercase hex digits; nil for anything else.
    public init?(hex: some StringProtocol) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.hex = String(hex)
    }

    public var description: String { hex }
    public static func < (a: ContentHash, b: ContentHash) -> Bool { a.hex < b.hex }
}
