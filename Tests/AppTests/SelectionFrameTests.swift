import XCTest
import InkCore
import InkRender
@testable import OekakiApp

/// The selection frame's handles and what dragging them does, without a window.
final class SelectionFrameTests: XCTestCase {
    let frame = SelectionFrame(box: Rect(minX: 100, minY: 100, maxX: 300, maxY: 110), view: ViewTransform(zoom: 2, offset: Point(10, 20)))

    func testHandlesAreFingerSizedAndWinOverTheInsideOfTheBox() {
        XCTAssertGreaterThanOrEqual(SelectionFrame.handleSize, 32)
        let v = frame.viewBox
        // The corner handle's whole 32 px disc grabs it, even where it overlaps the box.
        XCTAssertEqual(frame.grip(atView: Point(v.minX + 10, v.minY + 10)), .resize(-1, -1))
        XCTAssertEqual(frame.grip(atView: Point(v.maxX, (v.minY + v.maxY) / 2)), .resize(1, 0))
        XCTAssertEqual(frame.grip(atView: Point((v.minX + v.maxX) / 2, v.minY - SelectionFrame.rotateDistance)), .rotate)
        // A one-line selection still has a middle that moves it.
        XCTAssertEqual(frame.grip(atView: frame.view.viewPoint(fromPage: Point(200, 105))), .move)
        XCTAssertNil(frame.grip(atView: Point(v.maxX + 40, v.maxY + 40)))
    }

    func testDragsGiveTheOpsTheyStore() {
        let move = frame.drag(.move, from: Point(150, 105), to: Point(160, 125), shift: false)
        XCTAssertEqual(move.op, .translate(dx: 10, dy: 20))
        // The right edge dragged right by the frame's width doubles it about the left side.
        let pad = SelectionFrame.padding / 2
        let right = frame.drag(.resize(1, 0), from: Point(300 + pad, 105), to: Point(300 + pad + 200 + 2 * pad, 105), shift: false)
        guard case .scale(let sx, let sy, let about, _) = right.op else { return XCTFail("\(right.op)") }
        XCTAssertEqual(sx, 2, accuracy: 1e-9); XCTAssertEqual(sy, 1)
        XCTAssertEqual(about.x, 100 - pad, accuracy: 1e-9)
        // Shift snaps a turn to 15° steps.
        let c = Point(200, 105)
        let turn = frame.drag(.rotate, from: Point(200, 0), to: Point(200 - 100 * sin(0.3), 105 - 105 * cos(0.3)), shift: true)
        guard case .rotate(let degrees, let centre) = turn.op else { return XCTFail("\(turn.op)") }
        XCTAssertEqual(degrees, 15, accuracy: 1e-9, "16.4° counter-clockwise snaps to 15°")
        XCTAssertEqual(centre, c)
    }
}
