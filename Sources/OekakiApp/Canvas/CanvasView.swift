import CGtk
import Dispatch
import Foundation
import InkCore
import InkRender

/// What the canvas shows and where: the view transform (view space → widget) and the widget's size. The canvas
/// owns it; `CanvasInput` reads it to place a sample in view space (and size the radii a sample carries).
final class Viewport {
    /// The view the user asked for; the cache may still hold an older one while a new one renders.
    var transform = ViewTransform()
    var size = Size(width: 1, height: 1)
}

/// The drawing surface: a GtkDrawingArea compositing InkRender's screen cache (finished strokes in one raster,
/// live strokes drawn segment by segment). It renders the `SessionUpdate`s its session hands forward and holds
/// no document state: input goes from `CanvasInput` to the session, never through here.
/// Render scheduling is in `CanvasView+Rendering.swift`, pans, zooms and page scrolling in
/// `CanvasView+Navigation.swift`, the selection's frame and dragged layer in `CanvasView+Selection.swift`.
final class CanvasView: CanvasNavigation {
    /// Drawings up to this many points re-render a zoom at once (a few milliseconds on two cores, well within
    /// a frame); larger ones show the old picture scaled and render patches in the background.
    static let synchronousPoints = 10_000
    /// Device pixels rendered beyond each edge of the view (`ScreenCache.viewOverscan`).
    static let overscan = ScreenCache.viewOverscan
    /// A pan only moves where the raster is composited while the view keeps this much ready ink (device pixels)
    /// beyond each edge; then the pixels shift once to centre the view and the uncovered margin, a strip at
    /// least `recentreDistance` thick, is rendered in the background. Nothing is rendered after a pan that stayed
    /// inside (no CPU once the hand stops), and each stroke across a strip is shaped once per strip rather than
    /// once per event.
    static let readyMargin = 128.0
    static var recentreDistance: Double { Double(overscan) - readyMargin }

    let widget: Widget
    /// The ink being drawn, over the canvas in a widget of its own (the window stacks it just above `widget`).
    let liveInk = CanvasPatch()
    /// The eraser's outline while the pointer hovers (or erases): moving it repaints its box, not the window.
    let eraserRing = CanvasPatch()
    /// The laser's glowing, fading ink (this user's and others'), over everything else: it moves and fades every
    /// frame while it shows, which then repaints its box, not the window.
    let laserInk = CanvasPatch()
    /// The last canvas frame drew the live ink itself (something was drawn over it, or it multiplied the ink under it).
    private var canvasDrewLiveInk = false
    let session: DocumentSession
    let viewport = Viewport()
    var transform: ViewTransform {
        get { viewport.transform }
        set { viewport.transform = newValue }
    }
    var size: Size {
        get { viewport.size }
        set { viewport.size = newValue }
    }
    var cache: ScreenCache?
    private var input: CanvasInput?
    /// The bench's latency trace watches the frame clock (connected at the first frame, when there is one).
    private var watchingPaint = false
    /// Pointer position in view units while over the canvas, to outline the eraser.
    private var hoverPoint: Point?
    /// The pointer is a stylus's eraser end: the outline shows the stroke eraser it will use.
    private var hoverEraserEnd = false

    // Background rendering of what the cache lacks (large drawings only): `CanvasView+Rendering.swift`.
    let renderQueue = DispatchQueue(label: "oekaki.view-render", qos: .userInitiated)
    /// Bumped when another document is shown: patches of the old one are dropped.
    var renderGeneration = 0
    /// Device rects of the cache still showing a preview or nothing, to render next.
    var stale: [Rect] = []
    /// The device rect of the patch being rendered, if any, and how to abandon it.
    var inFlight: Rect?
    var inFlightCancel: RenderCancellation?
    /// A job rendering what the user sees is in flight and the raster has not been let go of by GTK's last frame
    /// since it started (see `draw`).
    var viewJobSnapshotPending = false
    /// Page areas changed while a patch was rendering, repainted onto it when it lands.
    var changedDuringRender: [Rect] = []
    /// When the last zoom step began (traced only): its first frame and its sharp picture are logged.
    var zoomTraceStart: Double?
    var zoomTraceCPU = 0.0
    /// The GTK thread's own CPU clock at the zoom event (µs): what the step costs it (preview, frames, paste).
    var zoomTraceThreadCPU = 0.0
    var zoomPreviewTraced = false
    /// A document with fixed pages opens with its page centred across the view. The view's width is known
    /// only when frames are drawn (and may still change as the window settles), so every frame centres it
    /// again until the user moves the view.
    var centrePending = true
    /// Pans move the view by whole device pixels (so the picture can simply shift); the fractions add up here.
    var panRemainder = Point(0, 0)
    var smallMemo: (strokes: Int, small: Bool)?
    /// Traced only: the first PDF tile landed; the next complete frame shows it.
    var pdfShownPending = false
    /// The window's renderer is written to the trace once, at the first frame (tests check software GL is avoided).
    private var rendererTraced = false
    var pdfShownTraced = false
    /// The selected ink while it is dragged, rendered once (`CanvasView+Selection.swift`).
    var dragLayer: SelectionLayer?
    /// The search bar's hits in page order, marked on their pages (`CanvasView+Search.swift`), and the current one.
    var searchHits: [SearchHit] = [] { didSet { redraw() } }
    var currentSearchHit: Int? { didSet { redraw() } }

