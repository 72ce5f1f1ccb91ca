import CGtk
import Dispatch
import Foundation
import InkCore
import InkRender

/// The drawing surface: a GtkDrawingArea compositing InkRender's screen cache (finished strokes in one
/// raster, live strokes drawn segment by segment), feeding input to the editor and reporting every change.
final class CanvasView: CanvasInputTarget {
    /// Drawings up to this many points re-render a zoom at once (a few milliseconds on two cores, well within
    /// a frame); larger ones show the old picture scaled and render patches in the background.
    static let synchronousPoints = 10_000
    /// Device pixels rendered beyond each edge of the view, so a pan shows ink that is already there.
    static let overscan = 256
    /// A pan only moves where the raster is composited until the view has travelled this far (device
    /// pixels) from the raster's centre; then the pixels shift once and the uncovered margin, a strip at least
    /// this thick, is rendered in the background. Per event that is a blit, whatever the drawing holds, and
    /// each stroke across a strip is shaped once per strip rather than once per event.
    static let recentreDistance = 128.0

    let widget: Widget
    private(set) var editor: Editor
    /// The view the user asked for; the cache may still hold an older one while a new one renders.
    private(set) var transform = ViewTransform()
    var cache: ScreenCache?
    private(set) var size = Size(width: 1, height: 1)
    private var input: CanvasInput?
    /// Pointer position in view units while over the canvas, to outline the eraser.
    private var hoverPoint: Point?
    /// The pointer is a stylus's eraser end: the outline shows the stroke eraser it will use.
    private var hoverEraserEnd = false

    // Background rendering of what the cache lacks (large drawings only).
    private let renderQueue = DispatchQueue(label: "oekaki.view-render", qos: .userInitiated)
    /// Bumped when another document is shown: patches of the old one are dropped.
    private var renderGeneration = 0
    /// Device rects of the cache still showing a preview or nothing, to render next.
    private var stale: [Rect] = []
    /// The device rect of the patch being rendered, if any, and how to abandon it.
    private var inFlight: Rect?
    private var inFlightCancel: RenderCancellation?
    /// A job rendering what the user sees is in flight and the raster has not been let go of by GTK's last frame
    /// since it started (see `draw`).
    private var viewJobSnapshotPending = false
    /// Page areas changed while a patch was rendering, repainted onto it when it lands.
    private var changedDuringRender: [Rect] = []
    /// When the last zoom step began (traced only): its first frame and its sharp picture are logged.
    private var zoomTraceStart: Double?
    private var zoomTraceCPU = 0.0
    /// The GTK thread's own CPU clock at the zoom event (µs): what the step costs it (preview, frames, paste).
    private var zoomTraceThreadCPU = 0.0
    private var zoomPreviewTraced = false
    /// A document with fixed pages opens with its page centred across the view. The view's width is known
    /// only when frames are drawn (and may still change as the window settles), so every frame centres it
    /// again until the user moves the view.
    private var centrePending = true
    /// Pans move the view by whole device pixels (so the picture can simply shift); the fractions add up here.
    private var panRemainder = Point(0, 0)
    private var smallMemo: (strokes: Int, small: Bool)?
    /// Where the pages sit in view space (the transform maps view space to the widget).
    private(set) var layout = PageLayout(document: Document(), current: 0)
    /// What the layout was made from: pages (ids and formats) and the canvas page, to notice when it changes.
    private var layoutKey: [PageLayoutKey] = []

    /// The current page or the page count changed: (index, count).
    var onPage: ((Int, Int) -> Void)?

    /// A selection being dragged, resized or turned (see `CanvasView+Selection.swift`).
    var selectionDrag: SelectionDrag?
    /// The loop or box a selection tool is drawing, in page units, shown while it is drawn.
    var selectionPath: [Point] = []
    /// The selection changed (the window enables its commands).
    var onSelectionChanged: (() -> Void)?
    /// A right-click or long-press on the selection, at this view point: the window opens its menu.
    var onContextMenu: ((Point) -> Void)?

