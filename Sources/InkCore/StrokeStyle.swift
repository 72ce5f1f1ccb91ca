/// How a stroke looks. Only `.pen` and `.highlighter` strokes exist in a drawing; erasers use the style for their radius.
public struct StrokeStyle: Hashable, Sendable {
    public var tool: Tool
    public var color: RGBA
    /// Nominal width in page units: the diameter at pressure 0.5.
    public var width: Double

    public init(tool: Tool = .pen, color: RGBA = .black, width: Double = 3) {
        self.tool = tool; self.color = color; self.width = width
    }
}
