import Foundation
import InkCore
import InkRender
import XCTest

/// Backgrounds are vector marks drawn under the ink: checked in PNG pixels at two zooms, in SVG and in a
/// several-page PDF rendered back by pdftoppm.
final class BackgroundTests: XCTestCase {
    let blue = Background.defaultLine
    let silver = RGBA(r: 0xbd, g: 0xbd, b: 0xbd)

    func page(_ b: Background, size: Size? = Size(width: 200, height: 200), strokes: [Stroke] = []) -> Page {
        Page(format: PageFormat(size: size, background: b), drawing: Drawing(strokes: strokes))
    }

    func testRuledLinesFollowXournalppsLayout() throws {
        let img = try Exporter.render(page(Background(style: .ruled), size: Size(width: 200, height: 200)), scale: 4)
        // Lines at 80, 104, 128, 152 (while one fits 20 above the bottom): 0.5 units = 2 pixels at scale 4.
        for y in [80.0, 104, 128, 152] { XCTAssertColor(img.pixel(x: 400, y: Int(y * 4)), near: blue, tolerance: 40, "line at \(y)") }
        XCTAssertColor(img.pixel(x: 400, y: 176 * 4), near: .white, "no line in the footer")
        XCTAssertColor(img.pixel(x: 400, y: 56 * 4), near: .white, "no line in the header")
        XCTAssertColor(img.pixel(x: 400, y: 92 * 4), near: .white, "paper between lines")
        let lined = try Exporter.render(page(Background(style: .lined)), scale: 4)
        XCTAssertColor(lined.pixel(x: 72 * 4, y: 20 * 4), near: Background.marginLine, tolerance: 40, "the margin line")
    }

    func testGraphAndDotsAreCrispAtEveryZoom() throws {
        let graph = page(Background(style: .graph, spacing: 20))
        for scale in [1.0, 8.0] {
            let img = try Exporter.render(graph, scale: scale)
            let s = Int(scale)
            XCTAssertColor(img.pixel(x: 40 * s, y: 50 * s + s / 2), near: silver, tolerance: scale > 1 ? 6 : 80, "vertical line at scale \(scale)")
            XCTAssertColor(img.pixel(x: 50 * s, y: 60 * s), near: silver, tolerance: scale > 1 ? 6 : 80, "horizontal line at scale \(scale)")
            XCTAssertColor(img.pixel(x: 50 * s, y: 50 * s), near: .white, "inside a square at scale \(scale)")
        }
        // Zoomed in, a 0.5-unit line is 4 pixels wide with paper right next to it: drawn as vector, not scaled.
        let zoomed = try Exporter.render(graph, scale: 8)
        XCTAssertColor(zoomed.pixel(x: 40 * 8 - 4, y: 400), near: .white, "paper beside the line")
        let dots = try Exporter.render(page(Background(style: .dotted, spacing: 20)), scale: 8)
        XCTAssertColor(dots.pixel(x: 160, y: 160), near: silver, "a dot at (20, 20)")
        XCTAssertColor(dots.pixel(x: 240, y: 160), near: .white, "none between")
    }

    func testInkIsDrawnOverTheLinesAndTransparentHasNone() throws {
        let ink = Stroke(id: 1, style: StrokeStyle(tool: .pen, color: .black, width: 10),
                         points: [InkPoint(x: 10, y: 80, pressure: 0.5), InkPoint(x: 190, y: 80, pressure: 0.5)])
        let p = page(Background(style: .ruled), strokes: [ink])
        XCTAssertColor(try Exporter.render(p, scale: 2).pixel(x: 200, y: 160), near: .black, "ink on top of the line")
        let clear = try Exporter.render(page(Background(style: .graph, spacing: 20)), scale: 2, transparent: true)
        XCTAssertEqual(clear.pixel(x: 80, y: 100).a, 0, "transparent: no paper, no lines")
    }

