import Dispatch
import Foundation
import InkCore

/// One contiguous run of a drawing's strokes: calls `draw` with each stroke, oldest first. It may stop early
/// by rethrowing what `draw` throws.
public typealias StrokeRun = (_ draw: (Stroke) throws -> Void) throws -> Void

/// A walk of the whole drawing for band `band` (0, 1, …), oldest first; the bands' walks run at the same time.
public typealias BandWalk = (_ band: Int, _ draw: (Stroke) throws -> Void) throws -> Void

/// Exports a drawing whose strokes arrive as runs (e.g. streamed from a file) without ever holding them all.
///
/// The work is split by stroke order, not by area: run i is drawn on its own thread into its own page-sized
/// layer (run 0 straight onto the background), then the layers are composited with OVER in run order. OVER is
/// associative, so the picture is the one `BandRenderer` paints stroke after stroke, up to 8-bit rounding where
/// translucent ink of different runs overlaps. Each stroke is shaped once, and a thread holds only the stroke it
/// is drawing: memory is at most `maxLayers` page rasters, whatever the drawing's size. With several runs,
/// highlighters cover what is under them (OVER) instead of multiplying it as the other renderers do: a multiply in a
/// later run's layer would see only that layer (`oekaki export` so streams only pages without highlighters).
public enum LayeredExport {
    /// At most this many layers (threads): two already export a million points several times faster than the
    /// peers, and each more costs a page raster (8 MB at 1920×1080), which would lift a 1080p export's peak memory
    /// above Xournal++'s on a machine with more cores.
    static let maxLayers = 2
    /// Largest raster worth a second layer; a larger page is drawn by one thread rather than with twice the memory.
    static let maxExtraLayerBytes = 64 << 20

    /// How many runs to split a drawing into for a page of `pageSize` at `scale`: one per core up to `maxLayers`,
    /// one for a page too large for a second layer. Throws when the page cannot be rendered at all.
    public static func runCount(pageSize: Size, scale: Double = 1) throws -> Int {
        let size = try Exporter.pixelSize(of: pageSize, scale: scale)
        guard size.width * size.height * 4 <= maxExtraLayerBytes else { return 1 }
        return max(1, min(Parallel.cores, maxLayers))
    }

    /// The page rasterized at `scale`: background and the lines or dots of `paper` (unless transparent), then every
    /// run's strokes in run order. The page starts at the origin (a fixed page).
    /// `multiply` (default: with one run) makes highlighters multiply what is under them.
    public static func render(pageSize: Size, background: RGBA, paper: Paper? = nil, runs: [StrokeRun],
                              scale: Double = 1, transparent: Bool = false, multiply: Bool? = nil) throws -> ImageSurface {
        let multiply = multiply ?? (runs.count == 1)
        let size = try Exporter.pixelSize(of: pageSize, scale: scale)
        let base = try ImageSurface(width: size.width, height: size.height)
        if !transparent {
            base.fillRows(0, size.height, with: background)
            if let paper, !paper.background.isPlainPaper {
                let ctx = CairoContext(drawingInto: base)
                ctx.setTransform(scale: scale, dx: 0, dy: 0)
                BackgroundPainter.paint(paper, in: ctx, visible: paper.frame, deviceScale: scale)
            }
        }
        // cairo hands out new surfaces cleared to transparent.
        let layers = try [base] + runs.dropFirst().map { _ in try ImageSurface(width: size.width, height: size.height) }
        // Device pixels of the page (one pixel of slack), in page units: ink wholly outside is skipped.
        let visible = DeviceMapping(scale: scale).pageRect(ofDevice: Rect(minX: -1, minY: -1, maxX: Double(size.width) + 1, maxY: Double(size.height) + 1))

        let failures = Failures(count: runs.count)
        DispatchQueue.concurrentPerform(iterations: runs.count) { i in
            let ctx = CairoContext(drawingInto: layers[i])
            ctx.setTransform(scale: scale, dx: 0, dy: 0)
            draw(runs[i], in: ctx, visible: visible, scale: scale, multiply: multiply, failures: failures, at: i)
        }
        if let error = failures.first { throw error }

        let ctx = CairoContext(drawingInto: base)
        for layer in layers.dropFirst() { ctx.paint(layer) }
        return base
    }

    /// The page rasterized at `scale` in horizontal bands, one thread each, every band walking the whole drawing
    /// (`walk` runs once per band, at the same time) and drawing what reaches it. Unlike runs, highlighters multiply
    /// what is under them as everywhere else, and memory is still one page raster whatever the drawing's size; the
    /// price is reading the strokes once per band. Bands are cut on cairo's lattice, so the pixels are one surface's.
    /// `finish`, when given, gets each band's rows as soon as they are drawn, on any core (`BandPipeline`).
    public static func renderInBands(pageSize: Size, background: RGBA, paper: Paper? = nil, walk: @escaping BandWalk,
                                     scale: Double = 1, transparent: Bool = false,
                                     finish: ((ImageSurface, Range<Int>) -> Void)? = nil) throws -> ImageSurface {
        let size = try Exporter.pixelSize(of: pageSize, scale: scale)
        let surface = try ImageSurface(width: size.width, height: size.height)
        let mapping = DeviceMapping(scale: scale)
        let lines = BandCuts.latticeLines(height: size.height, mapping: mapping)
        let count = max(1, min(Parallel.cores, maxLayers, lines.count + 1))
        let inner = (1..<count).map { k in lines[k * lines.count / count] }
        let edges = [0] + inner.filter { $0 > 0 && $0 < size.height } + [size.height]
        let failures = Failures(count: edges.count - 1)
        func drawBand(_ band: Int) {
            let y0 = edges[band], y1 = edges[band + 1]
            let view = ImageSurface(rowsOf: surface, from: y0, count: y1 - y0)
            if !transparent { view.fillRows(0, y1 - y0, with: background) }
            let ctx = CairoContext(drawingInto: view)
            ctx.setTransform(scale: scale, dx: 0, dy: -Double(y0))
            let bandPage = mapping.pageRect(ofDevice: Rect(minX: -1, minY: Double(y0) - 1, maxX: Double(size.width) + 1, maxY: Double(y1) + 1))
            if !transparent, let paper, !paper.background.isPlainPaper { BackgroundPainter.paint(paper, in: ctx, visible: bandPage, deviceScale: scale) }
            draw({ draw in try walk(band, draw) }, in: ctx, visible: bandPage, scale: scale, multiply: true, failures: failures, at: band)
            view.flush()
        }
        if let finish {
            // A band a core: the last band's rows are encoded by every core, in slices.
            BandPipeline.run(bands: edges.count - 1, parts: 4, rows: { edges[$0]..<edges[$0 + 1] }, draw: drawBand) { rows in
                if failures.first == nil { finish(surface, rows) }
            }
        } else {
            DispatchQueue.concurrentPerform(iterations: edges.count - 1, execute: drawBand)
        }
        if let error = failures.first { throw error }
        surface.markDirty()
        return surface
    }

