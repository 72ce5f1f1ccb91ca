import InkCore
import InkRender
import Localization

/// The sidebar's page previews: one drawing area showing only the rows in view (a 500-page document costs what
/// its visible rows cost), scrolled by its scrollbar or the wheel. The current page is framed in blue; a click goes
/// to a page, a drag moves it (a line shows where it will land), the secondary button opens its menu.
final class PagePreviewList {
    static let rowHeight = 176.0
    static let previewSide = 140.0

    let widget = Widgets.box()
    private let area = Widgets.drawingArea()
    private let adjustment = Adjustment()
    private let scrollbar: Widget
    private let session: DocumentSession
    let previews = PagePreviews()
    /// The row pressed and, once the pointer has moved far enough, the gap it would be dropped into.
    private var pressed: (row: Int, y: Double)?
    private var dropGap: Int?
    /// While a page is dragged: the pointer's y in the area, and the timer scrolling the list when it is near an
    /// edge (so a page can be dragged to any place of a long document, not only to the rows in view).
    private var dragY: Double?
    private var edgeScroll: UInt32 = 0
    private var lastEdgeStep = 0.0
    /// How near the top or bottom edge the list scrolls, and its fastest speed (pixels a second, at or past the
    /// edge: about eight rows). By the clock, not per tick, so a busy main loop scrolls as far.
    static let scrollEdge = 48.0
    static let fastestScroll = 1400.0
    /// The page count and height the scrollbar was last set for.
    private var range = (0, 0.0)

    /// A click on a page; a page dragged from one place to another (indices of the pages as they are).
    var onOpen: ((Int) -> Void)?
    var onMove: ((Int, Int) -> Void)?
    /// A page's menu: add after it, duplicate, delete.
    var onMenu: ((Int, (x: Double, y: Double), Widget) -> Void)?

    init(session: DocumentSession) {
        self.session = session
        scrollbar = Widgets.scrollbar(adjustment)
        area.expand()
        area.setTooltip(localized("Click a page to go to it, drag it to move it; right-click for more"))
        Widgets.append(widget, area, scrollbar)
        setDrawFunction(area) { [weak self] cr, w, h in
            Trace.measure("sidebar") { self?.draw(cr, width: Double(w), height: Double(h)) }
        }
        adjustment.onChange { [weak self] in self?.area.queueDraw() }
        previews.onReady = { [weak self] in self?.area.queueDraw() }
        area.onScroll { [weak self] dy in
            guard let self else { return }
            // Wheel steps are ±1, touchpads give pixels: a step is a third of a row.
            self.adjustment.value += dy * Self.rowHeight / 3
        }
        area.onDrag(began: { [weak self] x, y in
            guard let self, let row = self.row(at: y) else { return }
            self.pressed = (row, y)
            self.dropGap = nil
        }, moved: { [weak self] _, dy in
            guard let self, let p = self.pressed, abs(dy) > 8 || self.dropGap != nil else { return }
            self.dragY = p.y + dy
            self.dropGap = self.gap(at: p.y + dy)
            self.area.queueDraw()
            if self.edgeScroll == 0, self.edgeSpeed != 0 {
                self.lastEdgeStep = monotonicMs()
                self.edgeScroll = every(milliseconds: 16) { [weak self] in self?.scrollTowardsEdge() ?? false }
            }
        }, ended: { [weak self] _, dy in
            guard let self, let p = self.pressed else { return }
            stopTimer(&self.edgeScroll)
            self.dragY = nil
            self.pressed = nil
            let gap = self.dropGap
            self.dropGap = nil
            self.area.queueDraw()
            guard let gap else { self.onOpen?(p.row); return }
            // Dropped into the gap before page `gap`: below itself, the page lands one place up.
            let to = gap > p.row ? gap - 1 : gap
            if to != p.row { self.onMove?(p.row, to) }
        })
        area.onSecondaryClick { [weak self] x, y in
            guard let self, let row = self.row(at: y) else { return }
            self.onMenu?(row, (x, y), self.area)
        }
    }

    var pageCount: Int { session.document.pages.count }

    /// -1…1: how far into the top (negative) or bottom edge band the dragged page is; 0 elsewhere.
    private var edgeSpeed: Double {
        guard let y = dragY, dropGap != nil else { return 0 }
        let h = Double(area.height), e = Self.scrollEdge
        if y < e { return -min((e - y) / e, 1) }
        if y > h - e { return min((y - (h - e)) / e, 1) }
        return 0
    }

