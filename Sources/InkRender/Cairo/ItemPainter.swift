import InkCore

/// One item of a page in drawing order, whatever it is: ink is filled by `Painter`, images by `ImagePainter`,
/// text by `TextPainter`. The one switch the vector exports share.
enum ItemPainter {
    /// `deviceScale`: device pixels per page unit, nil for a vector surface (images at full resolution).
    /// `multiply`: highlighters multiply what is under them (false: they cover it, for `LayeredExport`).
    static func draw(_ s: Stroke, in ctx: CairoContext, deviceScale: Double?, multiply: Bool = true) {
        switch s.content {
        case .ink:
            guard s.style.color.a > 0 else { return }
            Painter.fill(s, in: ctx, deviceScale: deviceScale ?? SVGWriter.shapingScale, multiply: multiply)
        case .image(let box):
            ImagePainter.shared.draw(box, of: s, in: ctx, deviceScale: deviceScale)
        case .text:
            TextPainter.draw(s, in: ctx)
        }
    }

    /// Makes a document's embedded images drawable.
    static func provide(_ files: [ContentHash: [UInt8]]) {
        guard !files.isEmpty else { return }
        ImagePainter.shared.provide(files)
    }
}
