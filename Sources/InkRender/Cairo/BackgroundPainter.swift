import InkCore

/// A page's paper as renderers need it: the background, the area shown, and whether the pattern is endless.
public struct Paper: Hashable, Sendable {
    public var background: Background
    /// The page area exported or shown, in page units (a fixed page: 0,0 to its size).
    public var frame: Rect
    /// An endless page repeats its pattern from the origin in every direction; a fixed page lays it out as
    /// Xournal++ does (ruled lines below a header, dots and squares from the top-left corner).
    public var endless: Bool

    public init(background: Background, frame: Rect, endless: Bool) {
        self.background = background; self.frame = frame; self.endless = endless
    }

    public init(_ page: Page) { self.init(background: page.background, frame: page.frame, endless: page.isEndless) }
}

/// The lines and dots printed on paper, as vector marks in page units: one source for the screen, PNG, SVG and PDF,
/// so every output draws the same crisp background under the ink at any zoom.
///
/// Fixed pages follow Xournal++ 1.1's layout, so a notebook exported to `.xopp` looks the same there: ruled lines
/// every `spacing` from 80 units below the top while a line still fits 20 units above the bottom; lined paper adds
/// a margin line 72 units from the left; graph lines every `spacing` from the top-left corner, inside the margin
/// (grown to centre whole squares, and the vertical lines 2.5 units up, as Xournal++ draws them); a dot at every
/// graph crossing. Lines are 0.5 units wide, dots 1.5 across.
public enum BackgroundPainter {
    public struct Line: Hashable, Sendable {
        /// The line as a thin filled rectangle (drawn the same way in every output).
        public var rect: Rect
        public var color: RGBA
    }
    public struct Dot: Hashable, Sendable {
        public var center: Point
        public var color: RGBA
    }
    /// A line at any angle with round caps, `width` wide (the triangles of isometric paper, as Xournal++ strokes them).
    public struct Slant: Hashable, Sendable {
        public var from: Point, to: Point
        public var width: Double
        public var color: RGBA

        /// The line without its caps as a closed polygon (its caps are circles of `width` at either end).
        public var body: [Point] {
            let dx = to.x - from.x, dy = to.y - from.y, len = (dx * dx + dy * dy).squareRoot()
            guard len > 0 else { return [] }
            let nx = -dy / len * width / 2, ny = dx / len * width / 2
            return [Point(from.x + nx, from.y + ny), Point(to.x + nx, to.y + ny), Point(to.x - nx, to.y - ny), Point(from.x - nx, from.y - ny)]
        }
    }
    /// What is printed on a piece of paper, in drawing order: lines, slanted lines, dots.
    public struct Marks {
        public var lines: [Line] = []
        public var slants: [Slant] = []
        public var dots: [Dot] = []
    }

    public static let lineWidth = 0.5
    public static let dotDiameter = 1.5
    static let header = 80.0, footer = 20.0
    /// Staves: their lines' inset from either side and the gap between one stave and the next (Xournal++'s).
    static let stavesBorder = 50.0, stavesGap = 40.0
    /// Isometric graph lines are twice as wide as other lines (Xournal++'s 1.0).
    public static let isographWidth = 1.0
    /// Xournal++ draws graph lines 2.5 units before the edge they start at.
    static let graphShift = 2.5
    /// More marks than this in view are finer than any screen shows (a hostile spacing on a huge page): no pattern.
    public static let maxMarks = 200_000

