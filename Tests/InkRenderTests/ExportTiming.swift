import Foundation
import InkCore
import InkSamples
import InkRender
import XCTest

/// Prints export and redraw times for 10,000 strokes × 100 points at 1920×1080. Not a pass/fail test:
/// runs only with OEKAKI_RENDER_TIMING=1 (use a release build: `swift test -c release`).
final class ExportTiming: XCTestCase {
    func testPrintTimes() throws {
        guard ProcessInfo.processInfo.environment["OEKAKI_RENDER_TIMING"] == "1" else { throw XCTSkip("set OEKAKI_RENDER_TIMING=1") }
        let d = SampleInk.drawing(strokes: 10_000, pointsPerStroke: 100, seed: 42)
        XCTAssertEqual(d.pointCount, 1_000_000)
        /// Wall-clock median and CPU time per run (CPU is steadier when other work shares the machine).
        func time(_ name: String, runs: Int = 5, _ body: () throws -> Void) rethrows {
            var t: [Double] = []
            let cpu0 = clock()
            for _ in 0..<runs {
                let s = DispatchTime.now().uptimeNanoseconds
                try body()
                t.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e6)
            }
            let cpu = Double(clock() - cpu0) / Double(CLOCKS_PER_SEC) * 1000 / Double(runs)
            t.sort()
            print(String(format: "%@: median %.0f ms (min %.0f, max %.0f), CPU %.0f ms per run", name, t[t.count / 2], t[0], t[t.count - 1], cpu))
        }
        let dir = ProcessInfo.processInfo.environment["OEKAKI_RENDER_OUT"] ?? NSTemporaryDirectory()
        // OEKAKI_RENDER_TIMING_ONLY=none|png stops early, to read peak memory of just that much with /usr/bin/time.
        let only = ProcessInfo.processInfo.environment["OEKAKI_RENDER_TIMING_ONLY"]
        if only == "none" { return }
        try time("png render only") { _ = try Exporter.render(d) }
        try time("png export") { try Exporter.write(d, to: dir + "/bench.png", format: .png) }
        if only == "png" { return }
        try time("svg export") { try Exporter.write(d, to: dir + "/bench.svg", format: .svg) }
        try time("pdf export", runs: 3) { try Exporter.write(d, to: dir + "/bench.pdf", format: .pdf) }
        let cache = try ScreenCache(viewSize: Size(width: 1920, height: 1080), transform: .identity)
        time("full redraw 1920x1080") { cache.render(d) }

        // One pen sample: append to the live stroke and draw its new segment into the 1920×1080 cache.
        // 100 strokes of 100 samples, so stroke starts and ends (layer reuse) are in the figures.
        var rng = SampleInk.Generator(seed: 9)
        var us: [Double] = []
        var live: [Stroke] = []
        for k in 0..<100 {
            let path = SampleInk.stroke(id: StrokeID(1_000_000 + k), points: 100, pageSize: d.pageSize, rng: &rng)
            var stroke = Stroke(id: path.id, style: path.style)
            for p in path.points {
                let s = DispatchTime.now().uptimeNanoseconds
                stroke.append(p)
                live = [stroke]
                cache.updateLive(live)
                us.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e3)
            }
            let s = DispatchTime.now().uptimeNanoseconds
            cache.bake(stroke)
            cache.updateLive([])
            us.append(Double(DispatchTime.now().uptimeNanoseconds - s) / 1e3)
        }
        us.sort()
        print(String(format: "live segment per sample: p50 %.1f µs, p99 %.1f µs, max %.0f µs (%d samples incl. pen-up bake)", us[us.count / 2], us[us.count * 99 / 100], us[us.count - 1], us.count))
        let target = try ImageSurface(width: 1920, height: 1080)
        let ctx = CairoContext(drawingInto: target)
        time("composite cache + live (per frame)", runs: 20) { cache.draw(into: ctx) }
    }
}
