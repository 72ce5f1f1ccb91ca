import XCTest
@testable import InkCore

/// Point 4 of issue 2 (smoothing itself: StrokeShapeSmoothingTests): pressure → width, variable-width outline with round caps and joins.
final class StrokeShapeTests: XCTestCase {
    /// Distance from `p` to the shaped centre line and the ink radius at the nearest place.
    private func reach(_ spine: [StrokeShape.SpinePoint], _ p: Point) -> (distance: Double, radius: Double) {
        if spine.count == 1 { return (spine[0].point.distance(to: p), spine[0].radius) }
        var best = (distance: Double.infinity, radius: 0.0)
        for i in 0..<(spine.count - 1) {
            let seg = Segment(spine[i].point, spine[i + 1].point)
            let t = seg.nearestParameter(to: p)
            let d = seg.point(at: t).distance(to: p)
            if d < best.distance { best = (d, spine[i].radius + (spine[i + 1].radius - spine[i].radius) * t) }
        }
        return best
    }

    /// The filled outline equals the union of discs along the centre line: inside a bit within, outside a bit beyond.
    private func assertOutlineMatchesInk(_ s: Stroke, step: Double = 0.5, file: StaticString = #filePath, line: UInt = #line) {
        let o = StrokeShape.options(for: s.style)
        let spine = StrokeShape.spine(of: s, options: o)
        let poly = StrokeShape.outline(of: s)
        XCTAssertTrue(poly.allSatisfy(\.isFinite), file: file, line: line)
        guard let b = s.inkBounds else { return XCTFail("empty", file: file, line: line) }
        var wrongInside = 0, wrongOutside = 0
        var y = b.minY
        while y <= b.maxY {
            var x = b.minX
            while x <= b.maxX {
                let p = Point(x, y)
                let r = reach(spine, p)
                let filled = isFilled(poly, p)
                if r.distance < r.radius * 0.96 && !filled { wrongOutside += 1 }
                if r.distance > r.radius * 1.04 + 0.01 && filled { wrongInside += 1 }
                x += step
            }
            y += step
        }
        XCTAssertEqual(wrongOutside, 0, "ink missing (notches) inside the stroke", file: file, line: line)
        XCTAssertEqual(wrongInside, 0, "ink outside the stroke", file: file, line: line)
    }

    func testStraightLineHasRoundCapsAndTheNominalWidth() {
        let s = stroke(1, [(0, 0), (50, 0), (100, 0)], width: 10, tool: .highlighter)
        let poly = StrokeShape.outline(of: s)
        XCTAssertTrue(isFilled(poly, Point(50, 4.9)))
        XCTAssertFalse(isFilled(poly, Point(50, 5.1)))
        XCTAssertTrue(isFilled(poly, Point(-4.8, 0)), "round cap reaches one radius past the end")
        XCTAssertFalse(isFilled(poly, Point(-4, 4)), "cap is round, not square")
        XCTAssertTrue(isFilled(poly, Point(104.8, 0)))
        assertOutlineMatchesInk(s)
    }

    func testSharpTurnsHaveNoNotchesAndNoSpikes() {
        // A zigzag with 150° reversals and a full 180° reversal, drawn with constant width.
        let zig = stroke(1, [(0, 0), (40, 10), (0, 20), (40, 30), (40, 60), (10, 60), (40, 60.01), (80, 90)], width: 12, tool: .highlighter)
        assertOutlineMatchesInk(zig)
        // Right angles both ways.
        let square = stroke(2, [(0, 0), (30, 0), (30, 30), (0, 30), (0, 5)], width: 8, tool: .highlighter)
        assertOutlineMatchesInk(square)
    }

    func testSmoothCurveUsesFewPointsAndStaysTrue() {
        let pts = (0...60).map { k -> (Double, Double) in
            let a = Double(k) / 60 * 3 * Double.pi
            return (100 + 60 * cos(a) * (1 + Double(k) / 60), 100 + 60 * sin(a) * (1 + Double(k) / 60))
        }
        let s = stroke(1, pts, width: 6, tool: .highlighter)
        let poly = StrokeShape.outline(of: s)
        // Two outline points per spine point plus caps; a gentle curve adds at most one curve point per sample.
        XCTAssertLessThan(poly.count, 4 * pts.count + 40, "about two to four points per sample plus caps")
        assertOutlineMatchesInk(s, step: 1)
    }