    /// The marks of `paper` that touch `visible` (page units), lines first, in drawing order.
    public static func marks(_ paper: Paper, in visible: Rect) -> Marks {
        let b = paper.background
        let f = paper.frame
        // A fixed page prints nothing outside itself; an endless one everywhere in view.
        guard let area = paper.endless ? visible : f.intersection(visible) else { return Marks() }
        let s = b.spacing, half = lineWidth / 2
        let dark = (Int(b.paper.r) + Int(b.paper.g) + Int(b.paper.b)) / 3 < 0x80
        var lines: [Line] = [], dots: [Dot] = [], slants: [Slant] = []

        /// Indices k with first + k·step within lo…hi (every k for which a mark at that place could touch the range);
        /// a fixed page's pattern starts at `first` (k ≥ 0), an endless one's runs both ways.
        func steps(_ first: Double, _ lo: Double, _ hi: Double, pad: Double) -> ClosedRange<Int>? {
            var k0 = ((lo - pad - first) / s).rounded(.up)
            let k1 = ((hi + pad - first) / s).rounded(.down)
            if !paper.endless { k0 = max(k0, 0) }
            guard k0.isFinite, k1.isFinite, k0 <= k1, k1 - k0 < Double(maxMarks) else { return nil }
            return Int(k0)...Int(k1)
        }
        func horizontal(_ y: Double, _ x0: Double, _ x1: Double, _ c: RGBA) {
            lines.append(Line(rect: Rect(minX: x0, minY: y - half, maxX: x1, maxY: y + half), color: c))
        }
        func vertical(_ x: Double, _ y0: Double, _ y1: Double, _ c: RGBA) {
            lines.append(Line(rect: Rect(minX: x - half, minY: y0, maxX: x + half, maxY: y1), color: c))
        }

        switch b.style {
        case .plain:
            break
        case .ruled, .lined:
            if paper.endless {
                if let ks = steps(0, area.minY, area.maxY, pad: half) {
                    for k in ks { horizontal(Double(k) * s, area.minX, area.maxX, b.line) }
                }
            } else {
                // Xournal++: as many lines as fit between header and footer, each step a line's width apart too.
                let count = max(0, Int((f.height - header - footer) / (s + lineWidth)))
                if let ks = steps(header, area.minY, area.maxY, pad: half) {
                    for k in ks where k >= 0 && k < count { horizontal(header + Double(k) * s, f.minX, f.maxX, b.line) }
                }
            }
            if b.style == .lined {
                let margin = dark ? RGBA(r: 0x22, g: 0x00, b: 0x80) : Background.marginLine
                let x = (paper.endless ? 0 : f.minX) + Background.marginX
                if x + half >= area.minX, x - half <= area.maxX { vertical(x, paper.endless ? area.minY : f.minY, paper.endless ? area.maxY : f.maxY, margin) }
            }
        case .graph:
            let first = paper.endless ? 0 : s
            if let xs = steps(first, area.minX, area.maxX, pad: half), let ys = steps(first, area.minY, area.maxY, pad: half),
               xs.count + ys.count <= maxMarks {
                if paper.endless {
                    for k in xs { vertical(Double(k) * s, area.minY, area.maxY, b.line) }
                    for k in ys { horizontal(Double(k) * s, area.minX, area.maxX, b.line) }
                } else {
                    // Xournal++ (rm=1): the margin grows by half the leftover so whole squares sit in the middle.
                    let m = b.margin
                    let marginX = m > 0 ? m + (f.width - 2 * m - ((f.width - 2 * m) / s).rounded(.down) * s) / 2 : 0
                    let marginY = m > 0 ? m + (f.height - 2 * m - ((f.height - 2 * m) / s).rounded(.down) * s) / 2 : 0
                    for k in xs {
                        let x = first + Double(k) * s
                        guard x < f.width, x >= m, x <= f.width - m else { continue }
                        vertical(f.minX + x, f.minY + marginY - graphShift, f.minY + f.height - marginY - graphShift, b.line)
                    }
                    for k in ys {
                        let y = first + Double(k) * s
                        guard y < f.height, y >= m, y <= f.height - marginY else { continue }
                        horizontal(f.minY + y, f.minX + marginX, f.minX + f.width - marginX, b.line)
                    }
                }
            }
        case .dotted:
            let first = paper.endless ? 0 : s
            let r = dotDiameter / 2
            if let xs = steps(first, area.minX, area.maxX, pad: r), let ys = steps(first, area.minY, area.maxY, pad: r),
               xs.count * ys.count <= maxMarks {
                for i in xs where paper.endless || first + Double(i) * s < f.maxX {
                    for j in ys where paper.endless || first + Double(j) * s < f.maxY {
                        dots.append(Dot(center: Point(first + Double(i) * s, first + Double(j) * s), color: b.line))
                    }
                }
            }
        case .isograph, .isodotted:
            isometric(paper, area: area, lines: &slants, dots: &dots)
        case .staves:
            // Five lines `s` apart, the staves `stavesGap` apart (plus the lines' widths, as Xournal++ counts them),
            // as many as fit between header and footer; a bar at either end of each.
            let staff = 4 * s + 5 * lineWidth + stavesGap
            let x0 = paper.endless ? area.minX : f.minX + stavesBorder, x1 = paper.endless ? area.maxX : f.maxX - stavesBorder
            let count = paper.endless ? Int.max : Int((f.height - header - footer + stavesGap) / staff)
            let top = paper.endless ? 0 : f.minY + header
            var k0 = ((area.minY - 4 * s - half - top) / staff).rounded(.up)
            let k1 = ((area.maxY + half - top) / staff).rounded(.down)
            if !paper.endless { k0 = max(k0, 0) }
            guard x1 > x0, k0.isFinite, k1.isFinite, k0 <= k1, (k1 - k0) * 5 < Double(maxMarks) else { break }
            for k in Int(k0)...Int(k1) where k < count {
                let y = top + Double(k) * staff
                for j in 0..<5 { horizontal(y + Double(j) * s, x0, x1, b.line) }
                if !paper.endless {
                    vertical(x0, y - half, y + 4 * s + half, b.line)
                    vertical(x1, y - half, y + 4 * s + half, b.line)
                }
            }
        }
        return Marks(lines: lines, slants: slants, dots: dots)
    }