    /// Called after every frame while a text box is being typed (the field follows pans and zooms).
    var onViewDrawn: (() -> Void)?
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
    /// What the stylus's eraser end and barrel buttons do.
    var stylus: StylusButtons {
        get { input?.stylus ?? StylusButtons() }
        set { input?.stylus = newValue }
    }
    var spaceHeld: Bool {
        get { input?.spaceHeld ?? false }
        set {
            input?.spaceHeld = newValue
            widget.setCursor(newValue ? "grab" : "crosshair")
        }
    }
    var onPenSeen: (() -> Void)? {
        get { input?.onPenSeen }
        set { input?.onPenSeen = newValue }
    }

    init(session: DocumentSession) {
        self.session = session
        widget = Widgets.drawingArea()
        widget.expand()
        widget.setFocusable(true)
        widget.setCursor("crosshair")
        setDrawFunction(widget) { [weak self] cr, w, h in self?.draw(cr, width: Int(w), height: Int(h)) }
        liveInk.draw = { [weak self] cr in self?.drawLiveInk(cr) }
        eraserRing.draw = { [weak self] cr in Trace.measure("eraser frame") { self?.drawEraserOutline(cr) } }
        laserInk.draw = { [weak self] cr in Trace.measure("laser frame") { self?.drawLaser(cr) } }
        widget.onPropertyChange("scale-factor") { [weak self] in self?.redraw() }
        input = CanvasInput(area: widget, viewport: viewport, sink: session)
        input?.navigation = self
        session.follow { [weak self] u in self?.render(u) }
        watchPDFTiles()
    }

    deinit { PDFPageRasters.shared.removeObserver(self) }

    func redraw() {
        widget.queueDraw()
        placeLiveInk()
        placeEraserRing()
        placeLaser()
    }

    /// Something is drawn over the ink in the canvas (search marks, a selection or lasso, guides, presenting's
    /// black bands): the live ink is then drawn in the canvas, under them, as finished ink is. (The laser is over
    /// everything, in its own patch.)
    private var somethingOverTheInk: Bool {
        !searchHits.isEmpty || session.selectionPath.count > 1 || selectionFrame != nil || session.drag != nil || dragLayer != nil
            || !session.teaching.guides.isEmpty || session.teaching.presenting
    }

    /// The live ink goes in its own layer: nothing is drawn over it, and it does not multiply the ink under it (a
    /// highlighter drawn whole), which only one picture holding both can show.
    private var liveInkApart: Bool { !somethingOverTheInk && !(cache?.liveMultiplies ?? false) }

    /// Puts the live ink layer over where the live ink lies, in the canvas's logical pixels, and repaints it.
    private func placeLiveInk() {
        guard liveInkApart, let c = cache, let a = c.liveArea else { return liveInk.show(nil, on: size) }
        var r = a.scaled(by: 1 / c.transform.deviceScale)
        if let (k, d) = cacheToView { r = r.scaled(by: k).offsetBy(d) }
        liveInk.show(r.insetBy(-1), on: size)
    }

