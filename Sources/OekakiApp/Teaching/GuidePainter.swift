import CGtk
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

    func draw(_ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, 11)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        if let s = handles.guides.setSquare { drawSetSquare(cr, s) }
        if let r = handles.guides.ruler { drawRuler(cr, r) }
        if let c = handles.guides.compass { drawCompass(cr, c) }
        cairo_restore(cr)
    }

    // MARK: ruler

    private func drawRuler(_ cr: OpaquePointer, _ r: Ruler) {
        guard let pivot = handles.rulerPivot else { return }
        let e = r.edge
        // The edge reaches across the view: from the pivot one diagonal either way.
        let reach = (handles.size.width + handles.size.height) / view.zoom
        let a = e.point(at: e.position(of: pivot) - reach), b = e.point(at: e.position(of: pivot) + reach)
        let w = e.normal * Ruler.width
        path(cr, [a, b, b + w, a + w], close: true)
        cairo_set_source_rgba(cr, 0.93, 0.95, 0.98, 0.78)
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.55)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        // The drawing edge, crisp.
        path(cr, [a, b])
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.95)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
        ticks(cr, along: e, from: e.position(of: a), to: e.position(of: b), zero: 0, inward: e.normal)
        knob(cr, handles.knob(of: .ruler))
        if turning == .ruler { label(cr, "\(GuideHandles.shownDegrees(r.degrees))°", at: v(pivot) + Point(0, -28)) }
    }

    /// Centimetre ticks (numbered) and millimetre ticks along `e` between positions `t0` and `t1` (page units),
    /// counted from position `zero`, drawn from the edge towards `inward`. Millimetres only when they are at
    /// least 4 pixels apart; numbers thinned so they never crowd.
    private func ticks(_ cr: OpaquePointer, along e: StraightEdge, from t0: Double, to t1: Double, zero: Double, inward: Point,
                       numbered: Bool = true) {
        let cm = Ruler.centimetre, px = cm * view.zoom
        guard px > 3 else { return }
        let mm = px / 10 >= 4
        let every = px >= 24 ? 1 : px >= 10 ? 5 : 10
        let first = Int(((min(t0, t1) - zero) / cm).rounded(.down)), last = Int(((max(t0, t1) - zero) / cm).rounded(.up))
        guard last - first < 5000 else { return }
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.9)
        cairo_set_line_width(cr, 1)
        for k in first...last {
            for m in 0..<(mm ? 10 : 1) {
                let t = zero + (Double(k) + Double(m) / 10) * cm
                guard t >= min(t0, t1), t <= max(t0, t1) else { continue }
                let len = m == 0 ? 14.0 : m == 5 ? 9 : 5
                let p = v(e.point(at: t))
                let q = p + inward * len
                cairo_move_to(cr, p.x, p.y); cairo_line_to(cr, q.x, q.y)
            }
        }
        cairo_stroke(cr)
        guard numbered else { return }
        for k in first...last where k % every == 0 {
            let t = zero + Double(k) * cm
            guard t >= min(t0, t1), t <= max(t0, t1) else { continue }
            label(cr, "\(abs(k))", at: v(e.point(at: t)) + inward * 24, plain: true)
        }
    }

    // MARK: set square

    private func drawSetSquare(_ cr: OpaquePointer, _ s: SetSquare) {
        let c = s.corners
        path(cr, [c.start, c.end, c.apex], close: true)
        cairo_set_source_rgba(cr, 0.93, 0.97, 0.95, 0.72)
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.95)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
        let long = s.edges[0]
        let n = StraightEdge(origin: s.centre, degrees: s.degrees).normal
        // Centimetres both ways from the middle of the long edge, as on a Geodreieck.
        ticks(cr, along: long, from: 0, to: s.size, zero: s.size / 2, inward: n)
        // The protractor: a tick every degree, longer every 5° and 10°, numbers every 10° (every 30° when small).
        let r = s.protractorRadius * view.zoom
        guard r > 20 else { return }
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.85)
        cairo_set_line_width(cr, 1)
        let centre = v(s.centre)
        let dir = long.direction
        // The half circle, then the ticks inwards from it.
        let a0 = atan2(dir.y, dir.x)
        let sweepsClockwise = dir.x * n.y - dir.y * n.x > 0
        if sweepsClockwise { cairo_arc(cr, centre.x, centre.y, r, a0, a0 + Double.pi) } else { cairo_arc_negative(cr, centre.x, centre.y, r, a0, a0 - Double.pi) }
        cairo_stroke(cr)
        let perDegree = r * Double.pi / 180
        for deg in 0...180 {
            let len = deg % 10 == 0 ? 12.0 : deg % 5 == 0 ? 8 : 4
            if deg % 5 != 0, perDegree < 3 { continue }
            let p = v(s.protractorPoint(degrees: Double(deg))), q = v(s.protractorPoint(degrees: Double(deg), inset: len / view.zoom))
            cairo_move_to(cr, p.x, p.y); cairo_line_to(cr, q.x, q.y)
        }
        cairo_stroke(cr)
        let numbers = perDegree * 10 >= 22 ? 10 : 30
        for deg in stride(from: 0, through: 180, by: numbers) {
            label(cr, "\(deg)", at: v(s.protractorPoint(degrees: Double(deg), inset: 22 / view.zoom)), plain: true)
        }
        cairo_arc(cr, centre.x, centre.y, 3, 0, 2 * Double.pi)
        cairo_fill(cr)
        knob(cr, handles.knob(of: .setSquare))
        if turning == .setSquare { label(cr, "\(GuideHandles.shownDegrees(s.degrees))°", at: centre + Point(0, -24)) }
    }

    // MARK: compass

    private func drawCompass(_ cr: OpaquePointer, _ c: Compass) {
        let centre = v(c.centre), r = c.radius * view.zoom
        cairo_set_line_width(cr, 1)
        cairo_arc(cr, centre.x, centre.y, r, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.8)
        cairo_stroke_preserve(cr)
        cairo_set_dash(cr, [5, 4], 2, 0)
        cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 0.8)
        cairo_stroke(cr)
        cairo_set_dash(cr, nil, 0, 0)
        guard let pencil = handles.pencil.map(v) else { return }
        // The compass's legs: the point at the centre, the pencil on the circle.
        cairo_move_to(cr, centre.x, centre.y); cairo_line_to(cr, pencil.x, pencil.y)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
        for (p, filled) in [(centre, false), (pencil, true)] {
            cairo_arc(cr, p.x, p.y, 7, 0, 2 * Double.pi)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
            cairo_fill_preserve(cr)
            cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 1)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
            if !filled {
                cairo_move_to(cr, p.x - 4, p.y); cairo_line_to(cr, p.x + 4, p.y)
                cairo_move_to(cr, p.x, p.y - 4); cairo_line_to(cr, p.x, p.y + 4)
                cairo_stroke(cr)
            } else {
                cairo_arc(cr, p.x, p.y, 3, 0, 2 * Double.pi)
                cairo_fill(cr)
            }
        }
        let cm = c.radius / Ruler.centimetre
        label(cr, String(format: "%.1f cm", cm), at: (centre + pencil) * 0.5 + Point(12, 12))
    }

    // MARK: pieces

    private func path(_ cr: OpaquePointer, _ pts: [Point], close: Bool = false) {
        guard let first = pts.first.map(v) else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in pts.dropFirst().map(v) { cairo_line_to(cr, p.x, p.y) }
        if close { cairo_close_path(cr) }
    }

    /// A round knob with a curved arrow: drag it to turn.
    private func knob(_ cr: OpaquePointer, _ at: Point?) {
        guard let p = at.map(v) else { return }
        cairo_arc(cr, p.x, p.y, 11, 0, 2 * Double.pi)
        cairo_set_source_rgba(cr, 0.11, 0.44, 0.85, 0.9)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_set_line_width(cr, 2)
        cairo_arc(cr, p.x, p.y, 6, -Double.pi * 0.9, Double.pi * 0.4)
        cairo_stroke(cr)
        cairo_move_to(cr, p.x + 6 * cos(Double.pi * 0.4) + 3, p.y + 6 * sin(Double.pi * 0.4) - 1)
        cairo_line_to(cr, p.x + 6 * cos(Double.pi * 0.4), p.y + 6 * sin(Double.pi * 0.4))
        cairo_line_to(cr, p.x + 6 * cos(Double.pi * 0.4) + 1, p.y + 6 * sin(Double.pi * 0.4) - 4)
        cairo_stroke(cr)
    }

    /// Text centred at `at`: plain for scale numbers, on a dark pill for readings (the angle, the radius).
    private func label(_ cr: OpaquePointer, _ text: String, at: Point, plain: Bool = false) {
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, text, &ext)
        let x = at.x - ext.width / 2 - ext.x_bearing, y = at.y - ext.height / 2 - ext.y_bearing
        if !plain {
            let pad = 5.0
            cairo_rectangle(cr, x + ext.x_bearing - pad, y + ext.y_bearing - pad, ext.width + 2 * pad, ext.height + 2 * pad)
            cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, 0.85)
            cairo_fill(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 1)
        } else {
            cairo_set_source_rgba(cr, Self.ink.r, Self.ink.g, Self.ink.b, 1)
        }
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, text)
    }
}

