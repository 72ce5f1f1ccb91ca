import InkCore
import InkSync
import InkRender

/// What the canvas draws for the teaching tools, over the ink each frame: presentation mode's black around the
/// page, the laser's glow, and the ruler, set square and compass. Nothing here is in the screen cache: they move
/// every frame while they move, and cost nothing while nothing shows.
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
        let laser = session.laser
        if !laser.isEmpty {
            let document = session.document, layout = session.layout, t = transform
            LaserPainter.draw(cr, laser.trails, now: session.teaching.eventNow ?? 0, zoom: t.zoom) { stroke in
                guard let i = document.index(of: stroke.page) else { return nil }
                let origin = layout.origin(ofPage: i)
                return { t.viewPoint(fromPage: $0 + origin) }
            }
        }
        if !session.teaching.othersLaser.isEmpty {
            // Other people's laser ink lies on the page they point at (an older sender's, which names none, on this
            // user's current page).
            let document = session.document, layout = session.layout, origin = currentOrigin, t = transform
            LaserPainter.draw(cr, session.teaching.othersLaser, now: TeachingState.monotonicMs, zoom: t.zoom) { stroke in
                if stroke.page == LiveStrokes.anyPage { return { t.viewPoint(fromPage: $0 + origin) } }
                guard let i = document.index(of: stroke.page) else { return nil }
                let o = layout.origin(ofPage: i)
                return { t.viewPoint(fromPage: $0 + o) }
            }
        }
        if !session.teaching.guides.isEmpty {
            GuidePainter(handles: session.handles(transform), turning: session.teaching.turning).draw(cr)
        }
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
