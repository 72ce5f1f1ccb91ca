import CCairo
import Foundation
import InkCore

// The only file in InkRender that touches cairo's C pointers. Everything else speaks
// `ImageSurface`, `CairoContext` and page/device geometry.

/// Why cairo refused to do something, in words a user can act on.
struct CairoFailure: Error, CustomStringConvertible {
    let status: cairo_status_t
    var description: String { String(cString: cairo_status_to_string(status)) }
}

/// A 32-bit premultiplied ARGB raster owned by cairo (or viewing rows of another surface's memory).
/// Identity matters (it owns C memory), hence a class. Safe to read from many threads once no one draws into it.
public final class ImageSurface: @unchecked Sendable {
    let pointer: OpaquePointer
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// Keeps the surface whose memory a band view points into alive.
    private let parent: ImageSurface?

    /// A transparent surface; fails (without allocating) beyond cairo's 32767-pixel limit.
    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw RenderError.pageTooLarge("a \(width)×\(height) pixel image is outside 1…32767 pixels a side")
        }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.pageTooLarge("cannot allocate a \(width)×\(height) image: \(CairoFailure(status: st))")
        }
        pointer = s; self.width = width; self.height = height
        stride = Int(cairo_image_surface_get_stride(s)); parent = nil
    }

    /// A view of rows `y0..<y0+rows` of `parent`: drawing into it draws into the parent's pixels.
    /// Views of disjoint rows may be drawn from different threads at the same time.
    init(rowsOf parent: ImageSurface, from y0: Int, count rows: Int) {
        cairo_surface_flush(parent.pointer)
        let base = cairo_image_surface_get_data(parent.pointer)! + y0 * parent.stride
        pointer = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(parent.width), Int32(rows), Int32(parent.stride))!
        width = parent.width; height = rows; stride = parent.stride; self.parent = parent
    }

    init(adopting s: OpaquePointer) {
        pointer = s
        width = Int(cairo_image_surface_get_width(s)); height = Int(cairo_image_surface_get_height(s))
        stride = Int(cairo_image_surface_get_stride(s)); parent = nil
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Reads a PNG file (any PNG cairo understands) into an ARGB32 surface.
    public static func load(png path: String) throws -> ImageSurface {
        let s = cairo_image_surface_create_from_png(path)!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.cannotRead(path: path, reason: CairoFailure(status: st).description)
        }
        return ImageSurface(adoptingAsARGB: s)
    }

    /// Takes ownership of an image surface cairo made, copied onto ARGB32 when it is another format (RGB24 and
    /// others) so pixel readers see one layout.
    convenience init(adoptingAsARGB s: OpaquePointer) {
        if cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32 {
            let w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s)
            let out = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)!
            let cr = cairo_create(out)!
            cairo_set_source_surface(cr, s, 0, 0); cairo_paint(cr); cairo_destroy(cr)
            cairo_surface_destroy(s)
            self.init(adopting: out)
        } else {
            self.init(adopting: s)
        }
    }

    /// A surface holding `pixels` (premultiplied ARGB words, row after row, `width` a row).
    static func copying(_ pixels: [UInt32], width: Int, height: Int) throws -> ImageSurface {
        let surface = try ImageSurface(width: width, height: height)
        guard pixels.count >= width * height else { return surface }
        pixels.withUnsafeBufferPointer { src in
            surface.withPixels { base in
                for y in 0..<height {
                    (base + y * surface.stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                        row.update(from: src.baseAddress! + y * width, count: width)
                    }
                }
            }
        }
        return surface
    }

    /// The premultiplied ARGB words, row after row, `width` a row (the layout `copying` takes).
    func words() -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            withPixels { base in
                for y in 0..<height {
                    (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                        (dst.baseAddress! + y * width).update(from: row, count: width)
                    }
                }
            }
        }
        return out
    }

    /// Calls `body` with the premultiplied ARGB32 bytes (native-endian words) after flushing pending drawing.
    func withPixels<R>(_ body: (UnsafeMutablePointer<UInt8>) throws -> R) rethrows -> R {
        cairo_surface_flush(pointer)
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(cairo_image_surface_get_data(pointer)!)
    }

    /// Finishes pending drawing and detaches the snapshots others keep of the surface (copying their pixels now).
    func flush() { cairo_surface_flush(pointer) }

    /// Tells cairo the pixels were changed behind its back (by band views drawing into them).
    func markDirty() { cairo_surface_mark_dirty(pointer) }

    /// Straight (un-premultiplied) colour of one pixel; transparent outside the surface.
    public func pixel(x: Int, y: Int) -> RGBA {
        guard x >= 0, y >= 0, x < width, y < height else { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        cairo_surface_flush(pointer)
        let word = (cairo_image_surface_get_data(pointer)! + y * stride + x * 4)
            .withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return PixelWord.unpremultiplied(word)
    }

    /// Sets every pixel of rows `y0..<y1` to the premultiplied word of `color` (transparent when nil).
    func fillRows(_ y0: Int, _ y1: Int, with color: RGBA?) {
        let word = color.map(PixelWord.premultiplied) ?? 0
        withPixels { base in
            for y in y0..<y1 {
                (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                    row.update(repeating: word, count: width)
                }
            }
        }
    }
}