    /// Isometric paper: corners of triangles `spacing` on a side, in columns `√3/2·spacing` apart. A fixed page
    /// centres whole triangles inside a margin of one side, as Xournal++ 1.1 does (the graph framed at top and
    /// bottom); an endless one repeats them from the origin.
    private static func isometric(_ paper: Paper, area: Rect, lines: inout [Slant], dots: inout [Dot]) {
        let b = paper.background, f = paper.frame
        let xstep = 3.0.squareRoot() / 2 * b.spacing, ystep = b.spacing / 2
        let w = isographWidth, color = b.line
        // The lattice: column c at x0 + c·xstep, its corners at y0 + r·ystep for r of c's parity plus one (odd
        // columns from row 0, even ones from row 1); rows and columns bounded on a fixed page.
        let x0: Double, y0: Double
        var cols = Int.max, rows = Int.max
        if paper.endless {
            x0 = 0; y0 = 0
        } else {
            cols = max(Int(((f.width - 2 * b.spacing) / xstep).rounded(.down)), 0)
            rows = max(Int(((f.height - 2 * b.spacing) / ystep).rounded(.down)), 0)
            x0 = f.minX + (f.width - Double(cols) * xstep) / 2
            y0 = f.minY + (f.height - Double(rows) * ystep) / 2
        }
        let pad = max(w, dotDiameter)
        var c0 = ((area.minX - pad - x0) / xstep).rounded(.down), c1 = ((area.maxX + pad - x0) / xstep).rounded(.up)
        var r0 = ((area.minY - pad - y0) / ystep).rounded(.down), r1 = ((area.maxY + pad - y0) / ystep).rounded(.up)
        if !paper.endless { c0 = max(c0, 0); c1 = min(c1, Double(cols)); r0 = max(r0, 0); r1 = min(r1, Double(rows)) }
        guard c0.isFinite, c1.isFinite, r0.isFinite, r1.isFinite, c0 <= c1, r0 <= r1,
              (c1 - c0 + 1) * (r1 - r0 + 1) < Double(maxMarks) else { return }
        let cs = Int(c0)...Int(c1)
        func x(_ c: Int) -> Double { x0 + Double(c) * xstep }
        func y(_ r: Int) -> Double { y0 + Double(r) * ystep }
        if paper.background.style == .isodotted {
            for c in cs {
                // Corners of column c: rows of the other parity than c, inside the frame on a fixed page.
                let first = c % 2 == 0 ? 1 : 0
                var r = Int(r0)
                if (r - first) % 2 != 0 { r += 1 }
                while Double(r) <= r1 {
                    if paper.endless || (r >= first && r <= rows - first) { dots.append(Dot(center: Point(x(c), y(r)), color: color)) }
                    r += 2
                }
            }
            return
        }
        let bottom = paper.endless ? area.maxY + pad : y(rows), topY = paper.endless ? area.minY - pad : y0
        for c in cs { lines.append(Slant(from: Point(x(c), topY), to: Point(x(c), bottom), width: w, color: color)) }
        if paper.endless {
            // Slopes of ±ystep/xstep through the corners: y ∓ (x − x0)·t = y0 + (2k+1)·ystep.
            let t = ystep / xstep, left = area.minX - pad, right = area.maxX + pad
            for sign in [1.0, -1.0] {
                // The band of k whose lines cross the area between `left` and `right`.
                let lo = min(area.minY - pad + sign * t * left, area.minY - pad + sign * t * right)
                let hi = max(area.maxY + pad + sign * t * left, area.maxY + pad + sign * t * right)
                let k0 = ((lo - ystep) / (2 * ystep)).rounded(.down), k1 = ((hi - ystep) / (2 * ystep)).rounded(.up)
                guard k1 - k0 < Double(maxMarks) else { continue }
                let top = area.minY - pad, bottom = area.maxY + pad
                for k in Int(k0)...Int(k1) {
                    // y = yAt0 − sign·t·x, cut to where it is between `top` and `bottom`.
                    let yAt0 = Double(2 * k + 1) * ystep
                    let xa = (yAt0 - top) / (sign * t), xb = (yAt0 - bottom) / (sign * t)
                    let from = max(left, min(xa, xb)), to = min(right, max(xa, xb))
                    guard from < to else { continue }
                    lines.append(Slant(from: Point(from, yAt0 - sign * t * from), to: Point(to, yAt0 - sign * t * to), width: w, color: color))
                }
            }
            return
        }
        // Xournal++'s frame: top and bottom lines, then the diagonals from the top-left and the top-right corner.
        let width = Double(cols) * xstep, height = Double(rows) * ystep
        lines.append(Slant(from: Point(x0, y0), to: Point(x0 + width, y0), width: w, color: color))
        lines.append(Slant(from: Point(x0, y0 + height), to: Point(x0 + width, y0 + height), width: w, color: color))
        let hd = cols / 2, vd = rows / 2
        for d in 0..<(hd + vd) {
            let a = d < hd ? Point(xstep + Double(2 * d) * xstep, 0) : Point(width, ystep + Double(2 * (d - hd)) * ystep)
            let z = d < vd ? Point(0, ystep + Double(2 * d) * ystep) : Point(xstep + Double(2 * (d - vd)) * xstep, height)
            lines.append(Slant(from: Point(x0 + a.x, y0 + a.y), to: Point(x0 + z.x, y0 + z.y), width: w, color: color))
            let a2 = d < hd ? Point(width - (xstep + Double(2 * d) * xstep), 0) : Point(0, ystep + Double(2 * (d - hd)) * ystep)
            let z2 = d < vd ? Point(width, ystep + Double(2 * d) * ystep) : Point(width - (xstep + Double(2 * (d - vd)) * xstep), height)
            lines.append(Slant(from: Point(x0 + a2.x, y0 + a2.y), to: Point(x0 + z2.x, y0 + z2.y), width: w, color: color))
        }
        lines.removeAll { !Rect(minX: min($0.from.x, $0.to.x), minY: min($0.from.y, $0.to.y),
                                maxX: max($0.from.x, $0.to.x), maxY: max($0.from.y, $0.to.y)).insetBy(-pad).intersects(area) }
    }

