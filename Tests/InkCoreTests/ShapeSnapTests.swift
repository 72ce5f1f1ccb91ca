import XCTest
@testable import InkCore

/// Hold-to-snap from noisy hand-drawn input (see `Hand`): each shape snaps, keeps the size and place of what was
/// drawn, corners land within 3 % of the diagonal from where the pen turned, ellipses within 3 % of their
/// diameter; handwriting, scribbles and loose curves never snap.
final class ShapeSnapTests: XCTestCase {
    /// Draws `points` with a pen in a fresh editor (holding at the end when `hold`) and returns the stroke.
    func drawn(_ points: [InkPoint], hold: Bool = true, recognize: Bool = false) -> Stroke? {
        let e = Editor()
        e.recognizeShapes = recognize
        e.play(penEvents(points, hold: hold))
        XCTAssertEqual(e.drawing.strokes.count, 1)
        return e.drawing.strokes.first
    }

    func corners(_ s: Stroke) -> [Point] {
        var p = s.points.map(\.point)
        if p.count > 1, p.first == p.last { p.removeLast() }
        return p
    }

    /// Every true corner has a snapped corner within 3 % of the diagonal, and there are as many.
    func assertCorners(_ s: Stroke, _ truth: [Point], file: StaticString = #filePath, line: UInt = #line) {
        let got = corners(s)
        XCTAssertEqual(got.count, truth.count, "corners \(got.prefix(8))", file: file, line: line)
        let diag = Rect(bounding: truth).map { Point($0.width, $0.height).length } ?? 1
        for t in truth {
            let d = got.map { $0.distance(to: t) }.min() ?? .infinity
            XCTAssertLessThanOrEqual(d, 0.03 * diag, "corner \(t) missed by \(d) (diag \(diag))", file: file, line: line)
        }
    }

    func testRectanglesSnapSquaredUpAndInPlace() throws {
        let cases: [(Double, Double, Double)] = [(200, 120, 0), (150, 150, 0), (300, 24, 0), (300, 12, 0.1), (220, 90, 0.35), (40, 260, -0.2)]
        for (seed, (w, h, a)) in cases.enumerated() {
            var hand = Hand(seed: UInt64(seed + 1))
            let c = Point(400, 300)
            let u = Point(cos(a), sin(a)), v = Point(-sin(a), cos(a))
            let truth = [c - u * (w / 2) - v * (h / 2), c + u * (w / 2) - v * (h / 2), c + u * (w / 2) + v * (h / 2), c - u * (w / 2) + v * (h / 2)]
            for overshoot in [6.0, -5.0] {
                let s = try XCTUnwrap(drawn(hand.trace(truth, closed: true, overshoot: overshoot)))
                if h < 20, overshoot < 0, s.shape == nil {
                    // A sliver left open at one end may stay ink (when in doubt), but never becomes another shape.
                    continue
                }
                XCTAssertEqual(s.shape, .rectangle, "\(w)×\(h) at \(a) rad, overshoot \(overshoot)")
                XCTAssertEqual(s.style.trace, .polyline)
                assertCorners(s, truth)
                // Sides meet at right angles.
                let k = corners(s)
                if k.count == 4 {
                    for i in 0..<4 {
                        let p = k[(i + 3) % 4] - k[i], q = k[(i + 1) % 4] - k[i]
                        XCTAssertLessThan(abs(p.x * q.x + p.y * q.y) / (p.length * q.length), 1e-9)
                    }
                }
            }
        }
    }

    func testTrianglesAndConvexPolygonsSnap() throws {
        let tri = [Point(100, 400), Point(260, 120), Point(380, 380)]
        var hand = Hand(seed: 7)
        let t = try XCTUnwrap(drawn(hand.trace(tri, closed: true, overshoot: 4)))
        XCTAssertEqual(t.shape, .triangle)
        assertCorners(t, tri)
        for n in [5, 6, 8] {
            var hand = Hand(seed: UInt64(10 + n))
            let truth = regularPolygon(n, center: Point(300, 300), radius: 150, rotation: 0.3)
            let s = try XCTUnwrap(drawn(hand.trace(truth, closed: true, overshoot: -3)))
            XCTAssertEqual(s.shape, .polygon, "\(n) sides")
            assertCorners(s, truth)
        }
    }

