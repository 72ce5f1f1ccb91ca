import InkCore

/// A page's lines or dots on screen. Drawn by the shared `BackgroundPainter` once it is on main (one source for
/// screen and exports); until then the screen shows plain paper.
enum SheetPattern {
    static func paint(_ background: Background, endless: Bool, drawing: Drawing, in ctx: CairoContext, visible: Rect, deviceScale: Double) {}
}
