import Foundation
import InkCore

/// The canvas's pixels: one viewport-sized raster of the finished strokes plus a layer per live stroke.
///
/// How the app uses it (all on the GTK thread unless noted):
/// - `let cache = try ScreenCache(viewSize: widgetSize, transform: view)`, then `cache.render(editor.drawing)`.
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
/// - Responsive pan/zoom: `scroll(to:)` moves the pixels and returns the uncovered strips; `reproject(to:viewSize:)`
///   keeps the old picture scaled as a preview; fill strips/stale areas with `renderPatch` (any thread) + `paste`.
/// - GTK draw func: `cache.draw(into: CairoContext(borrowing: cr))` composites raster + live strokes.
///
/// Overscan: the raster may reach `overscan` device pixels beyond every edge of the view, so a pan shows
/// pixels that are already there while the app renders the newly uncovered margin in wide strips (rendering
/// many thin strips would re-shape every long stroke crossing each of them). All rects the cache takes and
/// returns are in view device pixels (origin at the view's corner); the margin lies at negative coordinates
/// and beyond the view's size.
///
/// Memory is bounded by the viewport, not the page or the zoom: one device-pixel raster the size of the
/// view (plus its overscan), plus one layer per stroke being drawn (at most 4; more fingers are drawn from their outline)
/// and at most 2 cleared spare layers.
public final class ScreenCache {
    public private(set) var transform: ViewTransform
    /// Device pixels of raster beyond each edge of the view.
    public let overscan: Int
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
    /// The raster the last reprojection (a zoom step) replaced, painted into by the next one of the same size: a
    /// new raster is 15–25 MB of fresh pages that the kernel maps and zeroes while the GTK thread paints the
    /// preview into them (5–27 ms of a step's preview, measured on the million-point drawing), this one is mapped
    /// already. Held only up to `maxSpareRasterBytes` (a full screen at scale 1), so a HiDPI cache is not doubled.
    private var spareRaster: ImageSurface?
    static let maxSpareRasterBytes = 32 << 20
    /// Reprojections that painted into the spare raster, and whether one is held (tests).
    private(set) var reusedRasters = 0
    var holdsSpareRaster: Bool { spareRaster != nil }
    /// Live strokes beyond this many (a whole hand on a touch screen) get no layer: their full outline is
    /// filled at composite time instead, so memory stays bounded however many fingers are down.
    private static let maxLiveLayers = 4
    /// Live strokes drawn whole at composite time: those beyond `maxLiveLayers`, and filled or dashed ones.
    private var drawnWhole: [StrokeID: Stroke] = [:]
    /// The page the live strokes are on: its origin and clip in view space.
    private var liveOrigin = Point(0, 0)
    private var liveClip: Rect?
    /// Page of the live strokes → raster pixels.
    /// Live layers cover the view only, not the overscan: GTK's cairo renderer keeps a snapshot of every
    /// surface painted in a frame, so the next segment drawn into a layer copies the whole layer first (cairo's
    /// copy-on-write). A view-sized layer keeps that copy as small as it can be.
    private var layerWidth: Int { surface.width - 2 * overscan }
    private var layerHeight: Int { surface.height - 2 * overscan }
    /// Page of the live strokes → the view's device pixels (its corner at 0, 0): the units of `drawLive`.
    private var viewMapping: DeviceMapping {
        var m = liveMapping
        m.dx -= o; m.dy -= o
        return m
    }
    /// Where the view shown lies in this cache's view, in whole device pixels: a pan that has not shifted the
    /// raster yet (the app composites the raster moved by it). New live layers cover the view shown, so ink drawn
    /// in what the pan uncovered is not cut off at the raster's old view.
    private var shownCorner = Point(0, 0)
    private var liveMapping: DeviceMapping { mapping.placed(at: liveOrigin) }

    /// Largest raster side, in device pixels (a 4K screen at scale 2 is 7680).
    public static let maxPixelsPerSide = 16384

    /// The app's overscan: device pixels rendered beyond each edge of the view, so a pan shows ink that is already
    /// there: a whole gesture of a hand (a flick of 360 px) stays inside it and costs a blit, whatever the drawing
    /// holds. Memory: a 1600×900 view's raster is 2624×1924 (20 MB); after a zoom it renders after the view.
    public static let viewOverscan = 512

