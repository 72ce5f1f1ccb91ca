import CCairo
import InkCore

/// A highlighter's fill on a raster, multiplying what is under it, as cairo's MULTIPLY does but without its cost:
/// cairo composites MULTIPLY through pixman a row at a time across the path's whole bounding box (a mask row
/// cleared, filled and combined for every row), which made the 5 % of Xournal++ pressure ink that is highlighters
/// 15 % of the page's export. Here cairo's own rasterizer writes the path's coverage into a small A8 mask (its fast
/// span filler), and only covered pixels are combined, with pixman's integer arithmetic (`combine_multiply_u`), so
/// every pixel is the one cairo would have written (`MultiplyFillTests` compares them).
final class MultiplyFill {
    /// The coverage mask's bytes, reused from fill to fill (a surface over them is made to each path's exact box).
    private var maskBytes: [UInt8] = []
    /// Fills drawn here rather than by cairo (tests).
    private(set) var fills = 0
    /// The source pixel pixman combines for the last colour (premultiplied ARGB), probed from cairo itself.
    private var probed: (color: RGBA, word: UInt32)?

    /// Fills and clears `cr`'s current path on `target` (the surface `cr` draws into) with `color` multiplied.
    /// `clip`: the rectangles `cr` is clipped to (a page's edge on screen), cut from the mask too, as cairo cuts
    /// them from the path. False, leaving the path, where it would not be cairo's result: a failed context, a clip
    /// that is not those.
    func fill(_ cr: OpaquePointer, target: ImageSurface, color: RGBA, clip: [CairoContext.DeviceClip] = []) -> Bool {
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS, clipped(cr, target, as: clip) else { return false }
        // The path's device box, a pixel wider each way (antialiased edges), on the surface.
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_fill_extents(cr, &x1, &y1, &x2, &y2)
        var xs = [x1, x2, x2, x1], ys = [y1, y1, y2, y2]
        for k in 0..<4 { cairo_user_to_device(cr, &xs[k], &ys[k]) }
        guard let lx = xs.min(), let hx = xs.max(), let ly = ys.min(), let hy = ys.max(), lx.isFinite, hx.isFinite, ly.isFinite, hy.isFinite else { return false }
        let bx = max(0, Int(max(lx - 1, -1).rounded(.down))), by = max(0, Int(max(ly - 1, -1).rounded(.down)))
        let ex = min(target.width, Int(min(hx + 2, Double(target.width)).rounded(.up)))
        let ey = min(target.height, Int(min(hy + 2, Double(target.height)).rounded(.up)))
        guard ex > bx, ey > by else { cairo_new_path(cr); return true }
        let w = ex - bx, h = ey - by
        let maskStride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_A8, Int32(w)))
        if maskBytes.count < maskStride * h { maskBytes = [UInt8](repeating: 0, count: max(maskStride * h, maskBytes.count * 2)) }
        guard let path = cairo_copy_path(cr) else { return false }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS else { return false }
        let source = sourceWord(color)
        return maskBytes.withUnsafeMutableBufferPointer { buffer -> Bool in
            let maskData = buffer.baseAddress!
            maskData.initialize(repeating: 0, count: maskStride * h)
            // A mask exactly the box: where the box meets the surface's edge, so does the mask's (cairo clips the
            // path to its surface, which moves coverage in that last pixel).
            guard let mask = cairo_image_surface_create_for_data(maskData, CAIRO_FORMAT_A8, Int32(w), Int32(h), Int32(maskStride)) else { return false }
            defer { cairo_surface_destroy(mask) }
            guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS, let mc = cairo_create(mask) else { return false }
            defer { cairo_destroy(mc) }
            // The same path, matrix, rule, tolerance and antialiasing, shifted by whole pixels onto the mask.
            cairo_set_operator(mc, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_rgba(mc, 0, 0, 0, 1)
            cairo_set_antialias(mc, cairo_get_antialias(cr))
            cairo_set_fill_rule(mc, cairo_get_fill_rule(cr))
            cairo_set_tolerance(mc, cairo_get_tolerance(cr))
            for r in clip {
                // Moved by whole pixels, as the path is: cairo's fixed point keeps every edge where it was.
                cairo_rectangle(mc, r.x - Double(bx), r.y - Double(by), r.width, r.height)
                cairo_clip(mc)
            }
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            m.x0 -= Double(bx); m.y0 -= Double(by)
            cairo_set_matrix(mc, &m)
            cairo_append_path(mc, path)
            cairo_fill(mc)
            guard cairo_status(mc) == CAIRO_STATUS_SUCCESS else { return false }
            cairo_surface_flush(mask)
            cairo_new_path(cr)

            target.flush()
            let stride = target.stride
            let base = target.pixelBase
            for y in 0..<h {
                let coverage = maskData + y * maskStride
                let row = UnsafeMutableRawPointer(base + (by + y) * stride + bx * 4).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w {
                    let c = coverage[x]
                    guard c != 0 else { continue }
                    row[x] = Self.multiply(c == 255 ? source : Self.times(source, UInt32(c)), row[x])
                }
            }
            cairo_surface_mark_dirty_rectangle(target.pointer, Int32(bx), Int32(by), Int32(w), Int32(h))
            fills += 1
            return true
        }
    }

    /// Whether `cr`'s clip is what `clip` says: none narrower than the surface, or that rectangle (its extents,
    /// checked against cairo's own, so a clip set behind `CairoContext`'s back leaves the fill to cairo).
    private func clipped(_ cr: OpaquePointer, _ target: ImageSurface, as clip: [CairoContext.DeviceClip]) -> Bool {
        guard !clip.isEmpty else { return unclipped(cr, target) }
        // What the rectangles leave, cut to the surface.
        var lo = (x: 0.0, y: 0.0), hi = (x: Double(target.width), y: Double(target.height))
        for r in clip {
            lo = (max(lo.x, min(r.x, r.x + r.width)), max(lo.y, min(r.y, r.y + r.height)))
            hi = (min(hi.x, max(r.x, r.x + r.width)), min(hi.y, max(r.y, r.y + r.height)))
        }
        guard hi.x > lo.x, hi.y > lo.y else { return false }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        // cairo's extents are that area rounded out to whole pixels.
        func same(_ a: Double, _ b: Double, down: Bool) -> Bool {
            abs(a - (down ? (b + 1.0 / 256).rounded(.down) : (b - 1.0 / 256).rounded(.up))) <= 1.0 / 128
        }
        return same(min(x0, x1), lo.x, down: true) && same(min(y0, y1), lo.y, down: true)
            && same(max(x0, x1), hi.x, down: false) && same(max(y0, y1), hi.y, down: false)
    }

    /// No clip narrower than the surface (a clip's antialiased edge is cairo's to draw).
    private func unclipped(_ cr: OpaquePointer, _ target: ImageSurface) -> Bool {
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return false }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1, let r = list.pointee.rectangles else { return false }
        var x0 = r.pointee.x, y0 = r.pointee.y, x1 = r.pointee.x + r.pointee.width, y1 = r.pointee.y + r.pointee.height
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        return min(x0, x1) <= 0 && min(y0, y1) <= 0 && max(x0, x1) >= Double(target.width) && max(y0, y1) >= Double(target.height)
    }

    /// What pixman combines for `color`: cairo's MULTIPLY of it over a transparent pixel is the source itself.
    private func sourceWord(_ color: RGBA) -> UInt32 {
        if let probed, probed.color == color { return probed.word }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)!
        defer { cairo_surface_destroy(s) }
        let c = cairo_create(s)!
        let u = color.unit
        cairo_set_source_rgba(c, u.r, u.g, u.b, u.a)
        cairo_set_operator(c, CAIRO_OPERATOR_MULTIPLY)
        cairo_paint(c)
        cairo_destroy(c)
        cairo_surface_flush(s)
        let word = UnsafeRawPointer(cairo_image_surface_get_data(s)!).load(as: UInt32.self)
        probed = (color, word)
        return word
    }

    /// x × a / 255 per channel, rounded as pixman rounds (`MUL_UN8`).
    @inline(__always) static func times(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var rb = (x & 0xff00ff) &* a &+ 0x800080
        rb = ((rb >> 8 & 0xff00ff) &+ rb) >> 8 & 0xff00ff
        var ag = (x >> 8 & 0xff00ff) &* a &+ 0x800080
        ag = ((ag >> 8 & 0xff00ff) &+ ag) & 0xff00ff00
        return rb | ag
    }

    /// x × y per channel (`UN8x4_MUL_UN8x4`).
    @inline(__always) static func timesEach(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var rb = (x & 0xff) &* (y & 0xff) | (x >> 16 & 0xff) &* (y >> 16 & 0xff) << 16
        rb = rb &+ 0x800080
        rb = ((rb >> 8 & 0xff00ff) &+ rb) >> 8 & 0xff00ff
        var ag = (x >> 8 & 0xff) &* (y >> 8 & 0xff) | (x >> 24) &* (y >> 24) << 16
        ag = ag &+ 0x800080
        ag = ((ag >> 8 & 0xff00ff) &+ ag) & 0xff00ff00
        return rb | ag
    }

    /// x + y per channel, saturating (`UN8x4_ADD_UN8x4`).
    @inline(__always) static func plus(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var rb = (x & 0xff00ff) &+ (y & 0xff00ff)
        rb = (rb | (0x10000100 &- (rb >> 8 & 0xff00ff))) & 0xff00ff
        var ag = (x >> 8 & 0xff00ff) &+ (y >> 8 & 0xff00ff)
        ag = (ag | (0x10000100 &- (ag >> 8 & 0xff00ff))) & 0xff00ff
        return rb | ag << 8
    }

    /// pixman's separable MULTIPLY of premultiplied `s` onto `d`: s·(1 − αd) + d·(1 − αs) + s·d.
    @inline(__always) static func multiply(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sInverseAlpha = ~s >> 24, dInverseAlpha = ~d >> 24
        return plus(plus(times(s, dInverseAlpha), times(d, sInverseAlpha)), timesEach(d, s))
    }
}
