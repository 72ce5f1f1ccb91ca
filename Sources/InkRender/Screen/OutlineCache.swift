import Foundation
import InkCore

/// Stroke outlines the screen has shaped, kept between renders: a zoom step, the next step back, a pan strip
/// meet mostly strokes shaped moments before, and shaping is the part of a render that is not cairo's fill.
///
/// An outline depends on the zoom only through `minSpacing` (samples closer than 0.3 device pixel are skipped,
/// `Painter.options`). Where every sample of a stroke is farther from the last kept one than both spacings,
/// none is skipped at either zoom and the outline is the same: it is reused. So a reused outline is bit for
/// bit what shaping would give, and the pixels never differ from a render without the cache.
/// A stroke changed under the same id (moved, recoloured) is told apart by comparing the whole value (cheap:
/// its points usually share storage with the drawing's). Bounded: beyond `budget` bytes the outlines least
/// recently used go.
final class OutlineCache: @unchecked Sendable {
    /// The screen's: 48 MB holds the outlines (and, counted too, the samples they keep alive) of about
    /// 7,000 strokes of 100 points, a full view of the million-point drawing.
    static let shared = OutlineCache(budget: 48 << 20)

    private struct Key: Hashable {
        let page: PageID
        let id: StrokeID
    }
    private struct Entry {
        let stroke: Stroke
        let outline: [Point]
        /// The `minSpacing` it was shaped with, and `closestSampleGap`: any spacing below the gap drops nothing.
        let spacing: Double
        let gap: Double
        var used: UInt64
        var bytes: Int { outline.count * MemoryLayout<Point>.stride + stroke.points.count * MemoryLayout<InkPoint>.stride + 128 }
    }

    let budget: Int
    private var entries: [Key: Entry] = [:]
    private(set) var bytes = 0
    /// Counts lookups: an entry's `used` is the count at its last one (least recently used = smallest).
    private var clock: UInt64 = 0
    /// Outlines handed out without shaping (tests).
    private(set) var reused = 0
    private let lock = NSLock()

    init(budget: Int) { self.budget = budget }

    /// The outline `Painter.outline(of:deviceScale:)` gives, shaped now only if no kept one is the same;
    /// one shaped now is kept if `keep`.
    func outline(of s: Stroke, deviceScale: Double, keep: Bool = true) -> [Point] {
        let spacing = Painter.options(for: s.style, deviceScale: deviceScale).minSpacing
        let key = Key(page: s.page, id: s.id)
        lock.lock()
        clock += 1
        if let e = entries[key], e.stroke == s, e.spacing == spacing || (e.spacing < e.gap && spacing < e.gap) {
            entries[key]?.used = clock
            reused += 1
            lock.unlock()
            return e.outline
        }
        lock.unlock()
        let outline = Painter.outline(of: s, deviceScale: deviceScale)
        guard keep else { return outline }
        let gap = StrokeShape.closestSampleGap(of: s)
        lock.lock(); defer { lock.unlock() }
        clock += 1
        let e = Entry(stroke: s, outline: outline, spacing: spacing, gap: gap, used: clock)
        bytes += e.bytes - (entries[key]?.bytes ?? 0)
        entries[key] = e
        return outline
    }

    /// A render is over: outlines beyond the budget go, least recently used first, down to three quarters of it
    /// (so trimming is rare).
    func endRender() {
        lock.lock(); defer { lock.unlock() }
        guard bytes > budget else { return }
        for (key, e) in entries.sorted(by: { $0.value.used < $1.value.used }) {
            guard bytes > budget / 4 * 3 else { break }
            bytes -= e.bytes
            entries[key] = nil
        }
    }

    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }

    /// Lets every kept outline go (another document is shown; the bench's cold render).
    func removeAll() {
        lock.lock(); defer { lock.unlock() }
        entries = [:]
        bytes = 0
    }
}