    func testEllipsesAndCirclesFitWithinThreePercent() throws {
        let cases: [(Double, Double, Double)] = [(120, 120, 0), (80, 81, 0), (200, 90, 0), (160, 60, 0.6)]
        for (seed, (rx, ry, a)) in cases.enumerated() {
            var hand = Hand(seed: UInt64(20 + seed))
            hand.cornerRadius = 0
            let c = Point(350, 260)
            let truth = ellipsePoints(center: c, rx: rx, ry: ry, angle: a, count: 90, start: 0.4)
            let s = try XCTUnwrap(drawn(hand.trace(truth, closed: true, overshoot: 8)))
            XCTAssertEqual(s.shape, .ellipse, "\(rx)×\(ry)")
            let diameter = 2 * max(rx, ry)
            let ring = truth + [truth[0]]
            for p in s.points {
                XCTAssertLessThanOrEqual(ShapeFit.distance(p.point, to: ring), 0.03 * diameter)
            }
            // Size and place kept.
            let b = try XCTUnwrap(s.bounds), tb = try XCTUnwrap(Rect(bounding: truth))
            XCTAssertEqual(b.minX, tb.minX, accuracy: 0.03 * diameter); XCTAssertEqual(b.maxY, tb.maxY, accuracy: 0.03 * diameter)
            if abs(rx - ry) < 2 {
                // A near-circle becomes a circle.
                let center = Point((b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2)
                let radii = s.points.map { $0.point.distance(to: center) }
                XCTAssertLessThan(radii.max()! - radii.min()!, 0.5)
            }
        }
    }

    func testLinesAndArrowsSnap() throws {
        var hand = Hand(seed: 31)
        let a = Point(80, 400), b = Point(420, 180)
        let l = try XCTUnwrap(drawn(hand.trace([a, b], closed: false)))
        XCTAssertEqual(l.shape, .line)
        XCTAssertEqual(l.points.count, 2)
        XCTAssertLessThan(l.points[0].point.distance(to: a), 0.03 * a.distance(to: b))
        XCTAssertLessThan(l.points[1].point.distance(to: b), 0.03 * a.distance(to: b))

        // Shaft, one barb, back to the tip, the other barb: one stroke.
        let tip = Point(400, 200), tail = Point(100, 350)
        let back = (tail - tip) * (1 / tail.distance(to: tip))
        let h1 = tip + Shape.rotate(back, by: 0.5) * 50, h2 = tip + Shape.rotate(back, by: -0.5) * 50
        var hand2 = Hand(seed: 32)
        let s = try XCTUnwrap(drawn(hand2.trace([tail, tip, h1, tip, h2], closed: false)))
        XCTAssertEqual(s.shape, .arrow)
        XCTAssertEqual(s.points.count, 5)
        let diag = tail.distance(to: tip)
        XCTAssertLessThan(s.points[1].point.distance(to: tip), 0.03 * diag)
        XCTAssertLessThan(s.points[2].point.distance(to: h1), 0.06 * diag)
        XCTAssertLessThan(s.points[4].point.distance(to: h2), 0.06 * diag)
    }

    /// Without the hold (and without "always recognize") nothing snaps; with the preference everything fits.
    func testHoldIsNeededUnlessAlwaysRecognize() throws {
        var hand = Hand(seed: 40)
        let rect = [Point(100, 100), Point(300, 100), Point(300, 200), Point(100, 200)]
        let pts = hand.trace(rect, closed: true, overshoot: 3)
        XCTAssertNil(try XCTUnwrap(drawn(pts, hold: false)).shape)
        XCTAssertEqual(try XCTUnwrap(drawn(pts, hold: false, recognize: true)).shape, .rectangle)
        // A pause shorter than 500 ms is no hold.
        var ev = penEvents(pts, hold: false)
        var rest = pts.last!; rest.time += 450
        ev.insert(InputEvent(pointer: 1, phase: .moved, point: rest, device: .pen, hasPressure: true), at: ev.count - 1)
        ev[ev.count - 1].point.time = rest.time + 10
        let e = Editor(); e.play(ev)
        XCTAssertNil(e.drawing.strokes.first?.shape)
    }

    /// The snap happens while the pen is down, and moving on afterwards brings the ink back.
    func testSnapIsLiveAndUndoneByMovingOn() throws {
        var hand = Hand(seed: 41)
        let rect = [Point(100, 100), Point(300, 100), Point(300, 200), Point(100, 200)]
        let pts = hand.trace(rect, closed: true, overshoot: 3)
        let e = Editor()
        var ev = penEvents(pts, hold: true)
        let end = ev.removeLast()
        e.play(ev)
        XCTAssertEqual(e.liveStrokes.first?.shape, .rectangle)
        XCTAssertEqual(e.liveStrokes.first?.points.count, 5)
        // Moving on: the freehand ink is back, continued by the new sample.
        var far = end.point; far.x += 40; far.time += 20
        let u = e.handle(InputEvent(pointer: 1, phase: .moved, point: far, device: .pen, hasPressure: true))
        XCTAssertNotNil(u.dirty)
        XCTAssertNil(e.liveStrokes.first?.shape)
        XCTAssertEqual(e.liveStrokes.first?.points.last?.point, far.point)
        XCTAssertGreaterThan(e.liveStrokes.first?.points.count ?? 0, pts.count)
        _ = e.handle(InputEvent(pointer: 1, phase: .ended, point: far, device: .pen, hasPressure: true))
        XCTAssertNil(e.drawing.strokes.first?.shape)
    }

    /// With the stabilizer on, the ink trails the pen, so the ink never rests while the pen does: the hold is the
    /// pen's. A rough rectangle held still snaps while the pen is down (as the app's hold timer repeats the resting
    /// sample), its corners where the pen turned; moving on brings the ink back; lifting keeps the shape. (The ink
    /// of low and high stabilizers did not snap while held: it was still catching up with the pen.)
    func testAHoldSnapsStabilizedInkWhileThePenIsDown() throws {
        for level in [Stabilizer.Level.low, .high] {
            for seed in 1...6 {
                var hand = Hand(seed: UInt64(60 + seed))
                let truth = [Point(300, 200), Point(520, 200), Point(520, 330), Point(300, 330)]
                let pts = hand.trace(truth, closed: true, overshoot: 5)
                let e = Editor()
                e.stabilizer = level
                e.play(pts.enumerated().map { i, p in
                    InputEvent(pointer: 1, phase: i == 0 ? .began : .moved, point: p, device: .pen, hasPressure: true)
                })
                XCTAssertNil(e.liveStrokes.first?.shape, "\(level) \(seed): no snap before the hold")
                var still = pts.last!
                still.time += 530
                _ = e.handle(InputEvent(pointer: 1, phase: .moved, point: still, device: .pen, hasPressure: true))
                let live = try XCTUnwrap(e.liveStrokes.first)
                XCTAssertEqual(live.shape, .rectangle, "\(level) \(seed): the held stroke snaps while the pen is down")
                if live.shape == .rectangle { assertCorners(live, truth) }
                // A second repeat of the resting sample keeps the shape.
                still.time += 530
                _ = e.handle(InputEvent(pointer: 1, phase: .moved, point: still, device: .pen, hasPressure: true))
                XCTAssertEqual(e.liveStrokes.first?.shape, .rectangle, "\(level) \(seed): still held")
                still.time += 10
                _ = e.handle(InputEvent(pointer: 1, phase: .ended, point: still, device: .pen, hasPressure: true))
                XCTAssertEqual(e.drawing.strokes.first?.shape, .rectangle, "\(level) \(seed): lifting keeps the shape")
            }
            // Moving on after the snap: the stabilized ink is back and follows the pen again.
            var hand = Hand(seed: 70)
            let pts = hand.trace([Point(100, 100), Point(300, 100), Point(300, 200), Point(100, 200)], closed: true, overshoot: 3)
            let e = Editor()
            e.stabilizer = level
            e.play(pts.enumerated().map { i, p in
                InputEvent(pointer: 1, phase: i == 0 ? .began : .moved, point: p, device: .pen, hasPressure: true)
            })
            var p = pts.last!
            p.time += 530
            _ = e.handle(InputEvent(pointer: 1, phase: .moved, point: p, device: .pen, hasPressure: true))
            XCTAssertEqual(e.liveStrokes.first?.shape, .rectangle, "\(level): snapped")
            for k in 1...30 {
                p.x += 4; p.time += 8
                _ = e.handle(InputEvent(pointer: 1, phase: .moved, point: p, device: .pen, hasPressure: true))
                if k == 1 { XCTAssertNil(e.liveStrokes.first?.shape, "\(level): moving on brings the ink back") }
            }
            _ = e.handle(InputEvent(pointer: 1, phase: .ended, point: p, device: .pen, hasPressure: true))
            let ink = try XCTUnwrap(e.drawing.strokes.first)
            XCTAssertNil(ink.shape, "\(level): ink, not a shape")
            XCTAssertEqual(ink.points.last?.x ?? 0, p.x, accuracy: Stabilizer.endGap, "\(level): the ink ends at the pen")
        }
    }

    // MARK: no false snaps

    /// Cursive-like handwriting: loops and arches along a baseline, letter by letter.
    func handwriting(seed: UInt64, letters: Int, size: Double) -> [InkPoint] {
        var rng = SeededRandom(seed: seed)
        var pts: [Point] = []
        var x = 50.0
        let base = 300.0
        for _ in 0..<letters {
            let kind = Int(rng.unit() * 4), w = size * rng.range(0.6, 1.1), h = size * rng.range(0.8, 1.6)
            for k in 0..<24 {
                let t = Double(k) / 24
                switch kind {
                case 0: pts.append(Point(x + w * t + 0.4 * w * sin(2 * .pi * t), base - h * 0.5 * (1 - cos(2 * .pi * t))))   // e / l loop
                case 1: pts.append(Point(x + w * t, base - h * 0.6 * abs(sin(.pi * t * 2))))                                 // n / m arches
                case 2: pts.append(Point(x + w * (t + 0.3 * sin(2 * .pi * t)), base - h * 0.4 * (1 - cos(2 * .pi * t)) + 0.2 * h * t)) // o-ish
                default: pts.append(Point(x + w * t, base - h * 0.5 * sin(.pi * t) + h * 0.3 * sin(3 * .pi * t)))            // wave
                }
            }
            x += w
        }
        var hand = Hand(seed: seed)
        hand.cornerRadius = 0; hand.wobble = 0.4; hand.spacing = 1.5
        return hand.trace(pts, closed: false)
    }

    func scribble(seed: UInt64) -> [InkPoint] {
        var rng = SeededRandom(seed: seed)
        var pts: [Point] = [Point(200, 200)]
        for _ in 0..<14 { pts.append(Point(200 + rng.range(-60, 60), 200 + rng.range(-40, 40))) }
        var hand = Hand(seed: seed)
        hand.cornerRadius = 6
        return hand.trace(pts, closed: false)
    }

    func looseCurves() -> [[Point]] {
        [
            (0..<60).map { k in Point(100 + Double(k) * 5, 300 + 60 * sin(Double(k) / 10)) },                  // S wave
            (0..<60).map { k in let a = Double(k) / 59 * 1.5 * .pi; return Point(300 + 100 * cos(a), 300 + 100 * sin(a)) }, // C arc
            (0..<120).map { k in let a = Double(k) / 20; return Point(300 + a * 12 * cos(a), 300 + a * 12 * sin(a)) },     // spiral
            (0..<80).map { k in let a = Double(k) / 79 * 4 * .pi; return Point(300 + 90 * cos(a) + Double(k), 300 + 90 * sin(a)) }, // double loop
            [Point(100, 100), Point(200, 300), Point(300, 100)],                                                   // V
            [Point(100, 100), Point(100, 300), Point(300, 300)],                                                   // L
        ]
    }

    func testHandwritingScribblesAndLooseCurvesNeverSnap() throws {
        var samples: [(String, [InkPoint])] = []
        for seed in 1...12 { samples.append(("handwriting \(seed)", handwriting(seed: UInt64(seed), letters: 3 + seed % 5, size: Double(12 + seed * 3)))) }
        for seed in 1...8 { samples.append(("scribble \(seed)", scribble(seed: UInt64(100 + seed)))) }
        for (k, c) in looseCurves().enumerated() {
            var hand = Hand(seed: UInt64(200 + k))
            samples.append(("curve \(k)", hand.trace(c, closed: false)))
        }
        for (name, pts) in samples {
            let s = try XCTUnwrap(drawn(pts, hold: true))
            XCTAssertNil(s.shape, "\(name) snapped to \(s.shape.map(\.rawValue) ?? "")")
            XCTAssertEqual(s.style.trace, .smoothed, name)
            XCTAssertEqual(s.points.count, pts.count + 4, "\(name): the ink is kept as drawn")
        }
    }

    /// Strokes recorded through the real app's event log (`OEKAKI_EVENT_LOG`, made by Tools/record-handwriting.py:
    /// xdotool moving the mouse along cursive words, scribbles and loose curves, each ending with the pointer
    /// resting 700 ms before lifting) stay ink: with the hold as recorded, and with "always recognize" on.
    func testRecordedHandwritingNeverSnaps() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/handwriting.jsonl")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains(#""recognize":false"#))
        for log in [text, text.replacingOccurrences(of: #""recognize":false"#, with: #""recognize":true"#)] {
            let e = try EventLogReplay.replay(log)
            XCTAssertEqual(e.drawing.strokes.count, 21)
            for s in e.drawing.strokes { XCTAssertNil(s.shape, "stroke \(s.id) with \(s.points.count) points snapped") }
        }
        // The holds are there: every stroke's last sample repeats at least 500 ms later.
        var holds = 0
        var last: InputEvent?
        for line in text.split(separator: "\n") {
            guard case .touch(let ev)? = try EventLog.event(fromLine: String(line)) else { continue }
            if let p = last, ev.phase == .moved, ev.point.point == p.point.point, ev.point.time - p.point.time >= 500 { holds += 1 }
            last = ev
        }
        XCTAssertEqual(holds, 21)
    }
}
