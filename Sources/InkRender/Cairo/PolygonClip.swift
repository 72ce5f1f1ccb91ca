import InkCore

/// Sutherland–Hodgman clipping of a closed polygon to an axis-aligned square centred on the origin.
/// Used only for polygons reaching absurd coordinates; the edges it adds run along the square's border,
/// far outside anything drawn, so the fill inside is unchanged.
enum PolygonClip {
    static func toSquare(_ pts: [Point], halfSide h: Double) -> [Point] {
        guard pts.allSatisfy(\.isFinite) else { return [] }
        var poly = pts
        // Each edge of the square: keep the side where `inside` holds, cut crossing edges where the coordinate is `limit`.
        let planes: [(inside: (Point) -> Bool, cut: (Point, Point) -> Point)] = [
            ({ $0.x >= -h }, { a, b in lerp(a, b, (-h - a.x) / (b.x - a.x)) }),
            ({ $0.x <= h }, { a, b in lerp(a, b, (h - a.x) / (b.x - a.x)) }),
            ({ $0.y >= -h }, { a, b in lerp(a, b, (-h - a.y) / (b.y - a.y)) }),
            ({ $0.y <= h }, { a, b in lerp(a, b, (h - a.y) / (b.y - a.y)) }),
        ]
        for plane in planes {
            guard let last = poly.last else { return [] }
            var out: [Point] = []
            out.reserveCapacity(poly.count + 4)
            var prev = last
            for cur in poly {
                let curIn = plane.inside(cur), prevIn = plane.inside(prev)
                if curIn {
                    if !prevIn { out.append(plane.cut(prev, cur)) }
                    out.append(cur)
                } else if prevIn {
                    out.append(plane.cut(prev, cur))
                }
                prev = cur
            }
            poly = out
        }
        return poly
    }

    private static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }
}
