import InkCore
import InkRender

/// Small control faces (colour swatches, size dots, tool icons the theme lacks), painted through InkRender's
/// cairo wrapper.
enum Faces {
    static func swatch(_ color: RGBA) -> (CairoContext, Double, Double) -> Void {
        { cr, w, h in
            let r = min(w, h) / 2 - 1
            cr.arc(Point(w / 2, h / 2), radius: r)
            let c = color.unit
            cr.setSource(red: c.r, green: c.g, blue: c.b, alpha: max(c.a, 0.6))
            cr.fill(keepPath: true)
            cr.setSource(red: 0, green: 0, blue: 0, alpha: 0.35)
            cr.setLineWidth(1)
            cr.stroke()
        }
    }

    /// A serif capital T: the text tool.
    static func text(_ cr: CairoContext, _ w: Double, _ h: Double) {
        cr.setSource(red: 0.15, green: 0.15, blue: 0.15)
        cr.rectangle(x: w * 0.15, y: h * 0.12, width: w * 0.7, height: h * 0.14)
        cr.rectangle(x: w * 0.43, y: h * 0.12, width: w * 0.14, height: h * 0.76)
        cr.rectangle(x: w * 0.32, y: h * 0.8, width: w * 0.36, height: h * 0.1)
        cr.fill()
    }

    /// A chisel-tip marker laying down a translucent yellow band.
    static func highlighter(_ cr: CairoContext, _ w: Double, _ h: Double) {
        cr.save()
        cr.setSource(red: 0.96, green: 0.83, blue: 0.0, alpha: 0.75)
        cr.rectangle(x: 0, y: h * 0.72, width: w * 0.62, height: h * 0.26)
        cr.fill()
        // The marker body, slanted, its tip resting on the band's right end.
        cr.translate(w * 0.62, h * 0.72)
        cr.rotate(-Double.pi / 4)
        cr.setSource(red: 0.2, green: 0.2, blue: 0.22)
        cr.rectangle(x: 0, y: -h * 0.16, width: w * 0.72, height: h * 0.32)
        cr.fill()
        cr.move(to: 0, -h * 0.16); cr.line(to: -w * 0.18, -h * 0.08)
        cr.line(to: -w * 0.18, h * 0.08); cr.line(to: 0, h * 0.16)
        cr.closePath()
        cr.fill()
        cr.restore()
    }

    /// A shape tool's icon: the shape itself, in ink.
    static func shape(_ tool: Tool) -> (CairoContext, Double, Double) -> Void {
        { cr, w, h in
            let m = 3.0
            cr.setSource(red: 0.15, green: 0.15, blue: 0.15)
            cr.setLineWidth(1.6)
            cr.setLineEnds(.round)
            switch tool {
            case .line:
                cr.move(to: m, h - m); cr.line(to: w - m, m)
            case .arrow:
                cr.move(to: m, h - m); cr.line(to: w - m, m)
                cr.move(to: w - m - 6, m); cr.line(to: w - m, m); cr.line(to: w - m, m + 6)
            case .ellipse:
                cr.save()
                cr.translate(w / 2, h / 2)
                cr.scale((w - 2 * m) / 2, (h - 2 * m) / 2.6)
                cr.arc(Point(0, 0), radius: 1)
                cr.restore()
            case .lasso:
                // A dashed loop with its tail: what the lasso draws.
                cr.save()
                cr.translate(w / 2, h / 2 - 1)
                cr.scale((w - 2 * m) / 2, (h - 2 * m) / 3)
                cr.arc(Point(0, 0), radius: 1)
                cr.restore()
                cr.setDash([2.5, 2], offset: 0)
                cr.stroke()
                cr.setDash([])
                cr.move(to: w / 2 - 2, h / 2 + (h - 2 * m) / 3 - 1); cr.line(to: w / 2 - 4, h - m)
            case .selectRect:
                cr.rectangle(x: m, y: m + 2, width: w - 2 * m, height: h - 2 * m - 4)
                cr.setDash([2.5, 2], offset: 0)
                cr.stroke()
                cr.setDash([])
            case .text:
                text(cr, w, h)
                return
            default:
                cr.rectangle(x: m, y: m + 2, width: w - 2 * m, height: h - 2 * m - 4)
            }
            cr.stroke()
        }
    }

    static func dot(diameter: Double) -> (CairoContext, Double, Double) -> Void {
        { cr, w, h in
            cr.arc(Point(w / 2, h / 2), radius: min(diameter, min(w, h)) / 2)
            cr.setSource(red: 0.15, green: 0.15, blue: 0.15)
            cr.fill()
        }
    }

    /// A square at the fill's alpha inside a dark outline (nil: the outline alone).
    static func fill(_ alpha: UInt8?) -> (CairoContext, Double, Double) -> Void {
        { cr, w, h in
            let side = min(w, h) - 4
            let r = Rect(x: (w - side) / 2, y: (h - side) / 2, width: side, height: side)
            if let a = alpha {
                cr.rectangle(r)
                cr.setSource(red: 0.11, green: 0.44, blue: 0.85, alpha: Double(a) / 255)
                cr.fill()
            }
            cr.rectangle(r)
            cr.setSource(red: 0.15, green: 0.15, blue: 0.15)
            cr.setLineWidth(1.5)
            cr.stroke()
        }
    }

    /// A line across the face with the style's dashes (a little enlarged, and no dash under 2 px, to be legible).
    static func line(_ style: LineStyle) -> (CairoContext, Double, Double) -> Void {
        { cr, w, h in
            cr.setSource(red: 0.15, green: 0.15, blue: 0.15)
            cr.setLineWidth(2)
            cr.setDash(style.dashes.enumerated().map { i, v in i % 2 == 0 ? max(v * 1.3, 2) : v * 1.3 })
            cr.move(to: 2, h / 2); cr.line(to: w - 2, h / 2)
            cr.stroke()
            cr.setDash([])
        }
    }
}
