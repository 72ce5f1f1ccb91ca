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

    /// Points closer than this many pixels to the last one kept are skipped (a thumbnail shows no wiggle that small).
    static let spacing = 1.5

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        pixels = Array(repeating: 0, count: width * height)
        coverage = Array(repeating: 0, count: width * height)
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
        // Device points and radii, one per `spacing` pixels of travel at most.
        var pts: [(x: Float, y: Float, r: Float)] = []
        pts.reserveCapacity(min(stroke.points.count, 256))
        var last: (x: Double, y: Double)?
        for (i, p) in stroke.points.enumerated() {
            let x = p.x * scale + dx, y = p.y * scale + dy
            guard x.isFinite, y.isFinite, abs(x) < 1e6, abs(y) < 1e6 else { continue }
            if let l = last, i != stroke.points.count - 1, (x - l.x) * (x - l.x) + (y - l.y) * (y - l.y) < Self.spacing * Self.spacing { continue }
            let r = StrokeShape.width(nominal: style.width, pressure: Double(p.pressure), thinning: thinning) / 2 * scale
            pts.append((Float(x), Float(y), Float(r.isFinite ? min(r, 1e4) : 0)))
            last = (x, y)
        }
        guard !pts.isEmpty else { return }
        var bx0 = Float.infinity, by0 = Float.infinity, bx1 = -Float.infinity, by1 = -Float.infinity
        for p in pts {
            bx0 = min(bx0, p.x - p.r); by0 = min(by0, p.y - p.r); bx1 = max(bx1, p.x + p.r); by1 = max(by1, p.y + p.r)
        }
        let box = (x0: max(clip.x0, Int((bx0 - 1).rounded(.down))), y0: max(clip.y0, Int((by0 - 1).rounded(.down))),
                   x1: min(clip.x1, Int((bx1 + 2).rounded(.up))), y1: min(clip.y1, Int((by1 + 2).rounded(.up))))
        guard box.x0 < box.x1, box.y0 < box.y1 else { return }

        for i in 0..<pts.count {
            let a = pts[i], b = i + 1 < pts.count ? pts[i + 1] : pts[i]
            if i + 1 == pts.count, pts.count > 1 { break }
            capsule(a, b, in: box)
        }

        // Composite the stroke once: OVER with its colour scaled by the coverage.
        let c = style.color
        let ca = Float(c.a) / 255
        let (cr, cg, cb) = (Float(c.r) * ca, Float(c.g) * ca, Float(c.b) * ca)
        for y in box.y0..<box.y1 {
            let row = y * width
            for x in box.x0..<box.x1 {
                let k = coverage[row + x]
                guard k > 0 else { continue }
                coverage[row + x] = 0
                let sa = ca * k
                let d = pixels[row + x]
                let keep = 1 - sa
                let a = sa * 255 + Float(d >> 24) * keep
                let r = cr * k + Float((d >> 16) & 0xFF) * keep
                let g = cg * k + Float((d >> 8) & 0xFF) * keep
                let bl = cb * k + Float(d & 0xFF) * keep
                pixels[row + x] = UInt32(min(a + 0.5, 255)) << 24 | UInt32(min(r + 0.5, 255)) << 16
                    | UInt32(min(g + 0.5, 255)) << 8 | UInt32(min(bl + 0.5, 255))
            }
        }
    }

    /// Coverage of the capsule from `a` to `b` (radius interpolated along it), kept as the maximum per pixel.
    private mutating func capsule(_ a: (x: Float, y: Float, r: Float), _ b: (x: Float, y: Float, r: Float),
                                  in box: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        // Pixels whose centre (x + 0.5) is within r + 0.5 of the axis's bounding box, and no others.
        let rMax = max(a.r, b.r)
        let x0 = max(box.x0, Int((min(a.x, b.x) - rMax - 1).rounded(.up))), x1 = min(box.x1, Int((max(a.x, b.x) + rMax).rounded(.up)))
        let y0 = max(box.y0, Int((min(a.y, b.y) - rMax - 1).rounded(.up))), y1 = min(box.y1, Int((max(a.y, b.y) + rMax).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let ex = b.x - a.x, ey = b.y - a.y
        let len2 = ex * ex + ey * ey
        let inv = len2 > 0 ? 1 / len2 : 0
        for y in y0..<y1 {
            let py = Float(y) + 0.5 - a.y
            let row = y * width
            for x in x0..<x1 {
                let old = coverage[row + x]
                if old >= 1 { continue }
                let px = Float(x) + 0.5 - a.x
                let t = min(max((px * ex + py * ey) * inv, 0), 1)
                let qx = px - t * ex, qy = py - t * ey
                let r = a.r + t * (b.r - a.r)
                let d2 = qx * qx + qy * qy
                // Outside the antialiased rim: nothing; well inside it: full (no square root for either).
                let outer = r + 0.5
                if d2 >= outer * outer { continue }
                var k: Float
                if r >= 0.5, d2 <= (r - 0.5) * (r - 0.5) {
                    k = 1
                } else {
                    k = min(outer - d2.squareRoot(), 1)
                    // A line thinner than a pixel covers at most its width of each pixel.
                    if r < 0.5 { k *= 2 * r / outer }
                }
                if k > old { coverage[row + x] = k }
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
