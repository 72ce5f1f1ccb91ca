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
}

/// How a stroke's points are joined into ink.
public enum Trace: String, Hashable, Sendable, CaseIterable {
    /// Pen input: jitter is smoothed away and sparse samples get gentle curves (within a narrow band).
    case smoothed
    /// Already final (a shape, an imported stroke): straight segments between the points, each segment as wide
    /// as its first point gives (how Xournal++ draws pressure strokes).
    case polyline
}
