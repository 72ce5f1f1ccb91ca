import Foundation
import InkCore

/// A file manager's preview: the page scaled to fit a `size`×`size` square, centred, transparent outside the page.
///
/// The strokes are drawn straight at thumbnail resolution (the painter skips points closer than a fraction of a
/// device pixel, so a million points cost little more than reading them), streamed as `LayeredExport` does.
public enum Thumbnail {
    /// The freedesktop "large" thumbnail.
    public static let defaultSize = 256
    /// Larger than any thumbnail a desktop asks for, small enough that a hostile `--size` cannot exhaust memory.
    public static let maxSize = 4096
    /// Stroke points closer than this many thumbnail pixels are skipped.
    static let pixelSpacing = 1.0

    /// The square image: the page fitted and centred on transparent pixels.
    public static func render(pageSize: Size, background: RGBA, runs: [StrokeRun], size: Int) throws -> ImageSurface {
        guard (1...maxSize).contains(size) else {
            throw RenderError.pageTooLarge("thumbnail size must be 1 to \(maxSize) pixels, not \(size)")
        }
        try Exporter.checkPage(pageSize)
        let scale = Double(size) / max(pageSize.width, pageSize.height)
        let page = try LayeredExport.render(pageSize: pageSize, background: background, runs: runs, scale: scale,
                                            detail: .preview(pixelSpacing: pixelSpacing))
        let square = try ImageSurface(width: size, height: size)
        // Whole-pixel offsets keep the page's edges sharp.
        let dx = Double(max(0, (size - page.width) / 2)), dy = Double(max(0, (size - page.height) / 2))
        CairoContext(drawingInto: square).paint(page, atX: dx, y: dy)
        return square
    }

    /// Renders and writes the PNG atomically (a failure leaves an earlier file as it was).
    public static func writePNG(pageSize: Size, background: RGBA, runs: [StrokeRun], size: Int, to path: String) throws {
        let image = try render(pageSize: pageSize, background: background, runs: runs, size: size)
        let bytes: [[UInt8]]
        do { bytes = try PNGEncoder.chunks(image, opaque: false) } catch {
            throw RenderError.pageTooLarge("cannot encode the PNG: \(error)")
        }
        try FileOutput.write(bytes, to: path)
    }
}
