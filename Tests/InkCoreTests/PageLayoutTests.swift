import InkCore
import XCTest

final class PageLayoutTests: XCTestCase {
    private func notebook(_ sizes: [Size]) -> Document {
        Document(pages: sizes.enumerated().map { i, s in Page(id: PageID(i + 1), format: .fixed(s)) })
    }

    func testFixedPagesStackWithAGapCentredOnTheWidest() {
        let doc = notebook([Size(width: 100, height: 200), Size(width: 300, height: 50), Size(width: 100, height: 100)])
        let l = PageLayout(document: doc, current: 0)
        XCTAssertFalse(l.isCanvas)
        XCTAssertEqual(l.frame(ofPage: 0), Rect(x: 100, y: 0, width: 100, height: 200))
        XCTAssertEqual(l.frame(ofPage: 1), Rect(x: 0, y: 200 + PageLayout.gap, width: 300, height: 50))
        XCTAssertEqual(l.frame(ofPage: 2), Rect(x: 100, y: 250 + 2 * PageLayout.gap, width: 100, height: 100))
        XCTAssertEqual(l.origin(ofPage: 2), Point(100, 250 + 2 * PageLayout.gap))
        XCTAssertEqual(l.bounds, Rect(minX: 0, minY: 0, maxX: 300, maxY: 350 + 2 * PageLayout.gap))
    }

    func testVisibleAndHitTestingFindPagesByPosition() {
        let doc = notebook(Array(repeating: Size(width: 100, height: 100), count: 500))
        let l = PageLayout(document: doc, current: 0)
        let step = 100 + PageLayout.gap
        XCTAssertEqual(l.visible(Rect(x: 0, y: 0, width: 100, height: 50)), 0..<1)
        XCTAssertEqual(l.visible(Rect(x: 0, y: step * 300 + 90, width: 100, height: 40)), 300..<302)
        // A rect in the gap meets no page; one below the last meets none either.
        XCTAssertEqual(l.visible(Rect(x: 0, y: step * 7 + 101, width: 10, height: 10)).count, 0)
        XCTAssertEqual(l.visible(Rect(x: 0, y: step * 600, width: 10, height: 10)).count, 0)
        XCTAssertEqual(l.page(at: Point(50, step * 499 + 50)), 499)
        XCTAssertNil(l.page(at: Point(50, step * 3 + 110)))          // in the gap
        XCTAssertNil(l.page(at: Point(150, 50)))                     // beside the page
        XCTAssertEqual(l.nearestPage(to: Point(50, step * 3 + 102)), 3)
        XCTAssertEqual(l.nearestPage(to: Point(50, step * 4 - 2)), 4)
        XCTAssertEqual(l.nearestPage(to: Point(50, -500)), 0)
        XCTAssertEqual(l.nearestPage(to: Point(50, 1e9)), 499)
    }

    func testAnEndlessCurrentPageIsShownAloneAtTheOriginUnbounded() {
        var doc = notebook([Size(width: 100, height: 100), Size(width: 100, height: 100)])
        doc.apply(.setFormat([Edit.FormatChange(page: 2, from: doc.pages[1].format, to: .endless)]))
        let canvas = PageLayout(document: doc, current: 1)
        XCTAssertTrue(canvas.isCanvas)
        XCTAssertEqual(canvas.origin(ofPage: 1), Point(0, 0))
        XCTAssertNil(canvas.frame(ofPage: 1))
        XCTAssertEqual(canvas.visible(Rect(x: 1e6, y: -1e6, width: 10, height: 10)), 1..<2)
        XCTAssertEqual(canvas.page(at: Point(-1e6, 5)), 1)
        // From the fixed page, the endless one sits in the stack at the area its ink covers (none: its drawing's frame).
        let stack = PageLayout(document: doc, current: 0)
        XCTAssertFalse(stack.isCanvas)
        XCTAssertEqual(stack.frame(ofPage: 1)?.minY, 100 + PageLayout.gap)
    }
}
