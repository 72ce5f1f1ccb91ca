/// A PDF page's text as the PDF reader gives it: the text, one box per Unicode scalar of it (PDF points, origin at
/// the page's top left) and the page's size in points.
public struct PDFPageText: Sendable {
    public var text: String
    public var boxes: [Rect]
    public var size: Size
    public init(text: String, boxes: [Rect], size: Size) { self.text = text; self.boxes = boxes; self.size = size }
}

/// One place a search found its query.
public struct SearchHit: Equatable, Sendable {
    public enum Kind: String, Sendable { case pdf, text }
    /// 0-based index of the page in the document.
    public var page: Int
    public var kind: Kind
    /// The hit with up to 40 characters either side.
    public var text: String
    /// What the hit covers, in page units.
    public var bounds: Rect
    /// The text box holding the hit (kind `.text`).
    public var item: StrokeID?
}

/// Searching a document's words: its PDF pages' text and its text boxes, page by page.
public enum DocumentSearch {
    /// Where a text box lays out the characters at a range of scalars of its text: a rect per line, in page units
    /// from the box's top left before its placement (the renderer's layout: `TextPainter.rects`).
    public typealias TextRects = (TextBox, Range<Int>) -> [Rect]

    /// The hits on page `index` of `document` in reading order: the PDF page's text in the order its reader gives
    /// (columns stay whole), the text boxes' hits top to bottom and left to right, woven in where they stand among
    /// the PDF's lines. `pdfText` reads a PDF background's text (nil when it cannot); `textRects` places a text
    /// box's hit on its lines (a hit it cannot place covers its whole box).
    public static func hits(in document: Document, page index: Int, matcher: TextMatcher,
                            textRects: TextRects, pdfText: (PDFPageRef) -> PDFPageText?) -> [SearchHit] {
        guard !matcher.isEmpty, document.pages.indices.contains(index) else { return [] }
        let page = document.pages[index]
        var pdf: [SearchHit] = []
        if let ref = page.background.pdf, let t = pdfText(ref) {
            pdf = pdfHits(t, page: index, frame: page.frame, matcher: matcher)
        }
        var boxes: [SearchHit] = []
        for stroke in page.shownStrokes {
            guard let box = stroke.content.text, let drawn = stroke.drawnBox, let corners = stroke.shownCorners,
                  let frame = Rect(bounding: corners) else { continue }
            for m in matcher.matches(in: box.text) {
                // The matched characters' lines where the item is shown (moved, scaled or turned with it).
                let shown = textRects(box, m.scalars).compactMap { r in
                    Rect(bounding: [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)]
                        .map { stroke.transform.apply(Point($0.x + drawn.minX, $0.y + drawn.minY)) })
                }
                boxes.append(SearchHit(page: index, kind: .text, text: m.snippet, bounds: Rect.union(of: shown) ?? frame, item: stroke.id))
            }
        }
        boxes = inReadingOrder(boxes)
        var out: [SearchHit] = []
        out.reserveCapacity(pdf.count + boxes.count)
        var i = 0, j = 0
        while i < pdf.count || j < boxes.count {
            if j == boxes.count || (i < pdf.count && !readsBefore(boxes[j].bounds, pdf[i].bounds)) {
                out.append(pdf[i]); i += 1
            } else {
                out.append(boxes[j]); j += 1
            }
        }
        return out
    }

    /// Whether text at `a` is on the same line as text at `b`: they share half the lower one's height.
    static func onOneLine(_ a: Rect, _ b: Rect) -> Bool {
        min(a.maxY, b.maxY) - max(a.minY, b.minY) >= min(a.height, b.height) / 2
    }

    /// Whether text at `a` is read before text at `b`: further left on the same line, or on a higher line.
    static func readsBefore(_ a: Rect, _ b: Rect) -> Bool {
        onOneLine(a, b) ? a.minX < b.minX : a.minY + a.maxY < b.minY + b.maxY
    }

    /// Hits top to bottom in lines (each line's hits sharing it with its first), each line left to right; ties
    /// keep their order (a box's hits as its text has them).
    static func inReadingOrder(_ hits: [SearchHit]) -> [SearchHit] {
        let byTop = hits.enumerated().sorted { ($0.element.bounds.minY, $0.offset) < ($1.element.bounds.minY, $1.offset) }
        var lines: [[(offset: Int, element: SearchHit)]] = []
        for h in byTop {
            if let first = lines.last?.first, onOneLine(first.element.bounds, h.element.bounds) {
                lines[lines.count - 1].append(h)
            } else {
                lines.append([h])
            }
        }
        return lines.flatMap { line in line.sorted { ($0.element.bounds.minX, $0.offset) < ($1.element.bounds.minX, $1.offset) }.map(\.element) }
    }

    /// Every hit in the document, in page order.
    public static func hits(in document: Document, matcher: TextMatcher, textRects: TextRects,
                            pdfText: (PDFPageRef) -> PDFPageText?) -> [SearchHit] {
        document.pages.indices.flatMap { hits(in: document, page: $0, matcher: matcher, textRects: textRects, pdfText: pdfText) }
    }

    /// The PDF page's hits, their boxes (white space left out: a line end's box is wherever the reader put it)
    /// stretched from the PDF page onto `frame`, as the background is drawn.
    static func pdfHits(_ t: PDFPageText, page: Int, frame: Rect, matcher: TextMatcher) -> [SearchHit] {
        let scalars = Array(t.text.unicodeScalars)
        let sx = t.size.width > 0 ? frame.width / t.size.width : 1
        let sy = t.size.height > 0 ? frame.height / t.size.height : 1
        return matcher.matches(in: t.text).compactMap { m in
            let boxes = m.scalars.lazy.filter { $0 < t.boxes.count && $0 < scalars.count && !scalars[$0].properties.isWhitespace }.map { t.boxes[$0] }
            guard let b = Rect.union(of: boxes) else { return nil }
            let r = Rect(minX: frame.minX + b.minX * sx, minY: frame.minY + b.minY * sy,
                         maxX: frame.minX + b.maxX * sx, maxY: frame.minY + b.maxY * sy)
            return SearchHit(page: page, kind: .pdf, text: m.snippet, bounds: r)
        }
    }
}
