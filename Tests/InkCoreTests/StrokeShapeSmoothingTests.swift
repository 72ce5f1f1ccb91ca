import XCTest
@testable import InkCore

/// The centre line: smoothing that removes jitter without lag and without moving sparse, deliberate input;
/// curves through sparse gentle samples; exact ends; a live stroke's settled part never moves.
final class StrokeShapeSmoothingTests: XCTestCase {
    /// Deterministic noise in -0.5…0.5 (a linear congruential generator, so failures reproduce).
    private struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
    }

    /// The shaper before this change: each point pulled towards the previous smoothed one (lag 0.35).
    private func laggedSpine(_ pts: [Point]) -> [Point] {
        var out = [pts[0]]
        for (i, p) in pts.enumerated().dropFirst() {
            out.append(i == pts.count - 1 ? p : out[out.count - 1] + (p - out[out.count - 1]) * 0.65)
        }
        return out
    }

    /// `count` samples round a circle, the last one back at the first.
    private func circle(center: Double, radius: Double, count: Int) -> [(Double, Double)] {
        (0...count).map { (k: Int) -> (Double, Double) in
            let a: Double = Double(k) * 2 * Double.pi / Double(count)
            return (center + radius * cos(a), center + radius * sin(a))
        }
    }

    /// Distance from `p` to the polyline through the spine.
    private func distance(_ spine: [StrokeShape.SpinePoint], _ p: Point) -> Double {
        if spine.count == 1 { return spine[0].point.distance(to: p) }
        return (0..<(spine.count - 1)).map { Segment(spine[$0].point, spine[$0 + 1].point).distance(to: p) }.min()!
    }

    func testSparseRectangleKeepsItsCornersAndEdges() {
        // A real Xournal++ rectangle: five samples, corners only. The old lag filter drew a parallelogram.
        let corners = [(0.0, 0.0), (100.0, 0.0), (100.0, 50.0), (0.0, 50.0), (0.0, 0.0)]
        let s = stroke(1, corners, width: 2)
        let spine = StrokeShape.spine(of: s, options: .pen)
        for c in corners {
            let p = Point(c.0, c.1)
            XCTAssertLessThanOrEqual(spine.map { $0.point.distance(to: p) }.min()!, 0.5, "corner \(p) moved")
        }
        let poly = StrokeShape.outline(of: s)
        for p in [Point(0, 0), Point(100, 0), Point(100, 50), Point(0, 50), Point(50, 0), Point(100, 25), Point(50, 50),
                  Point(0, 25), Point(100.6, 50.6), Point(-0.6, -0.6)] {
            XCTAssertTrue(isFilled(poly, p), "\(p) on the rectangle is not inked")
        }
        XCTAssertFalse(isFilled(poly, Point(50, 25)), "an outline, not a filled box")
        // Where the old shaper put the ink: its displaced corners and the middle of its slanted edges.
        let old = laggedSpine(corners.map { Point($0.0, $0.1) })
        XCTAssertGreaterThan(old[2].distance(to: Point(100, 50)), 10, "the old shaper did displace this corner")
        let rectangle = corners.map { InkPoint(x: $0.0, y: $0.1) }
        var checked = 0
        for i in 1..<(old.count - 1) {
            for p in [old[i], old[i] + (old[i + 1] - old[i]) * 0.5] {
                // Only where the old ink was well away from the true rectangle.
                let off = (0..<4).map { Segment(rectangle[$0].point, rectangle[$0 + 1].point).distance(to: p) }.min()!
                guard off > 3 else { continue }
                checked += 1
                XCTAssertFalse(isFilled(poly, p), "ink where the old shaper displaced it, at \(p)")
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 3)
    }

    func testDeliberateZigzagKeepsItsShape() {
        // Samples 7.8 units apart with width 2: far beyond jitter, so nothing is pulled.
        let zig = stroke(1, (0...40).map { k in (Double(k) * 5, k % 2 == 0 ? 0.0 : 6.0) }, width: 2)
        XCTAssertEqual(StrokeShape.spine(of: zig, options: .pen).map(\.point), zig.points.map(\.point))
        let raw = StrokeShape.spine(of: zig, options: StrokeShape.Options(streamline: 0))
        XCTAssertEqual(raw.map(\.point), zig.points.map(\.point), "streamline 0 keeps the input")
    }

    func testJitterOnADenseLineIsSmoothed() {
        // A horizontal line sampled every unit with ±0.5 noise across it.
        var noise = Noise()
        let pts = (0...300).map { k in (Double(k), noise.next()) }
        let s = stroke(1, pts, width: 2)
        func deviation(_ spine: [StrokeShape.SpinePoint]) -> (max: Double, rms: Double) {
            let inner = spine.filter { $0.point.x >= 5 && $0.point.x <= 295 }.map { abs($0.point.y) }
            return (inner.max()!, (inner.map { $0 * $0 }.reduce(0, +) / Double(inner.count)).squareRoot())
        }
        let raw = deviation(StrokeShape.spine(of: s, options: StrokeShape.Options(streamline: 0)))
        let smooth = deviation(StrokeShape.spine(of: s, options: .pen))
        XCTAssertGreaterThan(raw.max, 0.45)
        XCTAssertLessThan(smooth.max, raw.max * 0.6, "max deviation from the ideal line")
        XCTAssertLessThan(smooth.rms, raw.rms * 0.5, "typical deviation from the ideal line")
        // Smoothing does not shorten or shift the line: no lag.
        let spine = StrokeShape.spine(of: s, options: .pen)
        XCTAssertEqual(spine.first?.point, Point(pts[0].0, pts[0].1))
        XCTAssertEqual(spine.last?.point, Point(pts[300].0, pts[300].1))
        let xs = spine.map(\.point.x)
        XCTAssertEqual(zip(xs, xs.dropFirst()).filter { $1 <= $0 }.count, 0, "still runs forwards")
    }

    func testEndsAreExactWhereThePenWentDownAndLifted() {
        var noise = Noise()
        var wavy: [(Double, Double)] = []
        for k in 0...50 {
            let x: Double = Double(k) * 0.7 + noise.next()
            wavy.append((x, sin(Double(k) * 0.2) * 20 + noise.next()))
        }
        let shapes: [[(Double, Double)]] = [wavy, [(3.25, 7.5), (90, 12), (40, 80.125)], circle(center: 0, radius: 50, count: 13),
                                            [(0, 0), (0.3, 0.1), (0.6, -0.1), (0.9, 0)]]
        for (i, pts) in shapes.enumerated() {
            for tool in [Tool.pen, .highlighter] {
                let s = stroke(StrokeID(i + 1), pts, width: 3, tool: tool)
                let spine = StrokeShape.spine(of: s, options: StrokeShape.options(for: s.style))
                XCTAssertEqual(spine.first?.point, s.points.first?.point, "shape \(i) start")
                XCTAssertEqual(spine.last?.point, s.points.last?.point, "shape \(i) end")
                XCTAssertEqual(spine.last?.radius, 1.5, "shape \(i): the end has the pen's width")
            }
        }
    }

    func testSparseCircleComesOutRound() {
        // A fast mouse circle: 12 samples, radius 50. The polygon's chords sag 1.7 units inside the circle.
        let pts = circle(center: 200, radius: 50, count: 12)
        let s = stroke(1, pts, width: 2, tool: .highlighter)
        let spine = StrokeShape.spine(of: s, options: .highlighter)
        XCTAssertGreaterThan(spine.count, pts.count, "curve points between the samples")
        XCTAssertLessThanOrEqual(spine.count, 1 + 12 * (StrokeShape.Options.highlighter.maxCurvePoints + 1))
        var worst = 0.0
        for i in 0..<(spine.count - 1) {
            for t in stride(from: 0.0, through: 1, by: 0.1) {
                let p = Segment(spine[i].point, spine[i + 1].point).point(at: t)
                worst = max(worst, abs(p.distance(to: Point(200, 200)) - 50))
            }
        }
        XCTAssertLessThan(worst, 0.5, "the drawn line stays on the circle")
        let poly = StrokeShape.outline(of: s)
        for k in 0..<12 {
            let a = (Double(k) + 0.5) * .pi / 6
            XCTAssertTrue(isFilled(poly, Point(200 + 50 * cos(a), 200 + 50 * sin(a))), "circle between samples \(k), \(k + 1)")
            XCTAssertFalse(isFilled(poly, Point(200 + 48.3 * cos(a), 200 + 48.3 * sin(a))), "the polygon's chord at \(k)")
        }
        // Every sample is still on the line.
        for p in s.points { XCTAssertLessThan(distance(spine, p.point), 0.01) }
    }

    func testFastMouseWaveFollowsTheWaveNotItsChords() {
        // Samples 18 units apart along y = 40 sin(x / 20): crests turn by ~73°, still a curve, not a corner,
        // rounded within 1.5 units of the chords (SparseInputBandTests).
        let pts = (0...8).map { (k: Int) -> (Double, Double) in (Double(k) * 18, 40 * sin(Double(k) * 0.9)) }
        let s = stroke(1, pts, width: 2)
        func worst(_ line: [Point]) -> Double {
            var w = 0.0
            for i in 0..<(line.count - 1) {
                for t in stride(from: 0.0, through: 1, by: 0.05) {
                    let p = Segment(line[i], line[i + 1]).point(at: t)
                    w = max(w, abs(p.y - 40 * sin(p.x / 20)))
                }
            }
            return w
        }
        let chords = worst(s.points.map(\.point))
        let curve = worst(StrokeShape.spine(of: s, options: .pen).map(\.point))
        XCTAssertGreaterThan(chords, 3.5)
        // Closer to the wave than the chords, but only as far as the band around the samples allows (the pen
        // may have gone straight: sparse samples do not say).
        XCTAssertLessThan(curve, chords - 1, "the curve through the samples is closer to the wave than its chords")
    }

    func testCurvePointsAreBoundedAndStayInsideTheSamples() {
        // Long gently turning segments: the most in-between points allowed, never more.
        let pts = (0...20).map { k in (2000 * cos(Double(k) * 0.3), 2000 * sin(Double(k) * 0.3)) }
        let s = stroke(1, pts, width: 2)
        let o = StrokeShape.Options.pen
        let spine = StrokeShape.spine(of: s, options: o)
        XCTAssertLessThanOrEqual(spine.count, pts.count + 20 * o.maxCurvePoints)
        XCTAssertGreaterThan(spine.count, pts.count + 10)
        let b = s.bounds!
        XCTAssertTrue(spine.allSatisfy { b.contains($0.point) }, "ink bounds are computed from the samples")
        // Off: straight segments between the samples.
        var straight = o
        straight.maxCurvePoints = 0
        XCTAssertEqual(StrokeShape.spine(of: s, options: straight).count, pts.count)
    }

    func testHugeCoordinatesGetNoCurvesAndNoNaN() {
        let far = stroke(1, circle(center: 1e12, radius: 50, count: 12), width: 2)
        let spine = StrokeShape.spine(of: far, options: .pen)
        XCTAssertEqual(spine.count, far.points.count, "no curve points where doubles are too coarse")
        XCTAssertTrue(StrokeShape.outline(of: far).allSatisfy(\.isFinite))
        let cases: [Stroke] = [
            stroke(2, [(1e300, 0), (-1e300, 0), (1e300, 1), (0, 0), (1e300, 1e300)]),
            stroke(3, [(0, 0), (1e-300, 0), (2e-300, 1e-300), (5, 5), (5, 5 + 1e-13), (5, 5)]),
            stroke(4, [(Double, Double)](repeating: (7, 7), count: 100)),
            stroke(5, (0...100).map { (k: Int) -> (Double, Double) in (1e12 + Double(k % 3) * 0.5, 1e12 + Double(k % 2) * 0.5) }),
        ]
        for s in cases {
            let sp = StrokeShape.spine(of: s, options: .pen)
            XCTAssertTrue(sp.allSatisfy { $0.point.isFinite && $0.radius.isFinite }, "stroke \(s.id)")
            XCTAssertTrue(zip(sp, sp.dropFirst()).allSatisfy { $0.point != $1.point }, "stroke \(s.id) repeats a point")
            let poly = StrokeShape.outline(of: s)
            XCTAssertFalse(poly.isEmpty, "stroke \(s.id)")
            XCTAssertTrue(poly.allSatisfy(\.isFinite), "stroke \(s.id) has a non-finite outline point")
        }
    }

    func testTapIsARoundDotOfThePenWidth() {
        for w in [1.0, 4, 30] {
            let tap = stroke(1, [(10, 20)], width: w)
            let poly = StrokeShape.outline(of: tap)
            XCTAssertGreaterThanOrEqual(poly.count, 16)
            for p in poly { XCTAssertEqual(p.distance(to: Point(10, 20)), w / 2, accuracy: 1e-9) }
            XCTAssertTrue(isFilled(poly, Point(10 + w * 0.45, 20)))
            XCTAssertFalse(isFilled(poly, Point(10 + w * 0.4, 20 + w * 0.4)), "round, not square")
        }
    }

    func testSettledPartOfALiveStrokeNeverMoves() {
        // Grown sample by sample: the part the live view has drawn must equal the finished stroke's.
        var noise = Noise()
        var pts: [(Double, Double)] = []
        for k in 0..<120 {
            let x: Double = Double(k) * 0.8 + noise.next() * 0.6
            pts.append((x, 30 * sin(Double(k) * 0.05) + noise.next() * 0.6))
        }
        for k in 1...8 { pts.append((96 + Double(k) * 25, 30 * cos(Double(k) * 0.7))) }   // fast, sparse
        pts += [(300, 0), (300, 0.2), (300.1, 0.2)]                                     // slow, tiny
        for spacing in [0.0, 0.3] {
            var o = StrokeShape.Options.pen
            o.minSpacing = spacing
            var live = Stroke(id: 1, style: StrokeStyle(width: 2))
            var drawn: [[StrokeShape.SpinePoint]] = []
            for p in pts {
                live.append(InkPoint(x: p.0, y: p.1))
                let (spine, settled) = StrokeShape.liveSpine(of: live, options: o)
                XCTAssertEqual(spine, StrokeShape.spine(of: live, options: o))
                XCTAssertLessThanOrEqual(settled, spine.count)
                drawn.append(Array(spine.prefix(settled)))
            }
            let finished = StrokeShape.spine(of: live, options: o)
            for (i, part) in drawn.enumerated() {
                XCTAssertEqual(part, Array(finished.prefix(part.count)), "spacing \(spacing): settled part after sample \(i) moved")
            }
            // The unsettled tail is short: a live view redraws only a few points per sample.
            XCTAssertGreaterThan(drawn[110].count, StrokeShape.spine(of: Stroke(id: 2, style: live.style,
                points: Array(live.points.prefix(111))), options: o).count - 20)
        }
    }
}