    public init(viewSize: Size, transform: ViewTransform, overscan: Int = 0) throws {
        self.overscan = max(0, min(overscan, 4096))
        let s = try Self.makeSurface(viewSize: viewSize, transform: transform, overscan: self.overscan)
        self.viewSize = viewSize; self.transform = transform
        surface = s; context = Self.context(for: s, mapping: Self.mapping(transform, overscan: self.overscan))
        keepSpareLayer()
    }

    /// Page → raster pixels: the view's device mapping moved by the overscan.
    static func mapping(_ t: ViewTransform, overscan: Int) -> DeviceMapping {
        var m = t.deviceMapping
        m.dx += Double(overscan); m.dy += Double(overscan)
        return m
    }
    private var mapping: DeviceMapping { Self.mapping(transform, overscan: overscan) }
    private var o: Double { Double(overscan) }

    /// A rendered raster for one view, made off the GTK thread if wanted; immutable once returned.
    public final class Frame: @unchecked Sendable {
        public let transform: ViewTransform
        public let viewSize: Size
        let surface: ImageSurface
        /// Device pixels along each edge rendered only so the inside is exact (patches); never pasted.
        let margin: Int
        /// Device pixels of overscan around the view (whole frames for an overscanned cache).
        let overscan: Int
        init(transform: ViewTransform, viewSize: Size, surface: ImageSurface, margin: Int = 0, overscan: Int = 0) {
            self.transform = transform; self.viewSize = viewSize; self.surface = surface; self.margin = margin
            self.overscan = overscan
        }
    }

    /// Renders `drawing` for a view on every core. Pure function of its inputs: safe on any thread.
    public static func renderFrame(_ drawing: Drawing, viewSize: Size, transform: ViewTransform, overscan: Int = 0) throws -> Frame {
        try renderFrame(Scene(drawing), viewSize: viewSize, transform: transform, overscan: overscan)
    }

    /// Renders the pages of `scene` for a view on every core. Pure function of its inputs: safe on any thread.
    public static func renderFrame(_ scene: Scene, viewSize: Size, transform: ViewTransform, overscan: Int = 0) throws -> Frame {
        let s = try makeSurface(viewSize: viewSize, transform: transform, overscan: overscan)
        SheetPainter.render(scene, into: s, mapping: mapping(transform, overscan: overscan))
        return Frame(transform: transform, viewSize: viewSize, surface: s, overscan: overscan)
    }

    /// Adopts a frame from `renderFrame` as the cache; live strokes are redrawn for its view on the next update.
    public func install(_ frame: Frame) {
        guard frame.overscan == overscan, frame.margin == 0 else { return }
        if frame.transform != transform || frame.surface.width != surface.width || frame.surface.height != surface.height { resetLive() }
        transform = frame.transform; viewSize = frame.viewSize
        surface = frame.surface; context = Self.context(for: surface, mapping: mapping)
        spareLayers.removeAll { $0.width != layerWidth || $0.height != layerHeight }
        keepSpareLayer()
    }

    /// Full re-render at the current view, on every core.
    public func render(_ drawing: Drawing) { render(Scene(drawing)) }
    public func render(_ scene: Scene) {
        SheetPainter.render(scene, into: surface, mapping: mapping)
    }

    /// Changes the view and re-renders everything for it.
    public func setView(_ transform: ViewTransform, viewSize: Size, drawing: Drawing) throws {
        try setView(transform, viewSize: viewSize, scene: Scene(drawing))
    }
    public func setView(_ transform: ViewTransform, viewSize: Size, scene: Scene) throws {
        install(try Self.renderFrame(scene, viewSize: viewSize, transform: transform, overscan: overscan))
    }

    // MARK: responsive pan and zoom
    // A pan shifts the picture by whole device pixels and leaves only the uncovered strips to render; a zoom
    // keeps the old picture, scaled, as a preview. Either way the app renders the missing or stale parts as
    // patches (off the GTK thread if it likes) and pastes them in as they land, so the view is never blank
    // and no input waits for a whole-view render.