    /// While a new view renders, the cache's picture is shown moved and scaled to where it belongs: by this scale
    /// and then this offset (logical pixels); nil when the cache holds the view shown.
    private var cacheToView: (scale: Double, offset: Point)? {
        guard let c = cache, c.transform.zoom != transform.zoom || c.transform.offset != transform.offset else { return nil }
        let k = transform.zoom / c.transform.zoom
        return (k, Point(transform.offset.x - c.transform.offset.x * k, transform.offset.y - c.transform.offset.y * k))
    }

    /// While a new view is still rendering, the old raster (and the live ink on it) is shown moved and scaled to
    /// where it belongs.
    private func placeCache(_ cr: CairoContext) {
        guard let (k, d) = cacheToView else { return }
        cr.translate(d.x, d.y)
        cr.scale(k, k)
    }

    /// Only the live ink changed (a pen, finger or mouse moving while it draws, someone's ink in progress on the
    /// board) and it is drawn apart, now and in the canvas's last frame: the canvas keeps its picture.
    private func onlyLiveInkChanged(_ u: SessionUpdate) -> Bool {
        u.keepsTheCanvas && liveInkApart && !canvasDrewLiveInk
    }

    /// Keys go to the canvas (Space, the tool keys) once typing or a dialog is done.
    func focus() { widget.grabFocus() }

    // MARK: updates

