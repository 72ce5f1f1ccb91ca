/// What the pointer does on the canvas. Raw values are the names used in event logs and the UI.
public enum Tool: String, CaseIterable, Sendable {
    case pen
    case highlighter
    /// Removes every stroke whose inked area it touches.
    case strokeEraser = "stroke-eraser"
    /// Cuts the covered parts out of strokes; what remains stays vector.
    case areaEraser = "area-eraser"
    /// Shape tools: a drag from where the pointer went down to where it lifts makes a pen stroke of that shape.
    case line
    case arrow
    case rectangle
    case ellipse
    /// Selection tools: a freehand loop, or a box from where the pointer went down to where it lifts.
    /// A tap with either selects the topmost stroke under the pointer.
    case lasso
    case selectRect = "select-rect"
    /// Text boxes: a click places a box to type in (the app edits it; the editor draws nothing with it).
    case text
    /// The laser pointer: ink that glows and fades away after the pen lifts; never stored (see `LaserPointer`).
    case laser

    public var isEraser: Bool { self == .strokeEraser || self == .areaEraser }
    public var isShape: Bool { self == .line || self == .arrow || self == .rectangle || self == .ellipse }
    public var isSelection: Bool { self == .lasso || self == .selectRect }
}

/// The three pen sizes of the seed apps, plus the defaults a new user starts with.
public enum PenSize: CaseIterable, Sendable {
    case fine, medium, bold
    public func width(for tool: Tool) -> Double {
        switch (tool, self) {
        case (.highlighter, .fine): return 8
        case (.highlighter, .medium): return 16
        case (.highlighter, .bold): return 28
        case (.strokeEraser, .fine), (.areaEraser, .fine): return 8
        case (.strokeEraser, .medium), (.areaEraser, .medium): return 20
        case (.strokeEraser, .bold), (.areaEraser, .bold): return 48
        case (_, .fine): return 1.5
        case (_, .medium): return 3
        case (_, .bold): return 6
        }
    }
}
