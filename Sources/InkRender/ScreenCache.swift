import InkCore

/// The canvas's pixels: one viewport-sized raster of the finished strokes plus a layer per live stroke.
///
/// How the app uses it (all on the GTK thread unless noted):
/// - `let cache = try ScreenCache(viewSize: widgetSize, transform: view)`, then `try cache.render(editor.drawing)`.
/// - Every input event: `cache.updateLive(editor.liveStrokes)` draws only the new segment of each live
///   stroke (cost independent of how many strokes the drawing holds); then queue a redraw.
/// - Pen-up (an `.add` edit): `cache.bake(stroke)` draws the finished stroke into the raster, and the
///   following `updateLive` drops its live layer.
/// - Undo/redo/erase/clear: `cache.invalidate(update.dirty, in: editor.drawing)` repaints only that page
///   region, using the drawing's spatial index.
/// - Zoom/pan/resize: either `try cache.setView(t, viewSize:, drawing:)` (both cores, blocks), or off the GTK
///   thread `let f = try ScreenCache.renderFrame(snapshot, viewSize:, transform:)` on an immutable `Drawing`
///   copy, then back on the GTK thread `cache.install(f)`; if the drawing changed meanwhile, `invalidate`
///   the changed rects (or render again).
/// - GTK draw func: `cache.draw(into: CairoContext(borrowing: cr))` composites raster + live strokes.
///
/// Memory is bounded by the viewport, not the page or the zoom: one device-pixel raster the size of the
/// view, plus one more per stroke being drawn at this moment (one per finger).
public final class ScreenCache {
    public private(set) var transform: ViewTransform
    /// Widget size in logical pixels.
    public private(set) var viewSize: Size
    private var surface: ImageSurface
    private var context: CairoContext
    private var live: [StrokeID: LiveTrace] = [:]
    private var liveOrder: [StrokeID] = []
    /// Cleared layers kept for the next stroke, so starting a stroke never allocates (a viewport of memory
    /// each; at most `maxSpareLayers`).
    private var spareLayers: [ImageSurface] = []
    private static let maxSpareLayers = 2

    /// Largest raster side, in device pixels (a 4K screen at scale 2 is 7680).
    public static let maxPixelsPerSide = 16384

    public init(viewSize: Size, transform: ViewTransform) throws {
        let s = try Self.makeSurface(viewSize: viewSize, transform: transform)
        self.viewSize = viewSize; self.transform = transform
        surface = s; context = Self.context(for: s, transform: transform)
        keepSpareLayer()
    }

    /// A rendered raster for one view, made off the GTK thread if wanted; immutable once returned.
    public final class Frame: @unchecked Sendable {
        public let transform: ViewTransform
        public let viewSize: Size
        let surface: ImageSurface
        init(transform: ViewTransform, viewSize: Size, surface: ImageSurface) {
            self.transform = transform; self.viewSize = viewSize; self.surface = surface
        }
    }

    /// Renders `drawing` for a view on every core. Pure function of its inputs: safe on any thread.
    public static func renderFrame(_ drawing: Drawing, viewSize: Size, transform: ViewTransform) throws -> Frame {
        let s = try makeSurface(viewSize: viewSize, transform: transform)
        paintAll(drawing, into: s, transform: transform)
        return Frame(transform: transform, viewSize: viewSize, surface: s)
    }

    /// Adopts a frame from `renderFrame` as the cache; live strokes are redrawn for its view on the next update.
    public func install(_ frame: Frame) {
        if frame.transform != transform || frame.surface.width != surface.width || frame.surface.height != surface.height { resetLive() }
        transform = frame.transform; viewSize = frame.viewSize
        surface = frame.surface; context = Self.context(for: surface, transform: transform)
        spareLayers.removeAll { $0.width != surface.width || $0.height != surface.height }
        keepSpareLayer()
    }

    /// Full re-render at the current view, on every core.
    public func render(_ drawing: Drawing) {
        Self.paintAll(drawing, into: surface, transform: transform)
    }

    /// Changes the view and re-renders everything for it.
    public func setView(_ transform: ViewTransform, viewSize: Size, drawing: Drawing) throws {
        install(try Self.renderFrame(drawing, viewSize: viewSize, transform: transform))
    }

    /// Draws one finished stroke on top of the raster (cost: that stroke only).
    public func bake(_ stroke: Stroke) {
        guard stroke.style.color.a > 0 else { return }
        Painter.fill(stroke, in: context, deviceScale: transform.pixelsPerUnit)
    }

