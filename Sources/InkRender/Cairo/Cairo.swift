import CCairo
import Foundation
import InkCore

// Cairo's C pointers stay in the InkRender/Cairo wrapper files (ARCHITECTURE.md lists them): this one holds the
// context; `ImageSurface.swift` the rasters, `PDFSurface.swift` the PDF output, `CairoPath.swift` the vector calls
// the app's widgets and overlays draw with.

/// A cairo drawing context. Either owns its `cairo_t` or borrows one (GTK's draw callback).
public final class CairoContext {
    let cr: OpaquePointer
    private let owned: Bool
    /// Device-space nudge that centres the rasterizer's samples (0 unless FAST antialiasing is on).
    private var sampleBiasX = 0.0
    /// Whether the current matrix holds that nudge (`setTransform` puts it in, `identity` takes it out), with the
    /// state of each `save` to go back to.
    private var biased = false
    private var savedBiased: [Bool] = []
    /// The rectangles `clip` cut to, as cairo placed them in device space (a corner and the sides), for
    /// `MultiplyFill` to cut its mask the same way. Nil after a clip under a turned matrix.
    private var clipRects: [DeviceClip]? = []
    private var savedClips: [[DeviceClip]?] = []
    struct DeviceClip: Equatable {
        var x, y, width, height: Double
    }
    private let target: ImageSurface?
    /// Highlighters on a raster (`MultiplyFill`); off only to compare with cairo's own MULTIPLY.
    nonisolated(unsafe) static var multiplyFills = true
    private(set) var multiplyFill: MultiplyFill?