    /// A click with the text tool, or a double-click on a text box with a selection tool (page point): the window
    /// places or opens a box there.
    var onTextTap: ((Point) -> Void)?
    /// Called after every frame while a text box is being typed (the field follows pans and zooms).
    var onViewDrawn: (() -> Void)?
    /// Pointers whose press went to the text tool: the rest of their gesture is theirs too.
    private var textPointers = Set<PointerID>()
    private var lastPress: (time: Double, point: Point)?

    /// Changes to persist, in order (wired to autosave).
    var onChanges: (([Change]) -> Void)?
    /// A pointer goes down: the place to make sure earlier strokes are durable.
    var onStrokeBegins: (() -> Void)?
    /// The drawing or its history changed (undo/redo availability).
    var onEdit: (() -> Void)?
    /// The zoom changed.
    var onZoom: ((Double) -> Void)?
    /// The desktop prefers a dark style: the desk around the page darkens; the page and the ink never change.
    var dark = false {
        didSet { if dark != oldValue { redraw() } }
    }

    var touchMode: TouchMode {
        get { input?.touchMode ?? .draw }
        set { input?.touchMode = newValue }
    }
    var spaceHeld: Bool {
        get { input?.spaceHeld ?? false }
        set {
            input?.spaceHeld = newValue
            gtk_widget_set_cursor_from_name(widget, newValue ? "grab" : "crosshair")
        }
    }

    init(editor: Editor) {
        self.editor = editor
        // The document's pictures, drawable by hash (decoded on first sight, then cached).
        ImagePainter.shared.provide(editor.document.files)
        widget = gtk_drawing_area_new()
        gtk_widget_set_hexpand(widget, 1)
        gtk_widget_set_vexpand(widget, 1)
        gtk_widget_set_focusable(widget, 1)
        gtk_widget_set_cursor_from_name(widget, "crosshair")
        setDrawFunction(widget) { [weak self] cr, w, h in self?.draw(cr, width: Int(w), height: Int(h)) }
        connectNotify(gobject(widget), property: "scale-factor") { [weak self] in self?.redraw() }
        input = CanvasInput(area: widget)
        input?.target = self
        relayout()
        watchPDFTiles()
    }

    deinit { PDFPageRasters.shared.removeObserver(self) }

    /// Traced only: the first PDF tile landed; the next complete frame shows it.
    private var pdfShownPending = false
    private var pdfShownTraced = false

    /// PDF page tiles render in the background (`PDFPageRasters`); each that lands repaints the pages showing one.
    private func watchPDFTiles() {
        let canvas = MainLoopHandoff(value: WeakCanvas(self))
        PDFPageRasters.shared.addObserver(self) { _ in onMainLoop { canvas.value.canvas?.pdfTileLanded() } }
    }

    /// Repaints the PDF pages in the cache's reach (their sharper tiles are now there): at once for a small
    /// drawing, else as background patches like any stale area.
    private func pdfTileLanded() {
        guard let c = cache else { return }
        if Trace.isOn, !pdfShownTraced { pdfShownTraced = true; pdfShownPending = true }
        let t = c.transform
        let reach = t.pageRect(fromView: c.bounds.scaled(by: 1 / t.deviceScale))
        let small = isSmall()
        for sheet in scene.sheets(meeting: reach) where sheet.pdf != nil {
            guard let frame = sheet.clip?.intersection(reach) else { continue }
            if small {
                if inFlight != nil { changedDuringRender.append(frame) }
                c.invalidate(frame, in: scene)
            } else if let device = t.viewRect(fromPage: frame).scaled(by: t.deviceScale).intersection(c.bounds) {
                addStale(device)
            }
        }
        renderNextPatch()
        redraw()
    }

    /// Shows another document at 100 %.
    func show(_ editor: Editor) {
        input?.cancelStrokes()
        self.editor = editor
        ImagePainter.shared.provide(editor.document.files)
        transform = ViewTransform(deviceScale: transform.deviceScale)
        cache = nil
        smallMemo = nil
        abandonRender()
        // The outlines kept for the next zoom are the old document's (another window's only miss once).
        ScreenCache.forgetShapedOutlines()
        relayout()
        if let f = layout.frame(ofPage: editor.currentPage) { transform.offset = Point(-f.minX, -f.minY) }
        centrePending = true
        onZoom?(transform.zoom)
        onEdit?()
        redraw()
    }

