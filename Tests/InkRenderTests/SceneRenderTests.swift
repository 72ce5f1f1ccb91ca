import Foundation
import InkCore
import InkSamples
@testable import InkRender
import XCTest

/// The scene renderer shapes each stroke once and lets every band it meets fill that one outline, in bands cut
/// by where the work is; the pixels must be exactly one surface's, on every page (each on the view's lattice),
/// and a cancelled render must stop without a frame.
final class SceneRenderTests: XCTestCase {
    /// Two stacked pages (ruled paper on the second) full of strokes crossing band boundaries, ink clipped to
    /// each page; a text box across band boundaries among the strokes of the second.
    private func scene(mapping: DeviceMapping, width: Int, height: Int) -> Scene {
        let ink = BandSeamTests.seamDrawing(width: width, height: height / 2, mapping: mapping)
        let size = ink.pageSize
        let box = TextBox(text: "Shaped once, filled by every band. " + String(repeating: "Text ", count: 12), size: 28,
                          color: RGBA(r: 20, g: 40, b: 200), width: size.width * 0.8)
        // In the middle of the drawing order: strokes after it are drawn over it.
        let n = StrokeID(ink.strokes.count)
        let text = Stroke(id: n + 1, content: .text(box), frame: Rect(x: 20, y: 30, width: size.width * 0.8, height: TextPainter.measure(box).height),
                          order: n / 2)
        var second = ink
        second.insert(text)
        let doc = Document(pages: [Page(id: 1, format: .fixed(size), drawing: ink),
                                   Page(id: 2, format: .fixed(size, Background(style: .ruled)), drawing: second)])
        return Scene(document: doc, layout: PageLayout(document: doc, current: 0))
    }

    /// The whole surface painted at once by `SheetPainter.paint`, each stroke shaped where it is met, on the
    /// view's lattice as a screen cache paints it.
    private func oneSurface(_ scene: Scene, width: Int, height: Int, mapping: DeviceMapping) throws -> ImageSurface {
        let s = try ImageSurface(width: width, height: height)
        s.fillRows(0, height, with: nil)
        let ctx = CairoContext(drawingInto: s)
        ctx.latticeRow = mapping.latticeRow
        SheetPainter.paint(scene, in: ctx, mapping: mapping, area: Rect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height)))
        s.markDirty()
        return s
    }

    func testShapingEachStrokeOnceKeepsEveryPixel() throws {
        for (mapping, width, height) in [(DeviceMapping(scale: 1.15, dx: -88.5, dy: -52.5), 700, 900),
                                         (DeviceMapping(scale: 2, dx: 5, dy: -41.5), 500, 700)] {
            let scene = scene(mapping: mapping, width: width, height: height)
            XCTAssertGreaterThan(BandRenderer.bandEdges(height: height, mapping: mapping).count, 3)
            let once = try ImageSurface(width: width, height: height)
            XCTAssertTrue(SheetPainter.render(scene, into: once, mapping: mapping))
            let reference = try oneSurface(scene, width: width, height: height, mapping: mapping)
            var differing = 0, inked = 0
            for y in 0..<height {
                for x in 0..<width {
                    let p = once.pixel(x: x, y: y)
                    if p != reference.pixel(x: x, y: y) { differing += 1 }
                    if p.a > 0, p != .white { inked += 1 }
                }
            }
            XCTAssertEqual(differing, 0, "at scale \(mapping.scale)")
            // Ink, paper and rules really are there (a blank picture would pass trivially).
            XCTAssertGreaterThan(inked, width * height / 20)
        }
    }

    func testACancelledRenderStopsWithoutAFrame() throws {
        let d = SampleInk.drawing(strokes: 2_000, pointsPerStroke: 50, seed: 3)
        let area = Rect(minX: 0, minY: 0, maxX: 400, maxY: 300)
        let cancel = RenderCancellation()
        XCTAssertNotNil(try ScreenCache.renderPatch(Scene(d), area: area, transform: .identity, cancel: cancel))
        cancel.cancel()
        XCTAssertTrue(cancel.isCancelled)
        XCTAssertNil(try ScreenCache.renderPatch(Scene(d), area: area, transform: .identity, cancel: cancel))
    }
}