    /// An endless page repeats its pattern from the origin in every direction, and its frame follows the ink.
    func testEndlessPagesRepeatThePatternWhereTheInkIs() throws {
        let ink = Stroke(id: 1, style: StrokeStyle(tool: .pen, color: .black, width: 2),
                         points: [InkPoint(x: -300, y: -200, pressure: 0.5), InkPoint(x: -250, y: -150, pressure: 0.5)])
        let p = Page(format: PageFormat(size: nil, background: Background(style: .graph, spacing: 50)),
                     drawing: Drawing(pageSize: Size(width: 100, height: 100), strokes: [ink]))
        XCTAssertEqual(p.frame, Rect(minX: -300 - Page.endlessMargin, minY: -200 - Page.endlessMargin, maxX: 100, maxY: 100))
        let img = try Exporter.render(p, scale: 1)
        XCTAssertEqual([img.width, img.height], [424, 324])
        // Page x = -100 is device x = 224; page y = 0 is device y = 224.
        XCTAssertColor(img.pixel(x: 224, y: 10), near: silver, tolerance: 80, "the line at x = -100")
        XCTAssertColor(img.pixel(x: 10, y: 224), near: silver, tolerance: 80, "the line at y = 0")
        XCTAssertColor(img.pixel(x: 200, y: 200), near: .white)
    }

