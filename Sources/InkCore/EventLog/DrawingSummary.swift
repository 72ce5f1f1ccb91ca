/// The summary `oekaki replay` and `oekaki info` print: counts, bounds and one item per stroke in drawing order.
///
///     {"strokes":N,"points":M,"texts":T,"images":I,"bounds":[x0,y0,x1,y1]|null,
///      "items":[{"kind":"stroke","tool":"pen","color":"#rrggbbaa","width":W,"points":n,"fill":A?,"style":"dash|dashdot|dot|cust: …"?,"bounds":[x0,y0,x1,y1],"shape":"…"?,"page":K?,"layer":L?}
///              | {"kind":"text","text":"…","font":"…","size":S,"color":"#rrggbbaa","bounds":[…],"page":K?,"layer":L?}
///              | {"kind":"image","width":W,"height":H,"bounds":[…],"page":K?,"layer":L?},…],
///      "pages":[{"width":W|null,"height":H|null,"background":"plain|ruled|lined|graph|dotted","pdf":P?,"picture":true?,"strokes":n,"texts":t,"images":i,
///                "layers":[{"name":"Layer 1","visible":true,"strokes":n},…]},…]?}
///
/// `strokes` counts ink ("texts" and "images" follow "points", so readers of the ink-only summary still find
/// it as it was); a text box's or image's bounds are its shown box, an image's width and height its pixels.
/// `shape` (line, arrow, triangle, rectangle, polygon, ellipse) is there only for strokes that are shapes.
/// A whole document's summary gives every item its page (1-based) and lists the pages (null sizes for an endless
/// page); one page's summary (`info --page K`) has neither. `pdf` is the 1-based page of the PDF a page shows as
/// its background, when it has one; `picture` says a picture is stretched over the page (Xournal++'s image
/// background). Items are listed layer by layer from the bottom; `layer` is the item's layer
/// (1-based from the bottom of its page), and a page's `layers` are bottom to top with their ink strokes counted.
/// A summary of a bare drawing (no page) has no `layer`.
///
/// Bounds are the min/max of stored point coordinates (not the ink). Numbers print as integers when whole,
/// else in the shortest form that reads back to the same Double.
public struct DrawingSummary: Hashable, Sendable {
    public struct Item: Hashable, Sendable {
        public var tool: Tool
        public var color: RGBA
        public var width: Double
        public var points: Int
        /// Nil only for a stroke without points (a loaded file may hold one); printed as `null`.
        public var bounds: Rect?
        /// Nil for freehand ink (no `shape` key).
        public var shape: ShapeKind? = nil
        /// The page (1-based) in a document's summary; nil in one page's.
        public var page: Int? = nil
        /// The layer (1-based from the bottom of its page); nil in a bare drawing's summary.
        public var layer: Int? = nil
        /// What the item is (ink unless a text box or image).
        public var content: StrokeContent = .ink
        /// Xournal++'s fill alpha (a `fill` key only when filled) and dash pattern (a `style` key only when dashed).
        public var fill: UInt8? = nil
        public var line: LineStyle = .solid

        init(_ s: Stroke, page: Int?, layer: Int? = nil) {
            tool = s.style.tool; color = s.style.color; width = s.style.width; points = s.points.count
            fill = s.style.fill; line = s.style.line
            bounds = s.content.isInk ? s.bounds : s.shownCorners.flatMap { Rect(bounding: $0) }
            shape = s.shape; self.page = page; self.layer = layer; content = s.content
        }
    }
    public struct PageItem: Hashable, Sendable {
        public var size: Size?
        public var background: Background.Style
        public var strokes: Int
        public var texts = 0
        public var images = 0
        /// The 1-based page of the PDF shown as the background.
        public var pdfPage: Int?
        /// A picture is stretched over the page.
        public var picture = false
        public var layers: [LayerItem] = []
    }
    public struct LayerItem: Hashable, Sendable {
        public var name: String
        public var visible: Bool
        /// Ink strokes on the layer (text boxes and images are not counted, as in a page's `strokes`).
        public var strokes: Int
    }
    /// Ink strokes, text boxes and images.
    public var strokes: Int
    public var texts = 0
    public var images = 0
    public var points: Int
    public var bounds: Rect?
    public var items: [Item]
    /// Nil in one page's summary.
    public var pages: [PageItem]?

    /// The whole document: strokes of every page in page order, each item naming its page.
    public init(_ document: Document) {
        var items: [Item] = []
        items.reserveCapacity(document.strokeCount)
        var pages: [PageItem] = []
        for (k, p) in document.pages.enumerated() {
            let first = items.count
            let layers = Self.append(p, page: k + 1, to: &items)
            let counts = Self.counts(items[first...])
            pages.append(PageItem(size: p.size, background: p.background.style, strokes: counts.strokes, texts: counts.texts, images: counts.images,
                                  pdfPage: p.background.pdf.map { $0.index + 1 }, picture: p.background.picture != nil, layers: layers))
        }
        self.items = items
        self.pages = pages
        (strokes, texts, images) = Self.counts(items[...])
        points = document.pointCount
        bounds = Rect.union(of: document.pages.lazy.compactMap(\.bounds))
    }

