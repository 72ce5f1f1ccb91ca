import Foundation
import InkCore
import InkSamples
@testable import InkRender
import XCTest

final class ScreenCacheTests: XCTestCase {
    let view = Size(width: 300, height: 200)
    /// Zoom 2, page origin at view (10, 20): page (x, y) → device (2x + 10, 2y + 20).
    let zoomed = ViewTransform(zoom: 2, offset: Point(10, 20))

    func testRenderMapsPageThroughTheViewTransform() throws {
        let cache = try ScreenCache(viewSize: view, transform: zoomed)
        cache.render(Fixture.line())
        XCTAssertEqual(cache.pixelWidth, 300); XCTAssertEqual(cache.pixelHeight, 200)
        XCTAssertColor(cache.pixel(x: 110, y: 120), near: Fixture.red)      // page (50, 50)
        XCTAssertColor(cache.pixel(x: 110, y: 150), near: .white, tolerance: 0) // page (50, 65): paper
        XCTAssertEqual(cache.pixel(x: 5, y: 100).a, 0)                        // left of the page: no paper
        XCTAssertEqual(cache.pixel(x: 100, y: 10).a, 0)                       // above the page
    }

    func testDeviceScaleDoublesPixelsNotPageArea() throws {
        let t = ViewTransform(zoom: 1, offset: Point(0, 0), deviceScale: 2)
        let cache = try ScreenCache(viewSize: view, transform: t)
        cache.render(Fixture.line())
        XCTAssertEqual(cache.pixelWidth, 600); XCTAssertEqual(cache.pixelHeight, 400)
        XCTAssertColor(cache.pixel(x: 200, y: 100), near: Fixture.red)
        XCTAssertEqual(t.pagePoint(fromView: t.viewPoint(fromPage: Point(3, 4))), Point(3, 4))
    }

    func testAZoomStepPaintsItsPreviewIntoTheRasterTheStepBeforeReplaced() throws {
        let d = SampleInk.drawing(strokes: 300, pointsPerStroke: 40, pageSize: Size(width: 300, height: 200), seed: 11)
        let t0 = ViewTransform(zoom: 1, offset: Point(0, 0))
        let t1 = t0.zoomed(by: 2, around: Point(150, 100)), t2 = t1.zoomed(by: 0.25, around: Point(150, 100))
        func exact(_ t: ViewTransform) throws -> ScreenCache {
            let c = try ScreenCache(viewSize: view, transform: t, overscan: 16)
            c.render(d)
            return c
        }
        let zoomedTwice = try exact(t0)
        try zoomedTwice.reproject(to: t1, viewSize: view)
        zoomedTwice.render(d)
        XCTAssertEqual(zoomedTwice.reusedRasters, 0, "the first step has no raster to reuse")
        let zoomedOnce = try exact(t1)
        // Zooming out: the preview covers the middle; the rest of the reused raster held the page at 100 %.
        try zoomedTwice.reproject(to: t2, viewSize: view)
        try zoomedOnce.reproject(to: t2, viewSize: view)
        XCTAssertEqual(zoomedTwice.reusedRasters, 1, "the second step paints into the raster the first replaced")
        XCTAssertEqual(zoomedOnce.reusedRasters, 0)
        var differing = 0, cleared = 0
        for y in -16..<216 { for x in -16..<316 {
            let p = zoomedTwice.pixel(x: x, y: y)
            if p != zoomedOnce.pixel(x: x, y: y) { differing += 1 }
            if p.a == 0 { cleared += 1 }
        } }
        XCTAssertEqual(differing, 0, "the same preview as in a new raster")
        XCTAssertGreaterThan(cleared, 332 * 232 / 2, "outside the preview the old picture is gone")
        // A resize: the raster of the old size is no use to the next step, which paints into a new one.
        XCTAssertTrue(zoomedTwice.holdsSpareRaster)
        try zoomedTwice.reproject(to: t1, viewSize: Size(width: 200, height: 150))
        XCTAssertFalse(zoomedTwice.holdsSpareRaster, "no raster of another size is held")
        try zoomedTwice.reproject(to: t2, viewSize: Size(width: 200, height: 150))
        XCTAssertEqual(zoomedTwice.reusedRasters, 1)
        try zoomedTwice.reproject(to: t1, viewSize: Size(width: 200, height: 150))
        XCTAssertEqual(zoomedTwice.reusedRasters, 2)
        // No preview wanted (a small drawing repaints): the reused raster is left as transparent as a new one.
        try zoomedTwice.reproject(to: t2, viewSize: Size(width: 200, height: 150)) { false }
        XCTAssertEqual(zoomedTwice.reusedRasters, 3)
        var left = 0
        for y in -16..<166 { for x in -16..<216 where zoomedTwice.pixel(x: x, y: y).a != 0 { left += 1 } }
        XCTAssertEqual(left, 0, "nothing of an old picture is left without a preview")
    }

