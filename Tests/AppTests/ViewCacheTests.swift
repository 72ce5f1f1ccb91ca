import InkCore
import InkSamples
import InkRender
@testable import OekakiApp
import XCTest

/// The canvas's responsive pan and zoom (no display needed): shifting the cached picture and pasting
/// patches rendered at any earlier pan must give exactly the pixels of a fresh render of the new view.
final class ViewCacheTests: XCTestCase {
    let view = Size(width: 320, height: 240)
    lazy var drawing = SampleInk.drawing(strokes: 400, pointsPerStroke: 12, pageSize: Size(width: 700, height: 500), seed: 5)

    func fresh(_ t: ViewTransform) throws -> ScreenCache {
        let c = try ScreenCache(viewSize: view, transform: t)
        c.render(drawing)
        return c
    }

    /// Pixels that differ between two rasters of one size by more than `tolerance` in some channel.
    /// A pixel or two along a patch's edge can differ by a few levels (cairo's rasterizer is not exactly
    /// translation-invariant in its last bit); anything more is a misplaced or missing stroke.
    func differences(_ a: ScreenCache, _ b: ScreenCache, tolerance: Int = 16) -> Int {
        XCTAssertEqual(a.pixelWidth, b.pixelWidth)
        XCTAssertEqual(a.pixelHeight, b.pixelHeight)
        var n = 0
        for y in 0..<min(a.pixelHeight, b.pixelHeight) {
            for x in 0..<min(a.pixelWidth, b.pixelWidth) {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = [Int(p.r) - Int(q.r), Int(p.g) - Int(q.g), Int(p.b) - Int(q.b), Int(p.a) - Int(q.a)].map(abs).max() ?? 0
                if d > tolerance { n += 1 }
            }
        }
        return n
    }

    /// Same picture up to the few fringe pixels where any two renders cut into different bands disagree
    /// (BandRenderer does that too: 3–6 pixels here); a misplaced or missing strip differs in hundreds.
    func assertSamePicture(_ a: ScreenCache, _ b: ScreenCache, _ message: String = "", line: UInt = #line) {
        let n = differences(a, b)
        XCTAssertLessThanOrEqual(n, 12, "\(n) pixels differ \(message)", line: line)
    }

    func inkedPixels(_ c: ScreenCache) -> Int {
        var n = 0
        for y in 0..<c.pixelHeight { for x in 0..<c.pixelWidth where c.pixel(x: x, y: y).a > 0 { n += 1 } }
        return n
    }

    func testPansShiftThePictureAndRenderOnlyTheUncoveredStripsExactly() throws {
        for scale in [1.0, 2.0] {
            var t = ViewTransform(zoom: 1.3, offset: Point(-40, -30), deviceScale: scale)
            let cache = try fresh(t)
            XCTAssertGreaterThan(inkedPixels(cache), 1000, "the sample drawing covers the view")
            // Small and large pans both ways, one wider than the view.
            for step in [Point(37, -23), Point(-5, 0), Point(0, 61), Point(-90, -40), Point(400, 10), Point(-12.5, 7.5)]
            where (step.x * scale).rounded() == step.x * scale {
                t = t.panned(by: step)
                let exposed = try XCTUnwrap(cache.scroll(to: t), "a whole-device-pixel pan is a shift")
                XCTAssertFalse(exposed.isEmpty)
                let uncovered = exposed.reduce(0.0) { $0 + $1.width * $1.height }
                let whole = Double(cache.pixelWidth * cache.pixelHeight)
                XCTAssertLessThanOrEqual(uncovered, whole)
                if abs(step.x) * scale < Double(cache.pixelWidth) / 2, abs(step.y) * scale < Double(cache.pixelHeight) / 2 {
                    XCTAssertLessThan(uncovered, whole * 0.75, "a small pan leaves most of the picture in place")
                }
                for r in exposed { cache.paste(try ScreenCache.renderPatch(drawing, area: r, transform: t)) }
                assertSamePicture(cache, try fresh(t), "after panning by \(step) at scale \(scale)")
            }
        }
    }

    func testAnOverscannedCacheShowsTheSameViewAndSmallPansUncoverOnlyItsMargin() throws {
        var t = ViewTransform(zoom: 1.3, offset: Point(-40, -30))
        let cache = try ScreenCache(viewSize: view, transform: t, overscan: 64)
        cache.render(drawing)
        XCTAssertEqual(cache.pixelWidth, 320, "the view keeps its size; the margin is extra")
        assertSamePicture(cache, try fresh(t), "overscan changes nothing inside the view")
        for step in [Point(37, -23), Point(-50, 0), Point(0, 61), Point(-200, -150)] {
            t = t.panned(by: step)
            let exposed = try XCTUnwrap(cache.scroll(to: t))
            if abs(step.x) <= 64, abs(step.y) <= 64 {
                XCTAssertTrue(exposed.allSatisfy { !$0.overlaps(cache.viewBounds) }, "a pan within the margin uncovers only margin: \(exposed)")
                assertSamePicture(cache, try fresh(t), "the view is exact before anything renders (pan \(step))")
            }
            for r in exposed { cache.paste(try ScreenCache.renderPatch(drawing, area: r, transform: t)) }
            assertSamePicture(cache, try fresh(t), "after pan \(step) and its patches")
        }
        // A zoom keeps a preview and patches over the whole raster (margin included) make it exact.
        let z = t.zoomed(by: 1.5, around: Point(100, 80))
        try cache.reproject(to: z, viewSize: view)
        let b = cache.bounds
        XCTAssertEqual(b.minX, -64)
        cache.paste(try ScreenCache.renderPatch(drawing, area: b, transform: z))
        assertSamePicture(cache, try fresh(z), "after a zoom in an overscanned cache")
    }

