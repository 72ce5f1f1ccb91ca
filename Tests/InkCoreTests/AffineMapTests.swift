import InkCore
import XCTest

/// Which placements a stroke may carry: every map the editor makes, and none whose ink would land at infinity.
final class AffineMapTests: XCTestCase {
    func testWhatTheEditorMakesIsUsable() {
        let maps: [AffineMap] = [.identity, .translation(1e5, -1e5), .scale(1000, 0.001, about: Point(50, 50)),
                                 .rotation(degrees: 33, about: Point(10, 20)), .scale(-1, 1, about: Point(0, 0))]
        for m in maps { XCTAssertTrue(m.isUsable, "\(m)") }
    }

    func testHugeFlatOrNonFiniteMapsAreNot() {
        let maps: [AffineMap] = [AffineMap(a: 1, b: -1.7e308, c: 0, d: 1, tx: 0, ty: 0), .translation(2e12, 0), .scale(0, 1, about: Point(0, 0)),
                                 AffineMap(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), AffineMap(a: 1e200, b: 0, c: 0, d: 1e200, tx: 0, ty: 0)]
        for m in maps { XCTAssertFalse(m.isUsable, "\(m)") }
        // At the limits, a point far out (beyond anything a document stores) still lands on a finite one.
        let edge = AffineMap(a: AffineMap.maxScale, b: AffineMap.maxScale, c: AffineMap.maxScale, d: AffineMap.maxScale / 2,
                             tx: AffineMap.maxOffset, ty: AffineMap.maxOffset)
        XCTAssertTrue(edge.isUsable)
        let q = edge.apply(Point(1e18, -1e18))
        XCTAssertTrue(q.x.isFinite && q.y.isFinite)
    }
}
