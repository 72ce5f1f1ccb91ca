import Foundation
import InkCore
import InkRender

/// Render scheduling: what the screen cache lacks after a pan, zoom, resize or edit is repainted at once for a
/// small drawing, else rendered in patches off the GTK thread (the view's first, as one job on every core),
/// pasted in as they land; PDF tiles landing repaint the pages showing them.
extension CanvasView {
    /// PDF page tiles render in the background (`PDFPageRasters`); each that lands repaints the pages showing one.
    func watchPDFTiles() {
        let canvas = MainLoopHandoff(value: WeakCanvas(self))
        PDFPageRasters.shared.addObserver(self) { _ in onMainLoop { canvas.value.canvas?.pdfTileLanded() } }
    }

    /// Repaints the PDF pages in the cache's reach (their sharper tiles are now there): at once for a small
    /// drawing, else as background patches like any stale area.
    func pdfTileLanded() {
        guard let c = cache else { return }
        if Trace.isOn, !pdfShownTraced { pdfShownTraced = true; pdfShownPending = true }
        let t = c.transform
        let reach = t.pageRect(fromView: c.bounds.scaled(by: 1 / t.deviceScale))
        let small = isSmall()
        for sheet in scene.sheets(meeting: reach) where sheet.pdf != nil {
            guard let frame = sheet.clip?.intersection(reach),
                  let device = t.viewRect(fromPage: frame).scaled(by: t.deviceScale).intersection(c.bounds) else { continue }
            if small { repaintSeenNow([device], c) } else { addStale(device) }
        }
        renderNextPatch()
        redraw()
    }

    /// Logs how long the last zoom step took to become sharp, once nothing is left to render.
    func traceZoomSharpIfDone() {
        guard let t0 = zoomTraceStart, let c = cache, c.transform.zoom == transform.zoom else { return }
        let view = visibleInCache(c)
        guard !stale.contains(where: { $0.overlaps(view) }), !(inFlight?.overlaps(view) ?? false) else { return }
        Trace.write("zoom sharp_ms=\(Trace.wallMs() - t0)")
        Trace.write("zoom cpu_ms=\(Trace.processCPUMs() - zoomTraceCPU)")
        Trace.write("zoom gtk_cpu_ms=\((Trace.threadCPUMicros() - zoomTraceThreadCPU) / 1000)")
        zoomTraceStart = nil
    }

    /// Makes the cache match the current view without ever waiting for a whole-view render: a pan shifts
    /// the picture and leaves only the uncovered strips stale, a zoom or resize keeps the old picture scaled
    /// as a preview. Small drawings repaint what is stale at once; large ones render it in patches off the
    /// GTK thread, pasted in as they land (and still valid if the view panned meanwhile).
    func prepareCache() {
        defer { renderNextPatch() }
        if let c = cache, c.transform == transform, c.viewSize == size { return }
        let small = isSmall()
        do {
            guard let c = cache else {
                let c = try ScreenCache(viewSize: size, transform: transform, overscan: Self.overscan)
                cache = c
                if small { repaintSeenNow([c.bounds], c) } else { stale = viewFirst([c.bounds], c) }
                updateLive(c)
                return
            }
            let shift = (transform.offset - c.transform.offset) * transform.deviceScale
            let panOnly = c.viewSize == size && c.transform.zoom == transform.zoom && c.transform.deviceScale == transform.deviceScale
            // A pan that keeps the view inside the raster's ready margin: the draw step composites the raster
            // where it now belongs, and nothing renders (a small drawing too: shifting the raster costs more).
            if panOnly, abs(shift.x) <= Self.recentreDistance, abs(shift.y) <= Self.recentreDistance { return }
            if c.viewSize == size, let exposed = c.scroll(to: transform) {
                stale = stale.compactMap { $0.offsetBy(shift).intersection(c.bounds) }
                if small { repaintSeenNow(exposed, c) } else {
                    for r in exposed { addStale(r) }
                }
            } else {
                let old = c.bounds, oldTransform = c.transform
                // A patch of another zoom cannot be pasted: let it stop.
                if oldTransform.zoom != transform.zoom || oldTransform.deviceScale != transform.deviceScale { cancelInFlight() }
                // A resize at the same zoom and pixel grid keeps the old pixels exact: only new area is stale.
                let sameGrid = oldTransform.zoom == transform.zoom && oldTransform.deviceScale == transform.deviceScale
                    && shift.x == shift.x.rounded() && shift.y == shift.y.rounded()
                var kept: Rect?
                try c.reproject(to: transform, viewSize: size) {
                    kept = sameGrid ? old.offsetBy(shift).intersection(c.bounds) : nil
                    // A small drawing repaints the view at once: scaling the old picture (the whole raster) would
                    // cost more than that, for an overscan its patches replace within a few frames.
                    if small { return kept != nil }
                    guard kept == nil else { return true }
                    // All stale: the view's render starts now, on the other threads, while this one scales the
                    // old picture into place (the preview). Where the scaled old picture covers nothing (zooming
                    // out) is rendered first: the preview already shows roughly the right ink elsewhere.
                    let k = transform.zoom / oldTransform.zoom, ds = transform.deviceScale
                    let preview = oldTransform.deviceScale == ds
                        ? old.scaled(by: k).offsetBy((transform.offset - oldTransform.offset * k) * ds).intersection(c.bounds) : nil
                    stale = []
                    if let preview {
                        for r in c.bounds.subtracting(preview) { addStale(r) }
                        stale.append(preview)
                        stale = viewFirst(stale, c)
                    } else {
                        stale = viewFirst([c.bounds], c)
                    }
                    renderNextPatch()
                    return true
                }
                let missing = kept.map { c.bounds.subtracting($0) } ?? [c.bounds]
                if small {
                    stale = []
                    repaintSeenNow(missing, c)
                } else if kept != nil {
                    stale = stale.compactMap { $0.offsetBy(shift).intersection(c.bounds) }
                    for r in missing { addStale(r) }
                }
            }
            updateLive(c)
        } catch {
            cache = nil
            stale = []
        }
    }

