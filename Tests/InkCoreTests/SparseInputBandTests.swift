import XCTest
@testable import InkCore

/// Whatever the sample rate, the ink stays within half the width + 2 units of the polyline through the input
/// samples: smoothing may round a corner inside that band, never invent a segment the pen did not take.
final class SparseInputBandTests: XCTestCase {
    /// Largest distance from the outline to the polyline through the samples, minus the widest radius.
    func overreach(_ s: Stroke) -> Double {
        let o = StrokeShape.options(for: s.style)
        let outline = StrokeShape.outline(of: s, options: o)
        let line = s.points.map(\.point)
        let radius = s.points.map { StrokeShape.width(nominal: s.style.width, pressure: $0.pressure, thinning: o.thinning) / 2 }.max()!
        var worst = -Double.infinity
        for p in outline {
            let d = line.count == 1 ? p.distance(to: line[0]) : ShapeFit.distance(p, to: line)
            worst = max(worst, d - radius)
        }
        return worst
    }

    func strokes() -> [(String, Stroke)] {
        var out: [(String, Stroke)] = []
        var rng = SeededRandom(seed: 5)
        var id: StrokeID = 1
        for n in [5, 6, 8] {
            for (radius, width) in [(100.0, 1.5), (60, 3), (30, 6), (250, 3)] {
                for tool in [Tool.pen, .highlighter] {
                    // Only the corner points, as a fast mouse gives them.
                    var corners = regularPolygon(n, center: Point(300, 300), radius: radius, rotation: rng.range(0, 1))
                    corners.append(corners[0])
                    let pts = corners.map { InkPoint(x: $0.x, y: $0.y, pressure: rng.range(0.2, 0.8)) }
                    out.append(("\(n)-gon r\(radius) w\(width) \(tool)", Stroke(id: id, style: StrokeStyle(tool: tool, width: tool == .pen ? width : width * 4), points: pts)))
                    id += 1
                }
            }
        }
        // Open sparse zig-zags and random walks with steps from 6 to 80 units.
        for k in 0..<20 {
            var p = Point(300, 300)
            var pts = [InkPoint(x: p.x, y: p.y)]
            let step = 6 + Double(k) * 4
            for _ in 0..<12 {
                p = p + Point(rng.range(-step, step), rng.range(-step, step))
                pts.append(InkPoint(x: p.x, y: p.y, pressure: rng.range(0.1, 0.9)))
            }
            out.append(("walk step \(step)", Stroke(id: id, style: StrokeStyle(tool: .pen, width: [1.5, 3, 6][k % 3]), points: pts)))
            id += 1
        }
        // Recorded-looking strokes: dense, jittery, at several sample spacings, and dense with sudden gaps.
        for spacing in [0.7, 1.5, 3.0, 8.0] {
            var hand = Hand(seed: UInt64(spacing * 10))
            hand.spacing = spacing
            let shape = regularPolygon(5, center: Point(300, 300), radius: 120)
            out.append(("hand pentagon spacing \(spacing)", Stroke(id: id, style: StrokeStyle(tool: .pen, width: 3), points: hand.trace(shape, closed: true))))
            id += 1
            let wave = (0..<40).map { Point(100 + Double($0) * 10, 300 + 50 * sin(Double($0) * 0.4)) }
            out.append(("hand wave spacing \(spacing)", Stroke(id: id, style: StrokeStyle(tool: .pen, width: 2), points: hand.trace(wave, closed: false))))
            id += 1
        }
        return out
    }

    func testInkStaysWithinHalfWidthPlusTwoOfTheSamples() {
        for (name, s) in strokes() {
            XCTAssertLessThanOrEqual(overreach(s), 2, name)
        }
    }

