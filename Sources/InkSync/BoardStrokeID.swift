import InkCore

/// A stroke's name on a board, the same on every replica: the client that drew it and that client's own
/// number for it (its local stroke id, which a document never reuses). Local row ids differ per replica.
public struct BoardStrokeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var client: UInt64
    public var number: UInt64

    public init(client: UInt64, number: UInt64) { self.client = client; self.number = number }

    public static func < (a: Self, b: Self) -> Bool { (a.client, a.number) < (b.client, b.number) }
    public var description: String { "\(String(client, radix: 16))-\(number)" }
}
