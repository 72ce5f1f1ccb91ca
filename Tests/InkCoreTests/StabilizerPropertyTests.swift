import XCTest
@testable import InkCore

/// The stabilizer's contract over many strokes nobody picked by hand: straight lines at any angle, 10 to 500
/// samples, shake of 0.5 to 6 units (uniform and bell-shaped), samples 0.3 to 8 units apart at even, uneven or
/// slowing speed and on several clocks. High must take 60 % off the points' mean distance from the line, end
/// within 2 units of the last sample, start near the first, and never step further than the pen did.
final class StabilizerPropertyTests: XCTestCase {
    private struct Line {
        var samples: [InkPoint]
        var origin: Point
        var direction: Point

        func distance(_ p: Point) -> Double {
            let d = p - origin
            return abs(d.x * direction.y - d.y * direction.x)
        }

        func meanDistance(_ points: [InkPoint]) -> Double {
            points.map { distance($0.point) }.reduce(0, +) / Double(points.count)
        }
    }

    /// A straight stroke drawn by a shaky hand. `pace`: 0 even, 1 uneven, 2 slowing down to a third of its speed.
    private func line(seed: UInt64, samples count: Int, jitter: Double, spacing: Double, bell: Bool, pace: Int) -> Line {
        var random = SeededRandom(seed: seed)
        let angle = random.unit() * 2 * .pi
        let direction = Point(cos(angle), sin(angle)), normal = Point(-direction.y, direction.x)
        let origin = Point(200 + random.unit() * 100, 300 + random.unit() * 100)
        // 100 to 1000 samples a second: fast enough that no stroke rests 500 ms within 3 units (a hold snaps a shape).
        let clock = [5.0, 7.5, 10, 1][Int(seed % 4)]
        var along = 0.0, t = random.unit() * 1e6
        var out: [InkPoint] = []
        for k in 0..<count {
            let shake = bell ? (random.unit() + random.unit() + random.unit() - 1.5) * jitter / 1.5 : (random.unit() * 2 - 1) * jitter
            let p = origin + direction * along + normal * shake
            out.append(InkPoint(x: p.x, y: p.y, pressure: 0.3 + 0.4 * random.unit(), time: t))
            switch pace {
            case 1: along += spacing * (0.3 + 1.4 * random.unit())
            case 2: along += spacing * (1.7 - 1.4 * Double(k) / Double(count))
            default: along += spacing
            }
            t += clock * (pace == 1 ? 0.5 + random.unit() : 1)
        }
        return Line(samples: out, origin: origin, direction: direction)
    }

    private func draw(_ samples: [InkPoint], _ level: Stabilizer.Level, device: InputEvent.Device = .pen) -> Stroke? {
        let editor = Editor()
        editor.stabilizer = level
        for (k, p) in samples.enumerated() {
            let phase: InputEvent.Phase = k == 0 ? .began : k == samples.count - 1 ? .ended : .moved
            _ = editor.handle(InputEvent(pointer: 1, phase: phase, point: p, device: device, hasPressure: device == .pen))
        }
        return editor.drawing.strokes.first
    }

    private struct Tally {
        var ratios: [Double] = []
        var misses = 0
        mutating func add(_ r: Double) { ratios.append(r); if r > 0.4 { misses += 1 } }
        var median: Double { ratios.sorted()[ratios.count / 2] }
    }

    func testHighTakesSixtyPercentOffAJitteryLineAndEndsOnThePen() throws {
        var byLength: [Int: Tally] = [:]
        var seed: UInt64 = 1
        for count in [10, 14, 20, 30, 50, 100, 200, 500] {
            for jitter in [0.5, 1.5, 3, 6] {
                for spacing in [0.3, 1, 2.5, 8] {
                    for variant in 0..<6 {
                        seed += 1
                        let l = line(seed: seed &* 7919, samples: count, jitter: jitter, spacing: spacing, bell: variant % 2 == 1, pace: variant / 2)
                        let off = try XCTUnwrap(draw(l.samples, .off)), high = try XCTUnwrap(draw(l.samples, .high))
                        XCTAssertEqual(off.points.count, count)
                        let last = l.samples[count - 1].point, first = l.samples[0].point
                        XCTAssertLessThanOrEqual(high.points.last!.point.distance(to: last), Stabilizer.endGap + 1e-9, "seed \(seed)")
                        XCTAssertLessThanOrEqual(high.points.first!.point.distance(to: first), Stabilizer.endGap + 1e-9, "seed \(seed)")
                        XCTAssertEqual(high.points.last!.time, l.samples[count - 1].time)
                        byLength[count, default: Tally()].add(l.meanDistance(high.points) / l.meanDistance(off.points))
                    }
                }
            }
        }
        for (count, tally) in byLength.sorted(by: { $0.key < $1.key }) {
            print("stabilizer high/off, \(count) samples: median \(tally.median), \(tally.misses) of \(tally.ratios.count) over 0.4")
            // Ten samples: the least-squares line itself is off by about 0.43 of the shake (its ends swing).
            XCTAssertLessThanOrEqual(tally.median, count >= 14 ? 0.4 : 0.5, "\(count) samples")
            // From 100 samples on, every stroke is steadied by 60 % or more.
            if count >= 100 { XCTAssertEqual(tally.misses, 0, "\(count) samples") }
        }
        // Shorter strokes hold too little information for every one to reach 60 %: even the least-squares line
        // through all the samples misses on some (see the next test). High meets it on most.
        XCTAssertLessThanOrEqual(byLength[20]!.misses * 4, byLength[20]!.ratios.count)
        XCTAssertLessThanOrEqual(byLength[50]!.misses * 10, byLength[50]!.ratios.count)
    }

