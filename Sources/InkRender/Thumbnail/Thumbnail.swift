import Dispatch
import Foundation
import InkCore

/// A file manager's preview: the page scaled to fit a `size`×`size` square, centred, transparent outside the page.
///
/// The strokes arrive as runs (streamed from the file, as `LayeredExport` takes them); each run is drawn on its own
/// thread into its own `PreviewRaster` at thumbnail resolution, and the layers are composited in order. The ink never
/// goes through cairo; a PDF page under it, and pictures and filled or dashed ink among it, are drawn by cairo into
/// a layer and composited in their place, text boxes by Pango over the result.
public enum Thumbnail {
    /// The freedesktop "large" thumbnail.
    public static let defaultSize = 256
    /// Larger than any thumbnail a desktop asks for, small enough that a hostile `--size` cannot exhaust memory.
    public static let maxSize = 4096

    /// One thread's share of the strokes, in drawing order. Ink may come to `ink` as its style, placement and
    /// points as columns (what a file's stream decodes without building strokes); anything may come to `stroke`.
    public typealias Run = (_ ink: (StrokeStyle, AffineMap, PointColumns) throws -> Void, _ stroke: (Stroke) throws -> Void) throws -> Void

    /// Stroke runs as thumbnail runs (every stroke whole).
    static func whole(_ runs: [StrokeRun]) -> [Run] {
        runs.map { run in { _, stroke in try run(stroke) } }
    }

    /// The square image: the page fitted and centred on transparent pixels.
    public static func render(pageSize: Size, background: RGBA, backdrop: PDFBackdrop? = nil, runs: [StrokeRun], size: Int) throws -> ImageSurface {
        try render(frame: Rect(x: 0, y: 0, width: pageSize.width, height: pageSize.height), background: background, backdrop: backdrop,
                   inkRuns: whole(runs), size: size)
    }

    /// The square image of `frame` (page coordinates: a fixed page, or an endless page's ink with a margin), with
    /// `backdrop` (the page's PDF page, stretched over the page rect at the origin) and `picture` (its picture
    /// background, stretched the same way) over the paper.
    public static func render(frame: Rect, background: RGBA, backdrop: PDFBackdrop? = nil, picture: ContentHash? = nil, runs: [StrokeRun], size: Int) throws -> ImageSurface {
        try render(frame: frame, background: background, backdrop: backdrop, picture: picture, inkRuns: whole(runs), size: size)
    }