    /// Moves the picture to `newTransform` if that is the same zoom shifted by whole device pixels: the pixels
    /// are moved, the uncovered strips cleared and returned (device rects). Nil when it is not such a shift.
    public func scroll(to newTransform: ViewTransform) -> [Rect]? {
        guard newTransform.zoom == transform.zoom, newTransform.deviceScale == transform.deviceScale, newTransform.isUsable else { return nil }
        let d = (newTransform.offset - transform.offset) * transform.deviceScale
        let dx = d.x.rounded(), dy = d.y.rounded()
        guard abs(d.x - dx) < 1e-6, abs(d.y - dy) < 1e-6 else { return nil }
        let w = surface.width, h = surface.height
        let exposed: [Rect]
        if abs(dx) >= Double(w) || abs(dy) >= Double(h) {
            surface.fillRows(0, h, with: nil)
            exposed = [Rect(minX: 0, minY: 0, maxX: Double(w), maxY: Double(h))]
        } else {
            let sx = Int(dx), sy = Int(dy)
            surface.shift(dx: sx, dy: sy)
            var strips: [Rect] = []
            // Rows uncovered at the top or bottom (full width), then columns uncovered beside the kept rows.
            let keptY0 = max(0, sy), keptY1 = min(h, h + sy)
            if sy > 0 { strips.append(Rect(minX: 0, minY: 0, maxX: Double(w), maxY: Double(sy))) }
            if sy < 0 { strips.append(Rect(minX: 0, minY: Double(h + sy), maxX: Double(w), maxY: Double(h))) }
            if sx > 0 { strips.append(Rect(minX: 0, minY: Double(keptY0), maxX: Double(sx), maxY: Double(keptY1))) }
            if sx < 0 { strips.append(Rect(minX: Double(w + sx), minY: Double(keptY0), maxX: Double(w), maxY: Double(keptY1))) }
            exposed = strips
        }
        if newTransform != transform { resetLive() }
        transform = newTransform
        context = Self.context(for: surface, mapping: mapping)
        return exposed.map { $0.offsetBy(Point(-o, -o)) }
    }

    /// Switches to a new view (another zoom, size or scale), keeping the old picture scaled into place as a
    /// preview: every pixel is stale until patches or a render replace it. Cost: one viewport blit.
    /// `beforePreview` runs once the cache is at the new view and before the old picture is scaled into it: the
    /// place to start rendering the new view in the background, so that render does not wait for the blit. It
    /// returns whether to scale the old picture in at all (false: every pixel is left transparent, to be repainted).
    public func reproject(to newTransform: ViewTransform, viewSize newSize: Size, beforePreview: () -> Bool = { true }) throws {
        let (w, h) = try Self.rasterSize(viewSize: newSize, transform: newTransform, overscan: overscan)
        let reused = spareRaster.flatMap { $0.width == w && $0.height == h ? $0 : nil }
        spareRaster = nil
        if reused != nil { reusedRasters += 1 }
        let s = try reused ?? ImageSurface(width: w, height: h)
        var old = surface
        let oldTransform = transform
        resetLive()
        transform = newTransform; viewSize = newSize
        surface = s; context = Self.context(for: s, mapping: mapping)
        spareLayers.removeAll { $0.width != layerWidth || $0.height != layerHeight }
        keepSpareLayer()
        defer { keepSpareRaster(&old) }
        // A reused raster holds an old picture: with no preview it is cleared, as a new one would be (the preview
        // below replaces every pixel).
        guard beforePreview(), newTransform.deviceScale == oldTransform.deviceScale else {
            if reused != nil { context.clearAll() }
            return
        }
        let c = CairoContext(drawingInto: s)
        let k = newTransform.zoom / oldTransform.zoom
        let ds = oldTransform.deviceScale
        // Old raster → new raster, both with the overscan at their origin.
        c.concat(scale: k, dx: (newTransform.offset.x - oldTransform.offset.x * k) * ds + o - o * k,
                 dy: (newTransform.offset.y - oldTransform.offset.y * k) * ds + o - o * k)
        c.paint(old, replacing: true)
    }

