import InkCore

/// A page's lines or dots on screen, drawn by the same `BackgroundPainter` as the exports (vector marks at the
/// raster's resolution: crisp at every zoom). A fixed page lays them out on its own frame; an endless page
/// repeats them from its origin across whatever is visible.
enum SheetPattern {
    static func paint(_ background: Background, endless: Bool, pageSize: Size, in ctx: CairoContext, visible: Rect, deviceScale: Double) {
        let frame = endless ? visible : Rect(x: 0, y: 0, width: pageSize.width, height: pageSize.height)
        BackgroundPainter.paint(Paper(background: background, frame: frame, endless: endless), in: ctx, visible: visible, deviceScale: deviceScale)
    }
}