    func testPressureChangesWidth() {
        let light = stroke(1, [(0, 0), (100, 0)], width: 10, pressure: 0.1)
        let heavy = stroke(2, [(0, 0), (100, 0)], width: 10, pressure: 0.9)
        let lp = StrokeShape.outline(of: light), hp = StrokeShape.outline(of: heavy)
        let lw = lp.map(\.y).max()! - lp.map(\.y).min()!, hw = hp.map(\.y).max()! - hp.map(\.y).min()!
        XCTAssertEqual(lw, StrokeShape.width(nominal: 10, pressure: 0.1, thinning: 0.5), accuracy: 1e-9)
        XCTAssertEqual(hw, StrokeShape.width(nominal: 10, pressure: 0.9, thinning: 0.5), accuracy: 1e-9)
        XCTAssertEqual(StrokeShape.width(nominal: 10, pressure: 0.5, thinning: 0.5), 10)
        XCTAssertEqual(StrokeShape.width(nominal: 10, pressure: 1, thinning: 1), 10 * StrokeShape.maxWidthFactor)
        XCTAssertEqual(StrokeShape.width(nominal: 10, pressure: 0, thinning: 1), 10 * StrokeShape.minWidthFactor)
        // Highlighter: one flat width whatever the pressure.
        let hl = stroke(3, [(0, 0), (100, 0)], width: 10, tool: .highlighter, pressure: 0.9)
        let hlp = StrokeShape.outline(of: hl)
        XCTAssertEqual(hlp.map(\.y).max()! - hlp.map(\.y).min()!, 10, accuracy: 1e-9)
        // Variable pressure along one stroke.
        var v = Stroke(id: 4, style: StrokeStyle(width: 10))
        for k in 0...20 { v.append(InkPoint(x: Double(k) * 10, y: 0, pressure: Double(k) / 20)) }
        let vp = StrokeShape.outline(of: v)
        func half(at x: Double) -> Double { vp.filter { abs($0.x - x) < 5 }.map { abs($0.y) }.max() ?? 0 }
        XCTAssertLessThan(half(at: 30), half(at: 170))
    }

    func testMinSpacingSkipsSubPixelPoints() {
        let dense = stroke(1, (0...1000).map { (Double($0) * 0.01, 0) }, width: 2)
        let all = StrokeShape.spine(of: dense, options: StrokeShape.Options(streamline: 0))
        let sparse = StrokeShape.spine(of: dense, options: StrokeShape.Options(streamline: 0, minSpacing: 0.5))
        XCTAssertEqual(all.count, 1001)
        XCTAssertLessThanOrEqual(sparse.count, 22)
        XCTAssertEqual(sparse.last?.point, Point(10, 0))
    }

    func testDegenerateInputGivesNoNaN() {
        let cases: [Stroke] = [
            stroke(1, [(5, 5)]),
            stroke(2, [(5, 5), (5, 5), (5, 5)]),
            stroke(3, [(5, 5), (5 + 1e-12, 5), (5, 5 + 1e-12)]),
            stroke(4, [(1e12, 1e12), (1e12 + 1, 1e12), (1e12 + 1, 1e12 + 1)]),
            stroke(5, [(-1e12, 0), (1e12, 0)]),
            stroke(6, [(1e300, 1e300), (-1e300, -1e300), (0, 0)]),
            stroke(7, [(0, 0), (10, 0)], width: 0),
            stroke(8, [(0, 0), (10, 0), (0, 0), (10, 0)]),
            Stroke(id: 9, style: StrokeStyle(width: .infinity), points: [InkPoint(x: 0, y: 0), InkPoint(x: 1, y: 1)]),
            Stroke(id: 10, style: StrokeStyle(), points: [InkPoint(x: 0, y: 0, pressure: .nan), InkPoint(x: 1, y: 1, pressure: -3)]),
        ]
        for s in cases {
            let poly = StrokeShape.outline(of: s)
            XCTAssertFalse(poly.isEmpty, "stroke \(s.id)")
            XCTAssertTrue(poly.allSatisfy(\.isFinite), "stroke \(s.id) has a non-finite outline point")
        }
        XCTAssertTrue(StrokeShape.outline(of: Stroke(id: 11, style: StrokeStyle())).isEmpty)
        // Duplicates collapse into a dot of the pen's width.
        let dot = StrokeShape.outline(of: cases[1])
        for p in dot { XCTAssertEqual(p.distance(to: Point(5, 5)), 2, accuracy: 1e-9) }
        let huge = StrokeShape.outline(of: cases[3])
        XCTAssertTrue(isFilled(huge, Point(1e12 + 0.5, 1e12)))
    }

    func testEveryOptionHasADefault() {
        let o = StrokeShape.Options()
        XCTAssertEqual(o, .pen)
        XCTAssertEqual(StrokeShape.options(for: StrokeStyle(tool: .highlighter)).thinning, 0)
        XCTAssertEqual(o.minSpacing, 0)
        XCTAssertGreaterThan(o.capSegments, 2)
    }

    func testOutlineIsCheap() {
        // 1,000 strokes × 100 points (the release target is 10,000 in well under 0.5 s; this runs in debug).
        var strokes: [Stroke] = []
        for k in 0..<1000 {
            var s = Stroke(id: StrokeID(k + 1), style: StrokeStyle(width: 3))
            for i in 0..<100 {
                let a = Double(i) * 0.2 + Double(k)
                s.append(InkPoint(x: Double(i) * 3 + cos(a) * 10, y: Double(k) + sin(a) * 10, pressure: 0.5 + 0.4 * sin(a)))
            }
            strokes.append(s)
        }
        let start = Date()
        var total = 0
        for s in strokes { total += StrokeShape.outline(of: s).count }
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(total, 1000 * 200)
        XCTAssertLessThan(elapsed, 3, "outline of 100k points took \(elapsed) s")
    }
}