    /// Keeps the raster a reprojection replaced for the next one, if it is the size the next one will be (not after
    /// a resize), nothing else holds it (a `Frame` it came from: frames stay as rendered) and it is not too large
    /// to hold twice.
    private func keepSpareRaster(_ old: inout ImageSurface) {
        guard old.width == surface.width, old.height == surface.height, old.stride * old.height <= Self.maxSpareRasterBytes,
              isKnownUniquelyReferenced(&old) else { return }
        spareRaster = old
    }

    /// Renders the device rect `area` (whole pixels, in the raster of a cache at `transform`) on every core.
    /// Pure function of its inputs: safe on any thread. Paste the result with `paste`.
    public static func renderPatch(_ drawing: Drawing, area: Rect, transform: ViewTransform) throws -> Frame {
        try renderPatch(Scene(drawing), area: area, transform: transform)
    }
    public static func renderPatch(_ scene: Scene, area: Rect, transform: ViewTransform) throws -> Frame {
        // Without a cancellation the render always completes.
        try renderPatch(scene, area: area, transform: transform, cancel: nil)!
    }

    /// Same, abandoned (nil) as soon as `cancel` says so: a newer view no longer needs it. `keepOutlines`: the
    /// outlines shaped for it are kept for the next zoom or pan (`OutlineCache`; meant for what the user sees,
    /// so the overscan does not fill the memory with strokes off screen). Kept outlines are reused either way.
    public static func renderPatch(_ scene: Scene, area: Rect, transform: ViewTransform, cancel: RenderCancellation?,
                                   keepOutlines: Bool = true) throws -> Frame? {
        // A few pixels more on every side, not pasted: strokes just outside the patch still antialias into it
        // (and one whose outline strays a little outside its index bounds is found from the margin).
        let m = Double(patchMargin)
        var t = transform
        t.offset = t.offset - Point(area.minX - m, area.minY - m) * (1 / t.deviceScale)
        let size = Size(width: (area.width + 2 * m) / t.deviceScale, height: (area.height + 2 * m) / t.deviceScale)
        let s = try makeSurface(viewSize: size, transform: t)
        guard SheetPainter.render(scene, into: s, mapping: mapping(t, overscan: 0), cancel: cancel, keepOutlines: keepOutlines) else { return nil }
        return Frame(transform: t, viewSize: size, surface: s, margin: patchMargin)
    }

    private static let patchMargin = 4

    /// Lets go of the stroke outlines renders keep for the next zoom or pan (`OutlineCache`): another document is
    /// shown, whose strokes they are not.
    public static func forgetShapedOutlines() { OutlineCache.shared.removeAll() }

    /// Copies a patch (or frame) into the raster if it was rendered at this zoom on the same pixel grid,
    /// wherever the view has panned since; returns the device rect it covers now (clipped), or nil.
    @discardableResult
    public func paste(_ patch: Frame) -> Rect? {
        guard patch.transform.zoom == transform.zoom, patch.transform.deviceScale == transform.deviceScale else { return nil }
        let d = (transform.offset - patch.transform.offset) * transform.deviceScale
        let x = d.x.rounded(), y = d.y.rounded()
        guard abs(d.x - x) < 1e-6, abs(d.y - y) < 1e-6 else { return nil }
        let m = Double(patch.margin)
        let inner = Rect(minX: x + m, minY: y + m, maxX: x + Double(patch.surface.width) - m, maxY: y + Double(patch.surface.height) - m)
        guard let area = inner.intersection(bounds), area.width > 0, area.height > 0 else { return nil }
        context.save()
        context.identity()
        context.replace(area.offsetBy(Point(o, o)), with: patch.surface, atX: x + o, y: y + o)
        context.restore()
        return area
    }

    /// Makes GTK's last frame let go of the raster: the frame keeps a copy-on-write snapshot of what it painted,
    /// which the next write into the raster first copies in full (the whole raster, overscan too). Calling this
    /// while the GTK thread is idle anyway makes that copy then, not in the next paste.
    public func detachFromFrames() { surface.flush() }

