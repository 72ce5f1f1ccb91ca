/// Which strokes a lasso or box takes.
public enum SelectionRule: String, Sendable, CaseIterable {
    /// At least half of a stroke's points inside (a loop drawn loosely still takes what it means).
    case halfInside = "half"
    /// Every point inside (the stricter preference).
    case whollyInside = "whole"
}

/// The area a selection gesture encloses: a freehand loop (closed back to its start) or a box.
public enum SelectionArea: Sendable {
    case loop(Lasso)
    case box(Rect)

    public var bounds: Rect {
        switch self {
        case .loop(let l): return l.bounds
        case .box(let r): return r
        }
    }

    public func contains(_ p: Point) -> Bool {
        switch self {
        case .loop(let l): return l.contains(p)
        case .box(let r): return r.contains(p)
        }
    }

    /// The strokes of `drawing` this area selects under `rule`, in drawing order. Only strokes the index
    /// finds near the area are looked at, and counting stops as soon as the answer is known.
    public func strokes(of drawing: Drawing, rule: SelectionRule) -> [Stroke] {
        let area = bounds
        return drawing.strokes(in: area).filter { s in
            guard let b = s.bounds, b.intersects(area) else { return false }
            // A stroke whose points all lie in the box is in, without looking at them.
            if case .box = self, area.contains(Point(b.minX, b.minY)), area.contains(Point(b.maxX, b.maxY)) { return true }
            let n = s.points.count
            // Half of n rounded up must be inside; wholly inside allows no point out.
            let needed = rule == .whollyInside ? n : (n + 1) / 2
            let allowedOut = n - needed
            var inside = 0, outside = 0
            for p in s.points {
                if contains(p.point) {
                    inside += 1
                    if inside >= needed { return true }
                } else {
                    outside += 1
                    if outside > allowedOut { return false }
                }
            }
            return n > 0 && inside >= needed
        }
    }
}

/// A closed freehand loop with its edges sorted into horizontal bands, so testing a point looks only at the few
/// edges that cross its band (a loop of thousands of samples costs about as much per point as a triangle).
/// Inside is even-odd: a loop that crosses itself leaves its doubly wound parts out, as users expect of a lasso.
public struct Lasso: Sendable {
    public let points: [Point]
    public let bounds: Rect
    private let bandHeight: Double
    /// Edge indices (edge i runs from points[i] to points[i+1], the last back to the start) per band.
    private let bands: [[Int32]]

    /// Most vertices a loop keeps: a longer gesture is thinned evenly (far finer than a hand can aim), which
    /// bounds the bands' memory (vertices × bands) and the edges one point is tested against, whatever the input.
    public static let maxVertices = 2048

    /// Nil for fewer than three finite points or a loop with no area to speak of.
    public init?(_ loop: [Point]) {
        var pts = loop.filter(\.isFinite)
        if pts.count > Self.maxVertices {
            // Evenly spread, first and last kept (the loop still closes where the gesture ended).
            let step = Double(pts.count - 1) / Double(Self.maxVertices - 1)
            pts = (0..<Self.maxVertices).map { pts[Int((Double($0) * step).rounded())] }
        }
        guard pts.count >= 3, let b = Rect(bounding: pts), b.height > 0, b.width > 0 else { return nil }
        points = pts; bounds = b
        let count = Swift.max(1, Swift.min(Self.maxVertices, pts.count))
        bandHeight = b.height / Double(count)
        var bands = [[Int32]](repeating: [], count: count)
        for i in pts.indices {
            let a = pts[i], c = pts[(i + 1) % pts.count]
            guard a.y != c.y else { continue }   // horizontal edges never cross a ray along x
            let lo = Self.band(Swift.min(a.y, c.y), b.minY, bandHeight, count)
            let hi = Self.band(Swift.max(a.y, c.y), b.minY, bandHeight, count)
            for k in lo...hi { bands[k].append(Int32(i)) }
        }
        self.bands = bands
    }

    private static func band(_ y: Double, _ minY: Double, _ h: Double, _ count: Int) -> Int {
        let k = ((y - minY) / h).rounded(.down)
        return k.isFinite ? Swift.min(Swift.max(Int(k), 0), count - 1) : 0
    }

    /// Even-odd test of a ray towards +x against the edges of the point's band.
    public func contains(_ p: Point) -> Bool {
        guard bounds.contains(p) else { return false }
        var inside = false
        let n = points.count
        for e in bands[Self.band(p.y, bounds.minY, bandHeight, bands.count)] {
            let i = Int(e)
            let a = points[i], c = points[(i + 1) % n]
            // Half-open in y, so a ray through a vertex counts it once.
            if (a.y > p.y) != (c.y > p.y) {
                let x = a.x + (p.y - a.y) * (c.x - a.x) / (c.y - a.y)
                if p.x < x { inside.toggle() }
            }
        }
        return inside
    }
}
