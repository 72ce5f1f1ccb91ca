import Foundation
import InkCore

/// Seeded, realistic-looking handwriting-like ink for benchmarks and tests: each stroke wanders with
/// smoothly turning direction, pen-like speed (2–5 units per sample at ~8 ms) and smoothly varying pressure.
/// The same seed gives the same drawing on every machine.
public enum SampleInk {
    /// The seeded generator every sample drawing is made with.
    public typealias Generator = SeededRandom

    public static let palette: [RGBA] = [.black, .black, .black, RGBA(r: 20, g: 60, b: 200), RGBA(r: 200, g: 30, b: 30), RGBA(r: 20, g: 140, b: 60)]

    /// `strokes` strokes of `pointsPerStroke` samples on a page of `pageSize`; about 1 in 20 is a highlighter.
    public static func drawing(strokes: Int, pointsPerStroke: Int = 100, pageSize: Size = Drawing.defaultPageSize, seed: UInt64 = 1) -> Drawing {
        var rng = Generator(seed: seed)
        var out: [Stroke] = []
        out.reserveCapacity(max(strokes, 0))
        for i in 0..<max(strokes, 0) {
            out.append(stroke(id: StrokeID(i + 1), points: pointsPerStroke, pageSize: pageSize, rng: &rng))
        }
        return Drawing(pageSize: pageSize, strokes: out)
    }

    /// One wandering stroke that stays on the page.
    public static func stroke(id: StrokeID, points n: Int, pageSize: Size, rng: inout Generator) -> Stroke {
        let highlighter = rng.next() % 20 == 0
        let style: StrokeStyle
        if highlighter {
            style = StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: [8.0, 16, 28][Int(rng.next() % 3)])
        } else {
            style = StrokeStyle(tool: .pen, color: palette[Int(rng.next() % UInt64(palette.count))], width: [1.5, 3, 3, 6][Int(rng.next() % 4)])
        }
        let margin = 20.0
        var x = rng.range(margin, max(margin, pageSize.width - margin))
        var y = rng.range(margin, max(margin, pageSize.height - margin))
        var heading = rng.range(0, 2 * Double.pi)
        var turn = rng.range(-0.15, 0.15)
        var speed = rng.range(2, 5)
        var pressure = rng.range(0.3, 0.7)
        var t = 0.0
        var pts: [InkPoint] = []
        pts.reserveCapacity(max(n, 0))
        for _ in 0..<max(n, 0) {
            pts.append(InkPoint(x: x, y: y, pressure: pressure, time: t))
            turn = max(-0.35, min(0.35, turn + rng.range(-0.06, 0.06)))
            heading += turn
            speed = max(1.5, min(6, speed + rng.range(-0.4, 0.4)))
            pressure = max(0.1, min(0.95, pressure + rng.range(-0.05, 0.05)))
            x += cos(heading) * speed; y += sin(heading) * speed
            // Turn back at the page edge instead of leaving it.
            if x < margin || x > pageSize.width - margin { heading = Double.pi - heading; x = max(margin, min(pageSize.width - margin, x)) }
            if y < margin || y > pageSize.height - margin { heading = -heading; y = max(margin, min(pageSize.height - margin, y)) }
            t += 8
        }
        return Stroke(id: id, style: style, points: pts)
    }
}
