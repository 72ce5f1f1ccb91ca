import Foundation

/// The shape tools: a drag from where the pointer went down to where it is now gives the shape.
/// `constrained` (Shift in the app) makes squares and circles, and turns lines and arrows in 15° steps.
public enum ShapeTool {
    /// Angle step of a constrained line or arrow.
    public static let snapAngle = Double.pi / 12

    public static func shape(_ tool: Tool, from a: Point, to b: Point, constrained: Bool = false, width: Double = 3) -> Shape? {
        switch tool {
        case .line:
            return .line(a, constrained ? snapped(from: a, to: b) : b)
        case .arrow:
            let end = constrained ? snapped(from: a, to: b) : b
            return .arrow(from: a, to: end, head: arrowHead(length: a.distance(to: end), width: width), spread: Double.pi / 6)
        case .rectangle:
            let c = constrained ? square(from: a, to: b) : b
            return .polygon([a, Point(c.x, a.y), c, Point(a.x, c.y)])
        case .ellipse:
            let c = constrained ? square(from: a, to: b) : b
            return .ellipse(center: Point((a.x + c.x) / 2, (a.y + c.y) / 2), rx: abs(c.x - a.x) / 2, ry: abs(c.y - a.y) / 2, angle: 0)
        default:
            return nil
        }
    }

    /// Barb length for an arrow: grows with the pen, never more than 40 % of the shaft.
    public static func arrowHead(length: Double, width: Double) -> Double {
        Swift.min(length * 0.4, 10 + 3 * Swift.max(width.isFinite ? width : 0, 0))
    }

    /// `b` turned about `a` to the nearest multiple of 15°, at the same distance.
    static func snapped(from a: Point, to b: Point) -> Point {
        let d = b - a, len = d.length
        guard len > 0, len.isFinite else { return b }
        let angle = (atan2(d.y, d.x) / snapAngle).rounded() * snapAngle
        return Point(a.x + len * cos(angle), a.y + len * sin(angle))
    }

    /// The far corner of the square on the drag's longer side, towards `b`.
    static func square(from a: Point, to b: Point) -> Point {
        let dx = b.x - a.x, dy = b.y - a.y
        let side = Swift.max(abs(dx), abs(dy))
        return Point(a.x + (dx < 0 ? -side : side), a.y + (dy < 0 ? -side : side))
    }
}
