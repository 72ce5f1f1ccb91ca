import InkCore
import InkRender

/// Moving the view: pans and zooms from the input (fingers, wheel, touchpad, keys), fitting a page, and scrolling
/// to a page a command made current. While a stack scrolls, the page under the view's centre becomes current:
/// the view tells the session so, and the session's update comes back forward like any other.
extension CanvasView {
    /// Moves the view sideways so the current fixed page sits in the middle (when it is narrower than the
    /// view; a wider page keeps its left edge at the view's). Whole device pixels, so the picture stays crisp.
    func centrePageAcross() {
        guard !session.layout.isCanvas, let f = session.currentClip else { return }
        let width = f.width * transform.zoom
        guard width < size.width else { return }
        let ds = transform.deviceScale
        transform.offset.x = (((size.width - width) / 2 - f.minX * transform.zoom) * ds).rounded() / ds
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

    /// The page under the view's centre becomes current (the session decides whether it may).
    private func followViewCentre() {
        session.viewCentred(on: transform.pagePoint(fromView: Point(size.width / 2, size.height / 2)))
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

    func zoom(by factor: Double) {
        zoom(by: factor, atView: Point(size.width / 2, size.height / 2))
    }

    /// Shows the whole current page (an endless page: all its ink).
    func zoomToFit() {
        centrePending = false
        let page = session.page
        var r = page.frame
        if page.isEndless, page.bounds == nil {
            r = Rect(x: 0, y: 0, width: page.pageSize.width, height: page.pageSize.height)
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

    /// Scrolls so the top of page `i` is at the top of the view (an endless page: its ink's corner), same zoom.
    func scrollToTop(of i: Int) {
        centrePending = false
        let layout = session.layout
        let page = session.document.pages[i]
        let f = layout.frame(ofPage: i) ?? page.frame.offsetBy(layout.origin(ofPage: i))
        if layout.isCanvas { transform.offset.x = (-f.minX * transform.zoom).rounded() }
        let margin = layout.isCanvas ? 0 : PageLayout.gap / 2 * transform.zoom
        // Only vertically: pages share one column, so the ink stays where the user put it sideways.
        transform.offset.y = (margin - f.minY * transform.zoom).rounded()
        redraw()
    }

    /// Scrolls to page `i` if none of it is in view (after an edit made it current).
    func reveal(_ i: Int) {
        guard let f = session.layout.frame(ofPage: i) else { return }
        let view = transform.pageRect(fromView: Rect(x: 0, y: 0, width: size.width, height: size.height))
        if !f.overlaps(view) { scrollToTop(of: i) }
    }

    /// The part of the current page in view, in its own units (where an inserted picture goes).
    var visiblePageRect: Rect {
        pageView.pageRect(fromView: Rect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// The view transform of the current page: its page coordinates to the widget.
    var pageView: ViewTransform { session.pageView(transform) }

    /// A view point (of the widget) in the current page's units.
    func pagePoint(fromView p: Point) -> Point { pageView.pagePoint(fromView: p) }
}
