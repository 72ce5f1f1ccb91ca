import Foundation
import InkCore
@testable import InkRender
import XCTest

/// The screen keeps shaped outlines between renders. What it hands out must always be exactly what shaping
/// gives at that zoom: reused across zooms only where no sample is skipped at either, reshaped when the
/// stroke changed, and the memory it holds stays within its budget.
final class OutlineCacheTests: XCTestCase {
    private func stroke(id: StrokeID, spacing: Double, count: Int = 60, page: PageID = Page.firstID) -> Stroke {
        let pts = (0..<count).map { i in InkPoint(x: 10 + Double(i) * spacing, y: 40 + 8 * sin(Double(i) * spacing / 6), pressure: 0.3 + 0.4 * Double(i % 7) / 7) }
        return Stroke(id: id, style: StrokeStyle(color: .black, width: 3), points: pts, page: page)
    }

    func testAnOutlineIsReusedAcrossZoomsWhenNoSampleIsSkipped() {
        let cache = OutlineCache(budget: 1 << 20)
        let s = stroke(id: 1, spacing: 3)
        XCTAssertEqual(cache.outline(of: s, deviceScale: 1.15), Painter.outline(of: s, deviceScale: 1.15))
        XCTAssertEqual(cache.reused, 0)
        // 0.3 px at 100 % is 0.3 units: still below the 3-unit gap, so shaping at 100 % gives the same outline.
        XCTAssertEqual(cache.outline(of: s, deviceScale: 1), Painter.outline(of: s, deviceScale: 1))
        XCTAssertEqual(cache.outline(of: s, deviceScale: 4), Painter.outline(of: s, deviceScale: 4))
        XCTAssertEqual(cache.reused, 2)
    }

    func testTheOverscanReusesButDoesNotKeep() {
        let cache = OutlineCache(budget: 1 << 20)
        let s = stroke(id: 1, spacing: 3)
        XCTAssertEqual(cache.outline(of: s, deviceScale: 1, keep: false), Painter.outline(of: s, deviceScale: 1))
        XCTAssertEqual(cache.count, 0)
        _ = cache.outline(of: s, deviceScale: 1)
        XCTAssertEqual(cache.outline(of: s, deviceScale: 1.15, keep: false), Painter.outline(of: s, deviceScale: 1.15))
        XCTAssertEqual(cache.reused, 1)
    }

    func testDenseSamplesAreShapedAgainForAnotherZoom() {
        let cache = OutlineCache(budget: 1 << 20)
        // 0.1 units apart: zoomed out, samples closer than 0.3 px are skipped, so the outlines differ.
        let s = stroke(id: 1, spacing: 0.1, count: 400)
        let near = cache.outline(of: s, deviceScale: 8), far = cache.outline(of: s, deviceScale: 0.5)
        XCTAssertEqual(near, Painter.outline(of: s, deviceScale: 8))
        XCTAssertEqual(far, Painter.outline(of: s, deviceScale: 0.5))
        XCTAssertNotEqual(near.count, far.count)
        XCTAssertEqual(cache.reused, 0)
        // The same zoom again: the same spacing, reused.
        XCTAssertEqual(cache.outline(of: s, deviceScale: 0.5), far)
        XCTAssertEqual(cache.reused, 1)
    }

    func testAChangedStrokeWithTheSameIdIsShapedAgain() {
        let cache = OutlineCache(budget: 1 << 20)
        let s = stroke(id: 7, spacing: 3)
        _ = cache.outline(of: s, deviceScale: 1)
        var moved = s
        moved.setTransform(AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 50, ty: 20))
        XCTAssertEqual(cache.outline(of: moved, deviceScale: 1), Painter.outline(of: moved, deviceScale: 1))
        var recoloured = s
        recoloured.style.width = 9
        XCTAssertEqual(cache.outline(of: recoloured, deviceScale: 1), Painter.outline(of: recoloured, deviceScale: 1))
        // Another page's stroke with the same id is another stroke.
        let other = stroke(id: 7, spacing: 5, page: 2)
        XCTAssertEqual(cache.outline(of: other, deviceScale: 1), Painter.outline(of: other, deviceScale: 1))
        XCTAssertEqual(cache.reused, 0)
        XCTAssertEqual(cache.count, 2)
    }

    func testTheLeastRecentlyUsedGoBeyondTheBudget() {
        let probe = OutlineCache(budget: 1 << 20)
        _ = probe.outline(of: stroke(id: 1, spacing: 3), deviceScale: 1)
        let entry = probe.bytes
        XCTAssertGreaterThan(entry, 60 * MemoryLayout<Point>.stride)
        let cache = OutlineCache(budget: entry * 10)
        for id in 1...12 { _ = cache.outline(of: stroke(id: StrokeID(id), spacing: 3), deviceScale: 1) }
        // Stroke 1 used again: now the most recent.
        _ = cache.outline(of: stroke(id: 1, spacing: 3), deviceScale: 1)
        XCTAssertEqual(cache.reused, 1)
        XCTAssertEqual(cache.bytes, entry * 12)
        cache.endRender()
        // Down to three quarters of the budget: the five least recently used (2…6) went.
        XCTAssertEqual(cache.bytes, entry * 7)
        XCTAssertEqual(cache.count, 7)
        for id in [1, 7, 12] { _ = cache.outline(of: stroke(id: StrokeID(id), spacing: 3), deviceScale: 1) }
        XCTAssertEqual(cache.reused, 4)
        _ = cache.outline(of: stroke(id: 2, spacing: 3), deviceScale: 1)
        XCTAssertEqual(cache.reused, 4)
        // Another document shown: nothing kept.
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.bytes, 0)
        _ = cache.outline(of: stroke(id: 12, spacing: 3), deviceScale: 1)
        XCTAssertEqual(cache.reused, 4)
    }

    func testTheClosestSampleGapIsWhereSpacingStartsToSkip() {
        // Samples 1 unit apart but one pair 0.4 apart, mid-stroke; a repeated sample is no gap.
        let xy: [(Double, Double)] = [(0, 0), (1, 1), (2, 0), (3, 1), (3.4, 1), (3.4, 1), (4.4, 0), (5.4, 1), (6.4, 0)]
        let s = Stroke(id: 1, style: StrokeStyle(color: .black, width: 3), points: xy.map { InkPoint(x: $0.0, y: $0.1) })
        let gap = StrokeShape.closestSampleGap(of: s)
        XCTAssertEqual(gap, 0.4, accuracy: 1e-12)
        var o = StrokeShape.options(for: s.style)
        o.minSpacing = gap * 0.999
        XCTAssertEqual(StrokeShape.outline(of: s, options: o), StrokeShape.outline(of: s))
        o.minSpacing = gap * 1.001
        XCTAssertNotEqual(StrokeShape.outline(of: s, options: o), StrokeShape.outline(of: s))
        XCTAssertEqual(StrokeShape.closestSampleGap(of: Stroke(id: 2, style: StrokeStyle())), .infinity)
    }
}
