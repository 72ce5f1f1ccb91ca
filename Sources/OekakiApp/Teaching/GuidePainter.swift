import Foundation
import InkCore
import InkRender

/// Draws the ruler, set square and compass over the canvas, in widget pixels: see-through bodies, centimetre and
/// millimetre ticks, the set square's protractor, the compass's circle, centre and pencil, knobs to turn them,
/// and the angle while one turns. Also the laser pointer's glowing, fading ink.
struct GuidePainter {
    let handles: GuideHandles
    /// The angle to show beside a guide being turned.
    var turning: GuideHandles.Guide?

    private var view: ViewTransform { handles.view }
    private func v(_ p: Point) -> Point { view.viewPoint(fromPage: p) }

    static let ink = (r: 0.15, g: 0.25, b: 0.45)
    static let fontSize = 11.0

    func draw(_ cr: CairoContext) {
        cr.save()
        cr.setLineEnds(.round)
        if let s = handles.guides.setSquare { drawSetSquare(cr, s) }
        if let r = handles.guides.ruler { drawRuler(cr, r) }
        if let c = handles.guides.compass { drawCompass(cr, c) }
        cr.restore()
    }

    // MARK: ruler

    private func drawRuler(_ cr: CairoContext, _ r: Ruler) {
        guard let pivot = handles.rulerPivot else { return }
        let e = r.edge
        // The edge reaches across the view: from the pivot one diagonal either way.
        let reach = (handles.size.width + handles.size.height) / view.zoom
        let a = e.point(at: e.position(of: pivot) - reach), b = e.point(at: e.position(of: pivot) + reach)
        let w = e.normal * Ruler.width
        path(cr, [a, b, b + w, a + w], close: true)
        cr.setSource(red: 0.93, green: 0.95, blue: 0.98, alpha: 0.78)
        cr.fill(keepPath: true)
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.55)
        cr.setLineWidth(1)
        cr.stroke()
        // The drawing edge, crisp.
        path(cr, [a, b])
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.95)
        cr.setLineWidth(1.5)
        cr.stroke()
        ticks(cr, along: e, from: e.position(of: a), to: e.position(of: b), zero: 0, inward: e.normal)
        knob(cr, handles.knob(of: .ruler))
        if turning == .ruler { label(cr, "\(GuideHandles.shownDegrees(r.degrees))°", at: v(pivot) + Point(0, -28)) }
    }

    /// Centimetre ticks (numbered) and millimetre ticks along `e` between positions `t0` and `t1` (page units),
    /// counted from position `zero`, drawn from the edge towards `inward`. Millimetres only when they are at
    /// least 4 pixels apart; numbers thinned so they never crowd.
    private func ticks(_ cr: CairoContext, along e: StraightEdge, from t0: Double, to t1: Double, zero: Double, inward: Point,
                       symmetric: Bool = false) {
        let cm = Ruler.centimetre, px = cm * view.zoom
        guard px > 3 else { return }
        let mm = px / 10 >= 4
        // Without millimetres, half centimetres when they have room.
        let steps = mm ? 10 : px / 2 >= 5 ? 2 : 1
        let every = px >= 24 ? 1 : px >= 10 ? 5 : 10
        let first = Int(((min(t0, t1) - zero) / cm).rounded(.down)), last = Int(((max(t0, t1) - zero) / cm).rounded(.up))
        guard last - first < 5000 else { return }
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.9)
        cr.setLineWidth(1)
        for k in first...last {
            for m in 0..<steps {
                let t = zero + (Double(k) + Double(m) / Double(steps)) * cm
                guard t >= min(t0, t1), t <= max(t0, t1) else { continue }
                let len = m == 0 ? 14.0 : m * 2 == steps ? 9 : 5
                let p = v(e.point(at: t))
                let q = p + inward * len
                cr.move(to: p.x, p.y); cr.line(to: q.x, q.y)
            }
        }
        cr.stroke()
        // A ruler counts from its 0; a set square both ways from the middle of its long edge.
        for k in first...last where k % every == 0 && (symmetric || k >= 0) {
            let t = zero + Double(k) * cm
            guard t >= min(t0, t1), t <= max(t0, t1) else { continue }
            label(cr, "\(abs(k))", at: v(e.point(at: t)) + inward * 24, plain: true)
        }
    }

    // MARK: set square

    private func drawSetSquare(_ cr: CairoContext, _ s: SetSquare) {
        let c = s.corners
        path(cr, [c.start, c.end, c.apex], close: true)
        cr.setSource(red: 0.93, green: 0.97, blue: 0.95, alpha: 0.72)
        cr.fill(keepPath: true)
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.95)
        cr.setLineWidth(1.5)
        cr.stroke()
        let long = s.edges[0]
        let n = StraightEdge(origin: s.centre, degrees: s.degrees).normal
        // Centimetres both ways from the middle of the long edge, as on a Geodreieck.
        ticks(cr, along: long, from: 0, to: s.size, zero: s.size / 2, inward: n, symmetric: true)
        // The protractor: a tick every degree, longer every 5° and 10°, numbers every 10° (every 30° when small).
        let r = s.protractorRadius * view.zoom
        guard r > 20 else { return }
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.85)
        cr.setLineWidth(1)
        let centre = v(s.centre)
        let dir = long.direction
        // The half circle, then the ticks inwards from it.
        cr.newPath()
        let a0 = atan2(dir.y, dir.x)
        let sweepsClockwise = dir.x * n.y - dir.y * n.x > 0
        // The half circle on the set square's side of its long edge (arcs run clockwise on screen).
        if sweepsClockwise { cr.arc(centre, radius: r, from: a0, to: a0 + Double.pi) } else { cr.arc(centre, radius: r, from: a0 - Double.pi, to: a0) }
        cr.stroke()
        let perDegree = r * Double.pi / 180
        for deg in 0...180 {
            let len = deg % 10 == 0 ? 12.0 : deg % 5 == 0 ? 8 : 4
            if deg % 5 != 0, perDegree < 3 { continue }
            let p = v(s.protractorPoint(degrees: Double(deg))), q = v(s.protractorPoint(degrees: Double(deg), inset: len / view.zoom))
            cr.move(to: p.x, p.y); cr.line(to: q.x, q.y)
        }
        cr.stroke()
        let numbers = perDegree * 10 >= 22 ? 10 : 30
        for deg in stride(from: 0, through: 180, by: numbers) {
            label(cr, "\(deg)", at: v(s.protractorPoint(degrees: Double(deg), inset: 22 / view.zoom)), plain: true)
        }
        cr.arc(centre, radius: 3)
        cr.fill()
        knob(cr, handles.knob(of: .setSquare))
        if turning == .setSquare { label(cr, "\(GuideHandles.shownDegrees(s.degrees))°", at: centre + Point(0, -24)) }
    }

    // MARK: compass

    private func drawCompass(_ cr: CairoContext, _ c: Compass) {
        let centre = v(c.centre), r = c.radius * view.zoom
        cr.setLineWidth(1)
        cr.arc(centre, radius: r)
        cr.setSource(red: 1, green: 1, blue: 1, alpha: 0.8)
        cr.stroke(keepPath: true)
        cr.setDash([5, 4])
        cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 0.8)
        cr.stroke()
        cr.setDash([])
        guard let pencil = handles.pencil.map(v) else { return }
        // The compass's legs: the point at the centre, the pencil on the circle.
        cr.move(to: centre.x, centre.y); cr.line(to: pencil.x, pencil.y)
        cr.setLineWidth(2)
        cr.stroke()
        for (p, filled) in [(centre, false), (pencil, true)] {
            cr.arc(p, radius: 7)
            cr.setSource(red: 1, green: 1, blue: 1, alpha: 0.95)
            cr.fill(keepPath: true)
            cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 1)
            cr.setLineWidth(1.5)
            cr.stroke()
            if !filled {
                cr.move(to: p.x - 4, p.y); cr.line(to: p.x + 4, p.y)
                cr.move(to: p.x, p.y - 4); cr.line(to: p.x, p.y + 4)
                cr.stroke()
            } else {
                cr.arc(p, radius: 3)
                cr.fill()
            }
        }
        let cm = c.radius / Ruler.centimetre
        label(cr, String(format: "%.1f cm", cm), at: (centre + pencil) * 0.5 + Point(12, 12))
    }

    // MARK: pieces

    private func path(_ cr: CairoContext, _ pts: [Point], close: Bool = false) {
        guard let first = pts.first.map(v) else { return }
        cr.move(to: first.x, first.y)
        for p in pts.dropFirst().map(v) { cr.line(to: p.x, p.y) }
        if close { cr.closePath() }
    }

    /// A round knob with a curved arrow: drag it to turn.
    private func knob(_ cr: CairoContext, _ at: Point?) {
        guard let p = at.map(v) else { return }
        cr.arc(p, radius: 11)
        cr.setSource(red: 0.11, green: 0.44, blue: 0.85, alpha: 0.9)
        cr.fill()
        cr.setSource(red: 1, green: 1, blue: 1, alpha: 1)
        cr.setLineWidth(2)
        cr.arc(p, radius: 6, from: -Double.pi * 0.9, to: Double.pi * 0.4)
        cr.stroke()
        cr.move(to: p.x + 6 * cos(Double.pi * 0.4) + 3, p.y + 6 * sin(Double.pi * 0.4) - 1)
        cr.line(to: p.x + 6 * cos(Double.pi * 0.4), p.y + 6 * sin(Double.pi * 0.4))
        cr.line(to: p.x + 6 * cos(Double.pi * 0.4) + 1, p.y + 6 * sin(Double.pi * 0.4) - 4)
        cr.stroke()
    }

    /// Text centred at `at`: plain for scale numbers, on a dark pill for readings (the angle, the radius).
    private func label(_ cr: CairoContext, _ text: String, at: Point, plain: Bool = false) {
        let ext = cr.textExtents(text, size: Self.fontSize)
        let x = at.x - ext.width / 2 - ext.x, y = at.y - ext.height / 2 - ext.y
        if !plain {
            let pad = 5.0
            cr.rectangle(x: x + ext.x - pad, y: y + ext.y - pad, width: ext.width + 2 * pad, height: ext.height + 2 * pad)
            cr.setSource(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.85)
            cr.fill()
            cr.setSource(red: 1, green: 1, blue: 1, alpha: 1)
        } else {
            cr.setSource(red: Self.ink.r, green: Self.ink.g, blue: Self.ink.b, alpha: 1)
        }
        cr.showText(text, at: Point(x, y), size: Self.fontSize)
    }
}

