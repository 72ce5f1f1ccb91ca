import Foundation
import XCTest
@testable import InkCore

/// The ruler, set square and compass: a pen stroke beginning near one is drawn exactly along it.
final class GuideTests: XCTestCase {
    /// A hand-drawn wobbly stroke from `a` to `b`: `n` samples, up to `wobble` units off the straight path.
    func wobbly(from a: Point, to b: Point, wobble: Double = 6, n: Int = 40) -> [(Double, Double)] {
        (0...n).map { k in
            let t = Double(k) / Double(n)
            let off = sin(t * 17) * wobble
            return (a.x + (b.x - a.x) * t + off * 0.3, a.y + (b.y - a.y) * t + off)
        }
    }

    func editor(_ guides: Guides) -> Editor {
        let e = Editor()
        e.guides = guides
        return e
    }

    /// Distance from `p` to the line through `o` at `degrees` counter-clockwise on screen (y down).
    func distance(_ p: Point, toLineThrough o: Point, degrees: Double) -> Double {
        let a = degrees * Double.pi / 180
        let d = Point(cos(a), -sin(a))
        return abs((p.x - o.x) * d.y - (p.y - o.y) * d.x)
    }

    func testRulerAtZeroFortyFiveAndNinetyDegrees() throws {
        let o = Point(200, 300)
        for degrees in [0.0, 45, 90] {
            let edge = StraightEdge(origin: o, degrees: degrees)
            // Start 12 units off the edge, 50 units along it; end 150 units further along, 15 units the other side.
            let start = o + edge.direction * 50 + edge.normal * 12
            let end = o + edge.direction * 200 - edge.normal * 15
            let e = editor(Guides(ruler: Ruler(origin: o, degrees: degrees)))
            e.play(gesture(1, wobbly(from: start, to: end)))
            let s = try XCTUnwrap(e.drawing.strokes.first, "\(degrees)°")
            XCTAssertEqual(e.drawing.strokes.count, 1)
            XCTAssertEqual(s.style.tool, .pen)
            XCTAssertEqual(s.style.trace, .polyline, "exact geometry, never smoothed")
            XCTAssertEqual(s.shape, .line)
            XCTAssertEqual(s.points.count, 2)
            for p in s.points {
                XCTAssertLessThanOrEqual(distance(p.point, toLineThrough: o, degrees: degrees), 1e-9, "\(degrees)°: on the edge")
                XCTAssertEqual(p.pressure, 0.5)
            }
            // From the projection of the first sample to that of the last.
            XCTAssertEqual(s.points[0].x, (o + edge.direction * 50).x, accuracy: 1e-9)
            XCTAssertEqual(s.points[0].y, (o + edge.direction * 50).y, accuracy: 1e-9)
            let last = wobbly(from: start, to: end).last!
            let foot = edge.project(Point(last.0, last.1))
            XCTAssertEqual(s.points[1].point.distance(to: foot), 0, accuracy: 1e-9)
        }
        // The directions themselves: 0° runs right, 45° up and right (y grows downwards), 90° straight up.
        XCTAssertEqual(StraightEdge.direction(degrees: 0), Point(1, 0))
        XCTAssertEqual(StraightEdge.direction(degrees: 90), Point(0, -1))
        XCTAssertEqual(StraightEdge.direction(degrees: -270), Point(0, -1))
        let d45 = StraightEdge.direction(degrees: 45)
        XCTAssertEqual(d45.x, 0.5.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(d45.y, -(0.5.squareRoot()), accuracy: 1e-12)
    }

    func testRulerAtNinetyDegreesIsExactlyVertical() throws {
        let e = editor(Guides(ruler: Ruler(origin: Point(100, 100), degrees: 90)))
        e.play(gesture(1, [(110, 400), (104, 300), (95, 120)]))
        let s = try XCTUnwrap(e.drawing.strokes.first)
        XCTAssertEqual(s.points.map(\.point), [Point(100, 400), Point(100, 120)])
    }

    func testOnlyStrokesBeginningWithinTheRadiusSnap() throws {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 100), degrees: 0)))
        // 20 units away snaps, 21 does not (the ruler's edge is the whole line).
        e.play(gesture(1, [(5000, 80), (5100, 60), (5200, 70)]))
        e.play(gesture(2, [(50, 79), (100, 90), (150, 95)]))
        XCTAssertEqual(e.drawing.strokes.count, 2)
        XCTAssertEqual(e.drawing.strokes[0].points.map(\.point), [Point(5000, 100), Point(5200, 100)])
        XCTAssertNil(e.drawing.strokes[1].shape)
        XCTAssertEqual(e.drawing.strokes[1].style.trace, .smoothed, "freehand ink as usual")
        // The radius travels with the zoom: at 4× the app sets 5 units.
        e.play(gesture(3, [(10, 94), (50, 90)]).map { var e = $0; e.guideRadius = 5; return e })
        XCTAssertNil(e.drawing.strokes[2].shape)
    }

    func testTheLiveStrokeShowsTheSnappedLine() throws {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 100), degrees: 0)))
        _ = e.handle(event(1, .began, 10, 90))
        let u = e.handle(event(1, .moved, 80, 120))
        XCTAssertEqual(e.liveStrokes.first?.points.map(\.point), [Point(10, 100), Point(80, 100)])
        let dirty = try XCTUnwrap(u.dirty)
        XCTAssertTrue(dirty.contains(Point(80, 100)) && dirty.contains(Point(10, 100)))
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        _ = e.handle(event(1, .ended, 60, 130))
        XCTAssertEqual(e.drawing.strokes.first?.points.map(\.point), [Point(10, 100), Point(60, 100)], "back along the edge")
    }

    func testGuidedStrokesUndoAndRedoAsOne() {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 0), degrees: 30)))
        e.play(gesture(1, [(50, -20), (80, -60), (120, -50)]))
        XCTAssertEqual(e.drawing.strokes.count, 1)
        _ = e.undo()
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        _ = e.redo()
        XCTAssertEqual(e.drawing.strokes.count, 1)
    }

    func testOnlyPenAndHighlighterFollowGuidesAndOnlyWhilePlaced() throws {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 100), degrees: 0)))
        e.tool = .highlighter
        e.play(gesture(1, [(10, 95), (50, 110), (90, 90)]))
        XCTAssertEqual(e.drawing.strokes.last?.style.tool, .highlighter)
        XCTAssertEqual(e.drawing.strokes.last?.points.map(\.point), [Point(10, 100), Point(90, 100)])
        e.tool = .rectangle
        e.play(gesture(2, [(10, 95), (90, 150)]))
        XCTAssertEqual(e.drawing.strokes.last?.shape, .rectangle, "shape tools keep their own geometry")
        e.tool = .pen
        e.guides.ruler = nil
        e.play(gesture(3, [(10, 95), (50, 110), (90, 90)]))
        XCTAssertNil(e.drawing.strokes.last?.shape, "a removed ruler snaps nothing")
    }

    func testSetSquareEdges() throws {
        let sq = SetSquare(centre: Point(300, 300), degrees: 0, size: 200)
        let c = sq.corners
        XCTAssertEqual(c.start, Point(200, 300)); XCTAssertEqual(c.end, Point(400, 300))
        XCTAssertEqual(c.apex.x, 300, accuracy: 1e-9); XCTAssertEqual(c.apex.y, 400, accuracy: 1e-9)
        // The short edges meet at a right angle.
        let a = c.start - c.apex, b = c.end - c.apex
        XCTAssertEqual(a.x * b.x + a.y * b.y, 0, accuracy: 1e-9)

        let e = editor(Guides(setSquare: sq))
        // Along the long edge.
        e.play(gesture(1, [(250, 290), (300, 285), (350, 296)]))
        XCTAssertEqual(e.drawing.strokes.last?.points.map(\.point), [Point(250, 300), Point(350, 300)])
        // Along the left short edge (from (200,300) down to (300,400), at 45°): start just outside it.
        e.play(gesture(2, [(232, 320), (260, 350), (280, 372)]))
        let s = try XCTUnwrap(e.drawing.strokes.last)
        XCTAssertEqual(s.shape, .line)
        for p in s.points { XCTAssertEqual(p.x - p.y, -100, accuracy: 1e-9, "on the line y = x + 100") }
        XCTAssertEqual(s.points[0].x, 226, accuracy: 1e-9)
        XCTAssertEqual(s.points[1].x, 276, accuracy: 1e-9)
        // Along the right short edge: y = -x + 700.
        e.play(gesture(3, [(372, 320), (340, 350)]))
        for p in try XCTUnwrap(e.drawing.strokes.last).points { XCTAssertEqual(p.x + p.y, 700, accuracy: 1e-9) }
        // Near the long edge's line but far beyond the set square: freehand.
        e.play(gesture(4, [(600, 295), (700, 310)]))
        XCTAssertNil(e.drawing.strokes.last?.shape)
    }

    func testSetSquareTurnedAndItsProtractor() {
        let sq = SetSquare(centre: Point(0, 0), degrees: 90, size: 100)
        // Long edge vertical (90°: upwards), the right angle to its right.
        XCTAssertEqual(sq.corners.apex.x, 50, accuracy: 1e-9)
        XCTAssertEqual(sq.corners.apex.y, 0, accuracy: 1e-9)
        XCTAssertEqual(sq.protractorPoint(degrees: 90).x, 30, accuracy: 1e-9, "90° points at the right angle")
        XCTAssertEqual(sq.protractorPoint(degrees: 0).y, -30, accuracy: 1e-9, "0° along the long edge's direction")
    }

    func testCompassArcFollowsTheSweep() throws {
        let c = Compass(centre: Point(200, 200), radius: 100)
        let e = editor(Guides(compass: c))
        // A quarter turn, drawn 8 units outside the circle then wandering inside it.
        let pts = (0...30).map { k -> (Double, Double) in
            let a = Double(k) / 30 * Double.pi / 2, r = 108 - Double(k)
            return (200 + r * cos(a), 200 + r * sin(a))
        }
        e.play(gesture(1, pts))
        let s = try XCTUnwrap(e.drawing.strokes.first)
        XCTAssertEqual(s.style.trace, .polyline)
        XCTAssertNil(s.shape)
        for p in s.points { XCTAssertEqual(p.point.distance(to: c.centre), 100, accuracy: 1e-9) }
        XCTAssertEqual(s.points.first!.x, 300, accuracy: 1e-9); XCTAssertEqual(s.points.first!.y, 200, accuracy: 1e-9)
        XCTAssertEqual(s.points.last!.x, 200, accuracy: 1e-9); XCTAssertEqual(s.points.last!.y, 300, accuracy: 1e-9)
        // Chords stay within the shape tools' tolerance of the circle.
        for (a, b) in zip(s.points, s.points.dropFirst()) {
            let mid = Point((a.x + b.x) / 2, (a.y + b.y) / 2)
            XCTAssertLessThanOrEqual(100 - mid.distance(to: c.centre), 0.05 + 1e-9)
        }
    }

    func testCompassSweepPastAHalfTurnAndAllTheWayRound() throws {
        let c = Compass(centre: Point(0, 0), radius: 50)
        func arc(_ turns: Double, _ direction: Double) throws -> Stroke {
            let e = editor(Guides(compass: c))
            let n = 200
            let pts = (0...n).map { k -> (Double, Double) in
                let a = direction * turns * 2 * Double.pi * Double(k) / Double(n)
                return (52 * cos(a), 52 * sin(a))
            }
            e.play(gesture(1, pts))
            return try XCTUnwrap(e.drawing.strokes.first)
        }
        // 270° one way: the arc passes through the far side (angle 180°) and ends at 270°.
        let s = try arc(0.75, 1)
        XCTAssertTrue(s.points.contains { $0.x < -49.9 && abs($0.y) < 1.5 }, "through the far side")
        XCTAssertEqual(s.points.last!.x, 0, accuracy: 1e-9); XCTAssertEqual(s.points.last!.y, -50, accuracy: 1e-9)
        let angles = s.points.map { atan2($0.y, $0.x) }
        XCTAssertTrue(angles.contains { $0 > 3 } && angles.contains { $0 < -1.6 }, "swept through 180°, not back the short way")
        for p in s.points { XCTAssertEqual(p.point.distance(to: c.centre), 50, accuracy: 1e-9) }
        // The other way round: the mirror image.
        let m = try arc(0.75, -1)
        XCTAssertEqual(m.points.last!.y, 50, accuracy: 1e-9)
        XCTAssertTrue(m.points.contains { $0.y > 49 })
        // More than a full turn is a full circle, closed where it began.
        let full = try arc(1.3, 1)
        XCTAssertEqual(full.points.first, full.points.last)
        let bounds = try XCTUnwrap(full.bounds)
        // All the way round: every side reached (within a chord's sagitta).
        XCTAssertEqual(bounds.minX, -50, accuracy: 0.05); XCTAssertEqual(bounds.maxX, 50, accuracy: 0.05)
        XCTAssertEqual(bounds.minY, -50, accuracy: 0.05); XCTAssertEqual(bounds.maxY, 50, accuracy: 0.05)
    }

    func testTheNearestGuideWins() throws {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 100), degrees: 0), compass: Compass(centre: Point(0, 0), radius: 110)))
        e.play(gesture(1, [(0, 108), (30, 106)]))   // 8 from the ruler, 2 from the circle
        XCTAssertNil(e.drawing.strokes.last?.shape, "an arc")
        e.play(gesture(2, [(300, 102), (400, 99)]))
        XCTAssertEqual(e.drawing.strokes.last?.shape, .line)
    }

    func testCancelAndEscapeDropTheGuidedStroke() {
        let e = editor(Guides(ruler: Ruler(origin: Point(0, 0), degrees: 0)))
        _ = e.handle(event(1, .began, 0, 5))
        _ = e.handle(event(1, .moved, 50, 5))
        _ = e.handle(event(1, .cancelled, 50, 5))
        _ = e.handle(event(2, .began, 0, 5))
        _ = e.handle(event(2, .moved, 50, 5))
        _ = e.cancelAll()
        XCTAssertTrue(e.liveStrokes.isEmpty)
        _ = e.handle(event(2, .ended, 60, 5))
        XCTAssertTrue(e.drawing.strokes.isEmpty)
        XCTAssertFalse(e.history.canUndo)
    }

    func testGuidesFollowThePage() {
        let g = Guides(ruler: Ruler(origin: Point(10, 20), degrees: 15), setSquare: SetSquare(centre: Point(1, 2), degrees: 0),
                       compass: Compass(centre: Point(5, 5), radius: 3)).offset(by: Point(100, -10))
        XCTAssertEqual(g.ruler?.origin, Point(110, 10)); XCTAssertEqual(g.ruler?.degrees, 15)
        XCTAssertEqual(g.setSquare?.centre, Point(101, -8)); XCTAssertEqual(g.compass?.centre, Point(105, -5))
    }
}
