import InkCore

/// Draws strokes as filled outlines: antialiased, non-zero rule, one fill per stroke, so a
/// translucent highlighter has one flat coverage even where it crosses itself.
enum Painter {
    /// Points closer than this many device pixels add nothing visible, so they are skipped.
    static let defaultPixelSpacing = 0.3

    /// Shaping options for a stroke drawn at `deviceScale` device pixels per page unit.
    static func options(for style: StrokeStyle, deviceScale: Double, pixelSpacing: Double = defaultPixelSpacing) -> StrokeShape.Options {
        var o = StrokeShape.options(for: style)
        if deviceScale.isFinite, deviceScale > 0 { o.minSpacing = max(o.minSpacing, pixelSpacing / deviceScale) }
        return o
    }

    static func outline(of stroke: Stroke, deviceScale: Double, pixelSpacing: Double = defaultPixelSpacing) -> [Point] {
        StrokeShape.outline(of: stroke, options: options(for: stroke.style, deviceScale: deviceScale, pixelSpacing: pixelSpacing))
    }

    /// A coarse outline for thumbnails: round caps and joins of a stroke a few pixels wide need few vertices.
    static func previewOutline(of stroke: Stroke, deviceScale: Double, pixelSpacing: Double) -> [Point] {
        var o = options(for: stroke.style, deviceScale: deviceScale, pixelSpacing: pixelSpacing)
        o.capSegments = 2
        o.roundJoinAngle = 1.2
        return StrokeShape.outline(of: stroke, options: o)
    }

    static func fill(_ stroke: Stroke, in ctx: CairoContext, deviceScale: Double, pixelSpacing: Double = defaultPixelSpacing) {
        ctx.fillPolygon(outline(of: stroke, deviceScale: deviceScale, pixelSpacing: pixelSpacing), color: stroke.style.color)
    }
}
