/// How a stroke looks. Only `.pen` and `.highlighter` strokes exist in a drawing; erasers use the style for their radius.
public struct StrokeStyle: Hashable, Sendable {
    public var tool: Tool
    public var color: RGBA
    /// Nominal width in page units: the diameter at pressure 0.5.
    public var width: Double
    /// How the points become ink: smoothed (pen input) or straight between the points (shapes, imports).
    /// Part of the style so area-eraser pieces keep it.
    public var trace: Trace

    public init(tool: Tool = .pen, color: RGBA = .black, width: Double = 3, trace: Trace = .smoothed) {
        self.tool = tool; self.color = color; self.width = width; self.trace = trace
    }
}

/// How a stroke's points are joined into ink.
public enum Trace: String, Hashable, Sendable, CaseIterable {
    /// Pen input: jitter is smoothed away and sparse samples get gentle curves (within a narrow band).
    case smoothed
    /// Already final (a shape, an imported stroke): straight segments between the points, each segment as wide
    /// as its first point gives (how Xournal++ draws pressure strokes).
    case polyline
}
