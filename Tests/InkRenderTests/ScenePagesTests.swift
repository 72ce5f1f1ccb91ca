import InkCore
import InkRender
import XCTest

/// The screen cache painting a stack of pages: each page's paper and ink at its place, ink clipped to its page,
/// the desk between pages left transparent.
final class ScenePagesTests: XCTestCase {
    let blue = RGBA(r: 0, g: 0, b: 255)

    /// Two 100×100 pages; page 2 holds a blue vertical line from y=50 to y=150 (past its bottom edge).
    private func notebook() -> (Document, PageLayout) {
        var second = Drawing(pageSize: Size(width: 100, height: 100))
        second.insert(Stroke(id: 1, style: StrokeStyle(color: blue, width: 10), points: [InkPoint(x: 50, y: 50), InkPoint(x: 50, y: 150)], page: 2))
        let doc = Document(pages: [Page(id: 1, format: .fixed(Size(width: 100, height: 100))),
                                   Page(id: 2, format: .fixed(Size(width: 100, height: 100), Background(paper: RGBA(r: 255, g: 255, b: 200))), drawing: second)])
        return (doc, PageLayout(document: doc, current: 0))
    }

    func testPagesArePaintedAtTheirPlaceAndInkIsClippedToItsPage() throws {
        let (doc, layout) = notebook()
        let cache = try ScreenCache(viewSize: Size(width: 100, height: 300), transform: .identity)
        cache.render(Scene(document: doc, layout: layout))
        let top2 = Int(100 + PageLayout.gap)
        XCTAssertColor(cache.pixel(x: 50, y: 50), near: .white, tolerance: 0)            // page 1: blank paper
        XCTAssertEqual(cache.pixel(x: 50, y: 110).a, 0)                                   // the desk between pages
        XCTAssertColor(cache.pixel(x: 20, y: top2 + 10), near: RGBA(r: 255, g: 255, b: 200), tolerance: 0) // page 2's paper
        XCTAssertColor(cache.pixel(x: 50, y: top2 + 80), near: blue)                      // its ink at its place
        XCTAssertEqual(cache.pixel(x: 50, y: top2 + 120).a, 0)                           // clipped below its page
    }

    func testBakeAndInvalidateUseThePagePlace() throws {
        let (doc, layout) = notebook()
        let cache = try ScreenCache(viewSize: Size(width: 100, height: 300), transform: .identity)
        cache.render(Scene(document: doc, layout: layout))
        let red = RGBA(r: 255, g: 0, b: 0)
        let s = Stroke(id: 2, style: StrokeStyle(color: red, width: 10), points: [InkPoint(x: 10, y: 90), InkPoint(x: 10, y: 130)], page: 2)
        cache.bake(s, origin: layout.origin(ofPage: 1), clip: layout.frame(ofPage: 1))
        let top2 = Int(100 + PageLayout.gap)
        XCTAssertColor(cache.pixel(x: 10, y: top2 + 95), near: red)
        XCTAssertEqual(cache.pixel(x: 10, y: top2 + 110).a, 0)                            // clipped like the rest
        // Repainting page 2's area from the document (which lacks the red stroke) takes it away again.
        cache.invalidate(Rect(x: 0, y: 90, width: 30, height: 40).offsetBy(layout.origin(ofPage: 1)), in: Scene(document: doc, layout: layout))
        XCTAssertColor(cache.pixel(x: 10, y: top2 + 95), near: RGBA(r: 255, g: 255, b: 200), tolerance: 0)
        XCTAssertColor(cache.pixel(x: 50, y: top2 + 80), near: blue)
    }

    func testRuledPaperIsDrawnUnderTheInkAsCrispLinesAtAnyZoom() throws {
        // Xournal++'s layout: ruled lines 0.5 units wide from 80 units down, every 24.
        let page = Page(id: 1, format: .fixed(Size(width: 100, height: 200), Background(style: .ruled)))
        let doc = Document(pages: [page])
        let layout = PageLayout(document: doc, current: 0)
        for zoom in [4.0, 8.0] {
            let cache = try ScreenCache(viewSize: Size(width: 100 * zoom, height: 200 * zoom), transform: ViewTransform(zoom: zoom))
            cache.render(Scene(document: doc, layout: layout))
            let line = Int(80 * zoom)
            // The line covers whole device rows at these zooms: exactly the line colour, paper right beside it.
            XCTAssertColor(cache.pixel(x: 200, y: line - 1), near: Background.defaultLine, tolerance: 0, "zoom \(zoom)")
            XCTAssertColor(cache.pixel(x: 200, y: line), near: Background.defaultLine, tolerance: 0, "zoom \(zoom)")
            XCTAssertColor(cache.pixel(x: 200, y: line + Int(zoom)), near: .white, tolerance: 0, "zoom \(zoom)")
            XCTAssertColor(cache.pixel(x: 200, y: Int(104 * zoom)), near: Background.defaultLine, tolerance: 0, "zoom \(zoom)")
            XCTAssertColor(cache.pixel(x: 200, y: Int(40 * zoom)), near: .white, tolerance: 0, "zoom \(zoom): no line in the header")
        }
    }
}