    /// One frame of scrolling while a dragged page is held near an edge; the drop line follows. False stops it.
    private func scrollTowardsEdge() -> Bool {
        let speed = edgeSpeed
        guard speed != 0, let y = dragY else { edgeScroll = 0; return false }
        let now = monotonicMs()
        adjustment.value += speed * Self.fastestScroll * min(now - lastEdgeStep, 100) / 1000
        lastEdgeStep = now
        dropGap = gap(at: y)
        area.queueDraw()
        return true
    }

    func row(at y: Double) -> Int? {
        let r = Int(((y + adjustment.value) / Self.rowHeight).rounded(.down))
        return (0..<pageCount).contains(r) ? r : nil
    }

    /// The gap between rows nearest to `y` (0: before the first page, `pageCount`: after the last).
    private func gap(at y: Double) -> Int {
        min(max(Int(((y + adjustment.value) / Self.rowHeight).rounded()), 0), pageCount)
    }

    /// Scrolls so row `i` is in view (the current page, after it changed).
    func reveal(_ i: Int) {
        let top = Double(i) * Self.rowHeight, height = Double(area.height)
        if top < adjustment.value { adjustment.value = top }
        else if top + Self.rowHeight > adjustment.value + height { adjustment.value = top + Self.rowHeight - height }
        area.queueDraw()
    }

    func redraw() { area.queueDraw() }

    /// The scrollbar's range for `count` pages in a list `height` high, hidden when they all fit (an empty
    /// trough beside them reads as a gap in the sidebar).
    private func fit(count: Int, height: Double) {
        guard range != (count, height) else { return }
        range = (count, height)
        adjustment.setRange(upper: Double(count) * Self.rowHeight, page: height, step: Self.rowHeight / 3)
        scrollbar.setVisible(Double(count) * Self.rowHeight > height)
        area.queueDraw()
    }

    private func draw(_ cr: CairoContext, width: Double, height: Double) {
        let document = session.document, count = document.pages.count
        // The scrollbar follows after this frame: changing its range or showing it while GTK snapshots the window
        // leaves its slider unallocated (GTK warns).
        if range != (count, height) { onMainLoop { [weak self] in self?.fit(count: count, height: height) } }
        let first = max(0, Int((adjustment.value / Self.rowHeight).rounded(.down)))
        let last = min(count - 1, Int(((adjustment.value + height) / Self.rowHeight).rounded(.down)))
        guard first <= last else { return }
        previews.setWanted(Set(document.pages[first...last].map(\.id)))
        let scale = Double(max(area.scaleFactor, 1))
        let side = Self.previewSide, pixels = Int(side * scale)
        for i in first...last {
            let page = document.pages[i]
            let top = Double(i) * Self.rowHeight - adjustment.value + 8
            let box = Rect(x: (width - side) / 2, y: top, width: side, height: side)
            // The page's own shape inside the square, as the thumbnail fits it.
            let f = page.frame
            let k = side / max(f.width, f.height, 1)
            let paper = Rect(x: box.minX + (side - f.width * k) / 2, y: box.minY + (side - f.height * k) / 2, width: f.width * k, height: f.height * k)
            if i == session.currentPage {
                cr.setSource(red: 0.21, green: 0.52, blue: 0.89)
                cr.rectangle(x: paper.minX - 4, y: paper.minY - 4, width: paper.width + 8, height: paper.height + 8)
                cr.fill()
            }
            if let image = previews.image(of: page, in: document, size: pixels) {
                cr.paintImage(image, in: box)
            } else {
                let bg = page.background.paper.unit
                cr.setSource(red: bg.r, green: bg.g, blue: bg.b)
                cr.rectangle(paper)
                cr.fill()
            }
            cr.setLineWidth(1)
            cr.setSource(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.6)
            cr.rectangle(x: paper.minX + 0.5, y: paper.minY + 0.5, width: paper.width - 1, height: paper.height - 1)
            cr.stroke()
            cr.setSource(red: 0.35, green: 0.35, blue: 0.35)
            let label = String(i + 1)
            cr.showText(label, at: Point(width / 2 - Double(label.count) * 3.5, top + side + 18), size: 13)
        }
        if let gap = dropGap {
            let y = Double(gap) * Self.rowHeight - adjustment.value
            cr.setSource(red: 0.21, green: 0.52, blue: 0.89)
            cr.rectangle(x: 8, y: y - 2, width: width - 16, height: 4)
            cr.fill()
        }
    }
}
