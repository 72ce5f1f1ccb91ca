import Foundation
import XCTest
import InkCore
@testable import InkRender

final class BandPipelineTests: XCTestCase {
    /// Every band is drawn once, and finished once, after its own drawing (never before, whatever the cores do).
    func testEveryBandIsFinishedOnceAfterItIsDrawn() {
        // Band b is rows 10b..<10b+10; every row is finished once, after its band was drawn.
        for (bands, parts) in [(1, 1), (2, 4), (3, 1), (8, 1), (33, 3), (2, 16)] {
            let lock = NSLock()
            var drawn = Set<Int>(), finished: [Int] = [], early: [Int] = []
            BandPipeline.run(bands: bands, parts: parts, rows: { $0 * 10..<$0 * 10 + 10 }, draw: { b in
                usleep(UInt32((b * 37) % 5) * 200)   // uneven bands, so the cores run out of drawing at different times
                lock.lock(); drawn.insert(b); lock.unlock()
            }, finish: { rows in
                lock.lock(); if !drawn.contains(rows.lowerBound / 10) { early.append(rows.lowerBound) }; finished += rows; lock.unlock()
            })
            XCTAssertEqual(drawn, Set(0..<bands), "\(bands) bands")
            XCTAssertEqual(finished.sorted(), Array(0..<bands * 10), "\(bands) bands, \(parts) parts")
            XCTAssertEqual(early, [], "\(bands) bands")
        }
    }

    /// The PNG whose bands are encoded as they are drawn is the PNG of the finished raster, pixel for pixel.
    func testPNGEncodedBandByBandMatchesTheWholeRaster() throws {
        // Pressure pens and highlighters over a tall page: many bands, ink across every band edge.
        let strokes = (0..<300).map { k in
            let y = Double(k % 60) * 10, x = Double(k / 60) * 80
            return Stroke(id: StrokeID(k + 1), style: StrokeStyle(tool: k % 7 == 0 ? .highlighter : .pen, color: RGBA(r: UInt8(k % 255), g: 40, b: 90), width: 3),
                          points: (0..<20).map { i in InkPoint(x: x + Double(i) * 4, y: y + Double(i) * 3, pressure: 0.3 + Double(i % 5) / 10) })
        }
        let d = Drawing(pageSize: Size(width: 400, height: 700), background: .white, strokes: strokes)
        let path = Fixture.tempPath("bands.png")
        defer { unlink(path) }
        try Exporter.write(d, to: path, format: .png)
        let written = try ImageSurface.load(png: path)
        let whole = try Exporter.render(d)
        XCTAssertGreaterThan(whole.height, 16)
        var inked = 0
        for y in stride(from: 0, to: whole.height, by: 3) {
            for x in stride(from: 0, to: whole.width, by: 3) {
                let a = written.pixel(x: x, y: y), b = whole.pixel(x: x, y: y)
                XCTAssertEqual(a, b, "pixel \(x),\(y)")
                if a != RGBA(r: 255, g: 255, b: 255) { inked += 1 }
                if a != b { return }
            }
        }
        XCTAssertGreaterThan(inked, 500)
    }
}
