import Dispatch
import Foundation
import InkCore
import InkPDF

/// PDF pages rendered for the screen, per zoom, off the painting thread. Painting never waits for poppler:
/// a page's tiles at the wanted scale are painted if they are ready; where one is missing, the tiles of the
/// nearest scale rendered before stand in (scaled), and the missing one is queued. Each tile that lands is
/// announced to the observers (the canvas repaints that page), so the sharp picture replaces the stand-in.
///
/// A tile is `tileSide` device pixels of the page at one scale, so a page at a high zoom costs the tiles in
/// view, not the whole page. Tiles are dropped least recently used first beyond `budget` bytes. Renders run one
/// at a time on a background queue, newest request first (the view the user looks at now), and a request for
/// a scale the page is no longer wanted at is skipped.
public final class PDFPageRasters: @unchecked Sendable {
    public static let shared = PDFPageRasters()

    public static let tileSide = 2048
    /// Bytes of tiles kept (ARGB, 16 MB a full tile).
    public static let budget = 384 << 20

    /// One PDF page (its source kept alive by the key, so keys never alias).
    public struct PageKey: Hashable, @unchecked Sendable {
        public let source: PDFSource
        public let index: Int
        public init(_ b: PDFBackdrop) { source = b.source; index = b.index }
        public static func == (a: PageKey, b: PageKey) -> Bool { a.source === b.source && a.index == b.index }
        public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(source)); h.combine(index) }
    }

    private struct TileKey: Hashable {
        let page: PageKey
        /// Device pixels per page unit, as bits (exact: the same zoom gives the same key).
        let scale: UInt64
        let column: Int, row: Int
        var scaleValue: Double { Double(bitPattern: scale) }
    }

    private final class Tile {
        let surface: ImageSurface
        var lastUse: UInt64
        init(surface: ImageSurface, lastUse: UInt64) { self.surface = surface; self.lastUse = lastUse }
        var bytes: Int { surface.stride * surface.height }
    }

    private struct Job {
        let key: TileKey
        /// The page's size in page units (the PDF page is stretched over 0,0…size).
        let pageSize: Size
    }

    private let lock = NSLock()
    private var tiles: [TileKey: Tile] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0
    private var pending: [Job] = []
    private var queued = Set<TileKey>()
    private var working = false
    /// The scale each page was last painted at: older requests for it are skipped.
    private var wanted: [PageKey: UInt64] = [:]
    private var observers: [ObjectIdentifier: @Sendable (PageKey) -> Void] = [:]
    private let queue = DispatchQueue(label: "oekaki.pdf-rasters", qos: .userInitiated)

    public init() {}

    /// Calls `body` (on a background thread) whenever a tile of a page lands, until `removeObserver(owner)`.
    public func addObserver(_ owner: AnyObject, _ body: @escaping @Sendable (PageKey) -> Void) {
        lock.lock(); observers[ObjectIdentifier(owner)] = body; lock.unlock()
    }
    public func removeObserver(_ owner: AnyObject) {
        lock.lock(); observers[ObjectIdentifier(owner)] = nil; lock.unlock()
    }

    /// Paints `backdrop` stretched over 0,0…`pageSize` (page units) into `ctx`, whose transform maps page units
    /// to device pixels at `scale`; only the part in `visible` (page units) is looked at. Never renders here.
    /// True when everything painted was sharp (nothing was missing or stood in).
    @discardableResult
    func paint(_ backdrop: PDFBackdrop, pageSize: Size, in ctx: CairoContext, scale: Double, visible: Rect) -> Bool {
        guard scale.isFinite, scale > 0, pageSize.width > 0, pageSize.height > 0,
              let area = Rect(x: 0, y: 0, width: pageSize.width, height: pageSize.height).intersection(visible),
              area.width > 0, area.height > 0 else { return true }
        let page = PageKey(backdrop)
        let s = scale.bitPattern
        let side = Double(Self.tileSide) / scale
        let c0 = max(0, Int((area.minX / side).rounded(.down))), c1 = Int(((area.maxX / side).rounded(.up))) - 1
        let r0 = max(0, Int((area.minY / side).rounded(.down))), r1 = Int(((area.maxY / side).rounded(.up))) - 1
        guard c0 <= c1, r0 <= r1, (c1 - c0 + 1) * (r1 - r0 + 1) <= 4096 else { return true }
        var sharp = true
        var missing: [TileKey] = []
        lock.lock()
        wanted[page] = s
        clock += 1
        var found: [(Rect, ImageSurface)] = []
        for r in r0...r1 {
            for c in c0...c1 {
                let key = TileKey(page: page, scale: s, column: c, row: r)
                if let t = tiles[key] {
                    t.lastUse = clock
                    found.append((tileRect(c, r, side: side, pageSize: pageSize), t.surface))
                } else {
                    missing.append(key)
                }
            }
        }
        // Stand-ins: for each missing tile, the tiles of the nearest other scale that cover any of it.
        var standIns: [(clip: Rect, rect: Rect, surface: ImageSurface)] = []
        if !missing.isEmpty {
            sharp = false
            let scales = Set(tiles.keys.lazy.filter { $0.page == page && $0.scale != s }.map(\.scale))
            // Prefer the finest scale below or above, whichever is nearer (by ratio).
            let nearest = scales.min { abs(log(Double(bitPattern: $0) / scale)) < abs(log(Double(bitPattern: $1) / scale)) }
            for m in missing {
                let want = tileRect(m.column, m.row, side: side, pageSize: pageSize)
                guard let n = nearest else { break }
                let ns = Double(bitPattern: n), nside = Double(Self.tileSide) / ns
                for (k, t) in tiles where k.page == page && k.scale == n {
                    let r = tileRect(k.column, k.row, side: nside, pageSize: pageSize)
                    if r.intersects(want) { t.lastUse = clock; standIns.append((want, r, t.surface)) }
                }
            }
            for m in missing where !queued.contains(m) {
                queued.insert(m)
                pending.append(Job(key: m, pageSize: pageSize))
            }
        }
        let start = !pending.isEmpty && !working
        if start { working = true }
        lock.unlock()

        for s in standIns {
            ctx.save(); ctx.clip(s.clip); ctx.paint(s.surface, over: s.rect); ctx.restore()
        }
        for (r, surface) in found { ctx.paint(surface, over: r) }
        if start { queue.async { self.work() } }
        return sharp
    }

    /// The page rect (page units) tile (c, r) covers: whole tiles, the last ones cut at the page's edge.
    private func tileRect(_ c: Int, _ r: Int, side: Double, pageSize: Size) -> Rect {
        Rect(minX: Double(c) * side, minY: Double(r) * side,
             maxX: min(Double(c + 1) * side, pageSize.width), maxY: min(Double(r + 1) * side, pageSize.height))
    }

    /// Renders queued tiles, newest first, until none is left.
    private func work() {
        while true {
            lock.lock()
            guard let job = pending.popLast() else { working = false; lock.unlock(); return }
            queued.remove(job.key)
            let stale = wanted[job.key.page] != job.key.scale
            lock.unlock()
            if stale { continue }
            let k = job.key, scale = k.scaleValue
            let side = Double(Self.tileSide) / scale
            let rect = tileRect(k.column, k.row, side: side, pageSize: job.pageSize)
            // Whole device pixels: the tile is pasted back over exactly `rect`.
            let w = max(1, Int((rect.width * scale).rounded(.up))), h = max(1, Int((rect.height * scale).rounded(.up)))
            guard let surface = try? ImageSurface(width: w, height: h) else { continue }
            let ctx = CairoContext(drawingInto: surface)
            ctx.identity()
            ctx.scale(Double(w) / rect.width, Double(h) / rect.height)
            ctx.translate(-rect.minX, -rect.minY)
            PDFBackdrop(source: k.page.source, index: k.page.index)
                .draw(over: Rect(x: 0, y: 0, width: job.pageSize.width, height: job.pageSize.height), in: ctx, printing: false)
            lock.lock()
            clock += 1
            let tile = Tile(surface: surface, lastUse: clock)
            tiles[k] = tile
            bytes += tile.bytes
            evict()
            let notify = Array(observers.values)
            lock.unlock()
            for o in notify { o(k.page) }
        }
    }

    /// Drops least recently used tiles until the cache fits its budget (caller holds the lock).
    private func evict() {
        guard bytes > Self.budget else { return }
        for (k, t) in tiles.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard bytes > Self.budget else { break }
            tiles[k] = nil
            bytes -= t.bytes
        }
    }

    /// Forgets every tile (tests).
    public func removeAll() {
        lock.lock(); tiles = [:]; bytes = 0; pending = []; queued = []; wanted = [:]; lock.unlock()
    }

    /// Waits until no render is queued or running (tests and benchmarks).
    public func waitUntilIdle(timeout: TimeInterval = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            lock.lock(); let busy = working || !pending.isEmpty; lock.unlock()
            if !busy { return true }
            usleep(2000)
        }
        return false
    }
}