/// The laser pointer's ink: a wide soft red glow, a brighter middle and a light core, all fading together.
enum LaserPainter {
    /// The outer glow's width, in core widths.
    private static let glow = 5.0
    /// The bright core's width in view pixels (never thinner than 2).
    private static func coreWidth(of s: Stroke, zoom: Double) -> Double { max(s.style.width * zoom, 2) }
    /// How far from its points a trail's glow reaches, in view pixels (a pixel more for the antialiasing).
    static func reach(of s: Stroke, zoom: Double) -> Double { coreWidth(of: s, zoom: zoom) * glow / 2 + 1 }

    /// `place` maps a trail's page coordinates to widget pixels (nil: its page is not shown).
    static func draw(_ cr: CairoContext, _ trails: [LaserPointer.Trail], now: Double, zoom: Double, place: (Stroke) -> ((Point) -> Point)?) {
        cr.save()
        cr.setLineEnds(.round)
        for t in trails {
            let o = t.opacity(at: now)
            guard o > 0, let map = place(t.stroke), let first = t.stroke.points.first else { continue }
            let c = t.stroke.style.color
            let w = coreWidth(of: t.stroke, zoom: zoom)
            for (width, alpha, white) in [(w * glow, 0.18, 0.0), (w * 2.2, 0.45, 0.0), (w * 0.9, 1.0, 0.3)] {
                let p0 = map(first.point)
                cr.move(to: p0.x, p0.y)
                if t.stroke.points.count == 1 { cr.line(to: p0.x + 0.01, p0.y) }
                for p in t.stroke.points.dropFirst() { let q = map(p.point); cr.line(to: q.x, q.y) }
                let mix = { (x: UInt8) in Double(x) / 255 * (1 - white) + white }
                cr.setSource(red: mix(c.r), green: mix(c.g), blue: mix(c.b), alpha: alpha * o)
                cr.setLineWidth(width)
                cr.stroke()
            }
        }
        cr.restore()
    }
}
