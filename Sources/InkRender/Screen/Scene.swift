import InkCore
import InkPDF

/// One page placed in view space, as the screen cache paints it.
public struct Sheet: Sendable {
    /// The drawings of the page's shown layers, bottom to top (hidden layers are not here: they are not drawn).
    public var layers: [Drawing]
    /// The page's size (an endless page's starting view).
    public var pageSize: Size
    /// Where the page's (0,0) lies in view space.
    public var origin: Point
    /// View-space area the page's ink and paper are clipped to; nil = unclipped (an endless page, or a lone
    /// drawing whose ink may stray off its page).
    public var clip: Rect?
    /// View-space area painted in the paper colour; nil = everywhere.
    public var paperArea: Rect?
    public var paper: RGBA
    /// The page's lines or dots, in page coordinates (nil: plain paper).
    public var background: Background?
    public var endless: Bool
    /// A PDF page drawn over the paper, stretched over the page (0,0…pageSize), under the ink.
    public var pdf: PDFBackdrop?

    public init(drawing: Drawing, origin: Point = Point(0, 0), clip: Rect? = nil, paperArea: Rect?, paper: RGBA,
                background: Background? = nil, endless: Bool = false, pdf: PDFBackdrop? = nil) {
        self.init(layers: [drawing], pageSize: drawing.pageSize, origin: origin, clip: clip, paperArea: paperArea, paper: paper,
                  background: background, endless: endless, pdf: pdf)
    }

    public init(layers: [Drawing], pageSize: Size, origin: Point = Point(0, 0), clip: Rect? = nil, paperArea: Rect?, paper: RGBA,
                background: Background? = nil, endless: Bool = false, pdf: PDFBackdrop? = nil) {
        self.layers = layers; self.pageSize = pageSize; self.origin = origin; self.clip = clip; self.paperArea = paperArea; self.paper = paper
        self.background = background; self.endless = endless; self.pdf = pdf
    }

    /// The shown items whose ink meets `rect` (page coordinates), bottom layer first, each layer in drawing order.
    public func strokes(in rect: Rect) -> [Stroke] {
        if layers.count == 1 { return layers[0].strokes(in: rect) }
        return layers.flatMap { $0.strokes(in: rect) }
    }

    /// The view-space part of `rect` this sheet can paint (nil when none).
    func reach(_ rect: Rect) -> Rect? { clip.map { $0.intersection(rect) } ?? rect }
}

/// What the canvas shows: pages placed in one view space. Built from a document and its layout (only the
/// pages meeting a rect are looked at, so a 500-page notebook costs what its visible pages cost), or from one
/// drawing at the origin (the single-page view the benchmarks and older tests use). A value: safe to hand to
/// a render thread while the editor moves on.
public struct Scene: Sendable {
    private enum Source: Sendable {
        case sheets([Sheet])
        case document(Document, PageLayout)
    }
    private let source: Source

    public init(sheets: [Sheet]) { source = .sheets(sheets) }

    /// One drawing at the origin: paper over its page, ink unclipped (what the canvas showed before pages).
    public init(_ drawing: Drawing) {
        let page = Rect(x: 0, y: 0, width: drawing.pageSize.width, height: drawing.pageSize.height)
        self.init(sheets: [Sheet(drawing: drawing, paperArea: page, paper: drawing.background)])
    }

    public init(document: Document, layout: PageLayout) { source = .document(document, layout) }

    /// The sheets meeting `rect` (view space), bottom first.
    public func sheets(meeting rect: Rect) -> [Sheet] {
        switch source {
        case .sheets(let all):
            return all.filter { $0.reach(rect) != nil }
        case .document(let doc, let layout):
            return layout.visible(rect).compactMap { i -> Sheet? in
                guard doc.pages.indices.contains(i) else { return nil }
                let p = doc.pages[i]
                let frame = layout.frame(ofPage: i)
                return Sheet(layers: p.shownDrawings, pageSize: p.pageSize, origin: layout.origin(ofPage: i), clip: frame, paperArea: frame,
                             paper: p.background.paper, background: p.background, endless: p.isEndless,
                             pdf: p.background.pdf == nil ? nil : PDFBackdrop.of(p, in: doc))
            }
        }
    }
}
