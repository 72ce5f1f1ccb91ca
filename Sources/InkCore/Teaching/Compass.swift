import Foundation

/// A compass set to a circle: its point at `centre`, its pencil `radius` away. A pen stroke beginning near the
/// circle draws on it, over the angles the pen swept.
public struct Compass: Hashable, Sendable {
    public var centre: Point
    public var radius: Double

    public init(centre: Point, radius: Double) { self.centre = centre; self.radius = radius }

    /// Distance from `p` to the circle.
    public func distance(to p: Point) -> Double { abs(p.distance(to: centre) - radius) }

    /// The angle of `p` about the centre, in radians as `atan2` gives them in page coordinates.
    public func angle(of p: Point) -> Double { atan2(p.y - centre.y, p.x - centre.x) }

    public func point(at angle: Double) -> Point {
        Point(centre.x + radius * cos(angle), centre.y + radius * sin(angle))
    }

    /// Points of the arc from `start` over `sweep` radians (either way; at most a full turn), on the circle, as
    /// closely spaced as a shape tool's ellipse: no chord strays more than `tolerance` from the circle (at most
    /// 720 to a full turn). A sweep of 0 is the one point at `start`.
    public func arc(from start: Double, sweep: Double, tolerance: Double = 0.05) -> [Point] {
        let s = Swift.min(Swift.max(sweep, -2 * Double.pi), 2 * Double.pi)
        guard radius > 0, radius.isFinite, s != 0, s.isFinite else { return [point(at: start)] }
        let t = Swift.min(Swift.max(tolerance, 1e-6), radius)
        let wanted = (Double.pi / acos(1 - t / radius)).rounded(.up)
        let full = wanted.isFinite ? Swift.min(Swift.max(Int(Swift.min(wanted, 720)), 16), 720) : 720
        let n = Swift.max(Int((Double(full) * abs(s) / (2 * Double.pi)).rounded(.up)), 1)
        var out: [Point] = []
        out.reserveCapacity(n + 1)
        for k in 0...n { out.append(point(at: start + s * Double(k) / Double(n))) }
        // A full turn closes exactly where it began.
        if abs(s) == 2 * Double.pi { out[n] = out[0] }
        return out
    }

    public func offset(by d: Point) -> Compass { Compass(centre: centre + d, radius: radius) }
}