    /// Moves the view sideways so the current fixed page sits in the middle (when it is narrower than the
    /// view; a wider page keeps its left edge at the view's). Whole device pixels, so the picture stays crisp.
    private func centrePageAcross() {
        guard !layout.isCanvas, let f = layout.frame(ofPage: editor.currentPage) else { return }
        let width = f.width * transform.zoom
        guard width < size.width else { return }
        let ds = transform.deviceScale
        transform.offset.x = (((size.width - width) / 2 - f.minX * transform.zoom) * ds).rounded() / ds
    }

    func redraw() { gtk_widget_queue_draw(widget) }

    // MARK: drawing

    private func draw(_ cr: OpaquePointer, width: Int, height: Int) {
        let f0 = zoomTraceStart.map { Trace.wallMs() - $0 }
        Trace.measure("frame") { drawFrame(cr, width: width, height: height) }
        if let f0, let t0 = zoomTraceStart { Trace.write("zoom detail frame=\(f0)..\(Trace.wallMs() - t0)") }
        // The first frame showing a rendered PDF tile, as wall-clock time (the bench subtracts its spawn time).
        if pdfShownPending, stale.isEmpty, inFlight == nil {
            pdfShownPending = false
            Trace.write("pdf first_page epoch_ms=\(Int((Date().timeIntervalSince1970 * 1000).rounded()))")
        }
        // GTK's frame keeps a copy-on-write snapshot of the raster, so the first write after a frame (the paste of
        // the job's pixels) copies the whole raster first, 2-5 ms with both cores idle. While the view's job
        // renders, the GTK thread has nothing else to do: the copy is made now, beside the render, once.
        if viewJobSnapshotPending, inFlight != nil {
            viewJobSnapshotPending = false
            onMainLoop { [weak self] in self?.cache?.detachFromFrames() }
        }
        // The text field follows the view, after this frame (no relayout inside a draw).
        if let follow = onViewDrawn { onMainLoop(follow) }
        if let t0 = zoomTraceStart {
            if !zoomPreviewTraced { zoomPreviewTraced = true; Trace.write("zoom preview_ms=\(Trace.wallMs() - t0)") }
            traceZoomSharpIfDone()
        }
    }

    /// Logs how long the last zoom step took to become sharp, once nothing is left to render.
    private func traceZoomSharpIfDone() {
        guard let t0 = zoomTraceStart, let c = cache, c.transform.zoom == transform.zoom else { return }
        let view = visibleInCache(c)
        guard !stale.contains(where: { $0.overlaps(view) }), !(inFlight?.overlaps(view) ?? false) else { return }
        Trace.write("zoom sharp_ms=\(Trace.wallMs() - t0)")
        Trace.write("zoom cpu_ms=\(Trace.processCPUMs() - zoomTraceCPU)")
        Trace.write("zoom gtk_cpu_ms=\((Trace.threadCPUMicros() - zoomTraceThreadCPU) / 1000)")
        zoomTraceStart = nil
    }

