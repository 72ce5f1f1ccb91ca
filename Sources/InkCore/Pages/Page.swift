public typealias PageID = UInt64

/// A page's size and paper: what "change size or background" edits.
public struct PageFormat: Hashable, Sendable {
    /// Nil for an endless page, which has no bounds and grows with the ink in every direction.
    public var size: Size?
    public var background: Background

    public init(size: Size?, background: Background = .plain) { self.size = size; self.background = background }

    /// A new drawing: one endless page of plain paper.
    public static let endless = PageFormat(size: nil)
    public static func fixed(_ size: Size, _ background: Background = .plain) -> PageFormat {
        PageFormat(size: size, background: background)
    }
    public var isEndless: Bool { size == nil }
}

/// One page of a document: its format and its layers, bottom to top (never none), each with its own drawing (items
/// in page coordinates, index and order). The id is stable for the life of the document (moving a page keeps it),
/// so edits and the file name pages by it. The first layer of a new page has the page's id.
public struct Page: Sendable {
    /// The id of the first page of a new document, and the page a stroke belongs to unless told otherwise.
    public static let firstID: PageID = 1

    public let id: PageID
    public var format: PageFormat { didSet { syncDrawings() } }
    public internal(set) var layers: [Layer] { didSet { if layers.isEmpty { layers = [Layer(id: id)] } } }

    /// A page of one layer ("Layer 1", the page's id) holding `drawing`.
    public init(id: PageID = Page.firstID, format: PageFormat = .endless, drawing: Drawing = Drawing()) {
        self.init(id: id, format: format, layers: [Layer(id: id, drawing: drawing)])
    }

    /// A page of these layers, bottom first; none gives one empty layer.
    public init(id: PageID = Page.firstID, format: PageFormat = .endless, layers: [Layer]) {
        self.id = id; self.format = format
        self.layers = layers.isEmpty ? [Layer(id: id)] : layers
        syncDrawings()
    }

    public var size: Size? { format.size }
    public var background: Background { format.background }
    public var isEndless: Bool { format.size == nil }
    /// The size its drawings carry: the page's, or an endless page's starting view.
    public var pageSize: Size { layers[0].drawing.pageSize }

    /// The area an export or a page view shows: the page, or for an endless page the drawing's frame (the view a
    /// new drawing starts with), grown on each side where ink goes past it, to the ink plus a margin.
    public var frame: Rect {
        if let s = format.size { return Rect(x: 0, y: 0, width: s.width, height: s.height) }
        let start = Rect(x: 0, y: 0, width: pageSize.width, height: pageSize.height)
        guard let ink = bounds else { return start }
        let m = Page.endlessMargin
        return Rect(minX: ink.minX < start.minX ? ink.minX - m : start.minX, minY: ink.minY < start.minY ? ink.minY - m : start.minY,
                    maxX: ink.maxX > start.maxX ? ink.maxX + m : start.maxX, maxY: ink.maxY > start.maxY ? ink.maxY + m : start.maxY)
    }

    /// Paper shown around the ink of an endless page when it is exported or fitted.
    public static let endlessMargin = 24.0

    /// The drawings carry the page size and paper colour their renderers read; the format is the truth.
    mutating func syncDrawings() {
        for i in layers.indices {
            if let s = format.size, layers[i].drawing.pageSize != s { layers[i].drawing.pageSize = s }
            if layers[i].drawing.background != format.background.paper { layers[i].drawing.background = format.background.paper }
        }
    }
}

extension Page: Hashable {
    public static func == (a: Page, b: Page) -> Bool {
        a.id == b.id && a.format == b.format && a.layers == b.layers
    }
    public func hash(into h: inout Hasher) { h.combine(id); h.combine(format); h.combine(layers.count) }
}
