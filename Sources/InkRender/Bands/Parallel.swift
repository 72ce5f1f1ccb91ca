import Dispatch
import Foundation

/// Work split over every core with `DispatchQueue.concurrentPerform` (which runs fine off any main loop).
enum Parallel {
    static var cores: Int { max(ProcessInfo.processInfo.activeProcessorCount, 1) }

    /// Calls `body` for `parts` slices of `0..<count` concurrently and returns the results in slice order.
    static func map<T>(count: Int, parts: Int, _ body: (Range<Int>) -> T) -> [T] {
        guard count > 0 else { return [] }
        let parts = max(1, min(parts, count))
        let per = (count + parts - 1) / parts
        var out = [T?](repeating: nil, count: parts)
        // Each iteration writes only its own slot, so the buffer is shared without a lock.
        out.withUnsafeMutableBufferPointer { buf in
            let buf = buf
            DispatchQueue.concurrentPerform(iterations: parts) { i in
                let lo = min(count, i * per), hi = min(count, lo + per)
                buf[i] = body(lo..<hi)
            }
        }
        return out.map { $0! }
    }
}
