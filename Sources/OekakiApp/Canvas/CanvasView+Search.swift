import Foundation
import InkCore
import InkRender

/// Search hits on the canvas: every hit on the pages in view marked in translucent orange, the current one
/// outlined; revealing a hit scrolls the least that shows it.
extension CanvasView {
    /// The hit's rect in the widget, nil when its page is not laid out in the view.
    func viewRect(of hit: SearchHit) -> Rect? { viewRect(hit.bounds, onPage: hit.page) }

    /// A rect of page `page` (its units) in the widget, nil when that page is not laid out in the view.
    func viewRect(_ rect: Rect, onPage page: Int) -> Rect? {
        let layout = session.layout
        guard session.document.pages.indices.contains(page), !layout.isCanvas || page == session.currentPage else { return nil }
        return transform.viewRect(fromPage: rect.offsetBy(layout.origin(ofPage: page)))
    }

    func drawSearchHits(_ cr: CairoContext) {
        guard !searchHits.isEmpty else { return }
        let view = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let visible = session.layout.isCanvas ? session.currentPage..<(session.currentPage + 1)
            : session.layout.visible(transform.pageRect(fromView: view))
        cr.save()
        // Hits are in page order: only those of the pages in view are looked at.
        let first = searchHits.partitioningIndex { $0.page >= visible.lowerBound }
        for (i, hit) in searchHits[first...].enumerated() {
            guard hit.page < visible.upperBound else { break }
            guard let r = viewRect(of: hit)?.insetBy(-2), r.overlaps(view) else { continue }
            let current = first + i == currentSearchHit
            cr.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
            cr.setSource(red: 1, green: 0.55, blue: 0, alpha: current ? 0.45 : 0.28)
            cr.fill()
            if current {
                cr.setLineWidth(2)
                cr.rectangle(x: r.minX, y: r.minY, width: r.width, height: r.height)
                cr.setSource(red: 0.85, green: 0.3, blue: 0, alpha: 1)
                cr.stroke()
            }
        }
        cr.restore()
    }

    /// Makes the hit's page current and scrolls so the hit is in view, a third down from the top when it was not.
    func reveal(_ hit: SearchHit) { reveal(hit.bounds, onPage: hit.page, at: size.height / 3) }

    /// Makes page `page` current and scrolls so `rect` (its units) is in view, `at` pixels down when it was not
    /// (or `always`: a place the user asked to go to starts there, as in a PDF reader).
    func reveal(_ rect: Rect, onPage page: Int, at: Double, always: Bool = false) {
        if page != session.currentPage { session.makeCurrent(page) }
        guard let r = viewRect(rect, onPage: page) else { redraw(); return }
        let margin = 40.0
        if always || r.minY < margin || r.maxY > size.height - margin {
            transform.offset.y = (transform.offset.y - r.minY + at).rounded()
        }
        // Sideways only as far as needed: pages share one column.
        if r.maxX > size.width - margin { transform.offset.x = (transform.offset.x - (r.maxX - size.width + margin)).rounded() }
        if r.minX < margin { transform.offset.x = (transform.offset.x + margin - r.minX).rounded() }
        centrePending = false
        redraw()
    }
}

extension Array {
    /// The first index whose element satisfies `belongs` (which holds for a suffix of the array).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
