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

    public static let lineWidth = 0.5
    public static let dotDiameter = 1.5
    static let header = 80.0, footer = 20.0
    /// Xournal++ draws graph lines 2.5 units before the edge they start at.
    static let graphShift = 2.5
    /// More marks than this in view are finer than any screen shows (a hostile spacing on a huge page): no pattern.
    public static let maxMarks = 200_000

    /// The marks of `paper` that touch `visible` (page units), lines first, in drawing order.
    public static func marks(_ paper: Paper, in visible: Rect) -> (lines: [Line], dots: [Dot]) {
        let b = paper.background
        let f = paper.frame
        // A fixed page prints nothing outside itself; an endless one everywhere in view.
        guard let area = paper.endless ? visible : f.intersection(visible) else { return ([], []) }
        let s = b.spacing, half = lineWidth / 2
        let dark = (Int(b.paper.r) + Int(b.paper.g) + Int(b.paper.b)) / 3 < 0x80
        var lines: [Line] = [], dots: [Dot] = []

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
        }
        return (lines, dots)
    }

    /// Draws the pattern (not the paper colour) into `ctx`, whose transform maps page units to device pixels,
    /// clipped to `visible` (page units).
    static func paint(_ paper: Paper, in ctx: CairoContext, visible: Rect) {
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
        if let c = m.dots.first?.color {
            for d in m.dots { ctx.addCircle(d.center, radius: dotDiameter / 2) }
            ctx.fill(c)
        }
    }
}
