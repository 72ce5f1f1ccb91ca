import InkCore

/// A small raster for thumbnails, drawn in plain Swift: at a few hundred pixels a stroke is a line a pixel or
/// two wide, so shaping its outline and handing cairo a polygon costs far more than the pixels it touches.
///
/// Each stroke is the union of capsules along its points (skipping points closer than a pixel), with the radius
/// its pressure gives; coverage comes from the distance to the nearest capsule axis (a one-pixel antialiased
/// edge). A stroke's coverage is the maximum over its capsules, then the stroke is composited once, so a
/// translucent highlighter stays flat where it crosses itself, as in the full renderer.
struct PreviewRaster {
    let width: Int, height: Int
    /// Premultiplied ARGB words, the layout of cairo's ARGB32.
    private(set) var pixels: [UInt32]
    /// The stroke being drawn: coverage 0…1 per pixel, cleared again after each stroke.
    private var coverage: [Float]
    /// Per row, the pixels the stroke being drawn may cover (`lo..<hi`), so compositing visits only them.
    private var spanLo: [Int32], spanHi: [Int32]
    /// The stroke's device points and radii, reused from stroke to stroke.
    private var spine: [(x: Float, y: Float, r: Float)] = []

    /// Points closer than this many pixels to the last one kept are skipped (a thumbnail shows no wiggle that small).
    /// Wider spacing draws faster but strays from the full renderer (`ThumbnailTests`: 2 px already fails it).
    static let spacing = 1.5

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        pixels = Array(repeating: 0, count: width * height)
        coverage = Array(repeating: 0, count: width * height)
        spanLo = Array(repeating: .max, count: height); spanHi = Array(repeating: 0, count: height)
    }

    /// Fills whole pixels of `rect` (device pixels) with `color`.
    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, with color: RGBA) {
        let word = PixelWord.premultiplied(color)
        for y in max(0, y0)..<min(height, y1) {
            for x in max(0, x0)..<min(width, x1) { pixels[y * width + x] = word }
        }
    }

    /// Draws `stroke` mapped by `scale` then moved by (dx, dy), inside the pixel box `clip` only.
    mutating func draw(_ stroke: Stroke, scale: Double, dx: Double, dy: Double, clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let style = stroke.style
        guard stroke.content.isInk, style.color.a > 0, !stroke.points.isEmpty, scale.isFinite, scale > 0 else { return }
        let thinning = StrokeShape.options(for: style).thinning
        spine.removeAll(keepingCapacity: true)
        var last: (x: Double, y: Double)?
        let n = stroke.points.count
        for (i, p) in stroke.points.enumerated() {
            keep(x: p.x * scale + dx, y: p.y * scale + dy, pressure: p.pressure, isLast: i == n - 1,
                 width: style.width, thinning: thinning, scale: scale, last: &last)
        }
        fillSpine(color: style.color, clip: clip)
    }

    /// Draws ink given as columns of points (as drawn) placed by `placement`: the same pixels as `draw` of the
    /// `Stroke` holding those points, without building it.
    mutating func draw(_ style: StrokeStyle, placement: AffineMap, points: PointColumns, scale: Double, dx: Double, dy: Double,
                       clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let n = points.count
        guard style.color.a > 0, n > 0, scale.isFinite, scale > 0 else { return }
        let thinning = StrokeShape.options(for: style).thinning
        let (xs, ys, ps) = (points.x, points.y, points.pressure)
        // A `Stroke` drops a point repeating the one before it, so its last point is the first of the run of
        // repeats that ends the columns. (Other repeats need no care: they never pass the spacing test.)
        var end = n - 1
        while end > 0, xs[end] == xs[end - 1], ys[end] == ys[end - 1] { end -= 1 }
        spine.removeAll(keepingCapacity: true)
        var last: (x: Double, y: Double)?
        for i in 0..<n {
            let q = placement.apply(Point(xs[i], ys[i]))
            keep(x: q.x * scale + dx, y: q.y * scale + dy, pressure: ps[i], isLast: i == end,
                 width: style.width, thinning: thinning, scale: scale, last: &last)
        }
        fillSpine(color: style.color, clip: clip)
    }

    /// Adds a device point to the spine unless it is within `spacing` of the last one kept (the last point always).
    @inline(__always)
    private mutating func keep(x: Double, y: Double, pressure: Double, isLast: Bool, width: Double, thinning: Double,
                               scale: Double, last: inout (x: Double, y: Double)?) {
        guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { return }
        if let l = last, !isLast, (x - l.x) * (x - l.x) + (y - l.y) * (y - l.y) < Self.spacing * Self.spacing { return }
        let r = StrokeShape.width(nominal: width, pressure: pressure, thinning: thinning) / 2 * scale
        spine.append((Float(x), Float(y), Float(r.isFinite ? min(r, 1e4) : 0)))
        last = (x, y)
    }

    /// The spine's capsules into the coverage, then composited once: OVER with `color` scaled by the coverage.
    private mutating func fillSpine(color c: RGBA, clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let pts = spine
        guard !pts.isEmpty else { return }
        var bx0 = Float.infinity, by0 = Float.infinity, bx1 = -Float.infinity, by1 = -Float.infinity
        for p in pts {
            bx0 = min(bx0, p.x - p.r); by0 = min(by0, p.y - p.r); bx1 = max(bx1, p.x + p.r); by1 = max(by1, p.y + p.r)
        }
        let box = (x0: max(clip.x0, floorInt(bx0 - 1)), y0: max(clip.y0, floorInt(by0 - 1)),
                   x1: min(clip.x1, ceilInt(bx1 + 2)), y1: min(clip.y1, ceilInt(by1 + 2)))
        guard box.x0 < box.x1, box.y0 < box.y1 else { return }

        for i in 0..<pts.count {
            let a = pts[i], b = i + 1 < pts.count ? pts[i + 1] : pts[i]
            if i + 1 == pts.count, pts.count > 1 { break }
            capsule(a, b, in: box)
        }

        let ca = Float(c.a) / 255
        let (cr, cg, cb) = (Float(c.r) * ca, Float(c.g) * ca, Float(c.b) * ca)
        // Branch-free: a pixel of the span the stroke missed has coverage 0 and comes out as it was.
        for y in box.y0..<box.y1 {
            let lo = Int(spanLo[y]), hi = Int(spanHi[y])
            spanLo[y] = .max; spanHi[y] = 0
            guard lo < hi else { continue }
            let row = y * width
            for i in (row + lo)..<(row + hi) {
                let k = coverage[i]
                coverage[i] = 0
                let sa = ca * k
                let d = pixels[i]
                let keep = 1 - sa
                let a = sa * 255 + Float(d >> 24) * keep
                let r = cr * k + Float((d >> 16) & 0xFF) * keep
                let g = cg * k + Float((d >> 8) & 0xFF) * keep
                let bl = cb * k + Float(d & 0xFF) * keep
                pixels[i] = UInt32(min(a + 0.5, 255)) << 24 | UInt32(min(r + 0.5, 255)) << 16
                    | UInt32(min(g + 0.5, 255)) << 8 | UInt32(min(bl + 0.5, 255))
            }
        }
    }

    /// Coverage of the capsule from `a` to `b` (radius interpolated along it), kept as the maximum per pixel.
    private mutating func capsule(_ a: (x: Float, y: Float, r: Float), _ b: (x: Float, y: Float, r: Float),
                                  in box: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        // Pixels whose centre (x + 0.5) is within r + 0.5 of the axis's bounding box, and no others.
        let rMax = max(a.r, b.r)
        let x0 = max(box.x0, ceilInt(min(a.x, b.x) - rMax - 1)), x1 = min(box.x1, ceilInt(max(a.x, b.x) + rMax))
        let y0 = max(box.y0, ceilInt(min(a.y, b.y) - rMax - 1)), y1 = min(box.y1, ceilInt(max(a.y, b.y) + rMax))
        guard x0 < x1, y0 < y1 else { return }
        let ex = b.x - a.x, ey = b.y - a.y
        let len2 = ex * ex + ey * ey
        let inv = len2 > 0 ? 1 / len2 : 0
        // Each row visits only the pixels whose centre lies in the band of half-width rMax + 0.5 around the axis
        // (no pixel outside it is within any rim), widened by a hair against rounding: for a slanted line that
        // is about half of the bounding box.
        let len = len2.squareRoot(), reach = (rMax + 0.51) * len
        let invEy = ey != 0 ? 1 / ey : 0, ax = a.x - 0.5
        let (left, right) = (Float(x0), Float(x1))
        for y in y0..<y1 {
            let py = Float(y) + 0.5 - a.y
            let row = y * width
            var xa = x0, xb = x1
            if ey != 0 {
                // |px·ey − py·ex| < reach, for px = x + 0.5 − a.x.
                let c = py * ex
                let (lo, hi) = ey > 0 ? ((c - reach) * invEy, (c + reach) * invEy) : ((c + reach) * invEy, (c - reach) * invEy)
                xa = ceilInt(min(max(lo + ax, left), right))
                xb = floorInt(min(max(hi + ax, left), right)) + 1
                xb = min(xb, x1)
            } else if len2 > 0, abs(py * ex) >= reach {
                continue
            }
            guard xa < xb else { continue }
            spanLo[y] = min(spanLo[y], Int32(xa)); spanHi[y] = max(spanHi[y], Int32(xb))
            let dr = b.r - a.r
            // No branches per pixel (whether a pixel is inside was a coin toss for the branch predictor).
            for x in xa..<xb {
                let px = Float(x) + 0.5 - a.x
                let t = min(max((px * ex + py * ey) * inv, 0), 1)
                let qx = px - t * ex, qy = py - t * ey
                let r = a.r + t * dr
                let outer = r + 0.5
                // Full inside, a one-pixel ramp at the rim; a line thinner than a pixel covers at most its width.
                let k = min(max(outer - (qx * qx + qy * qy).squareRoot(), 0) * min(2 * r / outer, 1), 1)
                coverage[row + x] = max(coverage[row + x], k)
            }
        }
    }

    /// `layer` OVER this raster (both premultiplied).
    mutating func composite(_ layer: PreviewRaster) { composite(layer.pixels) }

    /// Premultiplied ARGB words of the same size (a picture or PDF page cairo drew) OVER this raster.
    mutating func composite(_ words: [UInt32]) {
        for i in 0..<min(pixels.count, words.count) {
            let s = words[i]
            let sa = s >> 24
            if sa == 0 { continue }
            if sa == 255 { pixels[i] = s; continue }
            let d = pixels[i], keep = 255 - sa
            func ch(_ shift: UInt32) -> UInt32 {
                let v = (s >> shift) & 0xFF + (((d >> shift) & 0xFF) * keep + 127) / 255
                return min(v, 255) << shift
            }
            pixels[i] = ch(24) | ch(16) | ch(8) | ch(0)
        }
    }
}

/// ⌈v⌉ and ⌊v⌋ without a call into libm (x86-64's baseline has no rounding instruction); |v| is far inside Int's range
/// (device coordinates are kept under 10⁶, radii under 10⁴).
@inline(__always) private func ceilInt(_ v: Float) -> Int { let i = Int(v); return Float(i) < v ? i + 1 : i }
@inline(__always) private func floorInt(_ v: Float) -> Int { let i = Int(v); return Float(i) > v ? i - 1 : i }
