import InkCore
@testable import OekakiApp
import XCTest

/// Pressure fix-ups of pen strokes as tablets report them (no tablet needed).
final class PenPressureTests: XCTestCase {
    func p(_ x: Double, _ pressure: Double) -> InkPoint { InkPoint(x: x, y: 0, pressure: pressure) }

    func testAZeroPressurePenDownWaitsAndTakesTheFirstRealPressure() {
        var pen = PenPressure()
        XCTAssertNil(pen.down(p(0, 0), hasPressure: true), "pressure 0 at pen-down: the stroke does not begin yet")
        // The first motion batch: a zero sample (pressure still ramping), then real ones.
        let step = pen.move([(p(1, 0), true), (p(2, 0.4), true), (p(3, 0.6), true)])
        XCTAssertEqual(step.began, p(0, 0.4), "the pen-down sample begins with the first real pressure")
        XCTAssertEqual(step.moved, [p(1, 0.4), p(2, 0.4), p(3, 0.6)], "no sample of the stroke keeps pressure 0")
        let end = pen.up(p(4, 0), hasPressure: true)
        XCTAssertNil(end.began)
        XCTAssertEqual(end.ended, p(4, 0.6), "a zero-pressure release keeps the last real pressure (no needle tail)")
    }

    func testARealPressurePenDownBeginsAtOnce() {
        var pen = PenPressure()
        XCTAssertEqual(pen.down(p(0, 0.3), hasPressure: true), p(0, 0.3))
        let step = pen.move([(p(1, 0.5), true), (p(2, 0.7), false)])
        XCTAssertNil(step.began)
        XCTAssertEqual(step.moved, [p(1, 0.5), p(2, 0.5)], "a coalesced sample without the axis takes the last pressure")
        XCTAssertEqual(pen.up(p(3, 0.2), hasPressure: true).ended, p(3, 0.2), "a real release pressure is kept")
    }

    func testAPenThatOnlyReportsZerosKeepsWaitingAndATapLeavesANominalDot() {
        var pen = PenPressure()
        XCTAssertNil(pen.down(p(0, 0), hasPressure: true))
        let still = pen.move([(p(0.5, 0), true)])
        XCTAssertNil(still.began)
        XCTAssertTrue(still.moved.isEmpty, "no hairline while only zeros arrive")
        let tap = pen.up(p(0, 0), hasPressure: true)
        XCTAssertEqual(tap.began, p(0, 0.5), "a tap begins at the pen-down place with nominal pressure")
        XCTAssertEqual(tap.ended.pressure, 0.5)
    }

    func testEachStrokeStartsFresh() {
        var pen = PenPressure()
        _ = pen.down(p(0, 0.9), hasPressure: true)
        _ = pen.up(p(1, 0.9), hasPressure: true)
        XCTAssertNil(pen.down(p(5, 0), hasPressure: true))
        XCTAssertEqual(pen.up(p(5, 0), hasPressure: true).began?.pressure, 0.5, "the last stroke's pressure does not leak into the next")
    }
}
