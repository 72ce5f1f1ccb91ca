import InkCore

/// Draws strokes as filled outlines: antialiased, non-zero rule, one fill per stroke, so a
/// translucent highlighter has one flat coverage even where it crosses itself. A pen's `fill` is one more fill
/// under the ink; highlighters multiply what is under them.
public enum Painter {
    /// Shaping options for a stroke drawn at `deviceScale` device pixels per page unit: points closer than
    /// a fraction of a device pixel add nothing visible, so they are skipped.
    static func options(for style: StrokeStyle, deviceScale: Double) -> StrokeShape.Options {
        var o = StrokeShape.options(for: style)
        if deviceScale.isFinite, deviceScale > 0 { o.minSpacing = max(o.minSpacing, 0.3 / deviceScale) }
        return o
    }

    /// Empty for text and images: their painters draw them, not the ink outline of their two corners.
    public static func outline(of stroke: Stroke, deviceScale: Double) -> [Point] {
        guard stroke.content.isInk else { return [] }
        return StrokeShape.outline(of: stroke, options: options(for: stroke.style, deviceScale: deviceScale))
    }

    /// Fills ink; an image item is drawn by `ImagePainter` (every raster path comes through here).
    static func fill(_ stroke: Stroke, in ctx: CairoContext, deviceScale: Double, multiply: Bool = true) {
        if case .image(let box) = stroke.content {
            ImagePainter.shared.draw(box, of: stroke, in: ctx, deviceScale: deviceScale)
            return
        }
        let style = stroke.style
        // A pen's fill under its ink, as Xournal++ draws it.
        if let c = style.fillColor, let area = StrokeShape.fillArea(of: stroke) { ctx.fillPolygon(area, color: c) }
        if style.isPlainLine {
            ctx.fillPolygon(outline(of: stroke, deviceScale: deviceScale), color: style.inkColor, multiply: multiply && style.multiplies)
        } else {
            ctx.fillRings(rings(of: stroke, deviceScale: deviceScale), color: style.inkColor, multiply: multiply && style.multiplies)
        }
    }

    /// The loops of `StrokeShape.outlineRings` at this scale (empty for text and images).
    public static func rings(of stroke: Stroke, deviceScale: Double) -> [[Point]] {
        guard stroke.content.isInk else { return [] }
        return StrokeShape.outlineRings(of: stroke, options: options(for: stroke.style, deviceScale: deviceScale))
    }
}
