import Foundation
import InkCore
import InkRender
import XCTest

/// The screen cache at extreme views: its raster stays the size of the viewport whatever the zoom (from the
/// whole page in a pixel to a pixel filling the screen many times over), rendering, baking, invalidating and
/// live strokes finish quickly, and resident memory does not follow the zoom.
final class RobustnessScreenCacheTests: XCTestCase {
    let view = Size(width: 400, height: 300)

    /// Page-sized strokes, a dot, a stroke far off the page and one at the coordinate limit.
    func drawing() -> Drawing {
        var d = Drawing(pageSize: Size(width: 2000, height: 3000))
        let style = StrokeStyle(tool: .pen, color: .black, width: 3)
        d.insert(Stroke(id: d.makeStrokeID(), style: style, points: stride(from: 0.0, through: 2000, by: 5).map { InkPoint(x: $0, y: $0 * 1.5) }))
        d.insert(Stroke(id: d.makeStrokeID(), style: style, points: [InkPoint(x: 1000, y: 1500)]))
        d.insert(Stroke(id: d.makeStrokeID(), style: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 40),
                        points: [InkPoint(x: -1e6, y: -1e6), InkPoint(x: 1e6, y: 1e6)]))
        d.insert(Stroke(id: d.makeStrokeID(), style: style, points: [InkPoint(x: 1e9, y: 1e9), InkPoint(x: -1e9, y: 1e9)]))
        return d
    }

    func testRasterIsViewportSizedAndWorkIsBoundedAtEveryZoom() throws {
        let d = drawing()
        let rssBefore = Self.residentBytes()
        var peakGrowth = 0
        for zoom in [1e-9, 1e-6, 1e-3, 0.1, 1, 10, 1e3, 1e6, 1e9] {
            // Centre the view on the page's middle, so the enormous zooms show ink and paper, not empty space.
            let t = ViewTransform(zoom: zoom, offset: Point(200 - 1000 * zoom, 150 - 1500 * zoom))
            let start = Date()
            let cache = try ScreenCache(viewSize: view, transform: t)
            cache.render(d)
            XCTAssertEqual(cache.pixelWidth * cache.pixelHeight, 400 * 300, "zoom \(zoom)")
            cache.bake(d.strokes[0])
            cache.invalidate(Rect(minX: 900, minY: 1400, maxX: 1100, maxY: 1600), in: d)
            cache.invalidate(Rect(minX: -1e12, minY: -1e12, maxX: 1e12, maxY: 1e12), in: d)
            // Twenty fingers drawing at once at this zoom.
            var live: [Stroke] = []
            for k in 0..<20 {
                let x = 1000 + Double(k), y = 1500 + Double(k)
                live.append(Stroke(id: StrokeID(100 + k), style: StrokeStyle(tool: .pen, color: .black, width: 3),
                                   points: [InkPoint(x: x, y: y), InkPoint(x: x + 1 / zoom, y: y + 2 / zoom)]))
            }
            cache.updateLive(live)
            cache.updateLive([])
            let secs = Date().timeIntervalSince(start)
            XCTAssertLessThan(secs, 5, "zoom \(zoom) took \(secs) s")
            peakGrowth = max(peakGrowth, Self.residentBytes() - rssBefore)
            if zoom == 1 { XCTAssertEqual(cache.pixel(x: 200, y: 150).a, 255, "the dot in the middle is ink") }
        }
        // One 400×300 raster is 480 KB, and 20 live layers 9.6 MB; a zoom-sized raster at 1e3 would be terabytes.
        print("screen cache: zoom 1e-9…1e9, peak resident growth \(peakGrowth >> 20) MiB")
        XCTAssertLessThan(peakGrowth, 256 << 20)
    }

    func testUnusableViewsAreRefusedNotAllocated() {
        for t in [ViewTransform(zoom: .nan), ViewTransform(zoom: .infinity), ViewTransform(zoom: -1), ViewTransform(zoom: 0),
                  ViewTransform(zoom: 1, offset: Point(.nan, 0)), ViewTransform(zoom: 1, deviceScale: 0)] {
            XCTAssertThrowsError(try ScreenCache(viewSize: view, transform: t), "\(t)")
        }
        for s in [Size(width: 0, height: 10), Size(width: .nan, height: 10), Size(width: 1e6, height: 1e6), Size(width: -5, height: 5)] {
            XCTAssertThrowsError(try ScreenCache(viewSize: s, transform: .identity), "\(s)")
        }
    }

    static func residentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let f = s.split(separator: " ")
        guard f.count > 1, let pages = Int(f[1]) else { return 0 }
        return pages * 4096
    }
}
