import Foundation

/// A drawing edge: the line through `origin` along `direction` (a unit vector). A ruler's edge is the whole line;
/// a set square's edges are `extent` long from `origin`, and only a pen near that part of the line snaps to them.
public struct StraightEdge: Hashable, Sendable {
    public var origin: Point
    public var direction: Point
    /// How far along `direction` the edge reaches (from 0); nil for a whole line.
    public var length: Double?

    public init(origin: Point, direction: Point, length: Double? = nil) {
        self.origin = origin; self.direction = direction; self.length = length
    }

    public init(origin: Point, degrees: Double, length: Double? = nil) {
        self.init(origin: origin, direction: Self.direction(degrees: degrees), length: length)
    }

    /// The unit vector at `degrees` counter-clockwise on screen (y grows downwards, so 90° points up).
    /// Quarter turns are exact, so a ruler at 90° gives a line with one x.
    public static func direction(degrees: Double) -> Point {
        var a = degrees.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        switch a {
        case 0: return Point(1, 0)
        case 90: return Point(0, -1)
        case 180: return Point(-1, 0)
        case 270: return Point(0, 1)
        default:
            let r = a * Double.pi / 180
            return Point(cos(r), -sin(r))
        }
    }

    /// Perpendicular to the edge, a quarter turn clockwise on screen from `direction`: the side a ruler lies on.
    public var normal: Point { Point(-direction.y, direction.x) }

    /// How far along the edge the foot of `p` lies from `origin`.
    public func position(of p: Point) -> Double {
        let d = p - origin
        return d.x * direction.x + d.y * direction.y
    }

    /// The point of the edge's line nearest to `p`.
    public func project(_ p: Point) -> Point { point(at: position(of: p)) }

    public func point(at t: Double) -> Point { origin + direction * t }

    /// Distance from `p` to the edge: to its line, or to the nearest point of a finite edge.
    public func distance(to p: Point) -> Double {
        var t = position(of: p)
        if let length { t = Swift.min(Swift.max(t, 0), length) }
        return p.distance(to: point(at: t))
    }
}
