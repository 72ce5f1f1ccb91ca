/// Where new stroke and page ids come from. A document alone numbers every id in turn. When two numberers add to
/// one document on two threads (the app's editor on the input thread, a shared board's replica on the save queue),
/// each is given a lane: it takes the ids of its lane above every id its own copy of the document has seen. Lanes
/// never meet, so the two never hand out one id twice, and they share no counter: each is a value its owner keeps.
public struct IDSource: Hashable, Sendable {
    public let lane: UInt64
    public let lanes: UInt64

    /// Every id, in turn: a document nobody else numbers.
    public static let alone = IDSource(lane: 0, of: 1)

    public init(lane: UInt64, of lanes: UInt64) {
        self.lanes = Swift.max(lanes, 1)
        self.lane = lane % self.lanes
    }

    /// The first id of this lane at or above `next`.
    func first(atOrAbove next: UInt64) -> UInt64 { next + (lane + lanes - next % lanes) % lanes }
}