    /// A small drawing repaints at once what the user sees of `rects` (device rects of the cache); the rest, in
    /// the overscan, renders in background patches as a large drawing's does, so a zoom of a small drawing (a
    /// PDF's pages) costs the GTK thread the view, not the raster around it.
    func repaintSeenNow(_ rects: [Rect], _ c: ScreenCache) {
        let view = visibleInCache(c), t = c.transform
        for r in rects {
            guard let v = r.intersection(view), v.width > 0, v.height > 0 else { addStale(r); continue }
            repaintNow(t.pageRect(fromView: v.scaled(by: 1 / t.deviceScale)))
            for o in r.subtracting(v) { addStale(o) }
        }
    }

    /// Each rect cut into its part inside the view, listed first, and its parts in the overscan.
    func viewFirst(_ rects: [Rect], _ c: ScreenCache) -> [Rect] {
        let view = c.viewBounds
        var inside: [Rect] = [], outside: [Rect] = []
        for r in rects {
            guard let v = r.intersection(view), v.width > 0, v.height > 0 else { outside.append(r); continue }
            inside.append(v)
            outside += r.subtracting(v)
        }
        return inside + outside
    }

    func isSmall() -> Bool {
        // Counting points walks every stroke: remembered per stroke count (a guide for how to render, so an
        // eraser cut that changes points but not the count may keep the old answer).
        let d = session.document
        let strokes = d.strokeCount
        if strokes > Self.synchronousPoints { return false }
        if let m = smallMemo, m.strokes == strokes { return m.small }
        let small = d.pointCount <= Self.synchronousPoints
        smallMemo = (strokes, small)
        return small
    }

    /// The pages as the cache paints them (a value: safe to hand to a render thread).
    var scene: Scene { Scene(document: session.document, layout: session.layout) }

    /// The current page's origin and clip in view space: where its live strokes and dirty rects go.
    var currentOrigin: Point { session.currentOrigin }
    var currentClip: Rect? { session.currentClip }

    func updateLive(_ c: ScreenCache) {
        let shown = visibleInCache(c)
        c.updateLive(session.liveStrokes + session.othersLive, origin: currentOrigin, clip: currentClip,
                     shownAt: Point(shown.minX, shown.minY))
    }