    /// Draws the paper's picture (on a fixed page), then its pattern (not the paper colour), into `ctx`, whose
    /// transform maps page units to device pixels, clipped to `visible` (page units). `deviceScale`: device pixels
    /// per page unit of `ctx`, nil for a vector surface (the picture at full resolution).
    static func paint(_ paper: Paper, in ctx: CairoContext, visible: Rect, deviceScale: Double?) {
        if let picture = paper.background.picture, !paper.endless, paper.frame.intersects(visible) {
            ImagePainter.shared.drawPicture(picture, over: paper.frame, in: ctx, deviceScale: deviceScale)
        }
        let m = marks(paper, in: visible)
        // One fill per colour: overlapping lines of one colour do not darken each other, as one cairo stroke.
        var byColor: [RGBA: [Rect]] = [:]
        for l in m.lines { byColor[l.color, default: []].append(l.rect) }
        for (c, rects) in byColor.sorted(by: { $0.key.hex < $1.key.hex }) {
            for r in rects {
                ctx.addPolygon([Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.maxX, r.maxY), Point(r.minX, r.maxY)])
            }
            ctx.fill(c)
        }
        // Slanted lines and their round caps in one fill per colour: where they cross they do not darken.
        var slantsByColor: [RGBA: [Slant]] = [:]
        for l in m.slants { slantsByColor[l.color, default: []].append(l) }
        for (c, slants) in slantsByColor.sorted(by: { $0.key.hex < $1.key.hex }) {
            for l in slants {
                ctx.addPolygon(l.body)
                ctx.addCircle(l.from, radius: l.width / 2)
                ctx.addCircle(l.to, radius: l.width / 2)
            }
            ctx.fill(c)
        }
        if let c = m.dots.first?.color {
            for d in m.dots { ctx.addCircle(d.center, radius: dotDiameter / 2) }
            ctx.fill(c)
        }
    }
}