/// The laser pointer's ink: a wide soft red glow, a brighter middle and a light core, all fading together.
enum LaserPainter {
    /// `place` maps a trail's page coordinates to widget pixels (nil: its page is not shown).
    static func draw(_ cr: OpaquePointer, _ trails: [LaserPointer.Trail], now: Double, zoom: Double, place: (Stroke) -> ((Point) -> Point)?) {
        cairo_save(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for t in trails {
            let o = t.opacity(at: now)
            guard o > 0, let map = place(t.stroke), let first = t.stroke.points.first else { continue }
            let c = t.stroke.style.color
            let w = max(t.stroke.style.width * zoom, 2)
            for (width, alpha, white) in [(w * 5, 0.18, 0.0), (w * 2.2, 0.45, 0.0), (w * 0.9, 1.0, 0.55)] {
                let p0 = map(first.point)
                cairo_move_to(cr, p0.x, p0.y)
                if t.stroke.points.count == 1 { cairo_line_to(cr, p0.x + 0.01, p0.y) }
                for p in t.stroke.points.dropFirst() { let q = map(p.point); cairo_line_to(cr, q.x, q.y) }
                let mix = { (x: UInt8) in Double(x) / 255 * (1 - white) + white }
                cairo_set_source_rgba(cr, mix(c.r), mix(c.g), mix(c.b), alpha * o)
                cairo_set_line_width(cr, width)
                cairo_stroke(cr)
            }
        }
        cairo_restore(cr)
    }
}
