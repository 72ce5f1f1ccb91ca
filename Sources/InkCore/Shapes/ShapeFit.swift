import Foundation

/// Hold-to-snap: the shape that best fits a freehand stroke, or nil when none fits well. When in doubt it says
/// nil: handwriting, scribbles and loose curves keep their ink.
///
/// The stroke is resampled by arc length (so a 1,000-point stroke costs what a 100-point one does), then tried as
///  - a line: the path is hardly longer than its chord and never strays far from it;
///  - a closed loop (its end comes back near its start, it winds once, and it never turns back on itself), fitted
///    both as a convex polygon of 3 to 8 corners and as an ellipse; the polygon wins only when its sides are
///    clearly straighter than the ellipse fits (an octagon stays an octagon, a circle a circle);
///  - an arrow: shaft, one barb, back to the tip, the other barb, each piece straight.
///
/// Corners come from intersecting lines fitted to the middle of each side, not from where the pen happened to
/// round them, and rectangles are squared up; a shape keeps the size and place of what was drawn.
/// Thresholds are relative to the shape's size: a thin rectangle is judged by its short side (a 300 × 10
/// rectangle does not turn into a triangle or a line), not by its diagonal alone.
public enum ShapeFit {
    /// Smallest shape (diagonal of the drawn bounds, page units): handwriting is smaller.
    public static var minimumSize: Double { 16 }
    /// Samples along the resampled stroke.
    static let samples = 128

    public static func shape(for points: [Point]) -> Shape? {
        let raw = points.filter(\.isFinite)
        guard raw.count >= 2, let box = Rect(bounding: raw) else { return nil }
        let diag = Point(box.width, box.height).length
        guard diag >= minimumSize, diag.isFinite else { return nil }
        guard let (p, length) = resample(raw, count: samples + 1, closed: false) else { return nil }
        if let l = line(p, length: length) { return l }
        if let loop = closedLoop(p, diag: diag) { return closedShape(loop) }
        return arrow(p, diag: diag)
    }

    // MARK: line

    static func line(_ p: [Point], length: Double) -> Shape? {
        guard let a = p.first, let b = p.last else { return nil }
        let chord = a.distance(to: b)
        guard chord >= minimumSize * 0.8, length <= chord * 1.08 else { return nil }
        let (c, u) = principalAxis(p)
        let n = Point(-u.y, u.x)
        var worst = 0.0
        for q in p { worst = Swift.max(worst, abs(dot(q - c, n))) }
        guard worst <= Swift.max(0.045 * chord, 1.5) else { return nil }
        return .line(c + u * dot(a - c, u), c + u * dot(b - c, u))
    }

    // MARK: closed shapes

    /// The part of the path that forms a loop (from near its start to near its end, overshoot trimmed),
    /// resampled evenly, or nil when the path is not one loop that winds once without turning back.
    static func closedLoop(_ p: [Point], diag: Double) -> [Point]? {
        let n = p.count
        var best = Double.infinity, bi = 0, bj = n - 1
        for i in 0...(n / 4) {
            for j in stride(from: n - 1, through: 3 * n / 4, by: -1) {
                let d = p[i].distance(to: p[j])
                if d < best { best = d; bi = i; bj = j }
            }
        }
        guard best <= 0.12 * diag else { return nil }
        guard let (loop, _) = resample(Array(p[bi...bj]), count: samples, closed: true) else { return nil }
        // Turning of a lightly smoothed copy: noise must not count as turning back.
        let s = smoothClosed(smoothClosed(loop))
        var signed = 0.0, absolute = 0.0
        let m = s.count
        for k in 0..<m {
            let a = s[k] - s[(k + m - 1) % m], b = s[(k + 1) % m] - s[k]
            let t = atan2(a.x * b.y - a.y * b.x, dot(a, b))
            signed += t; absolute += abs(t)
        }
        guard abs(abs(signed) - 2 * Double.pi) < 0.5, absolute <= 1.6 * abs(signed) else { return nil }
        return loop
    }