    private func drawFrame(_ cr: OpaquePointer, width: Int, height: Int) {
        size = Size(width: Double(width), height: Double(height))
        transform.deviceScale = Double(max(gtk_widget_get_scale_factor(widget), 1))
        if centrePending { centrePageAcross() }
        prepareCache()

        // Grey around the page (darker with a dark style), the page's own colour on it; the cache adds the ink.
        let desk = dark ? 0.2 : 0.82
        cairo_set_source_rgb(cr, desk, desk, desk + 0.01)
        cairo_paint(cr)
        // Paper under the raster too, so an area still rendering looks like blank paper: everywhere for an
        // endless page, else on each page in view.
        if layout.isCanvas {
            let bg = editor.page.background.paper.unit
            cairo_set_source_rgb(cr, bg.r, bg.g, bg.b)
            cairo_paint(cr)
        } else {
            let view = transform.pageRect(fromView: Rect(x: 0, y: 0, width: size.width, height: size.height))
            for i in layout.visible(view) {
                guard let f = layout.frame(ofPage: i), editor.document.pages.indices.contains(i) else { continue }
                let bg = editor.document.pages[i].background.paper.unit
                let r = transform.viewRect(fromPage: f)
                cairo_set_source_rgb(cr, bg.r, bg.g, bg.b)
                cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
                cairo_fill(cr)
            }
        }

        guard let cache else { return }
        cairo_save(cr)
        if cache.transform.zoom != transform.zoom || cache.transform.offset != transform.offset {
            // A new view is still rendering: show the old raster moved and scaled to where it belongs.
            let k = transform.zoom / cache.transform.zoom
            cairo_translate(cr, transform.offset.x - cache.transform.offset.x * k, transform.offset.y - cache.transform.offset.y * k)
            cairo_scale(cr, k, k)
        }
        cache.draw(into: CairoContext(borrowing: cr))
        cairo_restore(cr)
        drawSelection(cr)
        drawEraserOutline(cr)
    }