    /// Draws one finished stroke on top of the raster (cost: that stroke only), on a page placed at `origin`
    /// (view space) and clipped to its `clip` (view space; nil = unclipped).
    public func bake(_ stroke: Stroke, origin: Point = Point(0, 0), clip: Rect? = nil) {
        guard stroke.style.color.a > 0 else { return }
        guard origin != Point(0, 0) || clip != nil else {
            ItemPainter.draw(stroke, in: context, deviceScale: transform.pixelsPerUnit)
            return
        }
        context.save()
        if let clip {
            context.identity()
            guard let r = mapping.deviceRect(ofPage: clip).intersection(Rect(minX: -1, minY: -1, maxX: Double(surface.width) + 1, maxY: Double(surface.height) + 1)) else { context.restore(); return }
            context.clip(r)
        }
        let m = mapping.placed(at: origin)
        context.setTransform(scale: m.scale, dx: m.dx, dy: m.dy)
        ItemPainter.draw(stroke, in: context, deviceScale: m.scale)
        context.restore()
    }

    /// Repaints the page region `rect` from `drawing` (after undo, erase, clear…); other pixels are untouched.
    public func invalidate(_ rect: Rect?, in drawing: Drawing) { invalidate(rect, in: Scene(drawing)) }

    /// Repaints the view-space region `rect` from the pages of `scene`; other pixels are untouched.
    public func invalidate(_ rect: Rect?, in scene: Scene) {
        guard let rect, !rect.isEmpty else { return }
        let m = mapping
        let bounds = Rect(minX: 0, minY: 0, maxX: Double(surface.width), maxY: Double(surface.height))
        let d = m.deviceRect(ofPage: rect)
        let snapped = d.insetBy(-1).roundedOut
        guard let area = snapped.intersection(bounds) else { return }
        context.save()
        context.identity()
        context.clip(area)
        context.clearAll()
        SheetPainter.paint(scene, in: context, mapping: m, area: area)
        context.restore()
    }

    /// Brings the live layers up to date with the strokes being drawn: draws only segments not drawn yet,
    /// and drops layers of strokes that are no longer live (finished or cancelled).
    /// `origin` and `clip` (view space) place the page the strokes are drawn on, as for `bake`.
    /// `shownAt`: where the view shown lies in this cache's view (device pixels), when the app composites the
    /// raster moved by a pan it has not shifted for.
    public func updateLive(_ strokes: [Stroke], origin: Point = Point(0, 0), clip: Rect? = nil, shownAt corner: Point = Point(0, 0)) {
        if origin != liveOrigin { resetLive(); liveOrigin = origin }
        shownCorner = Point(corner.x.rounded(), corner.y.rounded())
        liveClip = clip
        let ids = Set(strokes.map(\.id))
        for id in liveOrder where !ids.contains(id) {
            if let trace = live.removeValue(forKey: id) { recycle(trace) }
        }
        liveOrder = strokes.map(\.id)
        drawnWhole = [:]
        for s in strokes {
            // Fill and dashes are drawn by the finished ink's painter, the whole stroke each frame: a dash pattern
            // runs along the whole line and a fill closes it, so neither can be drawn a segment at a time.
            if !s.style.isPlainLine { drawnWhole[s.id] = s; continue }
            if live[s.id] == nil {
                guard live.count < Self.maxLiveLayers else { drawnWhole[s.id] = s; continue }
                guard let layer = spareLayers.popLast() ?? (try? Self.touchedLayer(width: layerWidth, height: layerHeight)) else { continue }
                var m = viewMapping
                m.dx -= shownCorner.x; m.dy -= shownCorner.y
                live[s.id] = LiveTrace(layer: layer, style: s.style, mapping: m, corner: shownCorner)
            }
            live[s.id]?.update(s)
        }
    }

    private func recycle(_ trace: LiveTrace) {
        let layer = trace.clearedLayer()
        guard spareLayers.count < Self.maxSpareLayers, layer.width == layerWidth, layer.height == layerHeight else { return }
        spareLayers.append(layer)
    }

    private func keepSpareLayer() {
        guard spareLayers.isEmpty, let layer = try? Self.touchedLayer(width: layerWidth, height: layerHeight) else { return }
        spareLayers.append(layer)
    }