    /// A pentagon drawn with only its corners is a pentagon: the middle of each side is on the side, not out
    /// on a dome (the curve of a circle through the corners would be 19 units out for this one).
    func testPolygonsFromCornerPointsKeepTheirSides() {
        for n in [5, 6, 8] {
            var corners = regularPolygon(n, center: Point(300, 300), radius: 100)
            corners.append(corners[0])
            let s = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 3), points: corners.map { InkPoint(x: $0.x, y: $0.y) })
            let spine = StrokeShape.spine(of: s, options: .pen).map(\.point)
            for k in 0..<n {
                let mid = (corners[k] + corners[k + 1]) * 0.5
                let nearest = ShapeFit.distance(mid, to: spine)
                XCTAssertLessThanOrEqual(nearest, 1.6, "\(n)-gon side \(k)")
                // The centre line's farthest reach from the polygon's centre is a corner, not a side's middle.
                let farthestSide = spine.map { ShapeFit.distance($0, to: corners) }.max()!
                XCTAssertLessThanOrEqual(farthestSide, 1.5, "\(n)-gon: no segment the pen did not take")
            }
        }
    }

    /// A fast mouse polygon given only its corners (or a few samples a side) keeps its sides straight: its ink
    /// stays on the sides it was drawn along, with none bowed out off the path (a thin pentagon's sides bowing
    /// 1.5 units left 14 % of its ink pixels off them). Open or closed, at any rotation.
    func testSparsePolygonsKeepTheirInkOnTheirSides() {
        var rng = SeededRandom(seed: 11)
        for n in 3...8 {
            for perSide in [1, 2] {
                for closedLoop in [true, false] {
                    let corners = regularPolygon(n, center: Point(400, 400), radius: 200, rotation: rng.range(0, 1))
                    var pts: [Point] = []
                    for k in 0..<n {
                        let a = corners[k], b = corners[(k + 1) % n]
                        for j in 0..<perSide { pts.append(a + (b - a) * (Double(j) / Double(perSide))) }
                    }
                    pts.append(corners[0])
                    if !closedLoop { pts.removeLast(perSide) }
                    let s = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 2), points: pts.map { InkPoint(x: $0.x, y: $0.y) })
                    let sides = corners + [corners[0]]
                    let worst = StrokeShape.spine(of: s, options: .pen).map { ShapeFit.distance($0.point, to: sides) }.max()!
                    // Corners only: straight sides. A sample mid-side: its corners are rounded, within a unit.
                    XCTAssertLessThanOrEqual(worst, perSide == 1 ? 0.3 : 1, "\(n)-gon, \(perSide) a side, \(closedLoop ? "closed" : "open"): the line stays on its sides")
                }
            }
        }
    }

    /// Dense handwriting is drawn as before: the band only limits curves through sparse samples.
    func testDenseInputIsUnchanged() {
        var unlimited = StrokeShape.Options.pen
        unlimited.curveBand = .infinity
        for seed in 1...6 {
            var hand = Hand(seed: UInt64(seed))
            hand.spacing = 1.2
            let path = (0..<60).map { Point(100 + Double($0) * 4, 300 + 30 * sin(Double($0) * 0.3 + Double(seed))) }
            let s = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 3), points: hand.trace(path, closed: false))
            let a = StrokeShape.spine(of: s, options: .pen), b = StrokeShape.spine(of: s, options: unlimited)
            XCTAssertEqual(a.count, b.count)
            for (p, q) in zip(a, b) { XCTAssertLessThan(p.point.distance(to: q.point), 0.01) }
        }
    }

    /// Shapes and imports are traced straight: their points are the centre line.
    func testPolylineStrokesAreDrawnStraight() {
        let zig = (0...10).map { InkPoint(x: Double($0) * 10, y: $0 % 2 == 0 ? 0 : 10, pressure: 0.3 + 0.05 * Double($0)) }
        let s = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 4, trace: .polyline), points: zig)
        XCTAssertEqual(StrokeShape.spine(of: s, options: .pen).map(\.point), zig.map(\.point))
        // Each segment is as wide as its first point gives (Xournal++'s pressure strokes): the segment from
        // point 9 to 10 has point 9's radius all along, so ink reaches that far next to point 10.
        let poly = StrokeShape.outline(of: s)
        let t = StrokeShape.options(for: s.style).thinning
        let r9 = StrokeShape.width(nominal: 4, pressure: zig[9].pressure, thinning: t) / 2
        let r10 = StrokeShape.width(nominal: 4, pressure: zig[10].pressure, thinning: t) / 2
        XCTAssertLessThan(r9, r10)
        let d = Point(10, -10) * (1 / Point(10, -10).length), n = Point(-d.y, d.x)
        let nearEnd = zig[10].point - d * 2
        XCTAssertTrue(isFilled(poly, nearEnd + n * (r9 - 0.1)))
        XCTAssertFalse(isFilled(poly, nearEnd + n * (r9 + 0.1)))
        // Ink exactly covers the middle of a segment and not beyond: no smoothing rounds the zig-zag.
        let mid = (zig[4].point + zig[5].point) * 0.5
        XCTAssertTrue(isFilled(poly, mid))
        XCTAssertTrue(isFilled(poly, zig[5].point))
    }
}
