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

        /// Distance between lines (or dots) in page units when none is given.
        public var defaultSpacing: Double {
            switch self {
            case .plain, .ruled, .lined: return 24
            case .graph, .dotted: return 14.17
            }
        }
    }

    public var style: Style
    public var paper: RGBA
    public var line: RGBA
    /// Distance between lines or dots, in page units.
    public var spacing: Double

    /// Xournal++'s blue for ruled lines and squares.
    public static let defaultLine = RGBA(r: 0x40, g: 0xa0, b: 0xff)
    /// The smallest and largest spacing kept: below it the lines would fill the page, above it none would show.
    public static let spacingRange = 1.0...10_000.0

    public init(style: Style = .plain, paper: RGBA = .white, line: RGBA = Background.defaultLine, spacing: Double? = nil) {
        self.style = style; self.paper = paper; self.line = line
        let s = spacing ?? style.defaultSpacing
        self.spacing = s.isFinite ? min(max(s, Self.spacingRange.lowerBound), Self.spacingRange.upperBound) : style.defaultSpacing
    }

    public static let plain = Background()
}