    /// A thin circle the size of the eraser, so the user sees what it will touch.
    private func drawEraserOutline(_ cr: OpaquePointer) {
        guard editor.tool.isEraser || hoverEraserEnd, let p = hoverPoint else { return }
        let width = hoverEraserEnd ? editor.styles[.strokeEraser]?.width ?? editor.style.width : editor.style.width
        let r = max(width * transform.zoom / 2, 1.5)
        cairo_save(cr)
        cairo_set_line_width(cr, 1)
        cairo_arc(cr, p.x, p.y, r, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        cairo_stroke_preserve(cr)
        cairo_set_dash(cr, [3, 3], 2, 0)
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.9)
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// Makes the cache match the current view without ever waiting for a whole-view render: a pan shifts
    /// the picture and leaves only the uncovered strips stale, a zoom or resize keeps the old picture scaled
    /// as a preview. Small drawings repaint what is stale at once; large ones render it in patches off the
    /// GTK thread, pasted in as they land (and still valid if the view panned meanwhile).
    private func prepareCache() {
        defer { renderNextPatch() }
        if let c = cache, c.transform == transform, c.viewSize == size { return }
        let small = isSmall()
        do {
            guard let c = cache else {
                let c = try ScreenCache(viewSize: size, transform: transform, overscan: Self.overscan)
                cache = c
                if small { c.render(scene) } else { stale = viewFirst([c.bounds], c) }
                updateLive(c)
                return
            }
            let shift = (transform.offset - c.transform.offset) * transform.deviceScale
            let panOnly = c.viewSize == size && c.transform.zoom == transform.zoom && c.transform.deviceScale == transform.deviceScale
            // A short pan of a large drawing: the draw step composites the raster where it now belongs.
            if panOnly, !small, abs(shift.x) <= Self.recentreDistance, abs(shift.y) <= Self.recentreDistance { return }
            if c.viewSize == size, let exposed = c.scroll(to: transform) {
                stale = stale.compactMap { $0.offsetBy(shift).intersection(c.bounds) }
                if small {
                    for r in exposed { c.invalidate(transform.pageRect(fromView: r.scaled(by: 1 / transform.deviceScale)), in: scene) }
                } else {
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
                    guard !small, kept == nil else { return }
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
                }
                let missing = kept.map { c.bounds.subtracting($0) } ?? [c.bounds]
                if small {
                    if kept == nil { c.render(scene) } else {
                        for r in missing { c.invalidate(transform.pageRect(fromView: r.scaled(by: 1 / transform.deviceScale)), in: scene) }
                    }
                    stale = []
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

    /// Each rect cut into its part inside the view, listed first, and its parts in the overscan.
    private func viewFirst(_ rects: [Rect], _ c: ScreenCache) -> [Rect] {
        let view = c.viewBounds
        var inside: [Rect] = [], outside: [Rect] = []
        for r in rects {
            guard let v = r.intersection(view), v.width > 0, v.height > 0 else { outside.append(r); continue }
            inside.append(v)
            outside += r.subtracting(v)
        }
        return inside + outside
    }

    private func isSmall() -> Bool {
        // Counting points walks every stroke: remembered per stroke count (a guide for how to render, so an
        // eraser cut that changes points but not the count may keep the old answer).
        let d = editor.document
        let strokes = d.strokeCount
        if strokes > Self.synchronousPoints { return false }
        if let m = smallMemo, m.strokes == strokes { return m.small }
        let small = d.pointCount <= Self.synchronousPoints
        smallMemo = (strokes, small)
        return small
    }

    /// The pages as the cache paints them (a value: safe to hand to a render thread).
    private var scene: Scene { Scene(document: editor.document, layout: layout) }

    /// The current page's origin and clip in view space: where its input, live strokes and dirty rects go.
    var currentOrigin: Point { layout.origin(ofPage: editor.currentPage) }
    private var currentClip: Rect? { layout.frame(ofPage: editor.currentPage) }

    private func updateLive(_ c: ScreenCache) {
        c.updateLive(editor.liveStrokes + othersLive, origin: currentOrigin, clip: currentClip)
    }

    /// Lays the pages out again if they changed; true when it did (everything cached is then stale).
    @discardableResult
    private func relayout() -> Bool {
        let key = PageLayoutKey.of(editor)
        guard key != layoutKey else { return false }
        layoutKey = key
        layout = PageLayout(document: editor.document, current: editor.currentPage)
        return true
    }

    /// Adds a stale device rect, merged with a strip it continues (a steady pan uncovers one growing strip,
    /// not many thin ones), and never keeping more than a few rects.
    private func addStale(_ r: Rect) {
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
    private func nextStaleIndex(_ cache: ScreenCache) -> Int? {
        let view = visibleInCache(cache)
        return stale.firstIndex(where: { $0.overlaps(view) }) ?? (stale.isEmpty ? nil : 0)
    }

    /// Where the view lies in the cache's raster (device pixels of the cache's view): the cache's own view,
    /// moved by a pan the raster has not been shifted for yet.
    private func visibleInCache(_ c: ScreenCache) -> Rect {
        guard c.transform.zoom == transform.zoom, c.transform.deviceScale == transform.deviceScale else { return c.viewBounds }
        return c.viewBounds.offsetBy((c.transform.offset - transform.offset) * transform.deviceScale)
    }

    /// Starts rendering the next stale patch in the background, one at a time, so the newest view wins.
    private func renderNextPatch() {
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

    private func patchLanded(_ patch: ScreenCache.Frame?, generation: Int) {
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
    private func cancelInFlight() {
        inFlightCancel?.cancel()
    }

    private func abandonRender() {
        cancelInFlight()
        renderGeneration += 1
        stale = []
        changedDuringRender = []
    }

    /// Repaints `rect` of the current page.
    func repaint(_ rect: Rect?) {
        guard let rect else { return }
        let r = rect.offsetBy(currentOrigin)
        if inFlight != nil { changedDuringRender.append(r) }
        cache?.invalidate(r, in: scene)
    }

    // MARK: editing

    /// Applies what an editor call did: paint the cache, persist the changes, redraw.
    func apply(_ update: Update, drawingChanged: Bool = false) {
        // Pages added, removed, moved or reformatted (or the view switched to or from an endless page): the
        // pages sit elsewhere, so nothing cached is valid. Only another current page in the same stack is not.
        if update.pagesChanged {
            // The page now current stays where it was on screen when the pages around it change.
            let id = editor.page.id
            let before = layoutKey.firstIndex { $0.page == id }.map { layout.origin(ofPage: $0) }
            if relayout() {
                if let before {
                    let ds = transform.deviceScale
                    let d = (before - currentOrigin) * (transform.zoom * ds)
                    transform.offset = transform.offset + Point(d.x.rounded(), d.y.rounded()) * (1 / ds)
                }
                if let c = cache {
                    abandonRender()
                    // At the (possibly moved) view, at once: the old pixels show pages that moved.
                    do { try c.setView(transform, viewSize: c.viewSize, scene: scene) } catch { cache = nil }
                }
            }
            reveal(editor.currentPage)
            onPage?(editor.currentPage, editor.document.pages.count)
        }
        for change in update.changes {
            switch change {
            case .did(let edit), .redid(let edit):
                if case .add(let strokes) = edit, strokes.allSatisfy(isTopmost) {
                    for s in strokes {
                        cache?.bake(s, origin: currentOrigin, clip: currentClip)
                        if inFlight != nil, let b = s.inkBounds { changedDuringRender.append(b.offsetBy(currentOrigin)) }
                    }
                } else {
                    repaint(edit.dirtyRect)
                }
            case .undid(let edit):
                repaint(edit.dirtyRect)
            }
        }
        // Erasers change the drawing as they move, before any change is recorded.
        if update.changes.isEmpty, drawingChanged { repaint(update.dirty) }
        if let c = cache { updateLive(c) }
        if !update.changes.isEmpty {
            onChanges?(update.changes)
            onEdit?()
        }
        if update.dirty != nil || !update.changes.isEmpty || update.pagesChanged { redraw() }
    }

    /// A new stroke can simply be drawn on top only if nothing later lies above it.
    private func isTopmost(_ s: Stroke) -> Bool {
        guard let last = editor.drawing.strokes.last else { return false }
        return !s.drawsBefore(last)
    }

    /// Other people's strokes in progress on a shared board (drawn like this user's, in live layers).
    private(set) var othersLive: [Stroke] = []

    func showOthersLive(_ strokes: [Stroke]) {
        guard strokes != othersLive else { return }
        othersLive = strokes
        if let c = cache { updateLive(c) }
        redraw()
    }

    /// Pages and strokes other people changed on a shared board: shown at once, outside this user's history.
    func follow(pages: [(id: PageID, format: PageFormat)]?, shown: [Stroke], removed: [StrokeID]) {
        apply(editor.follow(pages: pages, shown: shown, removed: removed), drawingChanged: true)
        onEdit?()
        redraw()
    }

    // Strokes in progress keep drawing through undo, redo and clear; only Escape discards them.
    func undo() { apply(editor.undo()) }
    func redo() { apply(editor.redo()) }
    func clear() { apply(editor.clear()) }

    /// Escape: strokes in progress vanish and an eraser gesture is put back; nothing is recorded.
    func cancelStrokes() {
        // Escape with nothing in progress clears the selection.
        if editor.liveStrokes.isEmpty, !editor.isErasing, selectionDrag == nil, selectionPath.isEmpty { selectionCommand(.none) }
        cancelSelectionDrag()
        input?.cancelStrokes()
        let erasing = editor.isErasing
        apply(editor.cancelAll(), drawingChanged: erasing)
    }

    // MARK: CanvasInputTarget

    /// Widget point → the current page's coordinates.
    func toPage(_ view: Point) -> Point { transform.pagePoint(fromView: view) - currentOrigin }

    func hover(atView point: Point?, eraserEnd: Bool) {
        let was = (hoverPoint, hoverEraserEnd)
        hoverPoint = point
        hoverEraserEnd = eraserEnd
        if editor.tool.isEraser || eraserEnd || was.1, was.0 != point || was.1 != eraserEnd { redraw() }
    }

    /// The tool changed: the eraser outline appears or goes.
    func toolChanged() { redraw() }

    func constrain(_ on: Bool) { editor.constrainShapes = on }

    var onPenSeen: (() -> Void)? {
        get { input?.onPenSeen }
        set { input?.onPenSeen = newValue }
    }

    func input(_ event: InputEvent, eraserEnd: Bool) {
        Trace.measure("event input") { inputNow(event, eraserEnd: eraserEnd) }
    }

    private func inputNow(_ event: InputEvent, eraserEnd: Bool) {
        var event = event
        if event.phase == .began {
            gtk_widget_grab_focus(widget)
            onStrokeBegins?()
            // A stroke belongs to the page where it began: that page becomes current (unless other pointers
            // are still drawing or erasing on the current one), and the point is re-expressed on it.
            let v = event.point.point + currentOrigin
            let target = layout.page(at: v) ?? layout.nearestPage(to: v)
            if target != editor.currentPage, editor.liveStrokes.isEmpty, !editor.isErasing {
                // In the page's coordinates as placed now: going to an endless page relays the view out, but
                // keeps that page where it is on screen.
                let p = v - layout.origin(ofPage: target)
                apply(editor.goToPage(target))
                event.point.x = p.x; event.point.y = p.y
            }
        }
        if textInput(event, eraserEnd: eraserEnd) { return }
        if editor.tool.isSelection, selectionInput(event) { return }
        let erasing = editor.isErasing
        let chosen = editor.tool
        // A hold is 3 pixels on screen, whatever the zoom.
        editor.holdRadius = 3 / max(transform.zoom, 1e-6)
        // The editor picks the tool when a pointer goes down, so the eraser end needs it only for that event.
        if eraserEnd, event.phase == .began { editor.tool = .strokeEraser }
        if EventRecorder.isOn { EventRecorder.record(event, tool: editor.tool, style: editor.style, recognize: editor.recognizeShapes) }
        let u = editor.handle(event)
        editor.tool = chosen
        apply(u, drawingChanged: erasing || editor.isErasing)
        if chosen.isSelection, !eraserEnd, event.phase == .ended || event.phase == .cancelled { selectionGestureEnded() }
    }

    /// The text tool takes a press (a box is placed or opened where it lands); so does a double-click on a text
    /// box with a selection tool (the first click selected it).
    private func textInput(_ event: InputEvent, eraserEnd: Bool) -> Bool {
        let id = event.pointer
        if textPointers.contains(id) {
            if event.phase == .ended || event.phase == .cancelled { textPointers.remove(id) }
            return true
        }
        guard event.phase == .began, !eraserEnd else { return false }
        let p = event.point.point
        let now = Double(g_get_monotonic_time()) / 1000
        let double = lastPress.map { now - $0.time < 450 && $0.point.distance(to: p) * transform.zoom < 8 } ?? false
        lastPress = (now, p)
        guard editor.tool == .text || (double && editor.tool.isSelection && editor.textBox(at: p) != nil) else { return false }
        textPointers.insert(id)
        if editor.tool != .text { cancelSelectionDrag() }
        onTextTap?(p)
        return true
    }

    func pan(byView delta: Point) {
        centrePending = false
        Trace.measure("event pan") { panNow(byView: delta) }
    }

    private func panNow(byView delta: Point) {
        guard delta.isFinite, delta != Point(0, 0) else { return }
        let ds = transform.deviceScale
        let wanted = delta * ds + panRemainder
        let step = Point(wanted.x.rounded(), wanted.y.rounded())
        panRemainder = wanted - step
        guard step != Point(0, 0) else { return }
        transform = transform.panned(by: step * (1 / ds))
        followViewCentre()
        redraw()
    }

    /// While scrolling a stack, the page under the view's centre becomes current (not while a pointer is
    /// drawing, and never an endless page: that would switch the whole view to it).
    private func followViewCentre() {
        guard !layout.isCanvas, editor.liveStrokes.isEmpty, !editor.isErasing else { return }
        let centre = transform.pagePoint(fromView: Point(size.width / 2, size.height / 2))
        let i = layout.nearestPage(to: centre)
        guard i != editor.currentPage, editor.document.pages.indices.contains(i), !editor.document.pages[i].isEndless else { return }
        _ = editor.goToPage(i)
        onPage?(editor.currentPage, editor.document.pages.count)
    }

    func zoom(by factor: Double, atView anchor: Point) {
        centrePending = false
        if Trace.isOn { zoomTraceStart = Trace.wallMs(); zoomTraceCPU = Trace.processCPUMs(); zoomTraceThreadCPU = Trace.threadCPUMicros(); zoomPreviewTraced = false }
        transform = transform.clampedZoom(by: factor, around: anchor)
        onZoom?(transform.zoom)
        followViewCentre()
        // The sharp render starts now rather than at the next frame (up to a frame later); the frame then
        // shows the scaled preview while it runs.
        if cache != nil { prepareCache() }
        if let t0 = zoomTraceStart { Trace.write("zoom detail prepared=\(Trace.wallMs() - t0)") }
        redraw()
    }

    // MARK: view commands

    func zoom(by factor: Double) {
        zoom(by: factor, atView: Point(size.width / 2, size.height / 2))
    }

    /// Shows the whole current page (an endless page: all its ink).
    func zoomToFit() {
        centrePending = false
        let page = editor.page
        var r = page.frame
        if page.isEndless, page.drawing.bounds == nil {
            r = Rect(x: 0, y: 0, width: page.drawing.pageSize.width, height: page.drawing.pageSize.height)
        }
        transform = transform.fitting(r.offsetBy(currentOrigin), in: size)
        onZoom?(transform.zoom)
        redraw()
    }

    /// 100 % with the current page's corner at the top left.
    func resetZoom() {
        centrePending = false
        transform = ViewTransform(deviceScale: transform.deviceScale)
        let f = currentClip ?? Rect(x: 0, y: 0, width: 0, height: 0)
        transform.offset = Point(-f.minX, -f.minY)
        onZoom?(transform.zoom)
        redraw()
    }

    // MARK: pages

    /// Runs a page command of the editor (add, duplicate, delete, move, format) and shows the result;
    /// `scroll`: show the top of the page it leaves current (a page just added).
    func pageCommand(scroll: Bool = false, _ run: (Editor) -> Update) {
        cancelPointersForPageChange()
        apply(run(editor))
        if scroll { scrollToTop(of: editor.currentPage) }
        onPage?(editor.currentPage, editor.document.pages.count)
    }

    /// Makes page `index` current and scrolls to its top (Ctrl+Page Up/Down, Home/End).
    func showPage(_ index: Int) {
        cancelPointersForPageChange()
        let i = min(max(index, 0), editor.document.pages.count - 1)
        let u = editor.goToPage(i)
        apply(u)
        scrollToTop(of: editor.currentPage)
        onPage?(editor.currentPage, editor.document.pages.count)
    }

    func showPage(by delta: Int) { showPage(editor.currentPage + delta) }

    /// Strokes in progress would land on the wrong page: page commands finish them as Escape does.
    private func cancelPointersForPageChange() {
        if !editor.liveStrokes.isEmpty { cancelStrokes() }
    }

    /// Scrolls so the top of page `i` is at the top of the view (an endless page: its ink's corner), same zoom.
    private func scrollToTop(of i: Int) {
        centrePending = false
        let page = editor.document.pages[i]
        let f = layout.frame(ofPage: i) ?? page.frame.offsetBy(layout.origin(ofPage: i))
        if layout.isCanvas { transform.offset.x = (-f.minX * transform.zoom).rounded() }
        let margin = layout.isCanvas ? 0 : PageLayout.gap / 2 * transform.zoom
        // Only vertically: pages share one column, so the ink stays where the user put it sideways.
        transform.offset.y = (margin - f.minY * transform.zoom).rounded()
        redraw()
    }

    /// Scrolls to page `i` if none of it is in view (after an edit made it current).
    private func reveal(_ i: Int) {
        guard let f = layout.frame(ofPage: i) else { return }
        let view = transform.pageRect(fromView: Rect(x: 0, y: 0, width: size.width, height: size.height))
        if !f.overlaps(view) { scrollToTop(of: i) }
    }
}

/// What a page layout depends on: each page's id and format, and which page an endless view shows.
struct PageLayoutKey: Hashable {
    var page: PageID
    var format: PageFormat
    var canvas: Bool

    static func of(_ editor: Editor) -> [PageLayoutKey] {
        let current = editor.currentPage
        let canvas = editor.page.isEndless
        return editor.document.pages.enumerated().map { i, p in
            PageLayoutKey(page: p.id, format: p.format, canvas: canvas && i == current)
        }
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
