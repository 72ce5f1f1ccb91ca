import InkCore
import XCTest
@testable import InkRender

/// The thumbnail's own rasterizer draws the picture the full renderer draws at the same scale (up to its coarser
/// point spacing and antialiasing), centred in the square with transparent margins.
final class ThumbnailTests: XCTestCase {
    func testThumbnailMatchesTheFullRendererAtThumbnailScale() throws {
        let drawing = SampleInk.drawing(strokes: 300, seed: 7)
        let size = 256
        let thumb = try Thumbnail.render(pageSize: drawing.pageSize, background: drawing.background,
                                         runs: LayeredExport.runs(of: drawing, count: 2), size: size)
        let scale = Double(size) / 1920
        let full = try LayeredExport.render(pageSize: drawing.pageSize, background: drawing.background,
                                            runs: LayeredExport.runs(of: drawing, count: 1), scale: scale)
        XCTAssertEqual(full.width, 256)
        let top = (size - full.height) / 2   // 144 px of page: 56 px margins
        XCTAssertEqual(top, 56)
        var diff = 0, inked = 0, far = 0
        for y in 0..<full.height {
            for x in 0..<full.width {
                let a = thumb.pixel(x: x, y: y + top), b = full.pixel(x: x, y: y)
                let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                diff += d
                if b.r < 200 || b.g < 200 || b.b < 200 { inked += 1 }
                if d > 128 { far += 1 }
            }
        }
        let pixels = full.width * full.height
        XCTAssertGreaterThan(inked, pixels / 10, "the sample has ink to compare")
        XCTAssertLessThan(Double(diff) / Double(pixels), 12, "mean channel difference per pixel")
        XCTAssertLessThan(far, pixels / 50, "few pixels differ a lot (\(far))")
        for y in [0, 30, 55, 200, 255] {
            XCTAssertEqual(thumb.pixel(x: 128, y: y).a, 0, "transparent outside the page at row \(y)")
        }
        XCTAssertEqual(thumb.pixel(x: 0, y: 100).a, 255, "the page reaches the square's sides")
    }

    func testAHighlighterStaysFlatWhereItCrossesItself() throws {
        // A loop crossing itself: one flat translucent coverage, as the export draws it.
        var drawing = Drawing(pageSize: Size(width: 100, height: 100))
        let loop = [(20.0, 50.0), (80.0, 50.0), (80.0, 20.0), (50.0, 20.0), (50.0, 80.0)].map { InkPoint(x: $0.0, y: $0.1, pressure: 0.5, time: 0) }
        drawing.insert(Stroke(id: 1, style: StrokeStyle(tool: .highlighter, color: RGBA(r: 255, g: 0, b: 0, a: 128), width: 10), points: loop))
        let thumb = try Thumbnail.render(pageSize: drawing.pageSize, background: .white, runs: LayeredExport.runs(of: drawing, count: 1), size: 100)
        let crossing = thumb.pixel(x: 50, y: 50), single = thumb.pixel(x: 35, y: 50)
        XCTAssertEqual(Int(crossing.g), Int(single.g), accuracy: 3, "no darker where it crosses itself")
        XCTAssertLessThan(single.g, 200, "the highlighter is there")
    }
}
