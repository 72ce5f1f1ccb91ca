import Foundation
import InkCore

/// The cost of hold-to-snap's fit at pen-up (`ShapeFit.shape(for:)`) on 1,000-point strokes: noisy hand-drawn
/// rectangles, ellipses, triangles and lines that snap, and handwriting waves and scribbles that do not (the
/// fit tries every shape before it gives up, so those are the slow case). Timed as the thread's CPU time.
enum ShapeBench {
    struct Result {
        var fit = Samples()
        var snapped = 0, kept = 0
        /// Median per kind of stroke (rectangle, ellipse, triangle, line, handwriting, scribble).
        var byKind: [String: Samples] = [:]
    }
    static let kinds = ["rectangle", "ellipse", "triangle", "line", "handwriting", "scribble"]

    static func run(rounds: Int) -> Result {
        var r = Result()
        var rng = SeededRandom(seed: 11)
        let strokes = (0..<24).map { k in stroke(kind: k % 6, rng: &rng) }
        // Warm up once, then time every stroke `rounds` times, interleaved.
        for s in strokes { _ = ShapeFit.shape(for: s) }
        for _ in 0..<rounds {
            for (k, s) in strokes.enumerated() {
                // CPU time of this thread: on a busy machine wall time mostly measures the other processes.
                let t0 = threadCPUms()
                let shape = ShapeFit.shape(for: s)
                let ms = threadCPUms() - t0
                r.fit.add(ms)
                r.byKind[kinds[k % 6], default: Samples()].add(ms)
                if shape == nil { r.kept += 1 } else { r.snapped += 1 }
            }
        }
        return r
    }

    static func threadCPUms() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    /// 1,000 samples along a shape (or a scribble), wobbling by a unit or two.
    static func stroke(kind: Int, rng: inout SeededRandom) -> [Point] {
        let n = 1000
        let c = Point(rng.range(300, 500), rng.range(300, 500)), size = rng.range(80, 240)
        var out: [Point] = []
        out.reserveCapacity(n)
        var walk = Point(c.x, c.y)
        for i in 0..<n {
            let t = Double(i) / Double(n - 1)
            var p: Point
            switch kind {
            case 0: // rectangle
                let corners = [Point(-1, -0.6), Point(1, -0.6), Point(1, 0.6), Point(-1, 0.6), Point(-1, -0.6)]
                let u = t * 4, k = min(Int(u), 3), f = u - Double(k)
                let a = corners[k], b = corners[k + 1]
                p = c + (a + (b - a) * f) * size
            case 1: // ellipse
                p = Point(c.x + size * cos(2 * .pi * t), c.y + 0.6 * size * sin(2 * .pi * t))
            case 2: // triangle
                let corners = [Point(0, -1), Point(1, 0.7), Point(-1, 0.7), Point(0, -1)]
                let u = t * 3, k = min(Int(u), 2), f = u - Double(k)
                p = c + (corners[k] + (corners[k + 1] - corners[k]) * f) * size
            case 3: // line
                p = Point(c.x - size + 2 * size * t, c.y + 0.3 * size * t)
            case 4: // handwriting: loops along a baseline
                p = Point(c.x + 3 * size * t + 12 * sin(t * 60), c.y - 12 * (1 - cos(t * 60)) + 4 * sin(t * 7))
            default: // scribble
                walk = walk + Point(rng.range(-6, 6), rng.range(-6, 6))
                p = walk
            }
            out.append(p + Point(rng.range(-1, 1), rng.range(-1, 1)))
        }
        return out
    }
}