    func testSVGAndEveryPDFPageCarryTheBackground() throws {
        let svg = String(decoding: try Exporter.data(page(Background(style: .dotted, spacing: 50)), format: .svg), as: UTF8.self)
        XCTAssertEqual(svg.components(separatedBy: "<circle").count - 1, 9, "3 × 3 dots inside a 200 × 200 page")
        guard let pdftoppm = Fixture.tool("pdftoppm") else { throw XCTSkip("pdftoppm is not installed") }
        let doc = Document(pages: [page(.plain), Page(id: 2, format: PageFormat(size: Size(width: 300, height: 200), background: Background(style: .ruled)))])
        let pdf = Fixture.tempPath("two.pdf")
        try Exporter.writePDF(doc, to: pdf)
        let prefix = Fixture.tempPath("two")
        XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "288", pdf, prefix]), 0)
        let first = try ImageSurface.load(png: prefix + "-1.png"), second = try ImageSurface.load(png: prefix + "-2.png")
        XCTAssertEqual([second.width, second.height], [1200, 800], "page 2 keeps its own size")
        XCTAssertColor(second.pixel(x: 600, y: 80 * 4), near: blue, tolerance: 40, "page 2's first ruled line")
        XCTAssertColor(first.pixel(x: 400, y: 80 * 4), near: .white, "page 1 is plain")
    }

    /// Isometric paper: every triangle's corner (the isodotted dots) lies on the isometric graph's lines, each line
    /// passes through corners, and a fixed page keeps a margin of one side; endless paper repeats it anywhere, also
    /// far from the origin.
    func testIsometricLinesRunThroughTheCornersOfItsTriangles() {
        func distance(_ p: Point, _ l: BackgroundPainter.Slant) -> Double {
            let dx = l.to.x - l.from.x, dy = l.to.y - l.from.y, len = (dx * dx + dy * dy).squareRoot()
            return abs((p.x - l.from.x) * dy - (p.y - l.from.y) * dx) / len
        }
        let fixed = Rect(x: 0, y: 0, width: 300, height: 260)
        for (frame, visible, endless) in [(fixed, fixed, false), (Rect(x: 0, y: 0, width: 1, height: 1), Rect(x: -5000, y: 9000, width: 120, height: 90), true)] {
            let dots = BackgroundPainter.marks(Paper(background: Background(style: .isodotted), frame: frame, endless: endless), in: visible).dots
            let lines = BackgroundPainter.marks(Paper(background: Background(style: .isograph), frame: frame, endless: endless), in: visible).slants
            XCTAssertGreaterThan(dots.count, 20, "endless: \(endless)")
            XCTAssertGreaterThan(lines.count, 10, "endless: \(endless)")
            XCTAssertTrue(dots.allSatisfy { $0.color == silver })
            for d in dots { XCTAssertLessThan(lines.map { distance(d.center, $0) }.min()!, 1e-6, "a corner off the lines at \(d.center)") }
            for l in lines {
                let through = dots.filter { distance($0.center, l) < 1e-6 }.count
                XCTAssertGreaterThanOrEqual(through, 1, "a line through no corner: \(l.from) → \(l.to)")
            }
            if !endless {
                XCTAssertTrue(dots.allSatisfy { $0.center.x >= 14.17 - 1e-9 && $0.center.x <= 300 - 14.17 + 1e-9 && $0.center.y >= 14.17 - 1e-9 }, "inside the margin")
                // Three slopes: vertical, and ±30° from the horizontal (the frame's top and bottom lines aside).
                let slopes = Set(lines.map { l -> Int in l.from.x == l.to.x ? 90 : Int((atan((l.to.y - l.from.y) / (l.to.x - l.from.x)) * 180 / .pi).rounded()) })
                XCTAssertEqual(slopes, [90, 30, -30, 0])
            }
        }
    }

    /// Staves: five black lines 5 units apart from 80 units down, 50 units in from each side, with a bar at either
    /// end; the next stave 40 units (and the lines' widths) further down.
    func testStavesAreFiveLinesWithBars() throws {
        let img = try Exporter.render(page(Background(style: .staves), size: Size(width: 300, height: 260)), scale: 4)
        for y in [80.0, 85, 90, 95, 100, 142.5, 162.5] { XCTAssertColor(img.pixel(x: 150 * 4, y: Int(y * 4)), near: .black, tolerance: 60, "a stave line at \(y)") }
        XCTAssertColor(img.pixel(x: 150 * 4, y: 120 * 4), near: .white, "between staves")
        XCTAssertColor(img.pixel(x: 50 * 4, y: 92 * 4), near: .black, tolerance: 60, "the bar on the left")
        XCTAssertColor(img.pixel(x: 250 * 4, y: 92 * 4), near: .black, tolerance: 60, "the bar on the right")
        XCTAssertColor(img.pixel(x: 40 * 4, y: 80 * 4), near: .white, "no line in the border")
        let svg = String(decoding: try Exporter.data(page(Background(style: .isograph), size: Size(width: 300, height: 260)), format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("stroke-linecap=\"round\""), "isometric lines stroked with round caps in SVG")
        let iso = try Exporter.render(page(Background(style: .isograph), size: Size(width: 300, height: 260)), scale: 4)
        XCTAssertGreaterThan((0..<1200).filter { iso.pixel(x: $0, y: 520).r < 0xd0 }.count, 40, "lines cross the middle row")
    }

    /// Changing the ruling keeps the paper and a colour the user chose, and takes the new ruling's default line
    /// colour otherwise: blue ruled lines become silver triangles or black staves.
    func testRestyledPaperTakesTheNewRulingsDefaultLines() {
        let ruled = Background(style: .ruled, paper: RGBA(r: 250, g: 250, b: 240))
        XCTAssertEqual(ruled.restyled(.staves).line, .black)
        XCTAssertEqual(ruled.restyled(.isograph).line, silver)
        XCTAssertEqual(ruled.restyled(.staves).paper, RGBA(r: 250, g: 250, b: 240))
        let chosen = Background(style: .ruled, line: RGBA(r: 200, g: 0, b: 0))
        XCTAssertEqual(chosen.restyled(.graph).line, RGBA(r: 200, g: 0, b: 0))
        XCTAssertEqual(Background(style: .graph, spacing: 20).restyled(.graph).spacing, 20)
        XCTAssertEqual(Background(style: .graph, spacing: 20).restyled(.staves).spacing, 5)
    }
}