    /// Draws the strokes of one run or band that reach `visible`; an error is recorded as part `i`'s, and a part
    /// stops reading once another has failed (the export is lost anyway).
    private static func draw(_ run: StrokeRun, in ctx: CairoContext, visible: Rect, scale: Double, multiply: Bool,
                             failures: Failures, at i: Int) {
        do {
            try run { stroke in
                if failures.any { throw Failures.Stopped() }
                guard stroke.style.color.a > 0, let b = stroke.inkBounds, b.intersects(visible) else { return }
                ItemPainter.draw(stroke, in: ctx, deviceScale: scale, multiply: multiply)
            }
        } catch {
            failures.record(error, at: i)
        }
    }

    /// Renders and writes a PNG (atomically: a failure leaves no file and an earlier one as it was). `pictures`:
    /// the page may hold images, whose gradients the PNG's Sub filter keeps small (ink alone is smaller unfiltered).
    public static func writePNG(pageSize: Size, background: RGBA, paper: Paper? = nil, runs: [StrokeRun], to path: String,
                                options: ExportOptions = ExportOptions(), pictures: Bool = true) throws {
        // The layers are gone once `render` returns, so encoding never holds more than the one raster.
        try write(try render(pageSize: pageSize, background: background, paper: paper, runs: runs,
                             scale: options.scale, transparent: options.transparent),
                  background: background, to: path, options: options, pictures: pictures)
    }

    /// The same, drawn in bands (`renderInBands`): for pages whose highlighters must multiply.
    public static func writePNGInBands(pageSize: Size, background: RGBA, paper: Paper? = nil, walk: @escaping BandWalk, to path: String,
                                       options: ExportOptions = ExportOptions(), pictures: Bool = true) throws {
        let opaque = !options.transparent && background.a == 255
        try FileOutput.write(try PNGEncoder.encoding(opaque: opaque, filter: pictures ? .sub : .none) { finish in
            try renderInBands(pageSize: pageSize, background: background, paper: paper, walk: walk,
                              scale: options.scale, transparent: options.transparent, finish: finish)
        }, to: path)
    }

    private static func write(_ image: ImageSurface, background: RGBA, to path: String, options: ExportOptions, pictures: Bool) throws {
        let opaque = !options.transparent && background.a == 255
        let bytes: [[UInt8]]
        do { bytes = try PNGEncoder.chunks(image, opaque: opaque, filter: pictures ? .sub : .none) } catch {
            throw RenderError.pageTooLarge("cannot encode the PNG: \(error)")
        }
        try FileOutput.write(bytes, to: path)
    }

    /// `drawing`'s strokes cut into `count` contiguous runs of about the same number of points (for tests, and
    /// for callers that have the drawing in memory anyway).
    public static func runs(of drawing: Drawing, count: Int) -> [StrokeRun] { runs(of: drawing.strokes, count: count) }

    /// The same for strokes in drawing order (a page's shown items, layer by layer).
    public static func runs(of strokes: [Stroke], count: Int) -> [StrokeRun] {
        let total = max(strokes.reduce(0) { $0 + $1.points.count }, 1)
        var bounds: [Int] = [0]
        var sum = 0
        for (i, s) in strokes.enumerated() where bounds.count < count {
            sum += s.points.count
            if sum * count >= total * bounds.count { bounds.append(i + 1) }
        }
        if bounds.last != strokes.count { bounds.append(strokes.count) }
        return zip(bounds, bounds.dropFirst()).map { lo, hi in
            { draw in for s in strokes[lo..<hi] { try draw(s) } }
        }
    }
}

/// The first error of each run, shared between the threads drawing them.
private final class Failures: @unchecked Sendable {
    struct Stopped: Error {}
    private let lock = NSLock()
    private var errors: [Error?]
    private var failed = false

    init(count: Int) { errors = Array(repeating: nil, count: count) }

    var any: Bool { lock.lock(); defer { lock.unlock() }; return failed }

    func record(_ error: Error, at i: Int) {
        lock.lock(); defer { lock.unlock() }
        errors[i] = error; failed = true
    }

    /// The error of the earliest run that failed by itself (not because another one did).
    var first: Error? {
        lock.lock(); defer { lock.unlock() }
        return errors.compactMap { $0 }.first { !($0 is Stopped) }
    }
}
