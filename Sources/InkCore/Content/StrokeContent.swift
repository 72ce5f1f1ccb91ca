/// What a drawing item is. Text boxes and images are `Stroke` records too (DESIGN §8.2), so ids, drawing order,
/// pages, placement, history edits, selection, the store and the board log treat them exactly like ink.
/// Such an item's drawn points are two: the box's top-left and bottom-right corners in page units; `transform`
/// places the box as it places ink.
public enum StrokeContent: Hashable, Sendable {
    case ink
    case text(TextBox)
    case image(ImageBox)

    public var isInk: Bool { if case .ink = self { return true } else { return false } }
    public var text: TextBox? { if case .text(let t) = self { return t } else { return nil } }
    public var image: ImageBox? { if case .image(let i) = self { return i } else { return nil } }
}

/// A text box: its text laid out (wrapped to `width`) in one font, size and colour.
public struct TextBox: Hashable, Sendable {
    public var text: String
    /// Font family, e.g. "Sans" (what Pango and SVG name).
    public var font: String
    /// Font size in page units.
    public var size: Double
    public var color: RGBA
    /// Width the text wraps to, in page units.
    public var width: Double

    /// Most UTF-8 bytes one box holds (about 30 pages of prose). Larger text is cut to this by importers and
    /// paste (with a note) and refused by the store: Pango's layout time grows faster than the text (measured:
    /// 64 KiB of short lines 1 s, 256 KiB 14 s), and every redraw of the box lays it out.
    public static let maxTextBytes = 64 << 10
    /// Longest font family name kept.
    public static let maxFontBytes = 200
    /// Sizes and wrap widths kept, in page units.
    public static let sizeRange = 0.5...2_000.0
    public static let widthRange = 1.0...100_000.0

    public init(text: String, font: String = "Sans", size: Double = 16, color: RGBA = .black, width: Double = 300) {
        self.text = text; self.font = font; self.size = size; self.color = color; self.width = width
    }

    /// `text` cut at a character boundary to at most `maxBytes` UTF-8 bytes; nil when it already fits.
    public static func truncated(_ text: String, maxBytes: Int = TextBox.maxTextBytes) -> String? {
        guard text.utf8.count > maxBytes else { return nil }
        var bytes = 0, end = text.unicodeScalars.endIndex
        for i in text.unicodeScalars.indices {
            let n = UTF8.width(text.unicodeScalars[i])
            if bytes + n > maxBytes { end = i; break }
            bytes += n
        }
        return String(text.unicodeScalars[..<end])
    }

    /// Why this box cannot be kept as it is, or nil when it can (what the store checks both ways).
    public var problem: String? {
        if text.utf8.count > Self.maxTextBytes { return "text of \(text.utf8.count) bytes is over the \(Self.maxTextBytes)-byte limit of a text box" }
        if font.isEmpty || font.utf8.count > Self.maxFontBytes { return "font name of \(font.utf8.count) bytes" }
        if !Self.sizeRange.contains(size) { return "text size \(size) is outside \(Self.sizeRange)" }
        if !Self.widthRange.contains(width) { return "text width \(width) is outside \(Self.widthRange)" }
        return nil
    }
}

/// An image: the embedded file holding its encoded bytes (`Document.files`) and its size in pixels.
public struct ImageBox: Hashable, Sendable {
    public var file: ContentHash
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The LaTeX formula the picture shows, nil for a picture.
    public var formula: Formula?

    public init(file: ContentHash, pixelWidth: Int, pixelHeight: Int, formula: Formula? = nil) {
        self.file = file; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight; self.formula = formula
    }

    /// Every embedded file the item needs: its picture, and its formula's PDF.
    public var files: [ContentHash] { [file] + (formula?.pdf.map { [$0] } ?? []) }

    public var problem: String? {
        // The decoder's limit: an item the store keeps is one that draws.
        guard ImageLimits.allow(width: pixelWidth, height: pixelHeight) else {
            return "image of \(pixelWidth) × \(pixelHeight) pixels; images \(ImageLimits.wording) are accepted"
        }
        return formula?.problem
    }
}

extension Stroke {
    /// A text box or image item: drawn points are the box's corners, `frame` in page units (top-left, bottom-right).
    public init(id: StrokeID, content: StrokeContent, frame: Rect, page: PageID = Page.firstID, order: StrokeID? = nil,
                transform: AffineMap = .identity) {
        let color: RGBA = content.text?.color ?? .black
        self.init(id: id, style: StrokeStyle(tool: .pen, color: color, width: 1, trace: .polyline),
                  points: [InkPoint(x: frame.minX, y: frame.minY), InkPoint(x: frame.maxX, y: frame.maxY)],
                  order: order, page: page, transform: transform, content: content)
    }

    /// A text or image item's box as drawn (before `transform`), nil for ink or a malformed item.
    public var drawnBox: Rect? {
        guard !content.isInk else { return nil }
        let p = drawnPoints
        guard p.count == 2 else { return nil }
        return Rect(minX: min(p[0].x, p[1].x), minY: min(p[0].y, p[1].y), maxX: max(p[0].x, p[1].x), maxY: max(p[0].y, p[1].y))
    }

    /// The drawn box's corners where they are shown (top-left, top-right, bottom-right, bottom-left, under `transform`).
    public var shownCorners: [Point]? { drawnBox.map(shownCorners(of:)) }

    /// The corners of `r` (page units, before `transform`) where they are shown, in the same order.
    func shownCorners(of r: Rect) -> [Point] {
        [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)].map { transform.apply($0) }
    }

    /// True when `p` (page units) is inside a text box's or image's shown box.
    public func boxContains(_ p: Point) -> Bool {
        guard let b = drawnBox, let q = pointInBox(p) else { return false }
        return q.x >= 0 && q.x <= b.width && q.y >= 0 && q.y <= b.height
    }

    /// `p` (page units) in the drawn box's own units: from its top-left corner, before `transform`.
    public func pointInBox(_ p: Point) -> Point? {
        guard let b = drawnBox, let inv = transform.inverted else { return nil }
        let q = inv.apply(p)
        return Point(q.x - b.minX, q.y - b.minY)
    }
}
