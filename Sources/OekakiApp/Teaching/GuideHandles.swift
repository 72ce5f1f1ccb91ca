import Foundation
import InkCore
import InkRender

/// Where the pointer takes hold of the ruler, set square and compass, and what dragging does to them. The guides
/// live in the canvas's view space (page units, pages at their layout origins), so they stay put on screen
/// whichever page is drawn on; grips are tested in widget pixels, so they are as easy to reach at every zoom.
/// Pure geometry, tested without a display.
struct GuideHandles {
    enum Guide: Equatable { case ruler, setSquare, compass }
    enum Grip: Equatable {
        /// The body: the guide follows the pointer.
        case move(Guide)
        /// The knob: the guide turns about its pivot (`pivot(of:)`).
        case turn(Guide)
        /// The compass's pencil: the radius follows the pointer.
        case radius
    }

    /// Near a drawing edge or the circle a pointer draws (the editor's snap radius, in widget pixels).
    static let drawingBand = 20.0
    /// Diameter of a knob or handle's hit area, in widget pixels (≥ 32: a finger reaches it).
    static let handleSize = 32.0
    /// How far along the ruler its knob sits from the pivot, in widget pixels.
    static let rulerKnobOffset = 140.0
    /// The compass's pencil sits at this angle on the circle (radians, y down: up and to the right).
    static let pencilAngle = -Double.pi / 4

    let guides: Guides
    let view: ViewTransform
    /// The widget's size in pixels: the ruler, a whole line, is shown and pivoted where it crosses the view.
    let size: Size

    // MARK: where things are (view space, page units)

    /// Where the ruler turns: the point of its edge nearest the middle of the view.
    var rulerPivot: Point? {
        guard let r = guides.ruler else { return nil }
        return r.edge.project(view.pagePoint(fromView: Point(size.width / 2, size.height / 2)))
    }

    func pivot(of g: Guide) -> Point? {
        switch g {
        case .ruler: return rulerPivot
        case .setSquare: return guides.setSquare?.centre
        case .compass: return guides.compass?.centre
        }
    }

    /// The knob that turns a guide (the compass has its centre and pencil instead).
    func knob(of g: Guide) -> Point? {
        switch g {
        case .ruler:
            guard let r = guides.ruler, let p = rulerPivot else { return nil }
            return p + r.edge.direction * (Self.rulerKnobOffset / view.zoom) + r.edge.normal * (Ruler.width / 2)
        case .setSquare:
            guard let s = guides.setSquare else { return nil }
            return s.centre + StraightEdge(origin: s.centre, degrees: s.degrees).normal * (s.size * 0.4)
        case .compass:
            return nil
        }
    }

    var pencil: Point? {
        guard let c = guides.compass else { return nil }
        return c.centre + Point(cos(Self.pencilAngle), sin(Self.pencilAngle)) * c.radius
    }

    // MARK: hit tests (widget pixels)

    /// What a pointer going down at `v` takes hold of; nil when it draws (near an edge or the circle, or on no
    /// guide at all). Knobs and the compass's handles come first, then the drawing band, then the bodies.
    func grip(atView v: Point) -> Grip? {
        let r = Self.handleSize / 2
        func near(_ p: Point?) -> Bool { p.map { view.viewPoint(fromPage: $0).distance(to: v) <= r } ?? false }
        if near(pencil) { return .radius }
        if near(guides.compass?.centre) { return .move(.compass) }
        if near(knob(of: .setSquare)) { return .turn(.setSquare) }
        if near(knob(of: .ruler)) { return .turn(.ruler) }
        let p = view.pagePoint(fromView: v)
        if guides.line(near: p, within: Self.drawingBand / view.zoom) != nil { return nil }
        if let s = guides.setSquare, Self.inside(p, s) { return .move(.setSquare) }
        if let ruler = guides.ruler {
            let e = ruler.edge, d = p - e.origin
            let across = d.x * e.normal.x + d.y * e.normal.y
            if across >= 0, across <= Ruler.width { return .move(.ruler) }
        }
        return nil
    }

