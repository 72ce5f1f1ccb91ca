import InkCore
import InkRender

/// What changes often and alone over the canvas (the ink being drawn, the eraser's outline following the pointer),
/// shown by a drawing area of its own that covers only where it lies. GTK repaints what differs between two
/// frames: the canvas is one drawing area, redrawn as a whole, so a pen frame drawn there repaints the whole
/// window (GSK replays the raster, the X server composites every pixel); a frame drawn here repaints this box and
/// GTK reuses the canvas's last picture under it.
final class CanvasPatch {
    /// What the window stacks over the canvas; pointer, touch and stylus events pass through it to the canvas.
    let widget: Widget
    private let area: Widget
    /// Where the area sits, in the canvas's logical pixels; nil while it shows nothing.
    private var placed: Rect?
    /// Draws what it shows in the canvas's logical pixels (the area's offset is taken out before).
    var draw: ((CairoContext) -> Void)?

    init() {
        area = Widgets.drawingArea()
        area.passInputThrough()
        area.setVisible(false)
        widget = Widgets.fixed(area)
        widget.passInputThrough()
        setDrawFunction(area) { [weak self] cr, _, _ in
            guard let self, let r = self.placed else { return }
            cr.translate(-r.minX, -r.minY)
            self.draw?(cr)
        }
    }

    /// Covers the whole pixels `rect` touches (logical pixels of a canvas of `canvas` size, clipped to it; nil:
    /// nothing to show) and repaints them.
    func show(_ rect: Rect?, on canvas: Size) {
        let view = Rect(x: 0, y: 0, width: canvas.width.rounded(.down), height: canvas.height.rounded(.down))
        guard let rect = rect?.roundedOut.intersection(view), rect.width >= 1, rect.height >= 1 else {
            if placed != nil { placed = nil; area.setVisible(false) }
            return
        }
        if rect != placed {
            if placed == nil { area.setVisible(true) }
            area.setSizeRequest(width: Int(rect.width), height: Int(rect.height))
            widget.moveChild(area, x: rect.minX, y: rect.minY)
            placed = rect
        }
        area.queueDraw()
    }
}