    /// Adds a stale device rect, merged with a strip it continues (a steady pan uncovers one growing strip,
    /// not many thin ones), and never keeping more than a few rects.
    func addStale(_ r: Rect) {
        for (i, s) in stale.enumerated() {
            let sameColumns = s.minX == r.minX && s.maxX == r.maxX && s.maxY >= r.minY && r.maxY >= s.minY
            let sameRows = s.minY == r.minY && s.maxY == r.maxY && s.maxX >= r.minX && r.maxX >= s.minX
            if sameColumns || sameRows {
                stale[i] = s.union(r)
                return
            }
        }
        stale.append(r)
        if stale.count > 16, let all = Rect.union(of: stale) { stale = [all] }
    }

    /// Device pixels per background patch: small enough that each lands within a few frames (160 rows of a
    /// wide view); a thin strip is one patch, so each stroke across it is shaped once.
    private static let patchPixels = 160.0 * 1920
    /// Device pixels of the visible area rendered as one job after a zoom (a 2560×1600 view).
    private static let viewJobPixels = 2560.0 * 1600

    /// The stale rect to render next: one the user sees first, then the overscan.
    func nextStaleIndex(_ cache: ScreenCache) -> Int? {
        let view = visibleInCache(cache)
        return stale.firstIndex(where: { $0.overlaps(view) }) ?? (stale.isEmpty ? nil : 0)
    }

    /// Where the view lies in the cache's raster (device pixels of the cache's view): the cache's own view,
    /// moved by a pan the raster has not been shifted for yet.
    func visibleInCache(_ c: ScreenCache) -> Rect {
        guard c.transform.zoom == transform.zoom, c.transform.deviceScale == transform.deviceScale else { return c.viewBounds }
        return c.viewBounds.offsetBy((c.transform.offset - transform.offset) * transform.deviceScale)
    }

    /// Starts rendering the next stale patch in the background, one at a time, so the newest view wins.
    func renderNextPatch() {
        guard inFlight == nil, let cache else { return }
        var area: Rect?
        let view = visibleInCache(cache)
        while area == nil, let i = nextStaleIndex(cache) {
            let first = stale.remove(at: i)
            guard let r = first.intersection(cache.bounds), r.width >= 1, r.height >= 1 else { continue }
            if let v = r.intersection(view), v.width >= 1, v.height >= 1 {
                // What the user sees renders as one job on every core: each stroke in view is shaped once, and
                // the sharp picture lands in one piece. The rest of the rect (overscan) stays stale.
                // (At most `viewJobPixels` at once: a huge view renders in a few tall jobs, so the job's own
                // raster stays small next to the cache.)
                let x0 = v.minX.rounded(.down), x1 = v.maxX.rounded(.up), y0 = v.minY.rounded(.down)
                let rows = max(1, (Self.viewJobPixels / (x1 - x0)).rounded(.down))
                let whole = Rect(minX: x0, minY: y0, maxX: x1, maxY: min(v.maxY.rounded(.up), y0 + rows))
                if let done = whole.intersection(r) { stale.insert(contentsOf: r.subtracting(done), at: i) }
                area = whole
                continue
            }
            // Whole device pixels, at most `patchPixels`; the rest stays stale for the next patch.
            let x0 = r.minX.rounded(.down), x1 = r.maxX.rounded(.up), y0 = r.minY.rounded(.down)
            let rows = max(1, (Self.patchPixels / (x1 - x0)).rounded(.down))
            let top = Rect(minX: x0, minY: y0, maxX: x1, maxY: min(r.maxY.rounded(.up), y0 + rows))
            if top.maxY < r.maxY { stale.insert(Rect(minX: r.minX, minY: top.maxY, maxX: r.maxX, maxY: r.maxY), at: i) }
            area = top
        }
        guard let area else { return }
        let gen = renderGeneration
        let cancel = RenderCancellation()
        inFlight = area
        inFlightCancel = cancel
        changedDuringRender = []
        // Outlines shaped for what the user sees are kept for the next zoom or pan; the overscan's are not.
        let inView = area.intersection(view).map { $0.width >= 1 && $0.height >= 1 } ?? false
        viewJobSnapshotPending = inView
        let job = MainLoopHandoff(value: (scene, area, cache.transform, inView))
        let traced = zoomTraceStart
        if let t0 = traced { Trace.write("zoom detail queued=\(Trace.wallMs() - t0) area=\(Int(area.width))x\(Int(area.height)) view=\(inView)") }
        renderQueue.async { [weak self] in
            // The clocks are read only for a traced zoom step (the process CPU clock is a system call).
            let started = traced.map { _ in (wall: Trace.wallMs(), cpu: Trace.processCPUMs()) }
            let patch = try? ScreenCache.renderPatch(job.value.0, area: job.value.1, transform: job.value.2, cancel: cancel,
                                                     keepOutlines: job.value.3) ?? nil
            if let t0 = traced, let started {
                Trace.write("zoom detail started=\(started.wall - t0) rendered=\(Trace.wallMs() - t0) render_cpu=\(Trace.processCPUMs() - started.cpu)")
            }
            let result = MainLoopHandoff(value: patch)
            onMainLoop { self?.patchLanded(result.value, generation: gen) }
        }
    }