    /// Repaints the page region `rect` from `drawing` (after undo, erase, clear…); other pixels are untouched.
    public func invalidate(_ rect: Rect?, in drawing: Drawing) {
        guard let rect, !rect.isEmpty else { return }
        let m = transform.deviceMapping
        let bounds = Rect(minX: 0, minY: 0, maxX: Double(surface.width), maxY: Double(surface.height))
        let d = m.deviceRect(ofPage: rect)
        let snapped = Rect(minX: (d.minX - 1).rounded(.down), minY: (d.minY - 1).rounded(.down),
                           maxX: (d.maxX + 1).rounded(.up), maxY: (d.maxY + 1).rounded(.up))
        guard let area = snapped.intersection(bounds) else { return }
        context.save()
        context.identity()
        context.clip(area)
        context.clearAll()
        if drawing.background.a > 0 { context.replace(Self.pageArea(drawing.pageSize, m), with: drawing.background) }
        context.setTransform(scale: m.scale, dx: m.dx, dy: m.dy)
        for s in drawing.strokes(in: m.pageRect(ofDevice: area)) where s.style.color.a > 0 {
            Painter.fill(s, in: context, deviceScale: m.scale)
        }
        context.restore()
    }

    /// Brings the live layers up to date with the strokes being drawn: draws only segments not drawn yet,
    /// and drops layers of strokes that are no longer live (finished or cancelled).
    public func updateLive(_ strokes: [Stroke]) {
        let ids = Set(strokes.map(\.id))
        for id in liveOrder where !ids.contains(id) {
            if let trace = live.removeValue(forKey: id) { recycle(trace) }
        }
        liveOrder = strokes.map(\.id)
        for s in strokes {
            if live[s.id] == nil {
                guard let layer = spareLayers.popLast() ?? (try? ImageSurface(width: surface.width, height: surface.height)) else { continue }
                live[s.id] = LiveTrace(layer: layer, style: s.style, mapping: transform.deviceMapping)
            }
            live[s.id]?.update(s)
        }
    }

    private func recycle(_ trace: LiveTrace) {
        let layer = trace.clearedLayer()
        guard spareLayers.count < Self.maxSpareLayers, layer.width == surface.width, layer.height == surface.height else { return }
        spareLayers.append(layer)
    }

    private func keepSpareLayer() {
        guard spareLayers.isEmpty, let layer = try? ImageSurface(width: surface.width, height: surface.height) else { return }
        spareLayers.append(layer)
    }

    /// Composites the raster and the live strokes onto `target` (GTK's context: logical pixels, origin at the widget).
    public func draw(into target: CairoContext) {
        target.save()
        target.concat(scale: 1 / transform.deviceScale)
        target.paint(surface)
        for id in liveOrder { live[id]?.composite(into: target) }
        target.restore()
    }

    /// The finished-stroke raster's pixel at device (x, y) — for tests and diagnostics.
    public func pixel(x: Int, y: Int) -> RGBA { surface.pixel(x: x, y: y) }
    public var pixelWidth: Int { surface.width }
    public var pixelHeight: Int { surface.height }

    /// After a view change the layers' pixels are for the old view: drop them; the next `updateLive` redraws.
    private func resetLive() { live = [:]; liveOrder = [] }