    /// A stroke shorter than the window comes out as the least-squares line through its samples: the best any
    /// filter can do for a straight stroke it knows nothing else about.
    func testAShortStrokeIsTheLineFittedThroughItsSamples() throws {
        for seed: UInt64 in 1...40 {
            // Shake small enough that no end needs pulling toward the pen.
            let l = line(seed: seed, samples: 10 + Int(seed % 13), jitter: 0.6, spacing: 1.5, bell: false, pace: 0)
            let high = try XCTUnwrap(draw(l.samples, .high))
            let n = Double(l.samples.count), c = (n - 1) / 2
            var mean = Point(0, 0), v = Point(0, 0)
            for p in l.samples { mean = mean + p.point * (1 / n) }
            for (j, p) in l.samples.enumerated() { v = v + (p.point - mean) * (Double(j) - c) }
            let a = v * (1 / v.length)
            for p in high.points {
                let d = p.point - mean
                XCTAssertLessThan(abs(d.x * a.y - d.y * a.x), 1e-9, "seed \(seed)")
            }
            XCTAssertEqual(high.points.count, l.samples.count)
        }
    }

    /// An unshaken line at any pace: every point on the line, in order, no step longer than the pen's own longest,
    /// and the ends exactly the pen's.
    func testAnUnshakenLineIsDrawnAsItWasWithNoJump() throws {
        for seed: UInt64 in 1...60 {
            let count = [3, 8, 23, 24, 25, 60, 300][Int(seed % 7)]
            let l = line(seed: seed, samples: count, jitter: 0, spacing: [0.5, 2, 7][Int(seed % 3)], bell: false, pace: Int(seed % 3))
            for level in [Stabilizer.Level.low, .high] {
                let s = try XCTUnwrap(draw(l.samples, level))
                var longest = 0.0
                for (a, b) in zip(l.samples, l.samples.dropFirst()) { longest = max(longest, a.point.distance(to: b.point)) }
                var previous = -Double.infinity
                for (a, b) in zip(s.points, s.points.dropFirst()) {
                    XCTAssertLessThanOrEqual(a.point.distance(to: b.point), longest + 1e-6, "seed \(seed) \(level)")
                }
                for p in s.points {
                    XCTAssertLessThan(l.distance(p.point), 1e-6)
                    let t = (p.point - l.origin).x * l.direction.x + (p.point - l.origin).y * l.direction.y
                    XCTAssertGreaterThanOrEqual(t, previous - 1e-6, "seed \(seed) \(level): goes back")
                    previous = t
                }
                XCTAssertEqual(s.points.first!.point.distance(to: l.samples[0].point), 0, accuracy: 1e-6)
                XCTAssertEqual(s.points.last!.point.distance(to: l.samples[count - 1].point), 0, accuracy: 1e-6)
            }
        }
    }

    /// The middle of the stroke is what was drawn live: lifting changes only the ends.
    func testLiftingChangesOnlyTheEnds() throws {
        let l = line(seed: 99, samples: 200, jitter: 3, spacing: 2, bell: false, pace: 1)
        let editor = Editor()
        editor.stabilizer = .high
        for (k, p) in l.samples.dropLast().enumerated() {
            _ = editor.handle(InputEvent(pointer: 1, phase: k == 0 ? .began : .moved, point: p, device: .pen, hasPressure: true))
        }
        let live = editor.liveStrokes[0].points
        _ = editor.handle(InputEvent(pointer: 1, phase: .ended, point: l.samples[199], device: .pen, hasPressure: true))
        let done = editor.drawing.strokes[0].points
        let w = Stabilizer.Level.high.window
        // Live: the pen-down sample, then the growing means; finished: the samples before the first full mean on
        // the fitted line, then exactly what was drawn from that mean on.
        let join = try XCTUnwrap(done.firstIndex(of: live[w - 1]))
        XCTAssertEqual(Array(done[join..<(join + live.count - (w - 1))]), Array(live[(w - 1)...]))
        XCTAssertLessThanOrEqual(join, w / 2 + 1)
        XCTAssertLessThanOrEqual(done.count - (join + live.count - (w - 1)), w / 2 + 2)
    }

    /// A mouse (pressure made up from speed) goes through the same finishing; its widths stay in range.
    func testAMouseStrokeIsFinishedToo() throws {
        let l = line(seed: 5, samples: 40, jitter: 2, spacing: 3, bell: true, pace: 0)
        let off = try XCTUnwrap(draw(l.samples, .off, device: .mouse)), high = try XCTUnwrap(draw(l.samples, .high, device: .mouse))
        XCTAssertLessThan(l.meanDistance(high.points), 0.4 * l.meanDistance(off.points))
        XCTAssertTrue(high.points.allSatisfy { (0.2...0.8).contains($0.pressure) })
    }
}
