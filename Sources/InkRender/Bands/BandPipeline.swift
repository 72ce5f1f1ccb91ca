import Dispatch
import Foundation

/// Bands drawn on every core, each followed by work on its finished rows (encoding them into a PNG stripe).
///
/// Drawing every band and then encoding every band leaves a core idle at the end of the drawing, while the other
/// finishes the last band: about half a band's drawing, a tenth of a page's export. Here a core that finds no band
/// left to draw encodes one already drawn, so the cores stay busy until the last band's own rows are encoded.
enum BandPipeline {
    /// Calls `draw(band)` for every band in `0..<bands`, drawing bands in order, and `finish(rows)` for `parts`
    /// slices of each band's `rows(band)` once that band is drawn, on whichever core is free (drawing the next band
    /// first, so the page is done as early as it can be). With few bands (a band per core), parts let every core
    /// share the last band's finishing.
    static func run(bands: Int, parts: Int = 1, rows: (Int) -> Range<Int>, draw: (Int) -> Void, finish: (Range<Int>) -> Void) {
        guard bands > 0 else { return }
        let queue = Queue(bands: bands, parts: max(1, parts))
        DispatchQueue.concurrentPerform(iterations: min(Parallel.cores, bands)) { _ in
            while let task = queue.next() {
                switch task {
                case .draw(let b): draw(b); queue.drawn(b)
                case .finish(let b, let part):
                    let r = rows(b), n = queue.parts
                    let lo = r.lowerBound + r.count * part / n, hi = r.lowerBound + r.count * (part + 1) / n
                    if lo < hi { finish(lo..<hi) }
                }
            }
        }
    }

    private enum Task { case draw(Int), finish(Int, part: Int) }

    private final class Queue: @unchecked Sendable {
        private let condition = NSCondition()
        private let bands: Int
        let parts: Int
        private var nextDraw = 0, drawing = 0
        private var ready: [(band: Int, part: Int)] = []

        init(bands: Int, parts: Int) { self.bands = bands; self.parts = parts }

        /// The next task, waiting while the only work left is finishing bands still being drawn; nil when done.
        func next() -> Task? {
            condition.lock(); defer { condition.unlock() }
            while true {
                if nextDraw < bands {
                    nextDraw += 1; drawing += 1
                    return .draw(nextDraw - 1)
                }
                if !ready.isEmpty { let r = ready.removeFirst(); return .finish(r.band, part: r.part) }
                if drawing == 0 { return nil }
                condition.wait()
            }
        }

        func drawn(_ band: Int) {
            condition.lock()
            drawing -= 1; ready += (0..<parts).map { (band, $0) }
            condition.broadcast()
            condition.unlock()
        }
    }
}
