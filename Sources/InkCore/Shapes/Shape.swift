import Foundation

/// What a shape stroke is, in the words the summary uses.
public enum ShapeKind: String, CaseIterable, Hashable, Sendable {
    case line, arrow, triangle, rectangle, polygon, ellipse
}

/// An exact geometric shape. `points` traces it as the samples of one ordinary stroke (drawn as a polyline),
/// so erasers, selection, export and `.xopp` treat it like any other ink.
public enum Shape: Hashable, Sendable {
    case line(Point, Point)
    /// A shaft from `from` to `to` and a two-sided head at `to`: barbs of length `head` at `spread` radians
    /// either side of the shaft, traced in one stroke (from, to, barb, to, other barb).
    case arrow(from: Point, to: Point, head: Double, spread: Double)
    /// A closed convex polygon through its corners (3 to 8), in drawing order.
    case polygon([Point])
    /// An ellipse of semi-axes `rx`, `ry`, its x axis turned by `angle` radians.
    case ellipse(center: Point, rx: Double, ry: Double, angle: Double)

    public var kind: ShapeKind {
        switch self {
        case .line: return .line
        case .arrow: return .arrow
        case .ellipse: return .ellipse
        case .polygon(let c):
            if c.count == 3 { return .triangle }
            if c.count == 4 && Self.hasRightAngles(c) { return .rectangle }
            return .polygon
        }
    }

    /// Sample positions along the shape; closed shapes end where they began.
    /// Curves get enough points that no chord strays more than `tolerance` page units from the true curve.
    public func points(tolerance: Double = 0.05) -> [Point] {
        switch self {
        case .line(let a, let b):
            return [a, b]
        case .arrow(let a, let b, let head, let spread):
            let d = b - a, len = d.length
            guard len > 0, len.isFinite else { return [a, b] }
            let back = d * (-1 / len)
            let h = Swift.max(head, 0)
            return [a, b, b + Self.rotate(back, by: spread) * h, b, b + Self.rotate(back, by: -spread) * h]
        case .polygon(let c):
            guard let first = c.first else { return [] }
            return c + [first]
        case .ellipse(let center, let rx, let ry, let angle):
            let r = Swift.max(abs(rx), abs(ry))
            guard r > 0, r.isFinite else { return [center] }
            // Chord sagitta r·(1 − cos(π/n)) ≤ tolerance.
            let t = Swift.min(Swift.max(tolerance, 1e-6), r)
            let wanted = (Double.pi / acos(1 - t / r)).rounded(.up)
            let n = wanted.isFinite ? Swift.min(Swift.max(Int(Swift.min(wanted, 720)), 16), 720) : 720
            let ca = cos(angle), sa = sin(angle)
            var out: [Point] = []
            out.reserveCapacity(n + 1)
            for k in 0..<n {
                let u = 2 * Double.pi * Double(k) / Double(n)
                let x = rx * cos(u), y = ry * sin(u)
                out.append(Point(center.x + x * ca - y * sa, center.y + x * sa + y * ca))
            }
            out.append(out[0])
            return out
        }
    }

    /// The samples of a stroke tracing this shape: constant pressure (the pen's nominal width), time `time`.
    public func inkPoints(time: Double = 0) -> [InkPoint] {
        points().map { InkPoint(x: $0.x, y: $0.y, pressure: 0.5, time: time) }
    }

    static func rotate(_ v: Point, by a: Double) -> Point {
        let c = cos(a), s = sin(a)
        return Point(v.x * c - v.y * s, v.x * s + v.y * c)
    }

    /// Four corners whose sides meet at right angles (within a hundredth of a radian).
    static func hasRightAngles(_ c: [Point]) -> Bool {
        for i in 0..<c.count {
            let a = c[(i + c.count - 1) % c.count] - c[i], b = c[(i + 1) % c.count] - c[i]
            let la = a.length, lb = b.length
            guard la > 0, lb > 0 else { return false }
            if abs((a.x * b.x + a.y * b.y) / (la * lb)) > 0.01 { return false }
        }
        return true
    }
}