    func patchLanded(_ patch: ScreenCache.Frame?, generation: Int) {
        if let t0 = zoomTraceStart { Trace.write("zoom detail landed=\(Trace.wallMs() - t0)") }
        inFlight = nil
        inFlightCancel = nil
        defer { renderNextPatch() }
        guard generation == renderGeneration, let cache, let patch else { return }
        // Nil when the zoom changed meanwhile: the whole view is stale again anyway.
        guard let area = cache.paste(patch) else { return }
        if let t0 = zoomTraceStart { Trace.write("zoom detail pasted=\(Trace.wallMs() - t0)") }
        defer { traceZoomSharpIfDone() }
        // Edits made while it rendered are not in its snapshot: repaint them over it.
        let page = cache.transform.pageRect(fromView: area.scaled(by: 1 / cache.transform.deviceScale))
        for r in changedDuringRender { if let overlap = r.intersection(page) { cache.invalidate(overlap, in: scene) } }
        changedDuringRender = []
        redraw()
    }

    /// The patch being rendered is of no use any more (another zoom or document): stop it early.
    func cancelInFlight() {
        inFlightCancel?.cancel()
    }

    func abandonRender() {
        cancelInFlight()
        renderGeneration += 1
        stale = []
        changedDuringRender = []
    }

    /// Everything in the cache's reach: a layer shown, hidden, moved or deleted changes whole pages. What the user
    /// sees at once for a small drawing, else as background patches like any stale area.
    func repaintReach() {
        guard let c = cache else { return }
        if isSmall() {
            repaintSeenNow([c.bounds], c)
        } else {
            addStale(c.bounds)
        }
        renderNextPatch()
    }

    /// Repaints `rect` of the current page.
    func repaint(_ rect: Rect?) {
        guard let rect else { return }
        repaintNow(rect.offsetBy(currentOrigin))
    }

    /// Repaints `r` (the scene's space) in the cache at once; a patch rendering meanwhile, from a snapshot without
    /// this change, has it repainted over it when it lands.
    private func repaintNow(_ r: Rect) {
        if inFlight != nil { changedDuringRender.append(r) }
        cache?.invalidate(r, in: scene)
    }
}

extension Rect {
    /// Shares some area with `o` (touching edges do not count).
    func overlaps(_ o: Rect) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
    /// This rect without `hole` (which lies inside it): up to four non-overlapping bands.
    func subtracting(_ hole: Rect) -> [Rect] {
        var out: [Rect] = []
        if hole.minY > minY { out.append(Rect(minX: minX, minY: minY, maxX: maxX, maxY: hole.minY)) }
        if hole.maxY < maxY { out.append(Rect(minX: minX, minY: hole.maxY, maxX: maxX, maxY: maxY)) }
        if hole.minX > minX { out.append(Rect(minX: minX, minY: hole.minY, maxX: hole.minX, maxY: hole.maxY)) }
        if hole.maxX < maxX { out.append(Rect(minX: hole.maxX, minY: hole.minY, maxX: maxX, maxY: hole.maxY)) }
        return out
    }
    func scaled(by k: Double) -> Rect { Rect(minX: minX * k, minY: minY * k, maxX: maxX * k, maxY: maxY * k) }
}

/// Lets a background callback reach a canvas without keeping it alive.
private final class WeakCanvas {
    weak var canvas: CanvasView?
    init(_ c: CanvasView) { canvas = c }
}
