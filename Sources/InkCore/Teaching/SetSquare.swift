import Foundation

/// A set square with a protractor (the "Geodreieck" of German classrooms, as Xournal++ has it): a right isosceles
/// triangle whose long edge runs through `centre` at `degrees` (counter-clockwise on screen), `size` long, the
/// right angle on the long edge's `normal` side (below it at 0°). All three sides are drawing edges: the long
/// one, and the two short ones, which meet at a right angle (for perpendiculars) and lie at 45° to it.
/// The protractor's half circle of degrees is centred on the long edge's middle.
public struct SetSquare: Hashable, Sendable {
    public var centre: Point
    public var degrees: Double
    public var size: Double

    public init(centre: Point, degrees: Double, size: Double = SetSquare.standardSize) {
        self.centre = centre; self.degrees = degrees; self.size = size
    }

    /// The long edge of a classroom set square: 16 cm.
    public static let standardSize = 16 * Ruler.centimetre

    /// The long edge's ends and the right-angle corner.
    public var corners: (start: Point, end: Point, apex: Point) {
        let long = StraightEdge(origin: centre, degrees: degrees)
        let h = size / 2
        return (centre - long.direction * h, centre + long.direction * h, centre + long.normal * h)
    }

    /// The long edge, then the two short edges (each from its end of the long edge towards the right angle).
    public var edges: [StraightEdge] {
        let c = corners
        let short = size / 2 * 2.squareRoot()
        return [
            StraightEdge(origin: c.start, direction: StraightEdge(origin: centre, degrees: degrees).direction, length: size),
            StraightEdge(origin: c.start, direction: (c.apex - c.start) * (1 / short), length: short),
            StraightEdge(origin: c.end, direction: (c.apex - c.end) * (1 / short), length: short),
        ]
    }

    /// The protractor's radius: the half circle stays inside the triangle with room for its numbers.
    public var protractorRadius: Double { size * 0.3 }

    /// The protractor's point at `angle` degrees (0 at the long edge's end, 90 towards the right angle, 180 at
    /// its start), `inset` units inside the half circle: where the app draws a tick or a number.
    public func protractorPoint(degrees angle: Double, inset: Double = 0) -> Point {
        let long = StraightEdge(origin: centre, degrees: degrees)
        let r = protractorRadius - inset
        let a = angle * Double.pi / 180
        return centre + long.direction * (r * cos(a)) + long.normal * (r * sin(a))
    }

    public func offset(by d: Point) -> SetSquare { SetSquare(centre: centre + d, degrees: degrees, size: size) }
}
