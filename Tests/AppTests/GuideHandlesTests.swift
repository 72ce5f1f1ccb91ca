import InkCore
import InkRender
@testable import OekakiApp
import XCTest

/// Taking hold of the ruler, set square and compass (no display needed): what a press at a widget point takes,
/// and what dragging or two fingers do to them.
final class GuideHandlesTests: XCTestCase {
    let view = ViewTransform(zoom: 2, offset: Point(10, 20))
    let size = Size(width: 800, height: 600)

    func testGripsAndTheDrawingBand() throws {
        // A level ruler whose edge is at widget y = 320 (page y 150), its body below.
        let h = GuideHandles(guides: Guides(ruler: Ruler(origin: Point(0, 150), degrees: 0)), view: view, size: size)
        XCTAssertNil(h.grip(atView: Point(300, 330)), "10 px from the edge: the pen draws along it")
        XCTAssertNil(h.grip(atView: Point(300, 300)), "above the edge, within 20 px: draws")
        XCTAssertEqual(h.grip(atView: Point(300, 360)), .move(.ruler), "on the body: moves it")
        XCTAssertNil(h.grip(atView: Point(300, 250)), "off the ruler: draws freehand")
        let knob = view.viewPoint(fromPage: try XCTUnwrap(h.knob(of: .ruler)))
        XCTAssertEqual(h.grip(atView: knob + Point(5, 5)), .turn(.ruler))
        // The pivot is where the edge crosses under the middle of the view.
        XCTAssertEqual(try XCTUnwrap(h.rulerPivot).x, (400 - 10) / 2, accuracy: 1e-9)

        let c = GuideHandles(guides: Guides(compass: Compass(centre: Point(100, 100), radius: 50)), view: view, size: size)
        XCTAssertEqual(c.grip(atView: view.viewPoint(fromPage: Point(100, 100))), .move(.compass))
        XCTAssertEqual(c.grip(atView: view.viewPoint(fromPage: try XCTUnwrap(c.pencil))), .radius)
        XCTAssertNil(c.grip(atView: view.viewPoint(fromPage: Point(100, 151))), "on the circle away from the pencil: draws an arc")
    }

    func testDraggingMovesTurnsAndSizes() throws {
        let ruler = Ruler(origin: Point(0, 150), degrees: 0)
        let h = GuideHandles(guides: Guides(ruler: ruler, compass: Compass(centre: Point(100, 100), radius: 50)), view: view, size: size)
        let moved = h.dragged(.move(.ruler), from: Point(50, 170), to: Point(80, 190), pivot: nil)
        XCTAssertEqual(moved.ruler, Ruler(origin: Point(30, 170), degrees: 0))
        // Turning by a drag around the pivot: a quarter turn up, in whole degrees; the pivot stays on the edge.
        let p = try XCTUnwrap(h.rulerPivot)
        let turned = h.dragged(.turn(.ruler), from: p + Point(100, 0), to: p + Point(0.5, -100), pivot: p)
        XCTAssertEqual(turned.ruler?.degrees, 90)
        XCTAssertEqual(try XCTUnwrap(turned.ruler).edge.distance(to: p), 0, accuracy: 1e-9)
        let coarse = h.dragged(.turn(.ruler), from: p + Point(100, 0), to: p + Point(100, -30), pivot: p, coarse: true)
        XCTAssertEqual(coarse.ruler?.degrees, 15, "Shift: 15° steps (16.7° → 15°)")
        let sized = h.dragged(.radius, from: Point(135, 65), to: Point(100, 180), pivot: nil)
        XCTAssertEqual(sized.compass?.radius, 80)
        XCTAssertEqual(GuideHandles.shownDegrees(-30), 150, "an edge has no arrow: −30° reads 150°")
    }

    func testTwoFingersMoveAndTurnTogether() throws {
        let sq = SetSquare(centre: Point(200, 200), degrees: 0, size: 100)
        let h = GuideHandles(guides: Guides(setSquare: sq, compass: Compass(centre: Point(0, 0), radius: 40)), view: view, size: size)
        // Fingers at (150, 200) and (250, 200) turn a quarter turn about their middle and move 10 right.
        let g = h.twoFingers(from: (Point(150, 200), Point(250, 200)), to: (Point(210, 250), Point(210, 150)), guide: .setSquare)
        let s = try XCTUnwrap(g.setSquare)
        XCTAssertEqual(s.degrees, 90, accuracy: 1e-9)
        XCTAssertEqual(s.centre.x, 210, accuracy: 1e-9); XCTAssertEqual(s.centre.y, 200, accuracy: 1e-9)
        // A pinch sizes the compass's circle.
        let c = h.twoFingers(from: (Point(0, 0), Point(100, 0)), to: (Point(0, 0), Point(150, 0)), guide: .compass)
        XCTAssertEqual(c.compass?.radius, 60)
        XCTAssertEqual(c.compass?.centre, Point(25, 0))
    }
}