    public init(drawingInto surface: ImageSurface) {
        cr = cairo_create(surface.pointer)!; owned = true; target = surface
        // FAST is cairo's 4×4-sample rasterizer: edges look the same as GRAY's at 100 % (checked side by side)
        // and it costs about half the CPU, which is most of an export. Its samples sit left of the pixel
        // centres, which moves ink about 1/4 pixel left; `setTransform` takes that back out (the offset that
        // best matches GRAY's pixels on sample ink, measured: error 2.1M → 0.87M).
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)
        sampleBiasX = 0.25
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }

    /// Wraps a `cairo_t*` someone else owns (e.g. the one GTK passes to a draw function); never destroyed here.
    public init(borrowing cr: OpaquePointer) {
        self.cr = cr; owned = false; target = nil
    }

    /// Draws onto a vector surface (a PDF page): cairo's default antialiasing, no raster lattice.
    init(vector surface: OpaquePointer) {
        cr = cairo_create(surface)!; owned = true; target = nil
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }

    deinit { if owned { cairo_destroy(cr) } }

    var status: cairo_status_t { cairo_status(cr) }

    public func save() { cairo_save(cr); savedBiased.append(biased); savedClips.append(clipRects) }
    public func restore() {
        cairo_restore(cr)
        if let b = savedBiased.popLast() { biased = b }
        if let c = savedClips.popLast() { clipRects = c }
    }

    /// Page → device: device = page · scale + (dx, dy).
    func setTransform(scale: Double, dx: Double, dy: Double) {
        var m = cairo_matrix_t(xx: scale, yx: 0, xy: 0, yy: scale, x0: dx + sampleBiasX, y0: dy)
        cairo_set_matrix(cr, &m)
        biased = sampleBiasX != 0
    }
    func identity() { cairo_identity_matrix(cr); biased = false }

    /// Multiplies the current matrix (keeps whatever origin the owner of a borrowed context set up).
    func concat(scale: Double, dx: Double = 0, dy: Double = 0) {
        var m = cairo_matrix_t(xx: scale, yx: 0, xy: 0, yy: scale, x0: dx, y0: dy)
        cairo_transform(cr, &m)
    }

    /// Multiplies the current matrix by an affine map (a dragged, resized or turned selection).
    func concat(_ t: AffineMap) {
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_transform(cr, &m)
    }

    func clip(_ r: Rect) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        // cairo_rectangle is a move to the corner and moves by the sides: the same products cairo forms.
        if m.xy == 0, m.yx == 0 {
            clipRects?.append(DeviceClip(x: m.xx * r.minX + m.x0, y: m.yy * r.minY + m.y0, width: m.xx * r.width, height: m.yy * r.height))
        } else {
            clipRects = nil
        }
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_clip(cr)
    }

    func setColor(_ c: RGBA) {
        let u = c.unit
        cairo_set_source_rgba(cr, u.r, u.g, u.b, u.a)
    }

    /// Fills `r` with `c`, replacing what is there (so a translucent background stays translucent).
    func replace(_ r: Rect, with c: RGBA?) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        if let c { setColor(c) } else { cairo_set_source_rgba(cr, 0, 0, 0, 0) }
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Replaces `r` (device pixels, whole) with the pixels of `surface` placed with its top-left at (x, y): one
    /// copy, where clearing and painting over would be two passes (the same pixels: over transparency, OVER is SOURCE).
    func replace(_ r: Rect, with surface: ImageSurface, atX x: Double, y: Double) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, surface.pointer, x, y)
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Clears everything under the current clip to transparent.
    func clearAll() {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Adds a closed polygon to the current path. cairo stores device coordinates as 24.8 fixed point, so
    /// anything beyond about ±8 million device pixels would wrap around and paint garbage: such polygons are
    /// first clipped to a square far outside any surface (what is visible keeps its exact shape).
    ///
    /// Edges are also cut where they cross a horizontal device lattice (see `latticeStep`). cairo's FAST rasterizer
    /// snaps each edge's two ends to its 1/4-pixel grid and steps between the snapped ends, so an edge cut in
    /// two (which cairo does where an edge leaves the surface or clip) covers slightly different samples
    /// than the whole edge: up to a quarter pixel anywhere along it. Band and patch surfaces that start on
    /// lattice rows therefore see exactly the edges one big surface sees, and their pixels match it.
    func addPolygon(_ pts: [Point]) {
        guard pts.count > 0 else { return }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let lattice = lattice(for: m)
        // One pass: every vertex mapped to device space once (cairo would map each again), does it fit cairo's
        // range, and how many cuts would it get? A pathological polygon (long zigzags over a large surface)
        // could get millions: past a budget it is drawn uncut.
        let budget = max(8 * pts.count, 4096)
        var fits = true, cuts = 0
        // A local buffer (a property would be checked for exclusive access at every append), kept for the next call.
        var dev = scratch
        scratch = []
        defer { dev.removeAll(keepingCapacity: true); scratch = dev }
        dev.reserveCapacity(pts.count)
        var prevCell = lattice?.cell(device(pts[pts.count - 1], m)) ?? 0
        for p in pts {
            let d = device(p, m)
            if !(abs(d.x) < Self.safeCoordinate && abs(d.y) < Self.safeCoordinate) { fits = false; break }
            dev.append(d)
            if let lattice, cuts <= budget {
                // Lattice rows crossed: the number of cuts, up to lines outside the surface (not cut).
                let c = lattice.cell(d)
                cuts += abs(c - prevCell)
                prevCell = c
            }
        }
        if fits {
            if let target { dropOutside(width: Double(target.width), height: Double(target.height), &dev) }
            let cut = cuts <= budget ? lattice : nil
            // Cut points are where they always were: device → user (cairo's inverse) → device, as cairo maps a
            // user-space point; so the edges are bit for bit those of a path given in page units.
            if let cut, cuts > 0 {
                var out: [Point] = []
                out.reserveCapacity(dev.count + cuts)
                var prev = dev[0], prevCell = cut.cell(prev)
                out.append(prev)
                for i in 1...dev.count {
                    let d = i == dev.count ? dev[0] : dev[i]
                    let c = cut.cell(d)
                    // Most edges stay between two lattice lines: nothing to cut.
                    if c != prevCell {
                        cut.forEachCut(from: prev, to: d) { x, y in
                            var u = (x: x, y: y)
                            cairo_device_to_user(cr, &u.x, &u.y)
                            out.append(device(Point(u.x, u.y), m))
                        }
                    }
                    if i < dev.count { out.append(d) }
                    prev = d; prevCell = c
                }
                swap(&out, &dev)
            }
            // Device points with an identity matrix: cairo's own mapping of page points gives the same doubles
            // (same products and sums, in the same order), so the pixels are those of page-unit paths.
            addDeviceRing(dev, restoring: m)
        } else {
            let ring = PolygonClip.toSquare(pts.map { device($0, m) }, halfSide: Self.clipCoordinate)
            guard !ring.isEmpty else { return }
            let cut = lattice.flatMap { l in ring.indices.reduce(0) { $0 + l.cutCount(ring[$1 == 0 ? ring.count - 1 : $1 - 1], ring[$1]) } <= budget ? l : nil }
            addDevicePolygon(ring.count, matrix: m, lattice: cut) { ring[$0] }
        }
    }

    /// The map of this context's surface at its current matrix, for `DevicePolygon`s its bands fill (nil for a
    /// borrowed context).
    func deviceMap() -> DeviceMap? {
        guard target != nil else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        return DeviceMap(matrix: m, lattice: lattice(for: m))
    }

    /// Fills `polygon`, made for a surface whose row `y0` is this surface's first, with `color`: its points moved
    /// up by `y0` (whole rows: exactly the same edges), runs outside this surface dropped as `addPolygon` drops
    /// them.
    func fill(_ polygon: DevicePolygon, rowsFrom y0: Int, color: RGBA, multiply: Bool = false) {
        guard let target, !polygon.points.isEmpty else { return }
        var dev = scratch
        scratch = []
        defer { dev.removeAll(keepingCapacity: true); scratch = dev }
        let shift = Double(y0)
        dev.reserveCapacity(polygon.points.count)
        for p in polygon.points { dev.append(Point(p.x, p.y - shift)) }
        dropOutside(width: Double(target.width), height: Double(target.height), &dev)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        addDeviceRing(dev, restoring: m)
        fill(color, multiply: multiply)
    }

    /// Adds `dev` (device points, at least one) as a closed path under the identity matrix, then puts `m` back.
    private func addDeviceRing(_ dev: [Point], restoring m: cairo_matrix_t) {
        cairo_identity_matrix(cr)
        dev.withUnsafeBufferPointer { b in
            cairo_move_to(cr, b[0].x, b[0].y)
            for d in b.dropFirst() { cairo_line_to(cr, d.x, d.y) }
        }
        cairo_close_path(cr)
        var m = m
        cairo_set_matrix(cr, &m)
    }

    /// Drops the vertices of `dev` (a closed polygon, device pixels) that lie inside a run of vertices all above
    /// the surface (or all below it, left of it, right of it), keeping each run's first and last. The run's edges
    /// are replaced by one straight edge between those two, in the same half-plane outside the surface: above or
    /// below, cairo discards every edge; left or right, it keeps only their net winding (an edge left of the
    /// surface counts as a vertical one on its left side). The edges that reach the surface, their cuts and the
    /// winding inside are unchanged, so are the pixels. A band of a banded render so hands cairo only its share
    /// of a stroke crossing several bands, and a view only its share of strokes crossing its sides.
    private func dropOutside(width: Double, height: Double, _ dev: inout [Point]) {
        // Two pixels of margin: what touches the surface's first or last row or column stays.
        dropRuns(&dev) { $0.y < -2 ? -1 : ($0.y > height + 2 ? 1 : 0) }
        dropRuns(&dev) { $0.x < -2 ? -1 : ($0.x > width + 2 ? 1 : 0) }
    }

    /// Keeps the first and last vertex of every run of consecutive vertices on one `side` (-1 or 1; 0 = inside,
    /// always kept) and drops the rest.
    @inline(__always)
    private func dropRuns(_ dev: inout [Point], side: (Point) -> Int) {
        let n = dev.count
        guard n > 4 else { return }
        var kept = 0
        var prev = side(dev[0]), cur = prev
        for i in 0..<n {
            let next = i + 1 < n ? side(dev[i + 1]) : 2
            // Inside, or a run's end (the array's ends count as run ends: the closing edge is kept as it is).
            if cur == 0 || i == 0 || prev != cur || next != cur {
                dev[kept] = dev[i]
                kept += 1
            }
            prev = cur; cur = next
        }
        dev.removeLast(n - kept)
    }

    /// Device points of the polygon being added (kept between calls so adding one allocates nothing).
    private var scratch: [Point] = []

    /// Page → device as cairo maps a user-space point (`cairo_matrix_transform_point`: xx·x + xy·y, then + x0).
    @inline(__always) private func device(_ p: Point, _ m: cairo_matrix_t) -> Point {
        Point(m.xx * p.x + m.xy * p.y + m.x0, m.yx * p.x + m.yy * p.y + m.y0)
    }

    /// Lattice spacing in device pixels: band boundaries (and any surface edge meant to match a bigger
    /// render) must lie on it. Each line an edge crosses is one more vertex: 1M points at 1920×1080 cost
    /// about 4 % more CPU at 64 and 17 % at 16 (measured), so it is coarse. 32, not 64: `BandCuts` needs cuts
    /// that fine to share a view's work out evenly, and filling the zoomed million-point view takes 0.7 % more
    /// instructions than at 64 (callgrind; 1.2 % more again at 16).
    static let latticeStep = 32

    /// A surface row a lattice line lies on, for every transform set later; nil: where page y = 0 lands,
    /// floored. A raster showing several pages sets the row of its view's y = 0 (`DeviceMapping.latticeRow`):
    /// anchored to each page's own origin instead, a band cut on the view's lattice cut the edges of the
    /// pages below the first off theirs, and left faint seams there.
    var latticeRow: Double?

    /// Where the lattice lines lie for this matrix: device y = origin + k·step, used only near the surface
    /// (lines far outside it change nothing). Anchored to `latticeRow` or where page y = 0 lands, floored, so
    /// rasters of one zoom that differ by whole pixels (bands, patches, scrolled caches) share it. Nil for
    /// borrowed contexts (GTK's: nothing to line up with).
    private func lattice(for m: cairo_matrix_t) -> DeviceLattice? {
        guard let target else { return nil }
        let step = Double(Self.latticeStep)
        let origin = latticeRow ?? (m.y0 + 1e-6).rounded(.down)
        guard origin.isFinite else { return nil }
        return DeviceLattice(step: step, origin: origin, minY: -step, maxY: Double(target.height) + step)
    }

    /// Emits the closed polygon of `count` device points `point(i)`, cut at the lattice lines (if any).
    private func addDevicePolygon(_ count: Int, matrix m: cairo_matrix_t, lattice: DeviceLattice?, _ point: (Int) -> Point) {
        cairo_identity_matrix(cr)
        let first = point(0)
        cairo_move_to(cr, first.x, first.y)
        if let lattice {
            var prev = first, prevCell = lattice.cell(first)
            for i in 1...count {
                let p = i == count ? first : point(i)
                let c = lattice.cell(p)
                // Most edges stay between two lattice lines: nothing to cut.
                if c != prevCell { lattice.forEachCut(from: prev, to: p) { x, y in cairo_line_to(cr, x, y) } }
                if i < count { cairo_line_to(cr, p.x, p.y) }
                prev = p; prevCell = c
            }
        } else {
            for i in 1..<count { let p = point(i); cairo_line_to(cr, p.x, p.y) }
        }
        var restore = m
        cairo_set_matrix(cr, &restore)
        cairo_close_path(cr)
    }

    /// Device coordinates below this are passed to cairo as they are.
    static let safeCoordinate = 4_000_000.0
    /// Oversized polygons are clipped to this square: far beyond any surface, well inside cairo's range.
    static let clipCoordinate = 1_000_000.0

    func addCircle(_ c: Point, radius: Double) {
        var d = c
        cairo_user_to_device(cr, &d.x, &d.y)
        // Beyond cairo's fixed-point range a dot cannot be on screen (pen radii are tiny next to it).
        guard abs(d.x) < Self.safeCoordinate, abs(d.y) < Self.safeCoordinate, radius.isFinite else { return }
        cairo_new_sub_path(cr)
        cairo_arc(cr, c.x, c.y, radius, 0, 2 * Double.pi)
        cairo_close_path(cr)
    }

    /// Fills the current path with the non-zero rule and clears it.
    /// `multiply`: multiplies what is under it instead of covering it (highlighters).
    func fill(_ c: RGBA, multiply: Bool = false) {
        if multiply, Self.multiplyFills, let target {
            let fill = multiplyFill ?? MultiplyFill()
            multiplyFill = fill
            if let clipRects, fill.fill(cr, target: target, color: c, clip: clipRects) { return }
        }
        setColor(c)
        if multiply { cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY) }
        cairo_fill(cr)
        if multiply { cairo_set_operator(cr, CAIRO_OPERATOR_OVER) }
    }

    /// Fills one closed polygon in one go (one flat coverage even where it crosses itself).
    func fillPolygon(_ pts: [Point], color: RGBA, multiply: Bool = false) {
        addPolygon(pts)
        fill(color, multiply: multiply)
    }

    /// Fills closed polygons as one area (their union): opaque ink one polygon at a time, translucent ink opaque
    /// into a group painted at its alpha (Xournal++'s way for a filled highlighter), so overlaps are not darker.
    /// Never all in one path: cairo 1.16's scan converter writes past its buffers on a path of a hundred small dots
    /// in one row (a dotted line; valgrind shows it), which one fill per dot does not.
    func fillRings(_ rings: [[Point]], color: RGBA, multiply: Bool = false) {
        if color.a == 255 && !multiply {
            for r in rings where !r.isEmpty { addPolygon(r); fill(color) }
            return
        }
        cairo_push_group(cr)
        let opaque = RGBA(r: color.r, g: color.g, b: color.b, a: 255)
        for r in rings where !r.isEmpty { addPolygon(r); fill(opaque) }
        cairo_pop_group_to_source(cr)
        if multiply { cairo_set_operator(cr, CAIRO_OPERATOR_MULTIPLY) }
        cairo_paint_with_alpha(cr, Double(color.a) / 255)
        if multiply { cairo_set_operator(cr, CAIRO_OPERATOR_OVER) }
    }

    /// Paints `surface` with its top-left at device (x, y), scaled by `alpha`. `replacing`: what was under it goes,
    /// transparent where it does not reach (one pass over a raster that held another picture).
    func paint(_ surface: ImageSurface, atX x: Double = 0, y: Double = 0, alpha: Double = 1, replacing: Bool = false) {
        if replacing { cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE) }
        cairo_set_source_surface(cr, surface.pointer, x, y)
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
        if replacing { cairo_set_operator(cr, CAIRO_OPERATOR_OVER) }
    }

    /// Paints `image` stretched over `rect` (current user space, e.g. page units), smoothly filtered; the edges
    /// pad instead of fading into transparency, so a scaled picture keeps crisp borders.
    func drawImage(_ image: ImageSurface, in rect: Rect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        cairo_save(cr)
        withoutSampleBias()
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_translate(cr, rect.minX, rect.minY)
        cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
        cairo_set_source_surface(cr, image.pointer, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Starts drawing into a temporary layer; `endLayer(alpha:)` composites it.
    func beginLayer() { cairo_push_group(cr) }
    func endLayer(alpha: Double) {
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, alpha)
    }
}

