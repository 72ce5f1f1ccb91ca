import Foundation
import InkCore

/// Pen-like ink: smooth curves sampled at about 200 Hz with a wandering direction and speed, sub-pixel
/// coordinates with sensor jitter, slowly changing pressure and millisecond timestamps with jitter.
enum PenInk {
    static func stroke(points n: Int, start: Point, rng: inout SeededRandom) -> [InkPoint] {
        var p = start
        var angle = Double.random(in: 0..<(2 * .pi), using: &rng)
        var turn = 0.0
        var speed = Double.random(in: 1.5...4, using: &rng)  // page units per sample
        var pressure = Double.random(in: 0.3...0.7, using: &rng)
        var t = Double(Int.random(in: 0..<1_000_000, using: &rng))
        var out: [InkPoint] = []
        for _ in 0..<n {
            let jx = Double.random(in: -0.05...0.05, using: &rng), jy = Double.random(in: -0.05...0.05, using: &rng)
            out.append(InkPoint(x: p.x + jx, y: p.y + jy, pressure: min(max(pressure, 0), 1), time: t))
            turn = turn * 0.9 + Double.random(in: -0.03...0.03, using: &rng)
            angle += turn
            speed = min(max(speed + Double.random(in: -0.2...0.2, using: &rng), 0.5), 6)
            pressure += Double.random(in: -0.02...0.02, using: &rng)
            p = Point(p.x + cos(angle) * speed, p.y + sin(angle) * speed)
            t += Double.random(in: 0..<1, using: &rng) < 0.8 ? 5 : Double(Int.random(in: 4...6, using: &rng))
        }
        return out
    }

    /// A drawing of `strokes` pen strokes of `pointsPerStroke` points on a 2000 × 3000 page.
    static func drawing(strokes: Int, pointsPerStroke: Int = 100, seed: UInt64 = 42) -> Drawing {
        var rng = SeededRandom(seed: seed)
        var d = Drawing(pageSize: Size(width: 2000, height: 3000))
        for _ in 0..<strokes {
            let start = Point(Double.random(in: 100...1900, using: &rng), Double.random(in: 100...2900, using: &rng))
            let tool: Tool = Int.random(in: 0..<10, using: &rng) == 0 ? .highlighter : .pen
            let style = StrokeStyle(tool: tool, color: tool == .pen ? .black : .highlighterYellow, width: tool == .pen ? 3 : 16)
            d.insert(Stroke(id: d.makeStrokeID(), style: style, points: stroke(points: pointsPerStroke, start: start, rng: &rng)))
        }
        return d
    }
}