/// cairo's ARGB32 pixel word: premultiplied, alpha in the top byte.
enum PixelWord {
    static func premultiplied(_ c: RGBA) -> UInt32 {
        let a = UInt32(c.a)
        func m(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
        return a << 24 | m(c.r) << 16 | m(c.g) << 8 | m(c.b)
    }
    static func unpremultiplied(_ w: UInt32) -> RGBA {
        let a = w >> 24
        guard a > 0 else { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        func u(_ v: UInt32) -> UInt8 { UInt8(min((v * 255 + a / 2) / a, 255)) }
        return RGBA(r: u(w >> 16 & 0xff), g: u(w >> 8 & 0xff), b: u(w & 0xff), a: UInt8(a))
    }
}

/// A cairo drawing context. Either owns its `cairo_t` or borrows one (GTK's draw callback).
public final class CairoContext {
    let cr: OpaquePointer
    private let owned: Bool
    /// Device-space nudge that centres the rasterizer's samples (0 unless FAST antialiasing is on).
    private var sampleBiasX = 0.0
    private let target: ImageSurface?

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

    func save() { cairo_save(cr) }
    func restore() { cairo_restore(cr) }

    /// Page → device: device = page · scale + (dx, dy).
    func setTransform(scale: Double, dx: Double, dy: Double) {
        var m = cairo_matrix_t(xx: scale, yx: 0, xy: 0, yy: scale, x0: dx + sampleBiasX, y0: dy)
        cairo_set_matrix(cr, &m)
    }
    func identity() { cairo_identity_matrix(cr) }

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
    func fill(_ polygon: DevicePolygon, rowsFrom y0: Int, color: RGBA) {
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
        fill(color)
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
    func fill(_ c: RGBA) {
        setColor(c)
        cairo_fill(cr)
    }

    /// Fills one closed polygon in one go (one flat coverage even where it crosses itself).
    func fillPolygon(_ pts: [Point], color: RGBA) {
        addPolygon(pts)
        fill(color)
    }

    /// Paints `surface` with its top-left at device (x, y), scaled by `alpha`.
    func paint(_ surface: ImageSurface, atX x: Double = 0, y: Double = 0, alpha: Double = 1) {
        cairo_set_source_surface(cr, surface.pointer, x, y)
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
    }

    /// Paints `image` stretched over `rect` (current user space, e.g. page units), smoothly filtered; the edges
    /// pad instead of fading into transparency, so a scaled picture keeps crisp borders.
    func drawImage(_ image: ImageSurface, in rect: Rect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        cairo_save(cr)
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

extension ImageSurface {
    /// The picture at half the size (rounded up), each pixel the average of the 2×2 it covers: one level of
    /// an image's zoom pyramid.
    func halved() throws -> ImageSurface {
        let out = try ImageSurface(width: (width + 1) / 2, height: (height + 1) / 2)
        let cr = cairo_create(out.pointer)!
        cairo_scale(cr, Double(out.width) / Double(width), Double(out.height) / Double(height))
        cairo_set_source_surface(cr, pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_destroy(cr)
        return out
    }

    /// Moves the picture by (dx, dy) whole pixels; uncovered pixels become transparent.
    func shift(dx: Int, dy: Int) {
        guard dx != 0 || dy != 0 else { return }
        let w = width, h = height, st = stride
        guard abs(dx) < w, abs(dy) < h else { fillRows(0, h, with: nil); return }
        withPixels { base in
            let rowBytes = (w - abs(dx)) * 4
            let from = max(0, -dx) * 4, to = max(0, dx) * 4
            // Walk rows against the direction of travel so no source row is overwritten before it is read.
            let rows = dy > 0 ? Array(Swift.stride(from: h - 1, through: dy, by: -1)) : Array(0..<(h + dy))
            for y in rows {
                let src = base + (y - dy) * st, dst = base + y * st
                memmove(dst + to, src + from, rowBytes)
                // The columns the shift uncovered.
                if dx > 0 { memset(dst, 0, dx * 4) } else if dx < 0 { memset(dst + (w + dx) * 4, 0, -dx * 4) }
            }
            let cleared = dy > 0 ? 0..<dy : (h + dy)..<h
            for y in cleared { memset(base + y * st, 0, w * 4) }
        }
    }
}

/// Horizontal device lines every `step` pixels through y = origin, where polygon edges are cut (see
/// `CairoContext.addPolygon`). Only lines between `minY` and `maxY` are used. (Vertical lines would let
/// patches with left/right edges match too, at about the same cost again; bands are full width.)
struct DeviceLattice {
    let step: Double
    let origin: Double
    let minY: Double
    let maxY: Double
    private let inverseStep: Double

    init(step: Double, origin: Double, minY: Double, maxY: Double) {
        self.step = step; self.origin = origin; self.minY = minY; self.maxY = maxY
        inverseStep = 1 / step
    }

    /// The lattice row holding `p` (a point on a line counts as the row below it): an edge whose ends share
    /// a row crosses no line.
    @inline(__always)
    func cell(_ p: Point) -> Int {
        let y = (p.y - origin) * inverseStep
        // Far outside (or not finite): clamped; such edges take the exact path whenever their ends differ.
        guard abs(y) < 1e12 else { return y.isNaN ? 0 : (y < 0 ? -1_000_000_000_000 : 1_000_000_000_000) }
        // Floored by hand: `rounded(.down)` is a call to libm's floor, once per vertex of every stroke drawn.
        let t = Int(y)
        return Double(t) > y ? t - 1 : t
    }

    /// Indices k of the lines origin + k·step strictly between a and b and inside minY…maxY (empty when k0 > k1).
    @inline(__always)
    private func lines(_ a: Double, _ b: Double) -> (k0: Double, k1: Double) {
        let from = max(min(a, b), minY), to = min(max(a, b), maxY)
        guard from < to else { return (1, 0) }
        var k0 = ((from - origin) / step).rounded(.down) + 1
        var k1 = ((to - origin) / step).rounded(.up) - 1
        // Rounding may put a candidate exactly on an end: that is not a cut.
        if origin + k0 * step <= min(a, b) { k0 += 1 }
        if origin + k1 * step >= max(a, b) { k1 -= 1 }
        return (k0, k1)
    }

    /// How many cuts the edge a→b gets.
    func cutCount(_ a: Point, _ b: Point) -> Int {
        let y = lines(a.y, b.y)
        return Int(max(0, y.k1 - y.k0 + 1))
    }

    /// Calls `body` with the points where the edge a→b crosses lattice lines, in order from a to b
    /// (y exact, x interpolated).
    @inline(__always)
    func forEachCut(from a: Point, to b: Point, _ body: (Double, Double) -> Void) {
        let (k0, k1) = lines(a.y, b.y)
        guard k0 <= k1 else { return }
        let down = b.y < a.y
        var k = down ? k1 : k0
        while k0 <= k && k <= k1 {
            let y = origin + k * step
            body(a.x + (b.x - a.x) * ((y - a.y) / (b.y - a.y)), y)
            k += down ? -1 : 1
        }
    }
}

/// A cairo PDF surface collecting the file's bytes in memory, a page at a time (`CairoPDFExport`).
/// Vector output: text drawn into it (poppler's, Pango's) stays text, paths stay paths.
final class PDFSurface {
    /// Receives cairo's output; lives as long as the surface.
    private final class Sink { var bytes: [UInt8] = [] }
    private let sink = Sink()
    private let pointer: OpaquePointer
    private var finished = false

    /// A surface whose first page is `size` points.
    init(size: Size) throws {
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let s = cairo_pdf_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), size.width, size.height)!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.pageTooLarge("cannot start a PDF: \(CairoFailure(status: st))")
        }
        pointer = s
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "Oekaki")
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Sets the size of the page drawn next (before any drawing on it).
    func setPageSize(_ size: Size) { cairo_pdf_surface_set_size(pointer, size.width, size.height) }

    /// A context drawing onto the current page, page units = points, origin top-left.
    func context() -> CairoContext { CairoContext(vector: pointer) }

    /// Ends the current page; drawing continues on a new one.
    func showPage(_ ctx: CairoContext) { cairo_show_page(ctx.cr) }

    /// Finishes the file and returns its bytes, or why cairo failed.
    func finish() throws -> [UInt8] {
        if !finished { cairo_surface_finish(pointer); finished = true }
        let st = cairo_surface_status(pointer)
        guard st == CAIRO_STATUS_SUCCESS else { throw RenderError.pageTooLarge("cannot write the PDF: \(CairoFailure(status: st))") }
        return sink.bytes
    }
}

extension CairoContext {
    /// The raw `cairo_t*`, for poppler to draw a PDF page into (`PDFBackground`).
    var cairoPointer: OpaquePointer { cr }

    /// Paints `surface` stretched over page rect `r` under the current transform (a PDF page's raster).
    func paint(_ surface: ImageSurface, over r: Rect) {
        guard surface.width > 0, surface.height > 0, r.width > 0, r.height > 0 else { return }
        cairo_save(cr)
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
    func scale(_ sx: Double, _ sy: Double) { cairo_scale(cr, sx, sy) }
    func translate(_ dx: Double, _ dy: Double) { cairo_translate(cr, dx, dy) }

    /// Toy-API text (tests and benchmarks make PDFs with known words this way; real text goes through Pango).
    func showText(_ text: String, at p: Point, size: Double, color: RGBA = .black) {
        setColor(color)
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        cairo_move_to(cr, p.x, p.y)
        cairo_show_text(cr, text)
    }
}