    func testMemoryIsBoundedByTheViewportAtAnyZoom() throws {
        let cache = try ScreenCache(viewSize: view, transform: ViewTransform(zoom: 500, offset: Point(-20_000, -20_000)))
        cache.render(Fixture.line())
        XCTAssertEqual(cache.pixelWidth * cache.pixelHeight, 300 * 200)
        XCTAssertColor(cache.pixel(x: 150, y: 100), near: .white, tolerance: 0) // page (40.3, 40.2): paper
        XCTAssertThrowsError(try ScreenCache(viewSize: Size(width: 1e9, height: 10), transform: .identity))
        XCTAssertThrowsError(try ScreenCache(viewSize: view, transform: ViewTransform(zoom: 0)))
    }

    func testBakeDrawsOnlyTheNewStroke() throws {
        var d = Fixture.line()
        let cache = try ScreenCache(viewSize: view, transform: zoomed)
        cache.render(d)
        let blue = RGBA(r: 0, g: 0, b: 255)
        let s = Stroke(id: 9, style: StrokeStyle(color: blue, width: 6), points: [InkPoint(x: 100, y: 10), InkPoint(x: 100, y: 90)])
        d.insert(s)
        cache.bake(s)
        XCTAssertColor(cache.pixel(x: 210, y: 60), near: blue)               // page (100, 20)
        XCTAssertColor(cache.pixel(x: 110, y: 120), near: Fixture.red)        // the old line is still there
        XCTAssertColor(cache.pixel(x: 250, y: 60), near: .white, tolerance: 0)
    }

    func testInvalidateRepaintsOnlyThatRegionFromTheDrawing() throws {
        var d = Fixture.line()
        let vertical = Stroke(id: 2, style: StrokeStyle(color: .black, width: 6), points: [InkPoint(x: 100, y: 10), InkPoint(x: 100, y: 90)])
        d.insert(vertical)
        let cache = try ScreenCache(viewSize: view, transform: zoomed)
        cache.render(d)
        XCTAssertColor(cache.pixel(x: 210, y: 60), near: .black)
        // Undo the vertical stroke: repaint its area only. The red line crossing that area is redrawn from the index.
        d.remove(2)
        cache.invalidate(vertical.inkBounds, in: d)
        XCTAssertColor(cache.pixel(x: 210, y: 60), near: .white, tolerance: 0)
        XCTAssertColor(cache.pixel(x: 210, y: 120), near: Fixture.red)        // page (100, 50), inside the region
        XCTAssertColor(cache.pixel(x: 60, y: 120), near: Fixture.red)         // outside the region, untouched
        // A region edit leaves pixels outside it alone, even if the drawing says otherwise.
        d.remove(1)
        cache.invalidate(Rect(x: 0, y: 0, width: 40, height: 100), in: d)
        XCTAssertColor(cache.pixel(x: 60, y: 120), near: .white, tolerance: 0)  // page (25, 50): repainted
        XCTAssertColor(cache.pixel(x: 250, y: 120), near: Fixture.red)        // page (120, 50): not in the region
    }

