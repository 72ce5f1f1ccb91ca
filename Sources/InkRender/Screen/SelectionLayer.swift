import InkCore

/// The selection while it is dragged, resized or turned: its strokes rendered once into a transparent,
/// view-sized layer when the drag starts, then composited under a view-space map every frame. The cost per
/// pointer event is one composite of the layer, whatever the selection holds; the final geometry is computed
/// once, on release. Ink outside the view when the drag started shows again when the drag ends.
public final class SelectionLayer {
    public let transform: ViewTransform
    public let viewSize: Size
    private let surface: ImageSurface

    /// Renders `strokes` as seen through `transform` into a layer the size of the view (logical `viewSize`).
    public init(strokes: [Stroke], viewSize: Size, transform: ViewTransform) throws {
        let w = (viewSize.width * transform.deviceScale).rounded(.up), h = (viewSize.height * transform.deviceScale).rounded(.up)
        guard transform.isUsable, w.isFinite, h.isFinite, w >= 1, h >= 1,
              w <= Double(ScreenCache.maxPixelsPerSide), h <= Double(ScreenCache.maxPixelsPerSide) else {
            throw RenderError.pageTooLarge("a \(viewSize.width)×\(viewSize.height) selection layer is outside 1…\(ScreenCache.maxPixelsPerSide) pixels a side")
        }
        surface = try ImageSurface(width: Int(w), height: Int(h))
        self.transform = transform; self.viewSize = viewSize
        BandRenderer.render(Drawing(strokes: strokes), into: surface, mapping: ScreenCache.mapping(transform, overscan: 0), background: nil)
    }

    /// Composites the layer onto `target` (GTK's context: logical pixels at the widget's origin), moved by
    /// `map`, a map of view (logical pixel) coordinates.
    public func draw(into target: CairoContext, map: AffineMap = .identity) {
        target.save()
        target.concat(map)
        target.concat(scale: 1 / transform.deviceScale)
        target.paint(surface)
        target.restore()
    }

    /// The layer's pixel at device (x, y), for tests.
    public func pixel(x: Int, y: Int) -> RGBA { surface.pixel(x: x, y: y) }
}
