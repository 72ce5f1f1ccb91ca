import Foundation
@testable import InkCore

/// A simulated hand tracing a path: corners rounded by the turn of the wrist, a slow wobble across the line,
/// sensor jitter, a sample every few units at 8 ms, and (for closed shapes) an end that misses or overshoots
/// the start. Seeded, so every run draws the same strokes.
struct Hand {
    var rng: SeededRandom
    var wobble = 1.5
    var jitter = 0.6
    var spacing = 3.0
    var cornerRadius = 4.0

    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    /// Samples along `vertices` (closed: back to the first one, then `overshoot` units further along the first
    /// side; a negative overshoot stops that far short of the start).
    mutating func trace(_ vertices: [Point], closed: Bool, overshoot: Double = 0) -> [InkPoint] {
        var path = vertices
        if closed { path.append(vertices[0]) }
        path = rounded(path)
        // Overshoot or fall short at the end.
        if closed, overshoot > 0, vertices.count > 1 {
            let d = vertices[1] - vertices[0]
            path.append(vertices[0] + d * (overshoot / d.length))
        } else if overshoot < 0 {
            var cut = -overshoot
            while path.count > 2, cut > 0 {
                let a = path[path.count - 2], b = path[path.count - 1], l = a.distance(to: b)
                if l > cut { path[path.count - 1] = b + (a - b) * (cut / l); cut = 0 } else { path.removeLast(); cut -= l }
            }
        }
        // Even samples with a wobble along the normal and jitter.
        var cum = [0.0]
        for i in 1..<path.count { cum.append(cum[i - 1] + path[i].distance(to: path[i - 1])) }
        let total = cum.last!
        let n = max(Int(total / spacing), 1)
        let f1 = rng.range(0.01, 0.03), f2 = rng.range(0.05, 0.1), p1 = rng.range(0, 6.3), p2 = rng.range(0, 6.3)
        var out: [InkPoint] = []
        var j = 0
        for k in 0...n {
            let s = total * Double(k) / Double(n)
            while j < path.count - 2, cum[j + 1] < s { j += 1 }
            let seg = max(cum[j + 1] - cum[j], 1e-9)
            let t = min(max((s - cum[j]) / seg, 0), 1)
            let d = path[j + 1] - path[j]
            let u = d * (1 / max(d.length, 1e-9))
            let normal = Point(-u.y, u.x)
            let w = wobble * (0.7 * sin(s * f1 + p1) + 0.3 * sin(s * f2 + p2))
            let p = path[j] + d * t + normal * w + Point(rng.range(-jitter, jitter), rng.range(-jitter, jitter))
            out.append(InkPoint(x: p.x, y: p.y, pressure: 0.4 + 0.2 * rng.unit(), time: Double(k) * 8))
        }
        return out
    }

    /// Corners replaced by quadratic curves starting `cornerRadius` before them.
    func rounded(_ p: [Point]) -> [Point] {
        guard cornerRadius > 0, p.count > 2 else { return p }
        var out = [p[0]]
        for i in 1..<(p.count - 1) {
            let a = p[i - 1], b = p[i], c = p[i + 1]
            let r = min(cornerRadius, a.distance(to: b) / 3, b.distance(to: c) / 3)
            let s = b + (a - b) * (r / a.distance(to: b)), e = b + (c - b) * (r / b.distance(to: c))
            for k in 0...6 {
                let t = Double(k) / 6, m = 1 - t
                out.append(s * (m * m) + b * (2 * m * t) + e * (t * t))
            }
        }
        out.append(p[p.count - 1])
        return out
    }
}

/// The pen events of a stroke through `points`; with `hold`, the pointer then rests at the last point
/// (jittering within a pixel) for 600 ms before lifting.
func penEvents(_ points: [InkPoint], id: PointerID = 1, hold: Bool) -> [InputEvent] {
    var ev: [InputEvent] = []
    for (i, p) in points.enumerated() {
        ev.append(InputEvent(pointer: id, phase: i == 0 ? .began : .moved, point: p, device: .pen, hasPressure: true))
    }
    guard var last = points.last else { return ev }
    if hold {
        for (k, dx) in [0.6, -0.4, 0.3].enumerated() {
            var q = last; q.x += dx; q.time += Double(k + 1) * 200
            ev.append(InputEvent(pointer: id, phase: .moved, point: q, device: .pen, hasPressure: true))
        }
        last.time += 650
    } else {
        last.time += 8
    }
    ev.append(InputEvent(pointer: id, phase: .ended, point: last, device: .pen, hasPressure: true))
    return ev
}

func regularPolygon(_ n: Int, center: Point, radius: Double, rotation: Double = 0) -> [Point] {
    (0..<n).map { k in
        let a = rotation + 2 * Double.pi * Double(k) / Double(n)
        return Point(center.x + radius * cos(a), center.y + radius * sin(a))
    }
}

func ellipsePoints(center: Point, rx: Double, ry: Double, angle: Double = 0, count: Int = 72, start: Double = 0) -> [Point] {
    (0..<count).map { k in
        let u = start + 2 * Double.pi * Double(k) / Double(count)
        let x = rx * cos(u), y = ry * sin(u)
        return Point(center.x + x * cos(angle) - y * sin(angle), center.y + x * sin(angle) + y * cos(angle))
    }
}