    func testFrameRenderedOffThreadMatchesSynchronousRender() throws {
        let d = SampleInk.drawing(strokes: 150, pointsPerStroke: 50, pageSize: Size(width: 300, height: 200), seed: 5)
        let sync = try ScreenCache(viewSize: view, transform: .identity)
        sync.render(d)
        let done = expectation(description: "frame")
        final class Box: @unchecked Sendable { var frame: ScreenCache.Frame? }
        let box = Box()
        let size = view
        DispatchQueue.global().async {
            box.frame = try? ScreenCache.renderFrame(d, viewSize: size, transform: .identity)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        let frame = box.frame
        let cache = try ScreenCache(viewSize: view, transform: zoomed)
        cache.install(try XCTUnwrap(frame))
        XCTAssertEqual(cache.transform, .identity)
        var checked = 0
        for y in Swift.stride(from: 0, to: 200, by: 7) {
            for x in Swift.stride(from: 0, to: 300, by: 7) { XCTAssertEqual(cache.pixel(x: x, y: y), sync.pixel(x: x, y: y)); checked += 1 }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    /// Composites the cache with its live strokes the way the GTK draw function does.
    func composite(_ cache: ScreenCache) throws -> ImageSurface {
        let out = try ImageSurface(width: cache.pixelWidth, height: cache.pixelHeight)
        cache.draw(into: CairoContext(drawingInto: out))
        return out
    }

    func testLiveStrokeAppearsSegmentBySegmentAndLeavesWhenFinished() throws {
        let d = Drawing(pageSize: Size(width: 300, height: 200))
        let cache = try ScreenCache(viewSize: view, transform: .identity)
        cache.render(d)
        var live = Stroke(id: 1, style: StrokeStyle(color: Fixture.red, width: 8))
        live.append(InkPoint(x: 20, y: 100))
        cache.updateLive([live])
        XCTAssertColor(try composite(cache).pixel(x: 20, y: 100), near: Fixture.red) // a tap shows a dot at once
        for x in Swift.stride(from: 24.0, through: 200, by: 4) {
            live.append(InkPoint(x: x, y: 100))
            cache.updateLive([live])
        }
        let img = try composite(cache)
        for x in [30, 100, 150, 199] { XCTAssertColor(img.pixel(x: x, y: 100), near: Fixture.red, "at x=\(x)") }
        XCTAssertColor(img.pixel(x: 100, y: 120), near: .white, tolerance: 0)
        XCTAssertColor(cache.pixel(x: 100, y: 100), near: .white, tolerance: 0)  // not in the finished raster
        // Pen-up: bake, then the live layer goes.
        cache.bake(live)
        cache.updateLive([])
        XCTAssertColor(cache.pixel(x: 100, y: 100), near: Fixture.red)
        // Cancel instead: nothing remains.
        let cancelled = try ScreenCache(viewSize: view, transform: .identity)
        cancelled.render(d)
        cancelled.updateLive([live])
        cancelled.updateLive([])
        XCTAssertColor(try composite(cancelled).pixel(x: 100, y: 100), near: .white, tolerance: 0)
        // The next strokes reuse recycled layers: none of the old ink may show through.
        var next = Stroke(id: 2, style: StrokeStyle(color: .black, width: 4))
        next.append(InkPoint(x: 20, y: 20)); next.append(InkPoint(x: 60, y: 20))
        var third = Stroke(id: 3, style: StrokeStyle(color: .black, width: 4))
        third.append(InkPoint(x: 20, y: 180)); third.append(InkPoint(x: 60, y: 180))
        cancelled.updateLive([next, third])
        let again = try composite(cancelled)
        XCTAssertColor(again.pixel(x: 100, y: 100), near: .white, tolerance: 0)
        XCTAssertColor(again.pixel(x: 150, y: 100), near: .white, tolerance: 0)
    }

    /// The app shows the live ink in a widget of its own sized to `liveArea`: drawn apart, the live ink puts no
    /// pixel outside that area (a stroke drawn segment by segment and a dashed one drawn whole, at device scale 2),
    /// and the finished raster with the live ink over it is what `draw` composites.
    func testLiveInkDrawnApartStaysInsideItsAreaAndAddsUpToTheWhole() throws {
        let t = ViewTransform(zoom: 1.5, offset: Point(-20, 10), deviceScale: 2)
        let cache = try ScreenCache(viewSize: view, transform: t, overscan: 16)
        let page = Fixture.line(color: .black, width: 3)
        cache.render(page)
        XCTAssertNil(cache.liveArea, "nothing live")
        var pen = Stroke(id: 1, style: StrokeStyle(color: Fixture.red, width: 6))
        var dashed = Stroke(id: 2, style: StrokeStyle(color: .black, width: 2, line: .dash))
        for k in 0...40 {
            let x = 40 + Double(k) * 3
            pen.append(InkPoint(x: x, y: 60 + 20 * sin(Double(k) / 5)))
            if k % 4 == 0 { dashed.append(InkPoint(x: 150, y: 40 + Double(k) * 2)) }
            cache.updateLive([pen])
        }
        let area = try XCTUnwrap(cache.liveArea)
        let (w, h) = (cache.pixelWidth, cache.pixelHeight)
        let alone = try ImageSurface(width: w, height: h)
        let live = CairoContext(drawingInto: alone)
        live.scale(2, 2)   // the widget's logical pixels, as GTK's context gives them
        cache.drawLive(into: live)
        var inked = 0
        for y in 0..<h {
            for x in 0..<w where alone.pixel(x: x, y: y).a > 0 {
                inked += 1
                XCTAssertTrue(area.contains(Point(Double(x) + 0.5, Double(y) + 0.5)), "live ink at (\(x), \(y)) outside \(area)")
            }
        }
        XCTAssertGreaterThan(inked, 500, "the live stroke is drawn")
        XCTAssertLessThan(area.width * area.height, Double(w * h) / 2, "the area is the stroke's box, not the view")
        // A dashed stroke is drawn whole: it may reach anywhere in the raster.
        cache.updateLive([pen, dashed])
        XCTAssertEqual(cache.liveArea, cache.bounds)
        XCTAssertFalse(cache.liveMultiplies, "pen ink drawn apart looks the same over the raster")
        var marker = dashed
        marker.id = 3
        marker.style = StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 12, line: .dash)
        cache.updateLive([pen, marker])
        XCTAssertTrue(cache.liveMultiplies, "a highlighter drawn whole multiplies the raster: one picture")
        cache.updateLive([pen, dashed])
        let whole = try ImageSurface(width: w, height: h), apart = try ImageSurface(width: w, height: h)
        let a = CairoContext(drawingInto: whole), b = CairoContext(drawingInto: apart)
        a.scale(2, 2); b.scale(2, 2)
        cache.draw(into: a)
        cache.drawFinished(into: b)
        cache.drawLive(into: b)
        func pixels(_ s: ImageSurface) -> [RGBA] { (0..<h).flatMap { y in (0..<w).map { s.pixel(x: $0, y: y) } } }
        XCTAssertEqual(pixels(whole), pixels(apart), "finished, then live over it, is the whole picture")
        let finishedOnly = try ImageSurface(width: w, height: h)
        let f = CairoContext(drawingInto: finishedOnly)
        f.scale(2, 2)
        cache.drawFinished(into: f)
        XCTAssertNotEqual(pixels(whole), pixels(finishedOnly), "the live ink is in the whole picture")
    }

    /// After a pan the app composites the raster moved, without shifting it: the view shown lies beside the cache's
    /// view. A stroke drawn where the pan uncovered must show whole while it is drawn, not be cut off at the
    /// edge of the cache's view (it was: the live layer covered the cache's view only).
    func testLiveInkFillsTheViewShownAfterAPanTheRasterWasNotShiftedFor() throws {
        let cache = try ScreenCache(viewSize: view, transform: .identity, overscan: 128)
        cache.render(Drawing(pageSize: Size(width: 800, height: 400)))
        // The view shown is 100 px to the right of the cache's: view x 0..<300 is the cache's 100..<400.
        let shown = Point(100, 0)
        var pen = Stroke(id: 1, style: StrokeStyle(color: Fixture.red, width: 6))
        for k in 0...60 {
            pen.append(InkPoint(x: 120 + Double(k) * 4, y: 100))
            cache.updateLive([pen], shownAt: shown)
        }
        let area = try XCTUnwrap(cache.liveArea)
        XCTAssertGreaterThan(area.maxX, 355, "the live area reaches the stroke's end, in the cache's view pixels")
        // What the app's live-ink widget shows: the cache's view placed 100 px left.
        let out = try ImageSurface(width: 300, height: 200)
        let c = CairoContext(drawingInto: out)
        c.translate(-shown.x, -shown.y)
        cache.drawLive(into: c)
        // Page x 120...360 is view x 20...260 in the view shown; its right part lies beyond the cache's view (x ≥ 300).
        for x in [30, 150, 210, 250] { XCTAssertColor(out.pixel(x: x, y: 100), near: Fixture.red, "at view x=\(x)") }
        XCTAssertEqual(out.pixel(x: 280, y: 100).a, 0, "nothing beyond the stroke's end")
        // Finished, it is in the raster, overscan included, at the same place.
        cache.bake(pen)
        cache.updateLive([], shownAt: shown)
        XCTAssertColor(cache.pixel(x: 350, y: 100), near: Fixture.red)
    }

    func testLiveHighlighterIsFlatWhereItCrossesItself() throws {
        let cache = try ScreenCache(viewSize: view, transform: .identity)
        cache.render(Drawing(pageSize: Size(width: 300, height: 200)))
        var live = Stroke(id: 1, style: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 16))
        for i in 0...80 {
            let t = Double(i) / 80 * 2 * Double.pi
            live.append(InkPoint(x: 150 + 80 * sin(t), y: 100 + 40 * sin(2 * t)))
            cache.updateLive([live])
        }
        let img = try composite(cache)
        try img.writePNG(to: Fixture.tempPath("live-highlighter.png"))
        let single = img.pixel(x: 230, y: 100), crossing = img.pixel(x: 150, y: 100)
        XCTAssertLessThan(single.b, 200, "highlighter should be visible")
        XCTAssertColor(crossing, near: single, tolerance: 2, "live highlighter must not darken where it overlaps")
    }

    /// A filled, dashed stroke being drawn looks as it will once finished: the fill inside, gaps between dashes.
    func testLiveFilledDashedStrokeIsDrawnAsTheFinishedOne() throws {
        let page = Drawing(pageSize: Size(width: 300, height: 200))
        var live = Stroke(id: 1, style: StrokeStyle(color: .black, width: 2, trace: .polyline, fill: 128, line: .dash))
        for p in [(40.0, 40.0), (260.0, 40.0), (260.0, 160.0), (40.0, 160.0), (40.0, 40.0)] { live.append(InkPoint(x: p.0, y: p.1)) }
        let cache = try ScreenCache(viewSize: view, transform: .identity)
        cache.render(page)
        cache.updateLive([live])
        let drawing = try composite(cache)
        let finished = try ScreenCache(viewSize: view, transform: .identity)
        finished.render(page)
        finished.bake(live)
        let inside = drawing.pixel(x: 150, y: 100)
        XCTAssertEqual(Double(inside.r), 127, accuracy: 10, "filled at half alpha while drawn: \(inside)")
        // Along the top side: dashes (6 on, 3 off, the round caps taking 1 from each gap) and the gaps between.
        let row = (50...250).map { drawing.pixel(x: $0, y: 39) }
        XCTAssertGreaterThan(row.filter { $0.r < 80 }.count, 100, "dashes")
        XCTAssertGreaterThan(row.filter { $0.r > 200 }.count, 10, "gaps")
        // The same dashes in the same places as the finished raster, whose rasterizer antialiases an edge up to a
        // pixel apart from cairo's (as for any stroke drawn whole live): ink beside ink, paper beside paper.
        for y in [39, 40, 100, 160] {
            for x in 30...270 {
                let live = Int(drawing.pixel(x: x, y: y).r), around = (x - 1...x + 1).map { Int(finished.pixel(x: $0, y: y).r) }
                if live < 60 { XCTAssertLessThan(around.min() ?? 255, 128, "ink at (\(x), \(y)) live, not when finished") }
                if live > 200 { XCTAssertGreaterThan(around.max() ?? 0, 128, "paper at (\(x), \(y)) live, not when finished") }
            }
        }
    }

    func testManyFingersAllShowAndEndCleanly() throws {
        let cache = try ScreenCache(viewSize: view, transform: .identity)
        cache.render(Drawing(pageSize: Size(width: 300, height: 200)))
        var fingers: [Stroke] = []
        for k in 0..<10 {
            var s = Stroke(id: StrokeID(k + 1), style: StrokeStyle(color: .black, width: 6))
            for x in Swift.stride(from: 20.0, through: 120, by: 5) { s.append(InkPoint(x: x, y: 10 + Double(k) * 18)) }
            fingers.append(s)
        }
        cache.updateLive(fingers)
        let img = try composite(cache)
        for k in 0..<10 { XCTAssertColor(img.pixel(x: 70, y: 10 + k * 18), near: .black, tolerance: 10, "finger \(k)") }
        cache.updateLive([])
        let after = try composite(cache)
        for k in 0..<10 { XCTAssertColor(after.pixel(x: 70, y: 10 + k * 18), near: .white, tolerance: 0, "finger \(k) gone") }
    }

    func testViewTransformZoomKeepsTheAnchor() {
        let t = ViewTransform(zoom: 1.5, offset: Point(30, -10))
        let anchor = Point(120, 80)
        let z = t.zoomed(by: 2, around: anchor)
        XCTAssertEqual(z.zoom, 3)
        let before = t.pagePoint(fromView: anchor), after = z.pagePoint(fromView: anchor)
        XCTAssertEqual(before.x, after.x, accuracy: 1e-9); XCTAssertEqual(before.y, after.y, accuracy: 1e-9)
    }
}