    /// One page (`info --page K`): its items, each naming its layer, and no page list.
    public init(_ page: Page) {
        var items: [Item] = []
        _ = Self.append(page, page: nil, to: &items)
        self.items = items
        (strokes, texts, images) = Self.counts(items[...])
        points = page.pointCount
        bounds = page.bounds
    }

    /// Appends the page's items layer by layer; returns its layers' entries.
    private static func append(_ p: Page, page: Int?, to items: inout [Item]) -> [LayerItem] {
        var layers: [LayerItem] = []
        for (i, l) in p.layers.enumerated() {
            var ink = 0
            for s in l.drawing.strokes {
                items.append(Item(s, page: page, layer: i + 1))
                if s.content.isInk { ink += 1 }
            }
            layers.append(LayerItem(name: l.name, visible: l.visible, strokes: ink))
        }
        return layers
    }

    public init(_ drawing: Drawing) {
        items = drawing.strokes.map { Item($0, page: nil) }
        (strokes, texts, images) = Self.counts(items[...])
        points = drawing.pointCount
        bounds = drawing.bounds
    }

    private static func counts(_ items: ArraySlice<Item>) -> (strokes: Int, texts: Int, images: Int) {
        var c = (strokes: 0, texts: 0, images: 0)
        for it in items {
            switch it.content {
            case .ink: c.strokes += 1
            case .text: c.texts += 1
            case .image: c.images += 1
            }
        }
        return c
    }

    /// One line of JSON, keys in the documented order; `extra` members (key, raw JSON value) are appended
    /// at the end, e.g. `[("format", JSONText.string("oekaki")), ("version", "1")]`.
    public func json(extra: [(String, String)] = []) -> String {
        var out = "{\"strokes\":\(strokes),\"points\":\(points),\"texts\":\(texts),\"images\":\(images),\"bounds\":"
        out += bounds.map(JSONText.rect) ?? "null"
        out += ",\"items\":["
        for (i, it) in items.enumerated() {
            if i > 0 { out += "," }
            switch it.content {
            case .ink:
                out += "{\"kind\":\"stroke\",\"tool\":\(JSONText.string(it.tool.rawValue)),\"color\":\(JSONText.string(it.color.hex))"
                out += ",\"width\":\(JSONText.number(it.width)),\"points\":\(it.points)"
                if let f = it.fill { out += ",\"fill\":\(f)" }
                if let name = it.line.name { out += ",\"style\":\(JSONText.string(name))" }
            case .text(let t):
                out += "{\"kind\":\"text\",\"text\":\(JSONText.string(t.text)),\"font\":\(JSONText.string(t.font)),\"size\":\(JSONText.number(t.size))"
                out += ",\"color\":\(JSONText.string(t.color.hex))"
            case .image(let i):
                out += "{\"kind\":\"image\",\"width\":\(i.pixelWidth),\"height\":\(i.pixelHeight)"
                if let f = i.formula { out += ",\"latex\":\(JSONText.string(f.source))" }
            }
            out += ",\"bounds\":\(it.bounds.map(JSONText.rect) ?? "null")"
            if let k = it.shape { out += ",\"shape\":\(JSONText.string(k.rawValue))" }
            if let p = it.page { out += ",\"page\":\(p)" }
            if let l = it.layer { out += ",\"layer\":\(l)" }
            out += "}"
        }
        out += "]"
        if let pages {
            out += ",\"pages\":["
            for (i, p) in pages.enumerated() {
                if i > 0 { out += "," }
                out += "{\"width\":\(p.size.map { JSONText.number($0.width) } ?? "null"),\"height\":\(p.size.map { JSONText.number($0.height) } ?? "null")"
                out += ",\"background\":\(JSONText.string(p.background.rawValue))"
                if let k = p.pdfPage { out += ",\"pdf\":\(k)" }
                if p.picture { out += ",\"picture\":true" }
                out += ",\"strokes\":\(p.strokes),\"texts\":\(p.texts),\"images\":\(p.images),\"layers\":["
                for (j, l) in p.layers.enumerated() {
                    if j > 0 { out += "," }
                    out += "{\"name\":\(JSONText.string(l.name)),\"visible\":\(l.visible),\"strokes\":\(l.strokes)}"
                }
                out += "]}"
            }
            out += "]"
        }
        for (k, v) in extra { out += ",\(JSONText.string(k)):\(v)" }
        return out + "}"
    }
}

/// Writing JSON values by hand, deterministically.
public enum JSONText {
    /// Whole numbers without a fraction (`3`, not `3.0`); others in the shortest round-trip form;
    /// non-finite values (not JSON) as `null`.
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        // Swift prints whole Doubles below 2^53 as "3.0"; beyond, it already uses exponents ("1e+16").
        if v == v.rounded(), abs(v) < 9_007_199_254_740_992 { return String(Int64(v)) }
        return "\(v)"
    }

    public static func rect(_ r: Rect) -> String {
        "[\(number(r.minX)),\(number(r.minY)),\(number(r.maxX)),\(number(r.maxY))]"
    }

    /// A quoted JSON string with the required escapes.
    public static func string(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where ch.value < 0x20:
                let h = String(ch.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