    static func closedShape(_ loop: [Point]) -> Shape? {
        guard let box = Rect(bounding: loop) else { return nil }
        let diag = Point(box.width, box.height).length
        let ellipse = fitEllipse(loop)
        let polygon = fitPolygon(loop, diag: diag)
        let ellipsePoints = ellipse?.points(tolerance: diag * 0.001) ?? []
        let ellipseError = ellipse == nil ? Double.infinity : rmsDistance(loop, to: ellipsePoints) / diag
        let ellipseMax = ellipse == nil ? Double.infinity : maxDistance(loop, to: ellipsePoints) / diag
        // Straight sides must explain the loop clearly better than a smooth curve: on average, or at the
        // ends of a thin shape, where an ellipse misses the corners.
        func fits(_ shape: Shape) -> (Bool, Double) {
            let e = rmsDistance(loop, to: shape.points()) / diag, m = maxDistance(loop, to: shape.points()) / diag
            let better = e < 0.55 * ellipseError || (m < 0.4 * ellipseMax && e <= ellipseError)
            return (e <= 0.02 && m <= 0.07 && better, e)
        }
        let rect = fitRectangle(loop).map { ($0, fits($0)) }
        let poly = polygon.map { ($0, fits($0)) }
        if let (r, (ok, e)) = rect, ok {
            // A rectangle unless another polygon (not four-cornered) is clearly closer.
            if let (p, (pok, pe)) = poly, pok, p.kind != .rectangle, pe < 0.6 * e { return p }
            return r
        }
        if let (p, (ok, _)) = poly, ok { return p }
        if let ellipse, ellipseError <= 0.02, ellipseMax <= 0.07 { return ellipse }
        return nil
    }

    /// Least-squares ellipse in the loop's principal frame (A x² + B y² + C x + D y = 1); a near-circle
    /// becomes a circle.
    static func fitEllipse(_ q: [Point]) -> Shape? {
        let (c, u) = principalAxis(q)
        let v = Point(-u.y, u.x)
        var m = [[Double]](repeating: [Double](repeating: 0, count: 5), count: 4)
        for p in q {
            let x = dot(p - c, u), y = dot(p - c, v)
            let row = [x * x, y * y, x, y]
            for i in 0..<4 {
                for j in 0..<4 { m[i][j] += row[i] * row[j] }
                m[i][4] += row[i]
            }
        }
        guard let s = solve(m), s[0] > 0, s[1] > 0 else { return nil }
        let x0 = -s[2] / (2 * s[0]), y0 = -s[3] / (2 * s[1])
        let f = 1 + s[0] * x0 * x0 + s[1] * y0 * y0
        guard f > 0 else { return nil }
        var rx = (f / s[0]).squareRoot(), ry = (f / s[1]).squareRoot()
        let center = c + u * x0 + v * y0
        guard rx.isFinite, ry.isFinite, center.isFinite, rx > 0, ry > 0 else { return nil }
        if Swift.min(rx, ry) / Swift.max(rx, ry) >= 0.88 {
            // A near-circle: the mean distance from the centre is the radius.
            let r = q.reduce(0) { $0 + $1.distance(to: center) } / Double(q.count)
            rx = r; ry = r
            return .ellipse(center: center, rx: r, ry: r, angle: 0)
        }
        var angle = atan2(u.y, u.x)
        // Nearly upright ellipses stand upright.
        let quarter = Double.pi / 2
        let nearest = (angle / quarter).rounded() * quarter
        if abs(angle - nearest) < 3 * Double.pi / 180 { angle = nearest }
        return .ellipse(center: center, rx: rx, ry: ry, angle: angle)
    }

