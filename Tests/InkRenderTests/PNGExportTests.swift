import Foundation
import InkCore
import InkSamples
import InkRender
import XCTest

final class PNGExportTests: XCTestCase {
    func exportPNG(_ d: Drawing, _ name: String, options: ExportOptions = ExportOptions()) throws -> ImageSurface {
        let path = Fixture.tempPath(name)
        try Exporter.write(d, to: path, format: .png, options: options)
        return try ImageSurface.load(png: path)
    }

    func testLineColourOnTheLineAndBackgroundOffIt() throws {
        let img = try exportPNG(Fixture.line(), "line.png")
        XCTAssertEqual(img.width, 200); XCTAssertEqual(img.height, 100)
        XCTAssertColor(img.pixel(x: 100, y: 50), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 100, y: 47), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 100, y: 60), near: .white, tolerance: 0)
        XCTAssertColor(img.pixel(x: 5, y: 50), near: .white, tolerance: 0)
        XCTAssertColor(img.pixel(x: 195, y: 5), near: .white, tolerance: 0)
    }

    func testScaleTwoDoublesSizeAndLinePosition() throws {
        let img = try exportPNG(Fixture.line(), "line2.png", options: ExportOptions(scale: 2))
        XCTAssertEqual(img.width, 400); XCTAssertEqual(img.height, 200)
        XCTAssertColor(img.pixel(x: 200, y: 100), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 200, y: 94), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 200, y: 50), near: .white, tolerance: 0)
        XCTAssertColor(img.pixel(x: 200, y: 120), near: .white, tolerance: 0)
    }

    /// A fractional page's sides round to the nearest pixel, as Xournal++ sizes its PNG export: an A4 page
    /// (595.28 × 841.89) is 595 × 842 at 72 dpi and 2480 × 3508 at 300 dpi in both.
    func testFractionalPageRoundsAsXournalppDoes() throws {
        var d = Fixture.line()
        d.pageSize = Size(width: 100.2, height: 50.5)
        let img = try exportPNG(d, "frac.png", options: ExportOptions(scale: 1.5))
        XCTAssertEqual(img.width, 150); XCTAssertEqual(img.height, 76)
        let a4 = Size(width: 595.275590551, height: 841.88976378)
        XCTAssertTrue(try Exporter.pixelSize(of: a4, scale: 1) == (595, 842))
        XCTAssertTrue(try Exporter.pixelSize(of: a4, scale: 300.0 / 72) == (2480, 3508))
    }

    func testTransparentHasAlphaZeroOffTheLine() throws {
        // Width 7: the edges fall mid-pixel (46.5, 53.5), so they are partly covered.
        let img = try exportPNG(Fixture.line(width: 7), "clear.png", options: ExportOptions(transparent: true))
        XCTAssertEqual(img.pixel(x: 100, y: 80).a, 0)
        XCTAssertEqual(img.pixel(x: 5, y: 5).a, 0)
        XCTAssertColor(img.pixel(x: 100, y: 50), near: Fixture.red)
        // Antialiased edge: partly covered, colour still the line's once un-premultiplied.
        let edge = (40...60).map { img.pixel(x: 100, y: $0) }.first { $0.a > 20 && $0.a < 235 }
        XCTAssertNotNil(edge, "expected an antialiased edge pixel")
        if let e = edge { XCTAssertColor(RGBA(r: e.r, g: e.g, b: e.b), near: Fixture.red, tolerance: 12) }
    }

    func testHighlighterIsFlatWhereItCrossesItself() throws {
        // A loop: the stroke crosses its own path near (100, 50).
        var pts: [InkPoint] = []
        for i in 0...60 {
            let t = Double(i) / 60 * 2 * Double.pi
            pts.append(InkPoint(x: 100 + 60 * sin(t), y: 50 + 30 * sin(2 * t), pressure: 0.5))
        }
        let yellow = RGBA.highlighterYellow
        let d = Drawing(pageSize: Size(width: 200, height: 100), strokes: [
            Stroke(id: 1, style: StrokeStyle(tool: .highlighter, color: yellow, width: 16), points: pts)])
        let img = try exportPNG(d, "hl.png")
        let crossing = img.pixel(x: 100, y: 50)
        let single = img.pixel(x: 160, y: 50)
        let expected = RGBA(r: 255, g: UInt8((230 * 102 + 255 * 153) / 255), b: UInt8(255 * 153 / 255))
        XCTAssertColor(single, near: expected, tolerance: 3)
        XCTAssertColor(crossing, near: single, tolerance: 1, "self-crossing must not darken")
    }

    func testTapRendersARoundDot() throws {
        let d = Drawing(pageSize: Size(width: 100, height: 100), strokes: [
            Stroke(id: 1, style: StrokeStyle(color: .black, width: 20), points: [InkPoint(x: 50, y: 50, pressure: 0.5)])])
        let img = try exportPNG(d, "dot.png")
        XCTAssertColor(img.pixel(x: 50, y: 50), near: .black)
        // Radius 10: inside along both axes and the diagonal, outside at the bounding box corner.
        for (x, y) in [(57, 50), (43, 50), (50, 57), (50, 43), (55, 55), (45, 45)] {
            XCTAssertColor(img.pixel(x: x, y: y), near: .black, tolerance: 10, "at \(x),\(y)")
        }
        for (x, y) in [(58, 58), (42, 42), (58, 42), (50, 62), (62, 50)] {
            XCTAssertColor(img.pixel(x: x, y: y), near: .white, tolerance: 10, "at \(x),\(y)")
        }
    }

    func testOutputIsAValidPNGForOtherReaders() throws {
        // Many strokes so several stripes carry ink; ImageMagick must agree with cairo pixel for pixel.
        let d = SampleInk.drawing(strokes: 300, pointsPerStroke: 60, pageSize: Size(width: 640, height: 480), seed: 7)
        for (name, opts) in [("sample.png", ExportOptions()), ("sample-rgba.png", ExportOptions(transparent: true))] {
            let path = Fixture.tempPath(name)
            try Exporter.write(d, to: path, format: .png, options: opts)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            guard let convert = Fixture.tool("convert") else { continue }
            // Re-encode through ImageMagick (which checks CRCs and the zlib stream) and compare pixels.
            let again = Fixture.tempPath("again-" + name)
            XCTAssertEqual(try Fixture.run(convert, [path, "PNG32:" + again]), 0)
            let a = try ImageSurface.load(png: path), b = try ImageSurface.load(png: again)
            XCTAssertEqual(a.width, b.width); XCTAssertEqual(a.height, b.height)
            var diffs = 0
            for y in Swift.stride(from: 0, to: a.height, by: 3) { for x in Swift.stride(from: 0, to: a.width, by: 3) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { diffs += 1 } }
            XCTAssertEqual(diffs, 0)
        }
    }

    func testTooLargePageFailsWithoutAllocating() {
        let d = Fixture.line()
        for scale in [1000.0, 400.0] {
            XCTAssertThrowsError(try Exporter.data(d, format: .png, options: ExportOptions(scale: scale))) { e in
                guard case RenderError.pageTooLarge(let m) = e else { return XCTFail("\(e)") }
                XCTAssertTrue(m.contains("limit"), m)
            }
        }
        for scale in [0.0, -1, .nan, .infinity] {
            XCTAssertThrowsError(try Exporter.data(d, format: .png, options: ExportOptions(scale: scale)))
        }
        var huge = d
        huge.pageSize = Size(width: 1e12, height: 1e12)
        for f in [ExportFormat.png, .pdf] { XCTAssertThrowsError(try Exporter.data(huge, format: f)) }
        huge.pageSize = Size(width: .nan, height: 10)
        for f in ExportFormat.allCases { XCTAssertThrowsError(try Exporter.data(huge, format: f)) }
    }

    func testInkFarOffThePageOrAtHugeCoordinatesLeavesThePageClean() throws {
        var d = Fixture.line()
        let style = StrokeStyle(color: .black, width: 4)
        d.insert(Stroke(id: 10, style: style, points: [InkPoint(x: 1e9, y: 1e9), InkPoint(x: -1e9, y: 1e9)]))
        d.insert(Stroke(id: 11, style: style, points: [InkPoint(x: -5000, y: -5000), InkPoint(x: -4000, y: -4000)]))
        d.insert(Stroke(id: 12, style: style, points: [InkPoint(x: -1e12, y: 50.5), InkPoint(x: 1e12, y: 80.5)]))
        let start = Date()
        let img = try Exporter.render(d)
        XCTAssertColor(img.pixel(x: 100, y: 50), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 100, y: 20), near: .white, tolerance: 0)
        // The 2·10¹² long line crosses the page where it should (y = 65.5 at x = 100), not wrapped around.
        XCTAssertColor(img.pixel(x: 100, y: 65), near: .black, tolerance: 10)
        XCTAssertColor(img.pixel(x: 100, y: 75), near: .white, tolerance: 0)
        for f in [ExportFormat.svg, .pdf] { XCTAssertFalse(try Exporter.data(d, format: f).isEmpty) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
    }

    func testUnwritablePathSaysWhy() {
        XCTAssertThrowsError(try Exporter.write(Fixture.line(), to: "/nonexistent-dir/x.png", format: .png)) { e in
            guard case RenderError.cannotWrite(let p, let reason) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(p, "/nonexistent-dir/x.png")
            XCTAssertTrue(reason.contains("No such file"), reason)
        }
    }
}