    static func inside(_ p: Point, _ s: SetSquare) -> Bool {
        let c = s.corners
        func side(_ a: Point, _ b: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
        let s1 = side(c.start, c.end), s2 = side(c.end, c.apex), s3 = side(c.apex, c.start)
        return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
    }

    // MARK: dragging

    /// The guides after dragging `grip` from `a` to `b` (view space), starting from `guides` as they were when
    /// the pointer went down (`pivot` is where it turns then). Turning snaps to whole degrees, or to 15° steps
    /// with `coarse` (Shift).
    func dragged(_ grip: Grip, from a: Point, to b: Point, pivot: Point?, coarse: Bool = false) -> Guides {
        var g = guides
        let d = b - a
        switch grip {
        case .move(.ruler): g.ruler = guides.ruler?.offset(by: d)
        case .move(.setSquare): g.setSquare = guides.setSquare?.offset(by: d)
        case .move(.compass): g.compass = guides.compass?.offset(by: d)
        case .radius:
            guard let c = g.compass else { break }
            // Never smaller than the drawing band: a circle under the finger could not be drawn on.
            g.compass?.radius = max(b.distance(to: c.centre), Self.drawingBand / view.zoom)
        case .turn(let which):
            guard let p = pivot else { break }
            let turn = Self.screenDegrees(b - p) - Self.screenDegrees(a - p)
            switch which {
            case .ruler:
                guard let r = g.ruler else { break }
                let to = Self.snapped(r.degrees + turn, coarse: coarse)
                g.ruler = Ruler(origin: Self.turned(r.origin, about: p, by: to - r.degrees), degrees: to)
            case .setSquare:
                guard let s = g.setSquare else { break }
                g.setSquare?.degrees = Self.snapped(s.degrees + turn, coarse: coarse)
            case .compass: break
            }
        }
        return g
    }

    /// Two fingers on a guide move and turn it as they do (the pinch also sizes the compass's circle).
    /// `from` are where the fingers were when both were down, `to` where they are now.
    func twoFingers(from: (Point, Point), to: (Point, Point), guide: Guide) -> Guides {
        var g = guides
        let m0 = (from.0 + from.1) * 0.5, m1 = (to.0 + to.1) * 0.5
        let turn = Self.screenDegrees(to.1 - to.0) - Self.screenDegrees(from.1 - from.0)
        let shift = m1 - m0
        switch guide {
        case .ruler:
            guard let r = g.ruler else { break }
            g.ruler = Ruler(origin: Self.turned(r.origin, about: m0, by: turn) + shift, degrees: Self.normalized(r.degrees + turn))
        case .setSquare:
            guard let s = g.setSquare else { break }
            g.setSquare = SetSquare(centre: Self.turned(s.centre, about: m0, by: turn) + shift, degrees: Self.normalized(s.degrees + turn),
                                    size: s.size)
        case .compass:
            guard let c = g.compass else { break }
            let spread0 = from.0.distance(to: from.1), spread1 = to.0.distance(to: to.1)
            let k = spread0 > 1 && spread1 > 1 ? spread1 / spread0 : 1
            g.compass = Compass(centre: c.centre + shift, radius: max(c.radius * k, Self.drawingBand / view.zoom))
        }
        return g
    }

    // MARK: angles

    /// The direction of `v` in degrees counter-clockwise on screen (y grows downwards).
    static func screenDegrees(_ v: Point) -> Double { atan2(-v.y, v.x) * 180 / Double.pi }

    /// `p` turned about `c` by `degrees` counter-clockwise on screen.
    static func turned(_ p: Point, about c: Point, by degrees: Double) -> Point {
        let a = degrees * Double.pi / 180, ca = cos(a), sa = sin(a)
        let d = p - c
        return Point(c.x + d.x * ca + d.y * sa, c.y - d.x * sa + d.y * ca)
    }

    /// Into (-180, 180], whole degrees (or 15° steps).
    static func snapped(_ degrees: Double, coarse: Bool) -> Double {
        let step = coarse ? 15.0 : 1.0
        return normalized((degrees / step).rounded() * step)
    }

    static func normalized(_ degrees: Double) -> Double {
        var a = degrees.truncatingRemainder(dividingBy: 360)
        if a <= -180 { a += 360 }
        if a > 180 { a -= 360 }
        return a
    }

    /// The angle a ruler or set square shows: its edge's direction folded into 0…180 (an edge has no arrow).
    static func shownDegrees(_ degrees: Double) -> Int {
        var a = normalized(degrees).rounded()
        if a < 0 { a += 180 }
        return Int(a) % 180
    }
}
