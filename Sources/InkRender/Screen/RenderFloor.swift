import InkCore

/// What a render of the screen cannot go below with cairo: filling the outlines of the ink in a view, shaped
/// beforehand, into one surface on one thread (no bands, no shaping, no cache, no paper). `oekaki-bench
/// --view-render` times `fill()` beside the real render, so the report can say how much of a zoom step is
/// cairo's fill itself and how much is ours.
public struct RenderFloor {
    private let outlines: [(outline: [Point], color: RGBA)]
    private let mapping: DeviceMapping
    private let width: Int, height: Int
    /// Outline vertices handed to cairo.
    public let vertices: Int

    /// Shapes the ink of `scene` in device rect `area` of a view at `transform` (not timed).
    public init(_ scene: Scene, area: Rect, transform: ViewTransform) {
        var m = transform.deviceMapping
        m.dx -= area.minX; m.dy -= area.minY
        mapping = m
        width = max(Int(area.width.rounded(.up)), 1); height = max(Int(area.height.rounded(.up)), 1)
        let reach = Rect(minX: -1, minY: -1, maxX: Double(width) + 1, maxY: Double(height) + 1)
        var out: [(outline: [Point], color: RGBA)] = []
        for sheet in scene.sheets(meeting: m.pageRect(ofDevice: reach)) {
            let pm = m.placed(at: sheet.origin)
            for s in sheet.strokes(in: pm.pageRect(ofDevice: reach)) where s.content.isInk && s.style.color.a > 0 {
                // Page units moved by the sheet's origin, so one transform serves every sheet.
                let o = Painter.outline(of: s, deviceScale: pm.scale).map { Point($0.x + sheet.origin.x, $0.y + sheet.origin.y) }
                out.append((o, s.style.color))
            }
        }
        outlines = out
        vertices = out.reduce(0) { $0 + $1.outline.count }
    }

    /// Fills every outline, in order, into a new transparent surface of the area's size.
    public func fill() throws {
        let surface = try ImageSurface(width: width, height: height)
        let ctx = CairoContext(drawingInto: surface)
        ctx.setTransform(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy)
        for (outline, color) in outlines { ctx.fillPolygon(outline, color: color) }
        surface.markDirty()
    }
}
