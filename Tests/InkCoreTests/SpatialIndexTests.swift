import XCTest
@testable import InkCore

/// Point 7 of issue 2: erasing and region queries go through the index, not a scan.
final class SpatialIndexTests: XCTestCase {
    /// 100,000 short strokes scattered over a 20,000 × 20,000 page (deterministic pseudo-random).
    private static let bigDrawing: Drawing = {
        var rng = SeededRandom(seed: 42)
        var strokes: [Stroke] = []
        strokes.reserveCapacity(100_000)
        for k in 0..<100_000 {
            let x = rng.unit() * 20_000, y = rng.unit() * 20_000
            strokes.append(Stroke(id: StrokeID(k + 1), style: StrokeStyle(width: 3),
                                  points: [InkPoint(x: x, y: y), InkPoint(x: x + 15, y: y + 5), InkPoint(x: x + 30, y: y)]))
        }
        return Drawing(pageSize: Size(width: 20_000, height: 20_000), strokes: strokes)
    }()

    func testEraserHitTestExaminesUnderOnePercentOf100kStrokes() {
        let editor = Editor(drawing: Self.bigDrawing)
        XCTAssertEqual(editor.drawing.strokes.count, 100_000)
        let target = editor.drawing.strokes[50_000]
        let p = target.points[1].point
        for tool in [Tool.strokeEraser, .areaEraser] {
            editor.resetHitTestStats()
            editor.tool = tool
            editor.style.width = 20
            let u = editor.play(gesture(1, [(p.x, p.y), (p.x + 5, p.y)]))
            let stats = editor.hitTestStats
            XCTAssertGreaterThan(stats.queries, 0)
            XCTAssertGreaterThan(stats.hits, 0, "\(tool) hit the stroke under it")
            XCTAssertLessThan(stats.examined, 1_000, "\(tool) examined \(stats.examined) of 100,000 strokes")
            XCTAssertFalse(u.changes.isEmpty)
            XCTAssertNil(editor.drawing.stroke(target.id), "\(tool) removed or cut the target")
            _ = editor.undo()
            XCTAssertNotNil(editor.drawing.stroke(target.id))
        }
    }

    func testRegionQueryMatchesAScan() {
        let drawing = Self.bigDrawing
        let rect = Rect(x: 5_000, y: 7_000, width: 600, height: 300)
        var stats = HitTestStats()
        let found = drawing.strokes(in: rect, stats: &stats).map(\.id)
        let scanned = drawing.strokes.filter { $0.inkBounds!.intersects(rect) }.map(\.id)
        XCTAssertEqual(found, scanned, "same strokes, in drawing order")
        XCTAssertFalse(found.isEmpty)
        XCTAssertLessThan(stats.examined, 1_000)
    }

    func testIndexFollowsInsertRemoveAndHugeStrokes() {
        var index = SpatialIndex(cellSize: 10)
        index.insert(1, bounds: Rect(x: 0, y: 0, width: 5, height: 5))
        index.insert(2, bounds: Rect(x: 100, y: 100, width: 5, height: 5))
        index.insert(3, bounds: Rect(minX: -1e12, minY: -1e12, maxX: 1e12, maxY: 1e12)) // spans everything
        XCTAssertEqual(index.candidates(in: Rect(x: 1, y: 1, width: 1, height: 1)), [1, 3])
        XCTAssertEqual(index.candidates(in: Rect(x: 101, y: 101, width: 1, height: 1)), [2, 3])
        index.remove(1); index.remove(3)
        XCTAssertEqual(index.candidates(in: Rect(x: 1, y: 1, width: 1, height: 1)), [])
        XCTAssertEqual(index.count, 1)
        index.removeAll()
        XCTAssertEqual(index.count, 0)
    }
}