    /// Shows what a session call changed: another document from scratch, pages laid out again with the current
    /// page kept still, committed edits baked or repainted, live strokes, the selection and its gestures.
    func render(_ update: SessionUpdate) {
        if update.pointersCancelled { input?.cancelStrokes() }
        if update.documentReplaced { return showAnew() }
        // Pages added, removed, moved or reformatted (or the view switched to or from an endless page): the
        // pages sit elsewhere, so nothing cached is valid. Only another current page in the same stack is not.
        if let (old, pages) = update.relaidFrom {
            // The page now current stays where it was on screen when the pages around it change.
            if let i = pages.firstIndex(of: session.page.id) {
                let before = old.origin(ofPage: i)
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
        if update.edit.pagesChanged { reveal(session.currentPage) }
        for change in update.edit.changes {
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
        if update.edit.changes.isEmpty, update.drawingChanged { repaint(update.edit.dirty) }
        if update.layersChanged || update.filesArrived { repaintReach() }
        for r in update.repaint { repaint(r) }
        if update.gestureChanged { followDrag() }
        if let c = cache { updateLive(c) }
        if update.scrollToCurrentPage { scrollToTop(of: session.currentPage) }
        if update.laserChanged, update.keepsTheCanvas {
            // Laser events and the fade's ticks: only the laser's patch (the ink in progress is other events').
            placeLaser()
        } else if onlyLiveInkChanged(update) {
            placeLiveInk()
        } else {
            redraw()
        }
    }

    /// Another document: 100 %, its current page's corner at the top left, nothing cached.
    private func showAnew() {
        transform = ViewTransform(deviceScale: transform.deviceScale)
        cache = nil
        smallMemo = nil
        dragLayer = nil
        abandonRender()
        // The outlines kept for the next zoom are the old document's (another window's only miss once).
        ScreenCache.forgetShapedOutlines()
        if let f = session.currentClip { transform.offset = Point(-f.minX, -f.minY) }
        centrePending = true
        onZoom?(transform.zoom)
        redraw()
    }

    /// A new stroke can simply be drawn on top only if nothing later lies above it.
    private func isTopmost(_ s: Stroke) -> Bool {
        // Ink on a shown layer above the current one covers it.
        let layers = session.layers
        if layers[min(session.currentLayer + 1, layers.count)...].contains(where: { $0.visible && !$0.drawing.strokes.isEmpty }) { return false }
        guard let last = session.drawing.strokes.last else { return false }
        return !s.drawsBefore(last)
    }

    /// The tool changed: the eraser outline appears or goes.
    func toolChanged() { redraw() }

    /// Forgets strokes in progress in the input (Escape): a pointer draws again only after it is lifted.
    func forgetPointers() { input?.cancelStrokes() }

    // MARK: drawing

    private func draw(_ cr: CairoContext, width: Int, height: Int) {
        let f0 = zoomTraceStart.map { Trace.wallMs() - $0 }
        Trace.measure("frame") { drawFrame(cr, width: width, height: height) }
        traceInkDrawn()
        if Trace.isOn, !rendererTraced {
            rendererTraced = true
            Trace.write("renderer \(GtkRenderer.name(drawing: widget) ?? "none")")
        }
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

    private func drawFrame(_ cr: CairoContext, width: Int, height: Int) {
        size = Size(width: Double(width), height: Double(height))
        transform.deviceScale = Double(max(widget.scaleFactor, 1))
        if session.teaching.presenting { fitPresentedPage() } else if centrePending { centrePageAcross() }
        prepareCache()

        // Grey around the page (darker with a dark style; black when presenting), the page's own colour on it;
        // the cache adds the ink.
        let desk = session.teaching.presenting ? 0 : dark ? 0.2 : 0.82
        cr.setSource(red: desk, green: desk, blue: desk + 0.01)
        cr.paint()
        // Paper under the raster too, so an area still rendering looks like blank paper: everywhere for an
        // endless page, else on each page in view.
        let layout = session.layout, document = session.document
        if layout.isCanvas {
            let bg = session.page.background.paper.unit
            cr.setSource(red: bg.r, green: bg.g, blue: bg.b)
            cr.paint()
        } else {
            let view = transform.pageRect(fromView: Rect(x: 0, y: 0, width: size.width, height: size.height))
            for i in layout.visible(view) {
                guard let f = layout.frame(ofPage: i), document.pages.indices.contains(i) else { continue }
                let bg = document.pages[i].background.paper.unit
                let r = transform.viewRect(fromPage: f)
                cr.setSource(red: bg.r, green: bg.g, blue: bg.b)
                cr.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
                cr.fill()
            }
        }

        guard let cache else { return }
        cr.save()
        placeCache(cr)
        // The live ink is its layer's, above, unless it cannot be drawn apart.
        canvasDrewLiveInk = !liveInkApart
        if canvasDrewLiveInk { cache.draw(into: cr) } else { cache.drawFinished(into: cr) }
        cr.restore()
        drawSearchHits(cr)
        drawSelection(cr)
        drawTeaching(cr)
    }

    /// The live ink layer's frame: the live strokes where the canvas's picture puts them.
    private func drawLiveInk(_ cr: CairoContext) {
        guard let c = cache, !canvasDrewLiveInk else { return }
        Trace.measure("ink frame") {
            cr.save()
            placeCache(cr)
            c.drawLive(into: cr)
            cr.restore()
        }
        traceInkDrawn()
    }

    /// The bench's pen latency: a frame that drew ink shows the motion events handled before it.
    private func traceInkDrawn() {
        guard Trace.isOn else { return }
        InkLatency.canvasDrawn()
        if !watchingPaint { watchingPaint = afterEveryPaint(of: widget) { InkLatency.framePainted(nowMs: monotonicMs(), frameStartMs: $0) } }
    }

    /// Where the eraser's outline is (view point and radius), nil when no eraser hovers.
    private var eraserOutline: (center: Point, radius: Double)? {
        guard session.tool.isEraser || hoverEraserEnd, let p = hoverPoint else { return nil }
        let width = hoverEraserEnd ? session.styles[.strokeEraser]?.width ?? session.style.width : session.style.width
        return (p, max(width * transform.zoom / 2, 1.5))
    }

    /// Puts the eraser's patch over its outline (its line and a pixel more), or hides it.
    private func placeEraserRing() {
        guard let (p, r) = eraserOutline else { return eraserRing.show(nil, on: size) }
        eraserRing.show(Rect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r).insetBy(-2), on: size)
    }

    /// A thin circle the size of the eraser, so the user sees what it will touch.
    private func drawEraserOutline(_ cr: CairoContext) {
        guard let (p, r) = eraserOutline else { return }
        cr.save()
        cr.setLineWidth(1)
        cr.arc(Point(p.x, p.y), radius: r)
        cr.setSource(red: 1, green: 1, blue: 1, alpha: 0.9)
        cr.stroke(keepPath: true)
        cr.setDash([3, 3], offset: 0)
        cr.setSource(red: 0.1, green: 0.1, blue: 0.1, alpha: 0.9)
        cr.stroke()
        cr.restore()
    }

    // MARK: CanvasNavigation

    func hover(atView point: Point?, eraserEnd: Bool) {
        let was = (hoverPoint, hoverEraserEnd)
        hoverPoint = point
        hoverEraserEnd = eraserEnd
        if session.tool.isEraser || eraserEnd || was.1, was.0 != point || was.1 != eraserEnd { placeEraserRing() }
    }
}