    /// The square image of `frame` drawn from thumbnail runs.
    public static func render(frame: Rect, background: RGBA, backdrop: PDFBackdrop? = nil, picture: ContentHash? = nil, inkRuns runs: [Run], size: Int) throws -> ImageSurface {
        guard (1...maxSize).contains(size) else {
            throw RenderError.pageTooLarge("thumbnail size must be 1 to \(maxSize) pixels, not \(size)")
        }
        try Exporter.checkPage(Size(width: frame.width, height: frame.height))
        guard frame.minX.isFinite, frame.minY.isFinite else { throw RenderError.pageTooLarge("the page's frame is not finite") }
        let scale = Double(size) / max(frame.width, frame.height)
        let (pw, ph) = (frame.width * scale, frame.height * scale)
        // Whole-pixel offsets keep the page's edges sharp.
        let left = ((Double(size) - pw) / 2).rounded(.down), top = ((Double(size) - ph) / 2).rounded(.down)
        let page = (x0: max(0, Int(left)), y0: max(0, Int(top)),
                    x1: min(size, Int((left + pw).rounded())), y1: min(size, Int((top + ph).rounded())))
        let dx = left - frame.minX * scale, dy = top - frame.minY * scale

        let layers = (0..<max(runs.count, 1)).map { _ in Layer(PreviewRaster(width: size, height: size)) }
        layers[0].raster.fill(x0: page.x0, y0: page.y0, x1: page.x1, y1: page.y1, with: background)
        let pageBox = Rect(minX: Double(page.x0), minY: Double(page.y0), maxX: Double(page.x1), maxY: Double(page.y1))
        if backdrop != nil || picture != nil {
            let under = try ImageSurface(width: size, height: size)
            let ctx = CairoContext(drawingInto: under)
            ctx.identity()
            ctx.clip(pageBox)
            let rect = Rect(x: dx, y: dy, width: frame.width * scale, height: frame.height * scale)
            if let picture { ImagePainter.shared.drawPicture(picture, over: rect, in: ctx, deviceScale: 1) }
            backdrop?.draw(over: rect, in: ctx, printing: false)
            layers[0].raster.composite(under.words())
        }
        let failure = FirstError()
        // Text boxes need Pango: kept aside and drawn with cairo over the composited ink.
        let texts = Collected()
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            let layer = layers[i], run = runs[i]
            do {
                // Checking for another run's failure costs a lock: once per 64 strokes is soon enough.
                var drawn = 0
                func stopIfFailed() throws {
                    drawn += 1
                    if drawn & 63 == 0, failure.isSet { throw FirstError.Stopped() }
                }
                // Pictures and filled or dashed ink are drawn by cairo (the finished ink's painters) into a layer,
                // composited in its place among the ink before the next stroke the raster draws itself.
                var cairoLayer: (surface: ImageSurface, context: CairoContext)?
                func viaCairo(_ stroke: Stroke) throws {
                    if cairoLayer == nil {
                        let surface = try ImageSurface(width: size, height: size)
                        let ctx = CairoContext(drawingInto: surface)
                        ctx.clip(pageBox)
                        ctx.setTransform(scale: scale, dx: dx, dy: dy)
                        cairoLayer = (surface, ctx)
                    }
                    if let ctx = cairoLayer?.context { ItemPainter.draw(stroke, in: ctx, deviceScale: scale) }
                }
                func compositeCairo() {
                    guard let l = cairoLayer else { return }
                    layer.raster.composite(l.surface.words())
                    cairoLayer = nil
                }
                try run({ style, placement, points in
                    try stopIfFailed()
                    compositeCairo()
                    layer.raster.draw(style, placement: placement, points: points, scale: scale, dx: dx, dy: dy, clip: page)
                }, { stroke in
                    try stopIfFailed()
                    if stroke.content.text != nil { texts.add(stroke); return }
                    if stroke.content.image != nil || !stroke.style.isPlainLine { return try viaCairo(stroke) }
                    compositeCairo()
                    layer.raster.draw(stroke, scale: scale, dx: dx, dy: dy, clip: page)
                })
                compositeCairo()
            } catch {
                failure.record(error)
            }
        }
        if let error = failure.error { throw error }
        var base = layers[0].raster
        for layer in layers.dropFirst() { base.composite(layer.raster) }
        let surface = try ImageSurface.copying(base.pixels, width: size, height: size)
        let boxes = texts.all.sorted { $0.drawsBefore($1) }
        if !boxes.isEmpty {
            let ctx = CairoContext(drawingInto: surface)
            ctx.clip(pageBox)
            ctx.setTransform(scale: scale, dx: dx, dy: dy)
            for s in boxes { ItemPainter.draw(s, in: ctx, deviceScale: scale) }
        }
        return surface
    }

    /// Strokes several threads hand over.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var strokes: [Stroke] = []
        func add(_ s: Stroke) { lock.lock(); strokes.append(s); lock.unlock() }
        var all: [Stroke] { lock.lock(); defer { lock.unlock() }; return strokes }
    }

    /// Renders and writes the PNG atomically (a failure leaves an earlier file as it was).
    public static func writePNG(pageSize: Size, background: RGBA, backdrop: PDFBackdrop? = nil, runs: [StrokeRun], size: Int, to path: String) throws {
        try writePNG(frame: Rect(x: 0, y: 0, width: pageSize.width, height: pageSize.height), background: background, backdrop: backdrop,
                     runs: runs, size: size, to: path)
    }

    public static func writePNG(frame: Rect, background: RGBA, backdrop: PDFBackdrop? = nil, picture: ContentHash? = nil, runs: [StrokeRun], size: Int, to path: String) throws {
        try writePNG(frame: frame, background: background, backdrop: backdrop, picture: picture, inkRuns: whole(runs), size: size, to: path)
    }

    public static func writePNG(frame: Rect, background: RGBA, backdrop: PDFBackdrop? = nil, picture: ContentHash? = nil, inkRuns runs: [Run], size: Int, to path: String) throws {
        let image = try render(frame: frame, background: background, backdrop: backdrop, picture: picture, inkRuns: runs, size: size)
        let bytes: [[UInt8]]
        do { bytes = try PNGEncoder.chunks(image, opaque: false) } catch {
            throw RenderError.pageTooLarge("cannot encode the PNG: \(error)")
        }
        try FileOutput.write(bytes, to: path)
    }

    /// One thread's raster (a class, so each thread mutates its own in place).
    private final class Layer: @unchecked Sendable {
        var raster: PreviewRaster
        init(_ raster: PreviewRaster) { self.raster = raster }
    }

    /// The first error a run hit (a run that stops because another failed records nothing worth telling).
    private final class FirstError: @unchecked Sendable {
        struct Stopped: Error {}
        private let lock = NSLock()
        private var first: Error?
        var isSet: Bool { lock.lock(); defer { lock.unlock() }; return first != nil }
        var error: Error? { lock.lock(); defer { lock.unlock() }; return first }
        func record(_ e: Error) {
            lock.lock(); defer { lock.unlock() }
            if first == nil, !(e is Stopped) { first = e }
        }
    }
}
