/// Selecting a PDF page's text as a PDF viewer does: from the character nearest the press to the one nearest the
/// pointer, in the page's reading order; the selected text (for the clipboard) and "Highlight": one highlighter
/// stroke per selected line, as tall as the line and exactly as long (butt caps), in page units.
public struct PDFTextSelection: Equatable, Sendable {
    /// Selected characters as Unicode scalar offsets into the page's text.
    public var scalars: Range<Int>

    public init(scalars: Range<Int>) { self.scalars = scalars }

    /// The selection from `start` to `end` (points in the PDF page's units), nil when the page has no text.
    public init?(from start: Point, to end: Point, in page: PDFPageText) {
        guard let a = Self.nearest(start, in: page), let b = Self.nearest(end, in: page) else { return nil }
        scalars = min(a, b)..<(max(a, b) + 1)
    }

    /// The selected text as read (line ends kept).
    public func text(in page: PDFPageText) -> String {
        let s = Array(page.text.unicodeScalars)
        let r = scalars.clamped(to: 0..<s.count)
        return String(String.UnicodeScalarView(s[r]))
    }

    /// The boxes of the selected characters grouped by line (white space and line ends left out), each line's
    /// boxes united: what a viewer shades and what "Highlight" covers.
    public func lineBoxes(in page: PDFPageText) -> [Rect] {
        let s = Array(page.text.unicodeScalars)
        var out: [Rect] = [], current: Rect?
        for i in scalars.clamped(to: 0..<min(s.count, page.boxes.count)) {
            if s[i] == "\n" { if let c = current { out.append(c) }; current = nil; continue }
            guard !s[i].properties.isWhitespace else { continue }
            let b = page.boxes[i]
            // A box starting left of the line so far, below it, begins a new line (text that wraps without "\n").
            if let c = current, b.minX < c.minX - 1, b.minY > c.midY { out.append(c); current = b; continue }
            current = current.map { $0.union(b) } ?? b
        }
        if let c = current { out.append(c) }
        return out
    }

    /// Highlighter strokes over the selected lines, in the page's units (`frame`: where the PDF page is stretched
    /// on the page, as its background is drawn); ids from `firstID`.
    public func highlight(in page: PDFPageText, frame: Rect, color: RGBA = .highlighterYellow, firstID: StrokeID,
                          pageID: PageID) -> [Stroke] {
        let sx = page.size.width > 0 ? frame.width / page.size.width : 1
        let sy = page.size.height > 0 ? frame.height / page.size.height : 1
        return lineBoxes(in: page).enumerated().map { k, b in
            let y = frame.minY + (b.minY + b.maxY) / 2 * sy, h = b.height * sy
            let style = StrokeStyle(tool: .highlighter, color: color, width: max(h, 1), trace: .polyline, cap: .butt)
            var s = Stroke(id: firstID + StrokeID(k), style: style,
                           points: [InkPoint(x: frame.minX + b.minX * sx, y: y), InkPoint(x: frame.minX + b.maxX * sx, y: y)])
            s.page = pageID
            return s
        }
    }

    /// The character whose box is nearest `p` (inside one: that one), nil without boxes.
    static func nearest(_ p: Point, in page: PDFPageText) -> Int? {
        let s = Array(page.text.unicodeScalars)
        var best: (i: Int, d: Double)?
        for (i, b) in page.boxes.enumerated() where i < s.count && s[i] != "\n" {
            let dx = max(b.minX - p.x, 0, p.x - b.maxX), dy = max(b.minY - p.y, 0, p.y - b.maxY)
            // Lines first: a point beside a line picks that line's nearest character, not one of the next line.
            let d = dy * 4 + dx
            if best == nil || d < best!.d { best = (i, d) }
        }
        return best?.i
    }
}

extension Rect {
    var midY: Double { (minY + maxY) / 2 }
}