    private static func makeSurface(viewSize: Size, transform: ViewTransform) throws -> ImageSurface {
        guard transform.isUsable else { throw RenderError.pageTooLarge("view transform \(transform) is not usable (zoom and scale must be positive)") }
        let w = (viewSize.width * transform.deviceScale).rounded(.up), h = (viewSize.height * transform.deviceScale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(maxPixelsPerSide), h <= Double(maxPixelsPerSide) else {
            throw RenderError.pageTooLarge("a \(viewSize.width)×\(viewSize.height) view at scale \(transform.deviceScale) is outside 1…\(maxPixelsPerSide) pixels a side")
        }
        return try ImageSurface(width: Int(w), height: Int(h))
    }

    private static func context(for s: ImageSurface, transform: ViewTransform) -> CairoContext {
        let c = CairoContext(drawingInto: s)
        let m = transform.deviceMapping
        c.setTransform(scale: m.scale, dx: m.dx, dy: m.dy)
        return c
    }

    private static func pageArea(_ page: Size, _ m: DeviceMapping) -> Rect {
        m.deviceRect(ofPage: Rect(x: 0, y: 0, width: page.width, height: page.height))
    }

    private static func paintAll(_ drawing: Drawing, into s: ImageSurface, transform: ViewTransform) {
        let m = transform.deviceMapping
        BandRenderer.render(drawing, into: s, mapping: m, background: drawing.background.a > 0 ? drawing.background : nil,
                            backgroundArea: pageArea(drawing.pageSize, m))
    }
}

/// One stroke being drawn: its settled part lives in a layer drawn in the stroke's colour at full opacity
/// (composited with the colour's alpha, so a highlighter stays flat where segments overlap); the last
/// segment, which still moves as samples arrive, is drawn at composite time.
final class LiveTrace {
    typealias SpinePoint = StrokeShape.SpinePoint
    private let layer: ImageSurface
    private let context: CairoContext
    private let opaque: RGBA
    private let alpha: Double
    private let options: StrokeShape.Options
    private let mapping: DeviceMapping
    /// Spine points already in the layer, and the last of them (to notice if the shaper revised the past).
    private var settled = 0
    private var lastSettled: Point?
    private var tail: [SpinePoint] = []
    /// Device pixels the layer has ink in, so recycling clears only those.
    private var inked: Rect?

    init(layer: ImageSurface, style: StrokeStyle, mapping: DeviceMapping) {
        self.layer = layer; self.mapping = mapping
        context = CairoContext(drawingInto: layer)
        context.setTransform(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy)
        opaque = RGBA(r: style.color.r, g: style.color.g, b: style.color.b, a: 255)
        alpha = Double(style.color.a) / 255
        options = Painter.options(for: style, deviceScale: mapping.scale)
    }

    /// Draws the spine points that became final since the last call. Cost: the new segment(s), plus
    /// re-shaping this one stroke; never the rest of the drawing.
    func update(_ stroke: Stroke) {
        // The shaper says how many leading spine points later samples can no longer move (smoothing and
        // curves look a little ahead); the rest is the tail, redrawn at composite time.
        let (spine, final) = StrokeShape.liveSpine(of: stroke, options: options)
        let stable = min(final, max(spine.count - 1, 0))
        if settled > 0, settled > stable || spine[settled - 1].point != lastSettled {
            clearInk()
            settled = 0
        }
        if stable > settled {
            for i in settled..<stable {
                Self.addPiece(spine, i, to: context)
                let r = mapping.deviceRect(ofPage: Rect(around: spine[i].point, radius: spine[i].radius)).insetBy(-2)
                inked = inked.map { $0.union(r) } ?? r
            }
            context.fill(opaque)
            settled = stable
            lastSettled = spine[stable - 1].point
        }
        tail = settled > 0 ? Array(spine[(settled - 1)...]) : spine
    }

    /// The layer, transparent again, for the next stroke.
    func clearedLayer() -> ImageSurface {
        clearInk()
        return layer
    }

    private func clearInk() {
        guard let r = inked else { return }
        context.save(); context.identity()
        context.clip(Rect(minX: r.minX.rounded(.down), minY: r.minY.rounded(.down), maxX: r.maxX.rounded(.up), maxY: r.maxY.rounded(.up)))
        context.clearAll()
        context.restore()
        inked = nil
    }

    /// Adds the dot at point `i`, joined to point `i-1` by the tangent band between their circles.
    private static func addPiece(_ spine: [SpinePoint], _ i: Int, to ctx: CairoContext) {
        let b = spine[i]
        ctx.addCircle(b.point, radius: b.radius)
        guard i > 0 else { return }
        let a = spine[i - 1]
        let d = b.point - a.point
        let len = d.length
        guard len > 0 else { return }
        let n = Point(-d.y / len, d.x / len)
        // Wound like cairo's arcs, so the non-zero rule never cancels an overlap.
        ctx.addPolygon([a.point - n * a.radius, b.point - n * b.radius, b.point + n * b.radius, a.point + n * a.radius])
    }

    func composite(into target: CairoContext) {
        guard !tail.isEmpty else { target.paint(layer, alpha: alpha); return }
        target.beginLayer()
        target.paint(layer)
        target.save()
        target.concat(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy)
        // The tail starts at the last settled point (already in the layer) unless nothing is settled yet.
        for i in (settled > 0 ? 1 : 0)..<tail.count { Self.addPiece(tail, i, to: target) }
        target.fill(opaque)
        target.restore()
        target.endLayer(alpha: alpha)
    }
}