    /// A transparent layer whose memory is already mapped: a fresh one is zero pages the kernel maps on first
    /// write, so a stroke drawn into it page-faults row by row (milliseconds per event on a big raster).
    /// Clearing it here pays that once, when the view is set up, not while the pen moves.
    private static func touchedLayer(width: Int, height: Int) throws -> ImageSurface {
        let layer = try ImageSurface(width: width, height: height)
        layer.fillRows(0, height, with: nil)
        return layer
    }

    /// Composites the raster and the live strokes onto `target` (GTK's context: logical pixels, origin at the widget).
    public func draw(into target: CairoContext) {
        drawFinished(into: target)
        drawLive(into: target)
    }

    /// The finished strokes alone: the raster (the app's canvas when the live ink is drawn above it apart).
    public func drawFinished(into target: CairoContext) {
        target.save()
        target.concat(scale: 1 / transform.deviceScale, dx: 0, dy: 0)
        target.concat(scale: 1, dx: -o, dy: -o)
        target.paint(surface)
        target.restore()
    }

    /// The live strokes alone, in the same units as `draw`.
    public func drawLive(into target: CairoContext) {
        guard !liveOrder.isEmpty else { return }
        target.save()
        target.concat(scale: 1 / transform.deviceScale, dx: 0, dy: 0)
        if let c = liveClip {
            // Live ink is clipped to its page as the finished stroke will be.
            let raster = Rect(minX: -1, minY: -1, maxX: Double(surface.width) + 1, maxY: Double(surface.height) + 1)
            target.concat(scale: 1, dx: -o, dy: -o)
            target.clip(mapping.deviceRect(ofPage: c).intersection(raster) ?? Rect(x: 0, y: 0, width: 0, height: 0))
            // Live layers are view-sized: back to the view's corner.
            target.concat(scale: 1, dx: o, dy: o)
        }
        for id in liveOrder {
            if let trace = live[id] { trace.composite(into: target); continue }
            guard let s = drawnWhole[id] else { continue }
            let m = viewMapping
            target.save()
            target.concat(scale: m.scale, dx: m.dx, dy: m.dy)
            ItemPainter.draw(s, in: target, deviceScale: m.scale)
            target.restore()
        }
        target.restore()
    }

    /// A live highlighter drawn whole multiplies what is under it, so it has to be drawn onto the finished raster
    /// in one picture (`draw`), not apart over it.
    public var liveMultiplies: Bool { liveOrder.contains { drawnWhole[$0]?.style.multiplies == true } }

    /// Where `drawLive` can put pixels, in view device pixels (the view's corner at 0, 0); nil when nothing is
    /// live. A stroke drawn whole (dashed, filled, or beyond the live layers) may reach anywhere: the raster's extent.
    public var liveArea: Rect? {
        var area: Rect?
        for id in liveOrder {
            let r = live[id].map { $0.area } ?? (drawnWhole[id] != nil ? bounds : nil)
            if let r { area = area.map { $0.union(r) } ?? r }
        }
        return area
    }

    /// The finished-stroke raster's pixel at device (x, y) — for tests and diagnostics.
    public func pixel(x: Int, y: Int) -> RGBA { surface.pixel(x: x + overscan, y: y + overscan) }
    /// The view's size in device pixels (the raster is the overscan larger on every side).
    public var pixelWidth: Int { surface.width - 2 * overscan }
    public var pixelHeight: Int { surface.height - 2 * overscan }
    /// The raster's extent in view device pixels: the view, and the overscan around it.
    public var bounds: Rect { Rect(minX: -o, minY: -o, maxX: Double(surface.width) - o, maxY: Double(surface.height) - o) }
    /// The view itself in device pixels.
    public var viewBounds: Rect { Rect(minX: 0, minY: 0, maxX: Double(pixelWidth), maxY: Double(pixelHeight)) }

    /// After a view change the layers' pixels are for the old view: drop them; the next `updateLive` redraws.
    private func resetLive() {
        for id in liveOrder { if let trace = live.removeValue(forKey: id) { recycle(trace) } }
        live = [:]; liveOrder = []; drawnWhole = [:]
    }

