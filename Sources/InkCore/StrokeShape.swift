import Foundation

/// Turns stored samples into the filled outline the renderer draws (after perfect-freehand:
/// streamline the points, map pressure to width, offset both sides, cap the ends round).
public enum StrokeShape {
    public struct Options: Hashable, Sendable {
        /// How strongly pressure changes the width: 0 = constant width, 1 = from 0 to 2× nominal.
        public var thinning: Double = 0.5
        /// 0…1: how far each point is pulled towards the previous smoothed point.
        public var streamline: Double = 0.35
        /// Segments used for each round cap.
        public var capSegments: Int = 8
        /// Points closer than this (page units) to the previous kept one are skipped.
        public var minSpacing: Double = 0
        public init(thinning: Double = 0.5, streamline: Double = 0.35, capSegments: Int = 8, minSpacing: Double = 0) {
            self.thinning = thinning; self.streamline = streamline; self.capSegments = capSegments; self.minSpacing = minSpacing
        }
        public static let pen = Options()
        /// Highlighters have one flat width, like a felt marker.
        public static let highlighter = Options(thinning: 0)
    }

    /// Largest width relative to nominal that any options produce (thinning ≤ 1 → 2×).
    public static let maxWidthFactor = 2.0

    public static func options(for style: StrokeStyle) -> Options {
        style.tool == .highlighter ? .highlighter : .pen
    }

    /// Width at a given pressure.
    public static func width(nominal: Double, pressure: Double, thinning: Double) -> Double {
        let p = pressure.isFinite ? Swift.min(Swift.max(pressure, 0), 1) : 0.5
        let t = Swift.min(Swift.max(thinning, 0), 1)
        return Swift.max(nominal * (1 - t + 2 * t * p), nominal * 0.05)
    }

    /// Streamlined centre line with a radius per point.
    public static func spine(of stroke: Stroke, options: Options) -> [(point: Point, radius: Double)] {
        let pts = stroke.points
        guard let first = pts.first else { return [] }
        let keep = 1 - Swift.min(Swift.max(options.streamline, 0), 0.95)
        var out: [(Point, Double)] = []
        out.reserveCapacity(pts.count)
        var prev = first.point
        out.append((prev, width(nominal: stroke.style.width, pressure: first.pressure, thinning: options.thinning) / 2))
        for (i, p) in pts.enumerated().dropFirst() {
            // The last point is kept exact so the line ends where the pen lifted.
            let target = p.point
            let q = i == pts.count - 1 ? target : prev + (target - prev) * keep
            if q.distance(to: prev) <= Swift.max(options.minSpacing, 1e-9) && i != pts.count - 1 { continue }
            if q.distance(to: prev) <= 1e-9 { continue }
            prev = q
            out.append((q, width(nominal: stroke.style.width, pressure: p.pressure, thinning: options.thinning) / 2))
        }
        return out
    }

    /// Closed polygon (no repeated first point) to be filled with the non-zero rule.
    /// A single point gives a round dot of the pen's width.
    public static func outline(of stroke: Stroke, options: Options? = nil) -> [Point] {
        let o = options ?? Self.options(for: stroke.style)
        let sp = spine(of: stroke, options: o)
        guard let first = sp.first else { return [] }
        let caps = Swift.max(o.capSegments, 2)
        if sp.count == 1 {
            let n = caps * 2
            return (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * Double.pi
                return Point(first.point.x + first.radius * cos(a), first.point.y + first.radius * sin(a))
            }
        }
        var left: [Point] = [], right: [Point] = []
        left.reserveCapacity(sp.count); right.reserveCapacity(sp.count)
        for i in 0..<sp.count {
            let a = sp[Swift.max(i - 1, 0)].point, b = sp[Swift.min(i + 1, sp.count - 1)].point
            var d = b - a
            let len = d.length
            d = len > 0 ? d * (1 / len) : Point(1, 0)
            let n = Point(-d.y, d.x) * sp[i].radius
            left.append(sp[i].point + n)
            right.append(sp[i].point - n)
        }
        var poly = left
        poly.append(contentsOf: cap(at: sp[sp.count - 1], from: sp[sp.count - 2].point, segments: caps))
        poly.append(contentsOf: right.reversed())
        poly.append(contentsOf: cap(at: sp[0], from: sp[1].point, segments: caps))
        return poly
    }

    /// Half circle around an end point, from the left side to the right side, facing away from `from`.
    private static func cap(at end: (point: Point, radius: Double), from: Point, segments: Int) -> [Point] {
        let d = end.point - from
        let base = atan2(d.y, d.x) + Double.pi / 2
        return (1..<segments).map { k in
            let a = base - Double(k) / Double(segments) * Double.pi
            return Point(end.point.x + end.radius * cos(a), end.point.y + end.radius * sin(a))
        }
    }
}

