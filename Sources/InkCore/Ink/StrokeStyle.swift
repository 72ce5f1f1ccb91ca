/// How a stroke looks. Only `.pen` and `.highlighter` strokes exist in a drawing; erasers use the style for their radius.
public struct StrokeStyle: Hashable, Sendable {
    public var tool: Tool
    public var color: RGBA
    /// Nominal width in page units: the diameter at pressure 0.5.
    public var width: Double
    /// How the points become ink: smoothed (pen input) or straight between the points (shapes, imports).
    /// Part of the style so area-eraser pieces keep it.
    public var trace: Trace
    /// Xournal++'s `fill`: the area inside the stroke's points filled with its colour at this alpha (0…255); nil:
    /// not filled. A filled highlighter is its ink and fill as one area at this alpha instead of the highlighter's.
    public var fill: UInt8?
    /// Dashes along the line (`LineStyle.solid`: none).
    public var line: LineStyle
    /// How the ends (and each dash's ends) are drawn.
    public var cap: CapStyle

    public init(tool: Tool = .pen, color: RGBA = .black, width: Double = 3, trace: Trace = .smoothed,
                fill: UInt8? = nil, line: LineStyle = .solid, cap: CapStyle = .round) {
        self.tool = tool; self.color = color; self.width = width; self.trace = trace
        self.fill = fill; self.line = line; self.cap = cap
    }

    /// Solid, unfilled and round-capped: drawn as one outline, with nothing else to draw or store.
    public var isPlainLine: Bool { fill == nil && line.isSolid && cap == .round }

    /// What the outline is filled with: the colour, but a filled highlighter's ink and fill are one area at the
    /// fill's alpha (as Xournal++ paints them: full colour into a group, the group at fill/255).
    public var inkColor: RGBA {
        guard tool == .highlighter, let f = fill else { return color }
        return RGBA(r: color.r, g: color.g, b: color.b, a: f)
    }

    /// What a pen's fill area is filled with (nil: none, or a highlighter, whose fill is in its outline): the
    /// colour at fill/255 of its alpha, drawn under the ink.
    public var fillColor: RGBA? {
        guard let f = fill, tool != .highlighter else { return nil }
        return RGBA(r: color.r, g: color.g, b: color.b, a: UInt8((Int(f) * Int(color.a) + 127) / 255))
    }

    /// Highlighters multiply what is under them (Xournal++'s CAIRO_OPERATOR_MULTIPLY): dark ink stays dark under
    /// them and two highlighters darken where they cross, as marker on paper does.
    public var multiplies: Bool { tool == .highlighter }
}

/// How a stroke's points are joined into ink.
public enum Trace: String, Hashable, Sendable, CaseIterable {
    /// Pen input: jitter is smoothed away and sparse samples get gentle curves (within a narrow band).
    case smoothed
    /// Already final (a shape, an imported stroke): straight segments between the points, each segment as wide
    /// as its first point gives (how Xournal++ draws pressure strokes).
    case polyline
}
