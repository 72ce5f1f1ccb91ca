/// Where a document's pages sit in the one view space the canvas scrolls over (page point + origin = view point).
///
/// Two modes:
/// - **Canvas**: the current page is endless. Only it is shown, its origin at (0,0), unbounded, nothing clipped.
/// - **Stack**: fixed pages one below the other with `gap` between them, centred on the widest. An endless page
///   in a stack shows the area its ink covers (`Page.frame`), so the stack stays a list of rects.
///
/// Frames are sorted by y, so `visible(_:)` and `page(at:)` are binary searches: scrolling a 500-page notebook
/// costs what scrolling a 3-page one does.
public struct PageLayout: Hashable, Sendable {
    /// View units between two pages of a stack.
    public static let gap = 24.0

    /// Index of the page shown alone, when the layout is a canvas.
    public let canvasPage: Int?
    /// Per page index: where its (0,0) lies in view space.
    public let origins: [Point]
    /// Per page index: its area in view space (stack mode only; a canvas has no bounds).
    public let frames: [Rect]

    public init(document: Document, current: Int) {
        let pages = document.pages
        let c = min(max(current, 0), pages.count - 1)
        if pages[c].isEndless {
            canvasPage = c
            origins = Array(repeating: Point(0, 0), count: pages.count)
            frames = []
            return
        }
        canvasPage = nil
        let areas = pages.map(\.frame)
        let widest = areas.map(\.width).max() ?? 0
        var y = 0.0
        var origins: [Point] = [], frames: [Rect] = []
        origins.reserveCapacity(pages.count); frames.reserveCapacity(pages.count)
        for a in areas {
            let f = Rect(x: (widest - a.width) / 2, y: y, width: a.width, height: a.height)
            frames.append(f)
            origins.append(Point(f.minX - a.minX, f.minY - a.minY))
            y = f.maxY + Self.gap
        }
        self.origins = origins; self.frames = frames
    }

    public var isCanvas: Bool { canvasPage != nil }
    public var count: Int { origins.count }

    public func origin(ofPage i: Int) -> Point { origins.indices.contains(i) ? origins[i] : Point(0, 0) }

    /// The page's area in view space; nil for the canvas page (no bounds) and for pages not shown.
    public func frame(ofPage i: Int) -> Rect? { frames.indices.contains(i) ? frames[i] : nil }

    /// The pages shown that meet `rect` (view space), in order.
    public func visible(_ rect: Rect) -> Range<Int> {
        if let c = canvasPage { return c..<(c + 1) }
        // First page whose bottom lies below the rect's top, then the first whose top lies below its bottom.
        let lo = firstIndex { $0.maxY >= rect.minY }
        let hi = firstIndex { $0.minY > rect.maxY }
        return lo..<max(lo, hi)
    }

    /// The page whose frame holds `point` (view space); the canvas page anywhere; nil between or beside pages.
    public func page(at point: Point) -> Int? {
        if let c = canvasPage { return c }
        let i = firstIndex { $0.maxY >= point.y }
        guard i < frames.count, frames[i].contains(point) else { return nil }
        return i
    }

    /// The page nearest to `point` vertically (the one a view centred there is "on").
    public func nearestPage(to point: Point) -> Int {
        if let c = canvasPage { return c }
        let i = firstIndex { $0.maxY >= point.y }
        if i >= frames.count { return frames.count - 1 }
        if i > 0, point.y < frames[i].minY, point.y - frames[i - 1].maxY < frames[i].minY - point.y { return i - 1 }
        return i
    }

    /// All pages' frames together (stack), nil for a canvas.
    public var bounds: Rect? { frames.isEmpty ? nil : Rect(minX: frames.map(\.minX).min()!, minY: frames[0].minY, maxX: frames.map(\.maxX).max()!, maxY: frames[frames.count - 1].maxY) }

    /// Index of the first frame satisfying `pred` (which is false then true along the stack), or `frames.count`.
    private func firstIndex(_ pred: (Rect) -> Bool) -> Int {
        var lo = 0, hi = frames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pred(frames[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