    func testAFractionalPanIsNotAShift() throws {
        let t = ViewTransform(zoom: 1, offset: Point(0, 0))
        let cache = try fresh(t)
        XCTAssertNil(cache.scroll(to: t.panned(by: Point(0.4, 0))))
        XCTAssertNil(cache.scroll(to: ViewTransform(zoom: 1.1, offset: Point(0, 0))), "another zoom is not a shift")
        XCTAssertEqual(cache.transform, t, "a refused shift leaves the view alone")
    }

    func testPatchesRenderedBeforeAPanLandInTheRightPlace() throws {
        let t0 = ViewTransform(zoom: 0.8, offset: Point(10, 5))
        let cache = try ScreenCache(viewSize: view, transform: t0)
        // Nothing rendered yet (a large file just opened): two patches are in flight while the user pans.
        let top = Rect(minX: 0, minY: 0, maxX: 320, maxY: 120), bottom = Rect(minX: 0, minY: 120, maxX: 320, maxY: 240)
        let early = try ScreenCache.renderPatch(drawing, area: top, transform: t0)
        let t1 = t0.panned(by: Point(-30, 20))
        var stale = try XCTUnwrap(cache.scroll(to: t1))
        let landed = try XCTUnwrap(cache.paste(early), "a patch from before a pan still fits the pixel grid")
        XCTAssertEqual(landed, Rect(minX: 0, minY: 20, maxX: 290, maxY: 140))
        // What is still missing: the strips the pan uncovered, and the bottom band (moved by the pan).
        stale.append(bottom.offsetBy(Point(-30, 20)))
        for r in stale {
            guard let clipped = r.intersection(cache.bounds) else { continue }
            cache.paste(try ScreenCache.renderPatch(drawing, area: clipped, transform: t1))
        }
        assertSamePicture(cache, try fresh(t1))
        // A patch rendered at another zoom is refused.
        XCTAssertNil(cache.paste(try ScreenCache.renderPatch(drawing, area: top, transform: ViewTransform(zoom: 2))))
    }

    func testZoomKeepsTheOldPictureScaledUntilPatchesReplaceIt() throws {
        let t0 = ViewTransform(zoom: 1, offset: Point(0, 0))
        let cache = try fresh(t0)
        let before = inkedPixels(cache)
        let t1 = t0.zoomed(by: 2, around: Point(160, 120))
        // The app starts rendering the new view from `beforePreview`: the cache must already be at it then.
        var atStart: ViewTransform?
        try cache.reproject(to: t1, viewSize: view) { atStart = cache.transform; return true }
        XCTAssertEqual(atStart, t1)
        XCTAssertEqual(cache.transform, t1)
        XCTAssertGreaterThan(inkedPixels(cache), before / 2, "the preview is the old picture scaled, never blank")
        XCTAssertGreaterThan(differences(cache, try fresh(t1)), 100, "the preview is only an approximation")
        for y in stride(from: 0, to: cache.pixelHeight, by: 100) {
            let area = Rect(minX: 0, minY: Double(y), maxX: Double(cache.pixelWidth), maxY: Double(min(y + 100, cache.pixelHeight)))
            cache.paste(try ScreenCache.renderPatch(drawing, area: area, transform: t1))
        }
        assertSamePicture(cache, try fresh(t1), "once patches replace the whole preview")
    }

    func testARectWithoutAHoleIsTheBandsAroundIt() {
        let r = Rect(minX: 0, minY: 0, maxX: 100, maxY: 80)
        let parts = r.subtracting(Rect(minX: 10, minY: 20, maxX: 60, maxY: 50))
        XCTAssertEqual(parts.reduce(0) { $0 + $1.width * $1.height }, 100 * 80 - 50 * 30, "the bands cover exactly the rest")
        for (i, a) in parts.enumerated() { for b in parts[(i + 1)...] { XCTAssertNil(a.intersection(b).flatMap { $0.width * $0.height > 0 ? $0 : nil }) } }
        XCTAssertEqual(r.subtracting(r), [], "nothing is left of a rect without itself")
        XCTAssertEqual(r.subtracting(Rect(minX: 0, minY: 0, maxX: 100, maxY: 60)), [Rect(minX: 0, minY: 60, maxX: 100, maxY: 80)])
    }
}
