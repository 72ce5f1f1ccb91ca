import Foundation
import InkCore
import InkSamples
@testable import InkRender
import InkStore
import XCTest

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

    /// A streamed file's ink comes as point columns, never built into strokes: the thumbnail is the same, pixel for
    /// pixel, as the one drawn from the strokes the same file loads as (moved and turned ink, a highlighter,
    /// repeated points, a removed stroke, two runs).
    func testStreamedColumnsDrawTheSamePixelsAsTheLoadedStrokes() throws {
        let sample = SampleInk.drawing(strokes: 400, pointsPerStroke: 80, seed: 5)
        var strokes = sample.strokes
        strokes[3].setTransform(.rotation(degrees: 30, about: Point(900, 500)))
        strokes[7].setTransform(.translation(120, -40))
        strokes[11].style = StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 30)
        // A wide pen stroke ending on a repeat with another pressure, just past a point a spacing away from its end;
        // and a repeat inside it. Points closer than the file's 1/20 unit repeat once stored, and a loaded `Stroke`
        // keeps the first of them, so its end is drawn with that one's width.
        let p = strokes[20].points
        let endX = (p.last!.x * 20).rounded() / 20 + 0.5, endY = (p.last!.y * 20).rounded() / 20
        strokes[20] = Stroke(id: strokes[20].id, style: StrokeStyle(tool: .pen, color: .black, width: 40),
                             points: Array(p[..<40]) + [InkPoint(x: p[39].x + 0.001, y: p[39].y, pressure: 1)] + Array(p[40...])
                                 + [InkPoint(x: endX, y: endY, pressure: 1), InkPoint(x: endX + 0.001, y: endY, pressure: 0.05)])
        let path = Fixture.tempPath("columns.oekaki")
        let file = try DocumentFile.create(path: path, drawing: Drawing(pageSize: sample.pageSize, background: sample.background, strokes: strokes))
        // Erased: its row stays for undo, and is read but not drawn.
        try file.commit([.did(.remove([strokes[30]]))])
        file.close()

        let stream = try StrokeStream.open(path: path)
        defer { stream.close() }
        let runs = try stream.runs(2)
        XCTAssertEqual(runs.count, 2)
        let frame = Rect(x: 0, y: 0, width: stream.pageSize.width, height: stream.pageSize.height)
        let streamed = try Thumbnail.render(frame: frame, background: stream.background,
                                            inkRuns: runs.map { run in { ink, other in try stream.forEachStroke(in: run, ink: ink, other: other) } },
                                            size: 256)
        let loaded = try Thumbnail.render(frame: frame, background: stream.background,
                                          runs: runs.map { run in { draw in try stream.forEachStroke(in: run, draw) } }, size: 256)
        var inked = 0, differing: [String] = []
        for y in 0..<256 {
            for x in 0..<256 {
                let a = streamed.pixel(x: x, y: y), b = loaded.pixel(x: x, y: y)
                if [a.r, a.g, a.b, a.a] != [b.r, b.g, b.b, b.a] { differing.append("(\(x), \(y)): \(a) vs \(b)") }
                if a.a == 255, a.r < 200 || a.g < 200 || a.b < 200 { inked += 1 }
            }
        }
        XCTAssertEqual(differing.count, 0, "first: \(differing.prefix(3))")
        XCTAssertGreaterThan(inked, 2000, "there is ink to compare")
    }
}
