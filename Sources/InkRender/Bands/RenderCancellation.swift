import Foundation

/// Lets the thread that asked for a render abandon it while it runs on another (a newer view made it useless).
/// The renderer looks at it between batches of strokes, so a cancelled render stops within a few milliseconds.
public final class RenderCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    public init() {}

    public func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }
}
