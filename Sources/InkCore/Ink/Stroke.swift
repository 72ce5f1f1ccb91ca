public typealias StrokeID = UInt64

/// A finished (or live) line: its input samples and its style. Shaping into an outline happens on demand.
public struct Stroke: Hashable, Sendable, Identifiable {
    public var id: StrokeID
    /// Where the stroke sits in the drawing: strokes draw in (order, id) order. It is the id unless set; an
    /// area-eraser piece takes the order of the stroke it was cut from, so it stays where that stroke was
    /// (below strokes drawn after it) instead of jumping to the top with its new id.
    public var order: StrokeID {
        get { orderKey ?? id }
        set { orderKey = newValue == id ? nil : newValue }
    }
    /// Nil when the order is the id (nearly always), so changing the id keeps that default.
    private var orderKey: StrokeID?
    public var style: StrokeStyle
    /// The shape this stroke traces (made by a shape tool or snapped), nil for freehand ink. Pieces an area
    /// eraser leaves are freehand again (a cut rectangle is no rectangle), though still drawn as a polyline.
    public var shape: ShapeKind?
    /// The page the stroke is on (its points are in that page's coordinates).
    public var page: PageID
    /// The layer of its page the item is on. A page's first layer has the page's id, so it is the page unless set
    /// (nearly always in a one-layer document, where it costs nothing).
    public var layer: LayerID {
        get { layerKey ?? page }
        set { layerKey = newValue == page ? nil : newValue }
    }
    private var layerKey: LayerID?
    /// Ink, or a text box or image placed by its two corner points (see `StrokeContent`).
    public var content: StrokeContent = .ink
    /// The points where they are shown: the drawn points under `transform`. Renderers, hit tests and exports
    /// read these.
    public private(set) var points: [InkPoint]
    /// Min/max of the shown point coordinates (nil while empty).
    public private(set) var bounds: Rect?
    /// Where a selection moved, scaled or rotated the stroke; identity when it never was.
    public private(set) var transform: AffineMap = .identity
    /// The points as drawn, kept only while `transform` is not the identity (else they are `points`), so an
    /// unmoved stroke costs no second copy and moving back restores the drawn points bit for bit.
    private var drawn: [InkPoint]?

    public init(id: StrokeID, style: StrokeStyle, points: [InkPoint] = [], order: StrokeID? = nil, shape: ShapeKind? = nil,
                page: PageID = Page.firstID, layer: LayerID? = nil, transform: AffineMap = .identity, content: StrokeContent = .ink) {
        self.id = id; self.style = style; self.points = []; self.shape = shape; self.page = page; self.content = content
        if let layer, layer != page { layerKey = layer }
        if let order, order != id { orderKey = order }
        self.points.reserveCapacity(points.count)
        for p in points { append(p) }
        if !transform.isIdentity { setTransform(transform) }
    }

    /// The points as drawn (what the file stores beside `transform`).
    public var drawnPoints: [InkPoint] { drawn ?? points }

    /// Places the stroke: its drawn points under `t`. Drawn points never change, only where they are shown.
    public mutating func setTransform(_ t: AffineMap) {
        guard t != transform else { return }
        let source = drawnPoints
        transform = t
        if t.isIdentity {
            drawn = nil; points = source
        } else {
            drawn = source
            points = source.map { t.apply($0) }
        }
        bounds = Rect(bounding: points.lazy.map(\.point))
    }

    /// Appends a sample; an exact repeat of the last position is dropped (it carries no shape).
    @discardableResult
    public mutating func append(_ p: InkPoint) -> Bool {
        guard p.x.isFinite, p.y.isFinite else { return false }
        if drawn == nil, let last = points.last, last.x == p.x, last.y == p.y { return false }
        if let last = drawn?.last, last.x == p.x, last.y == p.y { return false }
        var q = p
        q.pressure = q.pressure.isFinite ? Swift.min(Swift.max(q.pressure, 0), 1) : 0.5
        // A sample without a usable time keeps the last one (the file could not hold it either, and a NaN time made a
        // stroke unequal to itself).
        if !q.time.isFinite { q.time = points.last?.time ?? 0 }
        if drawn != nil { drawn!.append(q); q = transform.apply(q) }
        points.append(q)
        if bounds == nil { bounds = Rect(minX: q.x, minY: q.y, maxX: q.x, maxY: q.y) } else { bounds!.include(q.point) }
        return true
    }

    /// Replaces every sample at once (a live stroke that snapped to a shape, or un-snapped back to its ink).
    public mutating func setPoints(_ new: [InkPoint]) {
        points = []; bounds = nil
        if drawn != nil { drawn = [] }
        points.reserveCapacity(new.count)
        for p in new { append(p) }
    }

    /// True when this stroke draws before `other` (is below it).
    public func drawsBefore(_ other: Stroke) -> Bool { (drawKey, id) < (other.drawKey, other.id) }

    /// The order as a signed number: "send to back" gives orders below every id (negative), so the order is
    /// compared as the Int64 its bits spell (the file stores it that way).
    public var drawKey: Int64 { Int64(bitPattern: order) }

    /// The highest id this stroke's place claims: a new stroke (whose order is its id) must be numbered above it to
    /// draw on top. Its id, or its order when that is higher (a shared board orders strokes by its log).
    public var claimedID: StrokeID { drawKey > 0 ? Swift.max(id, order) : id }

    /// The area the ink can cover: point bounds grown by the largest possible radius.
    /// For a text box or image, the area of its shown box (all four corners: a rotated box reaches past the two
    /// points); a text box's lines may run past its stored height (measured by an earlier build, estimated on
    /// import, laid out here with other fonts), so its area reaches a third further down and half a line further
    /// every way, or a redrawn patch or band below it would leave its last line out.
    public var inkBounds: Rect? {
        if let box = content.text, let b = drawnBox {
            let m = box.size / 2
            let reach = Rect(minX: b.minX - m, minY: b.minY - m, maxX: b.maxX + m, maxY: b.maxY + b.height / 3 + m)
            return Rect(bounding: shownCorners(of: reach))?.insetBy(-1)
        }
        return shownBounds
    }

    /// Where it shows: the ink's area, or a text box's or image's shown box (what a selection frames).
    public var shownBounds: Rect? {
        if !content.isInk, let corners = shownCorners { return Rect(bounding: corners)?.insetBy(-1) }
        return bounds.map { $0.insetBy(-(style.width * StrokeShape.maxWidthFactor / 2 + 1)) }
    }
}
