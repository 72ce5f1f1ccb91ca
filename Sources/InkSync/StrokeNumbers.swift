import Foundation
import InkCore

/// One source of local stroke ids for a document edited on two threads: the app's editor numbers the user's
/// new strokes on the GTK thread while the board's replica numbers other people's strokes on the save queue.
/// Both take ids here, so they never hand out the same one.
public final class StrokeNumbers: @unchecked Sendable {
    private let lock = NSLock()
    private var next: StrokeID

    public init(after used: StrokeID) { next = used + 1 }

    public func make() -> StrokeID {
        lock.lock(); defer { lock.unlock() }
        defer { next += 1 }
        return next
    }

    /// Later ids are above `id` (a board keeps new local strokes above every stroke it has placed).
    public func reserve(through id: StrokeID) {
        lock.lock(); defer { lock.unlock() }
        if id >= next { next = id + 1 }
    }

    public var peek: StrokeID { lock.lock(); defer { lock.unlock() }; return next }
}