extension CairoContext {
    /// The raw `cairo_t*`, for poppler to draw a PDF page into (`PDFBackground`).
    var cairoPointer: OpaquePointer { cr }

    /// Takes the 4×4 rasterizer's nudge (`sampleBiasX`) out of the current matrix, where `setTransform` put it,
    /// for what is not filled by that rasterizer: rectangles (covered exactly), glyphs, and the pixels of a raster
    /// (sampled where they lie), so a raster placed on whole pixels lands on them. Callers save and restore
    /// around it (cairo's own save and restore too: the nudge stays counted as in).
    func withoutSampleBias() {
        guard biased else { return }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        m.x0 -= sampleBiasX
        cairo_set_matrix(cr, &m)
    }

    /// Paints `surface` stretched over page rect `r` under the current transform (a PDF page's raster).
    func paint(_ surface: ImageSurface, over r: Rect) {
        guard surface.width > 0, surface.height > 0, r.width > 0, r.height > 0 else { return }
        cairo_save(cr)
        withoutSampleBias()
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_clip(cr)
        cairo_translate(cr, r.minX, r.minY)
        cairo_scale(cr, r.width / Double(surface.width), r.height / Double(surface.height))
        cairo_set_source_surface(cr, surface.pointer, 0, 0)
        // Bilinear between the raster's pixels: a stand-in scaled up stays smooth, the sharp one lands 1:1.
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Fills `r` with the current colour.
    func cairoFillRect(_ r: Rect) {
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
        cairo_fill(cr)
    }

    /// Multiplies the current matrix by a scale of each axis (a PDF page's points onto a page's size).
    public func scale(_ sx: Double, _ sy: Double) { cairo_scale(cr, sx, sy) }
    public func translate(_ dx: Double, _ dy: Double) { cairo_translate(cr, dx, dy) }

    /// Toy-API text (`InkSamples` makes PDFs with known words this way; real text goes through Pango).
    public func showText(_ text: String, at p: Point, size: Double, color: RGBA = .black) {
        setColor(color)
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        cairo_move_to(cr, p.x, p.y)
        cairo_show_text(cr, text)
    }
}
