import InkCore
import InkSync
import InkRender

/// What the canvas draws for the teaching tools, over the ink each frame: presentation mode's black around the
/// page, and the ruler, set square and compass; and the laser's glow, in a patch of its own over everything.
/// Nothing here is in the screen cache: they move every frame while they move, and cost nothing while nothing
/// shows.
extension CanvasView {
    func drawTeaching(_ cr: CairoContext) {
        session.teaching.viewSize = size
        if session.teaching.presenting, let f = session.currentClip {
            // Only the page being shown: its neighbours' edges are hidden in black.
            let r = transform.viewRect(fromPage: f)
            let w = size.width, h = size.height
            for band in [Rect(minX: 0, minY: 0, maxX: w, maxY: r.minY), Rect(minX: 0, minY: r.maxY, maxX: w, maxY: h),
                         Rect(minX: 0, minY: r.minY, maxX: r.minX, maxY: r.maxY), Rect(minX: r.maxX, minY: r.minY, maxX: w, maxY: r.maxY)]
            where band.width > 0 && band.height > 0 {
                cr.rectangle(band)
            }
            cr.setSource(red: 0, green: 0, blue: 0)
            cr.fill()
        }
        if !session.teaching.guides.isEmpty {
            GuidePainter(handles: session.handles(transform), turning: session.teaching.turning).draw(cr)
        }
    }

    /// Where a laser trail's page points lie in the view; nil when its page is not shown. Others' ink that names no
    /// page lies on this user's current page (an older sender's).
    private var laserPlacement: (Stroke) -> ((Point) -> Point)? {
        let document = session.document, layout = session.layout, origin = currentOrigin, t = transform
        return { stroke in
            if stroke.page == LiveStrokes.anyPage { return { t.viewPoint(fromPage: $0 + origin) } }
            guard let i = document.index(of: stroke.page) else { return nil }
            let o = layout.origin(ofPage: i)
            return { t.viewPoint(fromPage: $0 + o) }
        }
    }

    /// The laser's ink, this user's (fading on the input events' clock) and others' (on this machine's).
    private var laserTrails: [(trails: [LaserPointer.Trail], now: Double)] {
        [(session.laser.trails, session.teaching.eventNow ?? 0), (session.teaching.othersLaser, TeachingState.monotonicMs)]
            .filter { !$0.trails.isEmpty }
    }

    /// Puts the laser's patch over where its ink glows (view pixels, the glow included), or hides it.
    func placeLaser() {
        let place = laserPlacement
        var box: Rect?
        for (trails, now) in laserTrails {
            for trail in trails where trail.opacity(at: now) > 0 {
                guard let map = place(trail.stroke) else { continue }
                let reach = LaserPainter.reach(of: trail.stroke, zoom: transform.zoom)
                for p in trail.stroke.points {
                    let r = Rect(around: map(p.point), radius: reach)
                    box = box.map { $0.union(r) } ?? r
                }
            }
        }
        laserInk.show(box, on: size)
    }

    func drawLaser(_ cr: CairoContext) {
        let place = laserPlacement
        for (trails, now) in laserTrails { LaserPainter.draw(cr, trails, now: now, zoom: transform.zoom, place: place) }
    }

    /// Presentation mode: the current page fitted to the view, centred, on whole device pixels.
    func fitPresentedPage() {
        guard let f = session.currentClip, f.width > 0, f.height > 0, size.width > 1, size.height > 1 else { return }
        let zoom = min(size.width / f.width, size.height / f.height)
        let ds = transform.deviceScale
        func snap(_ v: Double) -> Double { (v * ds).rounded() / ds }
        let offset = Point(snap((size.width - f.width * zoom) / 2 - f.minX * zoom), snap((size.height - f.height * zoom) / 2 - f.minY * zoom))
        guard transform.zoom != zoom || transform.offset != offset else { return }
        // The guides stay where they are on screen as the pages turn under them.
        let middle = Point(size.width / 2, size.height / 2)
        let before = transform.pagePoint(fromView: middle)
        transform.zoom = zoom
        transform.offset = offset
        session.teaching.guides = session.teaching.guides.offset(by: transform.pagePoint(fromView: middle) - before)
        centrePending = false
        onZoom?(zoom)
    }
}