    /// A convex polygon of 3…8 corners: Douglas–Peucker finds where the pen turned, lines fitted to the middle
    /// of each side give the exact corners; four right-ish angles become a rectangle (or a square).
    static func fitPolygon(_ q: [Point], diag: Double) -> Shape? {
        let m = q.count
        let (centroid, u) = principalAxis(q)
        let v = Point(-u.y, u.x)
        var minor = 0.0
        var lo = Double.infinity, hi = -Double.infinity
        for p in q { let y = dot(p - centroid, v); lo = Swift.min(lo, y); hi = Swift.max(hi, y) }
        minor = hi - lo
        let eps = Swift.max(1.0, Swift.min(0.04 * diag, 0.2 * minor))
        // Shortest side a corner may have: rounded corners are not two corners with a tiny side between.
        let shortest = Swift.min(0.05 * diag, 0.5 * minor)
        // Start at the point farthest from the centre: a corner, if there are corners.
        var start = 0, far = -1.0
        for (k, p) in q.enumerated() { let d = p.distance(to: centroid); if d > far { far = d; start = k } }
        let ring = Array(q[start...] + q[..<start]) + [q[start]]
        var keep = [Bool](repeating: false, count: ring.count)
        keep[0] = true; keep[ring.count - 1] = true
        simplify(ring, 0, ring.count - 1, eps, &keep)
        var idx = (0..<(ring.count - 1)).filter { keep[$0] }
        // Drop corners that are not corners: barely off the line of their neighbours, or barely turning.
        while idx.count > 3 {
            var weakest = -1, weakestValue = Double.infinity
            let n = idx.count
            let pts = idx.map { ring[$0] }
            let turns = (0..<n).map { k in abs(angle(pts[k] - pts[(k + n - 1) % n], pts[(k + 1) % n] - pts[k])) }
            let sides = (0..<n).map { k in pts[k].distance(to: pts[(k + 1) % n]) }
            /// A corner cut off (a chamfer: the pen rounded it, or the loop closed across it): a side much shorter
            /// than both its neighbours, between two gentle turns.
            func chamfer(_ s: Int) -> Bool {
                let s = (s + n) % n
                return sides[s] < 0.6 * Swift.min(sides[(s + n - 1) % n], sides[(s + 1) % n])
                    && turns[s] < 1.13 && turns[(s + 1) % n] < 1.13
            }
            for k in 0..<n {
                let a = pts[(k + n - 1) % n], b = pts[k], c = pts[(k + 1) % n]
                let off = Segment(a, c).distance(to: b)
                let turn = turns[k]
                let short = Swift.min(sides[(k + n - 1) % n], sides[k]) < shortest || chamfer(k - 1) || chamfer(k)
                let weak = off < eps || turn < 0.3 || short
                let value = off / eps + turn + (short ? 0 : 10)
                if weak && value < weakestValue { weakestValue = value; weakest = k }
            }
            guard weakest >= 0 else { break }
            idx.remove(at: weakest)
        }
        guard (3...8).contains(idx.count) else { return nil }
        // Lines through the middle 70 % of each side.
        let k = idx.count
        var lines: [(c: Point, u: Point)] = []
        for s in 0..<k {
            let i0 = idx[s], i1 = s + 1 < k ? idx[s + 1] : ring.count - 1
            let span = i1 - i0
            let trim = Int((Double(span) * 0.15).rounded())
            var side = Array(ring[(i0 + trim)...(i1 - trim)])
            if side.count < 2 { side = [ring[i0], ring[i1]] }
            lines.append(principalAxis(side))
        }
        var corners: [Point] = []
        for s in 0..<k {
            let a = lines[(s + k - 1) % k], b = lines[s]
            let cross = a.u.x * b.u.y - a.u.y * b.u.x
            guard abs(cross) > sin(12 * Double.pi / 180) else { return nil }
            let t = ((b.c.x - a.c.x) * b.u.y - (b.c.y - a.c.y) * b.u.x) / cross
            let corner = a.c + a.u * t
            guard corner.isFinite, corner.distance(to: ring[idx[s]]) <= 0.15 * diag else { return nil }
            corners.append(corner)
        }
        // Convex, and every side has length.
        var sign = 0.0
        for s in 0..<k {
            let a = corners[s], b = corners[(s + 1) % k], c = corners[(s + 2) % k]
            let cr = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            guard a.distance(to: b) > shortest, cr != 0 else { return nil }
            if sign == 0 { sign = cr } else if (cr > 0) != (sign > 0) { return nil }
        }
        if k == 4, let r = rectangle(corners) { return .polygon(r) }
        return .polygon(corners)
    }

