import InkCore

/// One item of a page in drawing order, whatever it is: ink is filled by `Painter` (text and images go to
/// their painters). The one switch the vector exports share.
enum ItemPainter {
    static func draw(_ s: Stroke, in ctx: CairoContext, deviceScale: Double) {
        switch s.content {
        case .ink:
            guard s.style.color.a > 0 else { return }
            Painter.fill(s, in: ctx, deviceScale: deviceScale)
        case .text:
            TextPainter.draw(s, in: ctx)
        case .image:
            break
        }
    }
}
