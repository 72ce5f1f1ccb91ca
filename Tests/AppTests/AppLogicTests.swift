import CGtk
import InkCore
import InkRender
@testable import OekakiApp
import XCTest

/// The app's pure parts: finger navigation, view navigation and the keyboard map (no display needed).
final class AppLogicTests: XCTestCase {
    // MARK: fingers navigate

    func testOneFingerDoesNothingAndASecondStartsFromWhereItIs() {
        var nav = FingerNavigation()
        nav.down(1, at: Point(100, 100))
        XCTAssertNil(nav.move(1, to: Point(130, 90)), "a lone finger neither pans nor zooms")
        XCTAssertNil(nav.move(2, to: Point(0, 0)), "a finger that is not down does nothing")
        nav.down(2, at: Point(230, 90))
        let step = nav.move(2, to: Point(230, 110))
        // Centroid (180, 90) → (180, 100): the lone finger's earlier move is not replayed as a pan.
        XCTAssertEqual(step?.pan, Point(0, 10))
    }

    func testTwoFingersMovingTogetherPanWithoutZoom() {
        var nav = FingerNavigation()
        nav.down(1, at: Point(100, 100))
        nav.down(2, at: Point(200, 100))
        var pan = Point(0, 0), zoom = 1.0
        for (id, to) in [(PointerID(1), Point(120, 140)), (PointerID(2), Point(220, 140))] {
            guard let s = nav.move(id, to: to) else { return XCTFail("finger \(id) is down") }
            pan = pan + s.pan
            zoom *= s.zoom
        }
        XCTAssertEqual(pan.x, 20, accuracy: 1e-9)
        XCTAssertEqual(pan.y, 40, accuracy: 1e-9)
        XCTAssertEqual(zoom, 1, accuracy: 1e-9, "the spread is the same after both moved")
    }

    func testSpreadingFingersZoomsByTheRatioOfTheirDistance() {
        var nav = FingerNavigation()
        nav.down(1, at: Point(100, 100))
        nav.down(2, at: Point(200, 100))
        var zoom = 1.0
        zoom *= nav.move(1, to: Point(50, 100))?.zoom ?? .nan
        zoom *= nav.move(2, to: Point(250, 100))?.zoom ?? .nan
        XCTAssertEqual(zoom, 2, accuracy: 1e-9, "fingers 100 apart → 200 apart doubles the zoom")
        nav.up(2)
        XCTAssertNil(nav.move(1, to: Point(60, 100)), "one finger left: the view stays")
    }

    func testPinchKeepsThePagePointBetweenTheFingersUnderThem() {
        var view = ViewTransform(zoom: 1.5, offset: Point(-40, 25))
        var nav = FingerNavigation()
        nav.down(1, at: Point(300, 300))
        nav.down(2, at: Point(500, 300))
        let between = view.pagePoint(fromView: Point(400, 300))
        for (id, to) in [(PointerID(1), Point(250, 320)), (PointerID(2), Point(560, 320))] {
            guard let s = nav.move(id, to: to) else { return XCTFail() }
            view = view.panned(by: s.pan).clampedZoom(by: s.zoom, around: s.anchor)
        }
        let now = view.viewPoint(fromPage: between)
        XCTAssertEqual(now.x, 405, accuracy: 1e-6, "the page point follows the fingers' midpoint")
        XCTAssertEqual(now.y, 320, accuracy: 1e-6)
        XCTAssertEqual(view.zoom, 1.5 * 310 / 200, accuracy: 1e-9)
    }

    // MARK: view navigation

    func testZoomAroundAPointKeepsItFixedAndStaysInRange() {
        let t = ViewTransform(zoom: 1, offset: Point(10, 20))
        let anchor = Point(300, 200)
        let p = t.pagePoint(fromView: anchor)
        let z = t.clampedZoom(by: 2.5, around: anchor)
        XCTAssertEqual(z.zoom, 2.5, accuracy: 1e-12)
        XCTAssertEqual(z.viewPoint(fromPage: p).x, anchor.x, accuracy: 1e-9)
        XCTAssertEqual(z.viewPoint(fromPage: p).y, anchor.y, accuracy: 1e-9)
        XCTAssertEqual(t.clampedZoom(by: 1e9, around: anchor).zoom, ViewTransform.zoomRange.upperBound)
        XCTAssertEqual(t.clampedZoom(by: 1e-9, around: anchor).zoom, ViewTransform.zoomRange.lowerBound)
        XCTAssertEqual(t.clampedZoom(by: .nan, around: anchor), t, "a broken factor changes nothing")
    }

    func testFitShowsTheWholeRectCentred() {
        let page = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let t = ViewTransform().fitting(page, in: Size(width: 1000, height: 700), margin: 20)
        let a = t.viewPoint(fromPage: Point(0, 0)), b = t.viewPoint(fromPage: Point(1920, 1080))
        XCTAssertEqual(a.x, 20, accuracy: 1e-9, "width is the tight side")
        XCTAssertEqual(b.x, 980, accuracy: 1e-9)
        XCTAssertEqual((a.y + b.y) / 2, 350, accuracy: 1e-9, "centred vertically")
    }

    // MARK: keyboard

    private func key(_ keyval: Int32, _ mods: [GdkModifierType] = []) -> Command? {
        let m = mods.reduce(UInt32(0)) { $0 | $1.rawValue }
        return Shortcuts.command(for: KeyPress(keyval: UInt32(keyval), keycode: 0, modifiers: GdkModifierType(rawValue: m)))
    }

    func testShortcutsOfTheContract() {
        XCTAssertEqual(key(GDK_KEY_z, [GDK_CONTROL_MASK]), .undo)
        XCTAssertEqual(key(GDK_KEY_Z, [GDK_CONTROL_MASK, GDK_SHIFT_MASK]), .redo)
        XCTAssertEqual(key(GDK_KEY_y, [GDK_CONTROL_MASK]), .redo)
        XCTAssertEqual(key(GDK_KEY_o, [GDK_CONTROL_MASK]), .open)
        XCTAssertEqual(key(GDK_KEY_s, [GDK_CONTROL_MASK]), .saveAs)
        XCTAssertEqual(key(GDK_KEY_e, [GDK_CONTROL_MASK]), .export)
        XCTAssertEqual(key(GDK_KEY_0, [GDK_CONTROL_MASK]), .zoomFit)
        for k in [GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add] { XCTAssertEqual(key(k, [GDK_CONTROL_MASK]), .zoomIn) }
        for k in [GDK_KEY_minus, GDK_KEY_KP_Subtract] { XCTAssertEqual(key(k, [GDK_CONTROL_MASK]), .zoomOut) }
        XCTAssertEqual(key(GDK_KEY_Escape), .cancelStroke)
        XCTAssertEqual(key(GDK_KEY_p), .tool(.pen))
        XCTAssertEqual(key(GDK_KEY_h), .tool(.highlighter))
        XCTAssertEqual(key(GDK_KEY_e), .tool(.strokeEraser))
        XCTAssertEqual(key(GDK_KEY_a), .tool(.areaEraser))
        XCTAssertEqual(key(GDK_KEY_1), .size(.fine))
        XCTAssertEqual(key(GDK_KEY_2), .size(.medium))
        XCTAssertEqual(key(GDK_KEY_3), .size(.bold))
        XCTAssertNil(key(GDK_KEY_q, [GDK_CONTROL_MASK]), "Ctrl+Q is left to GTK")
        XCTAssertNil(key(GDK_KEY_p, [GDK_ALT_MASK]))
    }
}