    /// The rectangle (or square) through the middle of the loop's sides: oriented as the smallest box around the
    /// loop, each side at the mean offset of the points nearest it. Robust for thin and rotated rectangles,
    /// where corner finding is least certain.
    static func fitRectangle(_ q: [Point]) -> Shape? {
        let c = principalAxis(q).c
        func area(_ a: Double) -> Double {
            let u = Point(cos(a), sin(a)), v = Point(-u.y, u.x)
            var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
            for p in q {
                let x = dot(p - c, u), y = dot(p - c, v)
                x0 = Swift.min(x0, x); x1 = Swift.max(x1, x); y0 = Swift.min(y0, y); y1 = Swift.max(y1, y)
            }
            return (x1 - x0) * (y1 - y0)
        }
        var best = 0.0, bestArea = Double.infinity
        for k in 0..<90 {
            let a = Double(k) * Double.pi / 180
            let s = area(a)
            if s < bestArea { bestArea = s; best = a }
        }
        for k in -10...10 {
            let a = best + Double(k) * Double.pi / 1800
            let s = area(a)
            if s < bestArea { bestArea = s; best = a }
        }
        let quarter = Double.pi / 2
        let upright = (best / quarter).rounded() * quarter
        if abs(best - upright) < 3 * Double.pi / 180 { best = upright }
        let u = Point(cos(best), sin(best)), v = Point(-u.y, u.x)
        var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
        let local = q.map { Point(dot($0 - c, u), dot($0 - c, v)) }
        for p in local { x0 = Swift.min(x0, p.x); x1 = Swift.max(x1, p.x); y0 = Swift.min(y0, p.y); y1 = Swift.max(y1, p.y) }
        guard x1 > x0, y1 > y0 else { return nil }
        // Each point belongs to the nearest side of the box; a side sits at the mean offset of its points.
        var sum = [0.0, 0.0, 0.0, 0.0], count = [0.0, 0.0, 0.0, 0.0]
        for p in local {
            let d = [p.x - x0, x1 - p.x, p.y - y0, y1 - p.y]
            let k = d.indices.min { d[$0] < d[$1] }!
            sum[k] += k < 2 ? p.x : p.y; count[k] += 1
        }
        guard count.allSatisfy({ $0 >= 2 }) else { return nil }
        var l = sum[0] / count[0], r = sum[1] / count[1], t = sum[2] / count[2], b = sum[3] / count[3]
        guard r > l, b > t else { return nil }
        let w = r - l, h = b - t
        if abs(w - h) < 0.1 * Swift.max(w, h) {
            let s = (w + h) / 2, mx = (l + r) / 2, my = (t + b) / 2
            l = mx - s / 2; r = mx + s / 2; t = my - s / 2; b = my + s / 2
        }
        var corners = [Point(l, t), Point(r, t), Point(r, b), Point(l, b)].map { c + u * $0.x + v * $0.y }
        // Corners in the order the loop runs, starting nearest its start.
        let turn = zip(q, q.dropFirst() + [q[0]]).reduce(0.0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
        let boxTurn = zip(corners, corners.dropFirst() + [corners[0]]).reduce(0.0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
        if (turn > 0) != (boxTurn > 0) { corners.reverse() }
        let first = corners.indices.min { corners[$0].distance(to: q[0]) < corners[$1].distance(to: q[0]) }!
        return .polygon(Array(corners[first...] + corners[..<first]))
    }

    /// Four corners whose angles are all within 15° of square: the rectangle (rotated as drawn) that best
    /// matches their sides; a square when the sides differ by less than 10 %.
    static func rectangle(_ c: [Point]) -> [Point]? {
        var sx = 0.0, sy = 0.0
        for s in 0..<4 {
            let a = c[(s + 3) % 4] - c[s], b = c[(s + 1) % 4] - c[s]
            guard abs(dot(a, b)) / (a.length * b.length) < sin(20 * Double.pi / 180) else { return nil }
            // Side directions folded onto one (angle × 4 is the same for all four sides of a rectangle), long
            // sides counting more: the short sides of a thin rectangle are the least certain.
            let t = atan2(b.y, b.x) * 4
            sx += cos(t) * b.length; sy += sin(t) * b.length
        }
        let theta = atan2(sy, sx) / 4
        var u = Point(cos(theta), sin(theta))
        // Keep the axis nearest the first side, and snap nearly upright rectangles upright.
        let quarter = Double.pi / 2
        let first = atan2(c[1].y - c[0].y, c[1].x - c[0].x)
        var a = theta + ((first - theta) / quarter).rounded() * quarter
        let upright = (a / quarter).rounded() * quarter
        if abs(a - upright) < 3 * Double.pi / 180 { a = upright }
        u = Point(cos(a), sin(a))
        let v = Point(-u.y, u.x)
        let center = Point(c.reduce(0) { $0 + $1.x } / 4, c.reduce(0) { $0 + $1.y } / 4)
        // Half-sizes from the mean of opposite sides' offsets.
        var w = 0.0, h = 0.0
        for p in c { w += abs(dot(p - center, u)); h += abs(dot(p - center, v)) }
        w /= 4; h /= 4
        if abs(w - h) < 0.1 * Swift.max(w, h) { let s = (w + h) / 2; w = s; h = s }
        // Corners in the order and turning direction they were drawn.
        var out = [Point]()
        for p in c {
            let x = dot(p - center, u) >= 0 ? w : -w, y = dot(p - center, v) >= 0 ? h : -h
            out.append(center + u * x + v * y)
        }
        guard Set(out.map { [$0.x, $0.y] }).count == 4 else { return nil }
        return out
    }

    // MARK: arrow

    /// Shaft A→B, barb B→H1, back to the tip, barb →H2: five straight pieces' ends, barbs on either side.
    static func arrow(_ p: [Point], diag: Double) -> Shape? {
        let eps = Swift.max(1.0, 0.035 * diag)
        var keep = [Bool](repeating: false, count: p.count)
        keep[0] = true; keep[p.count - 1] = true
        simplify(p, 0, p.count - 1, eps, &keep)
        var idx = (0..<p.count).filter { keep[$0] }
        while idx.count > 5 {
            var weakest = -1, weakestOff = Double.infinity
            for k in 1..<(idx.count - 1) {
                let off = Segment(p[idx[k - 1]], p[idx[k + 1]]).distance(to: p[idx[k]])
                if off < weakestOff { weakestOff = off; weakest = k }
            }
            guard weakestOff < 1.5 * eps else { return nil }
            idx.remove(at: weakest)
        }
        guard idx.count == 5 else { return nil }
        let a = p[idx[0]], b = p[idx[1]], h1 = p[idx[2]], b2 = p[idx[3]], h2 = p[idx[4]]
        let shaft = a.distance(to: b), l1 = b.distance(to: h1), l2 = b2.distance(to: h2)
        guard shaft >= minimumSize, (0.08 * shaft...0.7 * shaft).contains(l1), (0.08 * shaft...0.7 * shaft).contains(l2),
              b.distance(to: b2) <= 0.35 * Swift.min(l1, l2), h1.distance(to: h2) > 0.3 * Swift.min(l1, l2) else { return nil }
        let back = a - b
        let a1 = angle(back, h1 - b), a2 = angle(back, h2 - b2)
        let range = (10 * Double.pi / 180)...(75 * Double.pi / 180)
        guard range.contains(abs(a1)), range.contains(abs(a2)), (a1 > 0) != (a2 > 0) else { return nil }
        return .arrow(from: a, to: b, head: (l1 + l2) / 2, spread: (abs(a1) + abs(a2)) / 2)
    }

    // MARK: helpers

    /// `count` points evenly spaced along the path (a closed path includes its closing segment and does not
    /// repeat its start), and the path's length.
    static func resample(_ pts: [Point], count: Int, closed: Bool) -> ([Point], Double)? {
        var path = pts
        if closed, let f = path.first { path.append(f) }
        var cum = [0.0]
        cum.reserveCapacity(path.count)
        for i in 1..<Swift.max(path.count, 1) { cum.append(cum[i - 1] + path[i].distance(to: path[i - 1])) }
        guard let total = cum.last, total > 0, total.isFinite, count >= 2 else { return nil }
        let steps = closed ? count : count - 1
        var out: [Point] = []
        out.reserveCapacity(count)
        var j = 0
        for k in 0..<count {
            let s = total * Double(k) / Double(steps)
            while j < path.count - 2, cum[j + 1] < s { j += 1 }
            let seg = cum[j + 1] - cum[j]
            let t = seg > 0 ? Swift.min(Swift.max((s - cum[j]) / seg, 0), 1) : 0
            out.append(path[j] + (path[j + 1] - path[j]) * t)
        }
        return (out, total)
    }

    static func smoothClosed(_ q: [Point]) -> [Point] {
        let m = q.count
        return (0..<m).map { k in (q[(k + m - 1) % m] + q[k] * 2 + q[(k + 1) % m]) * 0.25 }
    }

    /// Centroid and unit direction of the best-fitting line (total least squares).
    static func principalAxis(_ q: [Point]) -> (c: Point, u: Point) {
        let n = Double(q.count)
        let c = Point(q.reduce(0) { $0 + $1.x } / n, q.reduce(0) { $0 + $1.y } / n)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in q { let d = p - c; sxx += d.x * d.x; syy += d.y * d.y; sxy += d.x * d.y }
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        return (c, Point(cos(theta), sin(theta)))
    }

    /// Douglas–Peucker: marks the points that keep the polyline within `eps` of the path.
    static func simplify(_ p: [Point], _ i: Int, _ j: Int, _ eps: Double, _ keep: inout [Bool]) {
        guard j > i + 1 else { return }
        var worst = -1.0, at = i
        let seg = Segment(p[i], p[j])
        for k in (i + 1)..<j {
            let d = seg.distance(to: p[k])
            if d > worst { worst = d; at = k }
        }
        guard worst > eps else { return }
        keep[at] = true
        simplify(p, i, at, eps, &keep)
        simplify(p, at, j, eps, &keep)
    }

    static func distance(_ p: Point, to line: [Point]) -> Double {
        var best = Double.infinity
        for i in 0..<(line.count - 1) { best = Swift.min(best, Segment(line[i], line[i + 1]).distance(to: p)) }
        return best
    }

    static func rmsDistance(_ q: [Point], to line: [Point]) -> Double {
        guard line.count >= 2 else { return .infinity }
        let s = q.reduce(0) { let d = distance($1, to: line); return $0 + d * d }
        return (s / Double(q.count)).squareRoot()
    }

    static func maxDistance(_ q: [Point], to line: [Point]) -> Double {
        guard line.count >= 2 else { return .infinity }
        return q.reduce(0) { Swift.max($0, distance($1, to: line)) }
    }

    static func dot(_ a: Point, _ b: Point) -> Double { a.x * b.x + a.y * b.y }

    /// Signed angle from `a` to `b`.
    static func angle(_ a: Point, _ b: Point) -> Double { atan2(a.x * b.y - a.y * b.x, dot(a, b)) }

    /// Solves the 4×4 system in `m` (each row: 4 coefficients and the right-hand side).
    static func solve(_ m: [[Double]]) -> [Double]? {
        var a = m
        let n = 4
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<n where abs(a[r][col]) > abs(a[pivot][col]) { pivot = r }
            guard abs(a[pivot][col]) > 1e-300 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<n where r != col {
                let f = a[r][col] / a[col][col]
                if f == 0 { continue }
                for c in col...n { a[r][c] -= f * a[col][c] }
            }
        }
        let x = (0..<n).map { a[$0][n] / a[$0][$0] }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