    private static func makeSurface(viewSize: Size, transform: ViewTransform, overscan: Int = 0) throws -> ImageSurface {
        let (w, h) = try rasterSize(viewSize: viewSize, transform: transform, overscan: overscan)
        return try ImageSurface(width: w, height: h)
    }

    /// The raster's size in device pixels for a view, overscan included.
    private static func rasterSize(viewSize: Size, transform: ViewTransform, overscan: Int) throws -> (Int, Int) {
        guard transform.isUsable else { throw RenderError.pageTooLarge("view transform \(transform) is not usable (zoom and scale must be positive)") }
        let w = (viewSize.width * transform.deviceScale).rounded(.up), h = (viewSize.height * transform.deviceScale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= Double(maxPixelsPerSide), h <= Double(maxPixelsPerSide) else {
            throw RenderError.pageTooLarge("a \(viewSize.width)×\(viewSize.height) view at scale \(transform.deviceScale) is outside 1…\(maxPixelsPerSide) pixels a side")
        }
        return (Int(w) + 2 * overscan, Int(h) + 2 * overscan)
    }

    private static func context(for s: ImageSurface, mapping m: DeviceMapping) -> CairoContext {
        let c = CairoContext(drawingInto: s)
        c.setTransform(scale: m.scale, dx: m.dx, dy: m.dy)
        // Pages and strokes baked or repainted here on the lattice the renders' bands are cut on.
        c.latticeRow = m.latticeRow
        return c
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
    /// The layer's corner in the view's device pixels (the view shown when the stroke began).
    private let corner: Point
    /// Spine points already in the layer, and the last of them (to notice if the shaper revised the past).
    private var settled = 0
    private var lastSettled: Point?
    private var tail: [SpinePoint] = []
    private var lastShape: ShapeKind?
    /// Device pixels the layer has ink in, so recycling clears only those.
    private var inked: Rect?
    /// Device pixels the tail can touch.
    private var tailArea: Rect?

    init(layer: ImageSurface, style: StrokeStyle, mapping: DeviceMapping, corner: Point) {
        self.layer = layer; self.mapping = mapping; self.corner = corner
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
        // A shape being dragged, or a stroke that snapped to a shape (or back to its ink), is reshaped whole
        // from one event to the next: it is drawn afresh (a shape has few points).
        let reshaped = stroke.shape != nil || stroke.shape != lastShape
        lastShape = stroke.shape
        let stable = reshaped ? 0 : min(final, max(spine.count - 1, 0))
        if settled > 0, reshaped || settled > stable || spine[settled - 1].point != lastSettled {
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
        tailArea = tail.reduce(nil) { area, p in
            let r = mapping.deviceRect(ofPage: Rect(around: p.point, radius: p.radius)).insetBy(-2)
            return area.map { $0.union(r) } ?? r
        }
    }

    /// The layer, transparent again, for the next stroke.
    func clearedLayer() -> ImageSurface {
        clearInk()
        return layer
    }

    private func clearInk() {
        guard let r = inked else { return }
        context.save(); context.identity()
        context.clip(r.roundedOut)
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

    /// Device pixels of the layer `composite` can touch: the ink drawn and the tail's reach.
    private var layerArea: Rect? {
        [inked, tail.isEmpty ? nil : tailArea].compactMap { $0 }.reduce(nil) { (a: Rect?, r: Rect) in a.map { $0.union(r) } ?? r }
    }
    /// The same in the view's device pixels.
    var area: Rect? { layerArea?.offsetBy(corner) }

    /// `target`'s units are the view's device pixels. Only the stroke's own area is composited: painting the
    /// whole view-sized layer, or a view-sized group (allocated and cleared every frame), would cost each
    /// event a few full-view passes whatever the stroke's size. Outside that area both are transparent, so
    /// the pixels are the same.
    func composite(into target: CairoContext) {
        guard let area = layerArea else { return }
        target.save()
        target.concat(scale: 1, dx: corner.x, dy: corner.y)
        target.clip(area.roundedOut)
        defer { target.restore() }
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
