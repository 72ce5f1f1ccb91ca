/// The paper a page is drawn on: its colour, and the lines, squares or dots printed on it.
/// The defaults are Xournal++'s, so imported notebooks and ours look alike.
public struct Background: Hashable, Sendable {
    public enum Style: String, CaseIterable, Sendable {
        /// Nothing printed.
        case plain
        /// Horizontal lines.
        case ruled
        /// Horizontal lines with a margin line on the left.
        case lined
        /// Squares.
        case graph
        /// A dot at every crossing of a square grid.
        case dotted
        /// Triangles of side `spacing` (Xournal++'s "isometric graph": vertical lines and two slopes of 30°).
        case isograph
        /// A dot at every corner of those triangles (Xournal++'s "isometric dotted").
        case isodotted
        /// Music staves: five lines 5 units apart, staves 40 units apart, 50 units in from either side.
        case staves

        /// Line colour when none is given: Xournal++'s blue for lines, its silver for squares, triangles and
        /// dots, black for staves.
        public var defaultLine: RGBA {
            switch self {
            case .plain, .ruled, .lined: return Background.defaultLine
            case .graph, .dotted, .isograph, .isodotted: return RGBA(r: 0xbd, g: 0xbd, b: 0xbd)
            case .staves: return .black
            }
        }

        /// Distance between lines (or dots) in page units when none is given (staves: between a stave's lines).
        public var defaultSpacing: Double {
            switch self {
            case .plain, .ruled, .lined: return 24
            case .graph, .dotted, .isograph, .isodotted: return 14.17
            case .staves: return 5
            }
        }
    }

    public var style: Style
    public var paper: RGBA
    public var line: RGBA
    /// Distance between lines or dots, in page units.
    public var spacing: Double
    /// Graph paper only: blank paper this wide around the squares, grown to centre a whole number of squares
    /// (Xournal++'s `m1` with `rm=1`); 0 fills the page.
    public var margin: Double
    /// A page of an embedded PDF drawn on the paper (scaled to the page), under every item; nil for none.
    public var pdf: PDFPageRef?
    /// An embedded picture (PNG or JPEG, `Document.files`) stretched over the page on the paper, under every item:
    /// Xournal++'s image background. Unlike a picture item, it is not selected, moved or erased; nil for none.
    public var picture: ContentHash?

    /// Xournal++'s blue for ruled lines.
    public static let defaultLine = RGBA(r: 0x40, g: 0xa0, b: 0xff)
    /// The margin line of `lined` paper (Xournal++'s), one inch from the left edge.
    public static let marginLine = RGBA(r: 0xff, g: 0x00, b: 0x80)
    public static let marginX = 72.0
    /// The smallest and largest spacing kept: below it the lines would fill the page, above it none would show.
    public static let spacingRange = 1.0...10_000.0

    public init(style: Style = .plain, paper: RGBA = .white, line: RGBA? = nil, spacing: Double? = nil, margin: Double = 0,
                pdf: PDFPageRef? = nil, picture: ContentHash? = nil) {
        self.pdf = pdf; self.picture = picture
        self.style = style; self.paper = paper; self.line = line ?? style.defaultLine
        let s = spacing ?? style.defaultSpacing
        self.spacing = s.isFinite ? min(max(s, Self.spacingRange.lowerBound), Self.spacingRange.upperBound) : style.defaultSpacing
        self.margin = margin.isFinite ? min(max(margin, 0), Self.spacingRange.upperBound) : 0
    }

    public static let plain = Background()

    /// The embedded files the page shows: its PDF and its picture.
    public var files: [ContentHash] { (pdf.map { [$0.file] } ?? []) + (picture.map { [$0] } ?? []) }

    /// Nothing printed on the paper: no lines or dots and no picture (a PDF page is drawn apart).
    public var isPlainPaper: Bool { style == .plain && picture == nil }

    /// This paper ruled in `style`: the paper colour kept, the line colour too unless it is the old style's default
    /// (then the new style's), the spacing kept for the same style.
    public func restyled(_ style: Style) -> Background {
        Background(style: style, paper: paper, line: line == self.style.defaultLine ? nil : line,
                   spacing: style == self.style ? spacing : nil)
    }
}

/// One page of an embedded PDF (`Document.files`) used as a page's background.
public struct PDFPageRef: Hashable, Sendable {
    public var file: ContentHash
    /// 0-based page of that PDF.
    public var index: Int
    public init(file: ContentHash, index: Int) { self.file = file; self.index = index }

    /// Most pages a PDF background may name.
    public static let maxIndex = 1_000_000
}
