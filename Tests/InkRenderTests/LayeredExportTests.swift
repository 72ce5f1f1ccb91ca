import Foundation
import InkCore
import InkSamples
@testable import InkRender
import InkStore
import XCTest

/// `LayeredExport`: drawing contiguous runs of strokes into separate layers and compositing them in order
/// paints what drawing every stroke in turn paints, and a streamed `.oekaki` exports like the loaded drawing.
final class LayeredExportTests: XCTestCase {
    /// Largest per-channel difference of the premultiplied pixels (what the raster holds; straight colour of
    /// nearly transparent pixels magnifies any rounding), and how many pixels differ by more than `over`.
    func compare(_ a: ImageSurface, _ b: ImageSurface, over: Int = 2) -> (max: Int, count: Int) {
        XCTAssertEqual(a.width, b.width); XCTAssertEqual(a.height, b.height)
        guard a.width == b.width, a.height == b.height else { return (255, a.width * a.height) }
        var worst = 0, count = 0
        a.withPixels { pa in
            b.withPixels { pb in
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        let p = pa + y * a.stride + x * 4, q = pb + y * b.stride + x * 4
                        var d = 0
                        for c in 0..<4 { d = max(d, abs(Int(p[c]) - Int(q[c]))) }
                        worst = max(worst, d)
                        if d > over { count += 1 }
                    }
                }
            }
        }
        return (worst, count)
    }

    /// Translucent highlighters and opaque pens of several colours crossing each other, alternately, so every
    /// cut into runs puts translucent ink of one run over ink of another. 63 px high: `BandRenderer` paints it in
    /// one band, so the reference has no band seams.
    static func overlappingInk(background: RGBA = .white) -> Drawing {
        var strokes: [Stroke] = []
        let colours: [RGBA] = [.highlighterYellow, .black, RGBA(r: 30, g: 90, b: 220, a: 120), RGBA(r: 200, g: 30, b: 30), RGBA(r: 20, g: 160, b: 60, a: 90)]
        for i in 0..<40 {
            let c = colours[i % colours.count]
            let tool: Tool = c.a < 255 ? .highlighter : .pen
            let x0 = Double(i * 9 % 300), slope = i % 2 == 0 ? 1.0 : -1.0
            var pts: [InkPoint] = []
            for k in 0...30 {
                let t = Double(k)
                let y: Double = 31.5 + slope * (t - 15) * 1.6 + sin(Double(i + k)) * 3
                pts.append(InkPoint(x: x0 + t * 4, y: y, pressure: 0.3 + 0.02 * Double(k % 20), time: t * 8))
            }
            strokes.append(Stroke(id: StrokeID(i + 1), style: StrokeStyle(tool: tool, color: c, width: tool == .highlighter ? 14 : 3), points: pts))
        }
        return Drawing(pageSize: Size(width: 420, height: 63), background: background, strokes: strokes)
    }

    func layered(_ d: Drawing, runs: Int, scale: Double = 1, transparent: Bool = false, multiply: Bool? = nil) throws -> ImageSurface {
        try LayeredExport.render(pageSize: d.pageSize, background: d.background, runs: LayeredExport.runs(of: d, count: runs),
                                 scale: scale, transparent: transparent, multiply: multiply)
    }

    func testLayeredRenderEqualsBandRenderWithTranslucentInkAcrossRuns() throws {
        for transparent in [false, true] {
            for scale in [1.0, 1.5] {
                let d = Self.overlappingInk()
                // One run multiplies highlighters as the band renderer does; several cover with them (see LayeredExport).
                let one = compare(try layered(d, runs: 1, scale: scale, transparent: transparent),
                                  try Exporter.render(d, scale: scale, transparent: transparent))
                let band = try Exporter.render(d, scale: scale, transparent: transparent, multiply: false)
                XCTAssertEqual(one.max, 0, "one run draws exactly what the band renderer draws")
                for k in 2...5 {
                    // Ink of a later run is blended in its own 8-bit layer first, then onto the page: one more
                    // rounding, so where translucent ink of two runs overlaps a pixel can be off by 3.
                    let r = compare(try layered(d, runs: k, scale: scale, transparent: transparent), band)
                    XCTAssertLessThanOrEqual(r.max, 3, "\(k) runs, transparent \(transparent), scale \(scale)")
                    XCTAssertLessThanOrEqual(r.count, 3, "\(k) runs, transparent \(transparent), scale \(scale): pixels off by 3")
                }
            }
        }
    }

    /// Guards the test above: compositing the runs in the wrong order changes the picture far beyond ±2.
    func testRunOrderMatters() throws {
        let d = Self.overlappingInk()
        let runs = LayeredExport.runs(of: d, count: 2)
        let right = try LayeredExport.render(pageSize: d.pageSize, background: d.background, runs: runs)
        let swapped = try LayeredExport.render(pageSize: d.pageSize, background: d.background, runs: runs.reversed())
        XCTAssertGreaterThan(compare(right, swapped).count, 100)
    }

    func testRunsOfADrawingCoverItInOrder() throws {
        let d = SampleInk.drawing(strokes: 97, pointsPerStroke: 20, seed: 4)
        for k in [1, 2, 3, 7, 97, 200] {
            let runs = LayeredExport.runs(of: d, count: k)
            XCTAssertEqual(runs.count, min(k, 97))
            var seen: [StrokeID] = []
            var sizes: [Int] = []
            for run in runs {
                var n = 0
                try run { seen.append($0.id); n += 1 }
                sizes.append(n)
            }
            XCTAssertEqual(seen, d.strokes.map(\.id), "\(k) runs")
            XCTAssertFalse(sizes.contains(0), "\(k) runs: \(sizes)")
        }
        XCTAssertTrue(LayeredExport.runs(of: Drawing(), count: 4).isEmpty)
        let empty = try LayeredExport.render(pageSize: Size(width: 10, height: 10), background: .white, runs: [])
        XCTAssertEqual(empty.pixel(x: 5, y: 5), .white)
    }

    /// Realistic ink on a page many bands high: several runs agree with one run (no band seams on either side).
    func testSeveralRunsAgreeWithOneOnSampleInk() throws {
        let d = SampleInk.drawing(strokes: 1500, pointsPerStroke: 100, pageSize: Size(width: 640, height: 360), seed: 9)
        let one = try layered(d, runs: 1, multiply: false)
        for k in [2, 4] {
            let r = compare(try layered(d, runs: k), one)
            // A handful of pixels under many translucent layers may round by 3.
            XCTAssertLessThanOrEqual(r.max, 4, "\(k) runs")
            XCTAssertLessThan(r.count, 20, "\(k) runs: \(r.count) of \(640 * 360) pixels differ by more than 2")
        }
    }

    func testStreamedDocumentExportsLikeTheLoadedDrawing() throws {
        // 63 units high: one band at the scales below, so the loaded drawing's export has no band seams.
        var d = SampleInk.drawing(strokes: 150, pointsPerStroke: 60, pageSize: Size(width: 500, height: 63), seed: 11)
        d.background = RGBA(r: 250, g: 245, b: 230)
        // Pages with highlighters are exported in bands (`oekaki export` asks `hasHighlighters`): runs cannot multiply.
        let marked = Fixture.tempPath("marked.oekaki")
        try DocumentFile.create(path: marked, drawing: d).close()
        XCTAssertTrue(try StrokeStream.open(path: marked).hasHighlighters())
        d = Drawing(pageSize: d.pageSize, background: d.background, strokes: d.strokes.map { s in
            var s = s
            if s.style.tool == .highlighter { s.style.tool = .pen }
            return s
        })
        try exportStreamedAndLoaded(d, name: "streamed", stream: { stream, out, options in
            let runs = try stream.runs(try LayeredExport.runCount(pageSize: stream.pageSize, scale: options.scale))
            try LayeredExport.writePNG(pageSize: stream.pageSize, background: stream.background,
                                       runs: runs.map { run in { draw in try stream.forEachStroke(in: run, draw) } },
                                       to: out, options: options)
        }, check: { streamed, loaded, options in
            let r = compare(streamed, loaded)
            XCTAssertLessThanOrEqual(r.max, 3, "scale \(options.scale)")
            XCTAssertLessThanOrEqual(r.count, 3, "scale \(options.scale): pixels off by 3")
        })
    }

    /// Saves `d` as `name`.oekaki, then at full scale and at 0.9 transparent exports it loaded (`Exporter`) and
    /// streamed from the file (`stream`) and hands both pictures to `check`.
    private func exportStreamedAndLoaded(_ d: Drawing, name: String,
                                         stream export: (StrokeStream, String, ExportOptions) throws -> Void,
                                         check: (ImageSurface, ImageSurface, ExportOptions) -> Void) throws {
        let doc = Fixture.tempPath("\(name).oekaki")
        try DocumentFile.create(path: doc, drawing: d).close()
        XCTAssertEqual(try StrokeStream.open(path: doc).hasHighlighters(), d.strokes.contains { $0.style.tool == .highlighter })
        let loaded = try DocumentFile.open(path: doc, readOnly: true).drawing
        let out = Fixture.tempPath("\(name).png"), ref = Fixture.tempPath("\(name)-loaded.png")
        for options in [ExportOptions(), ExportOptions(scale: 0.9, transparent: true)] {
            try Exporter.write(loaded, to: ref, format: .png, options: options)
            let stream = try StrokeStream.open(path: doc)
            try export(stream, out, options)
            stream.close()
            check(try ImageSurface.load(png: out), try ImageSurface.load(png: ref), options)
        }
    }

    /// A page with highlighters is streamed in bands, each walking every stroke on its own lane at the same time:
    /// highlighters multiply and the pixels are the loaded drawing's exactly (both cut bands on cairo's lattice).
    /// Two bands sharing one cached statement would each draw part of the ink, far from the reference.
    func testAStreamedPageWithHighlightersIsDrawnInBandsAsLoaded() throws {
        var d = SampleInk.drawing(strokes: 1200, pointsPerStroke: 60, pageSize: Size(width: 640, height: 360), seed: 9)
        d.background = RGBA(r: 250, g: 245, b: 230)
        XCTAssertTrue(d.strokes.contains { $0.style.tool == .highlighter })
        try exportStreamedAndLoaded(d, name: "banded", stream: { stream, out, options in
            try LayeredExport.writePNGInBands(pageSize: stream.pageSize, background: stream.background,
                                              walk: { band, draw in try stream.forEachStroke(lane: band + 1, draw) },
                                              to: out, options: options)
        }, check: { streamed, loaded, options in
            let r = compare(streamed, loaded, over: 0)
            XCTAssertEqual(r.max, 0, "scale \(options.scale): \(r.count) pixels differ")
        })
    }

    /// A run that fails part-way (a damaged stroke in the file) fails the export: the others stop early, the
    /// error is the failing run's, and no file is written (an earlier one at the path stays as it was).
    func testAFailingRunStopsTheExportAndWritesNothing() throws {
        struct Damaged: Error {}
        let d = SampleInk.drawing(strokes: 400, pointsPerStroke: 50, seed: 2)
        let path = Fixture.tempPath("failed.png")
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: path))
        let drawn = Counter()
        var runs = LayeredExport.runs(of: d, count: 3).map { run -> StrokeRun in
            { draw in try run { drawn.add(); try draw($0) } }
        }
        runs[1] = { _ in throw Damaged() }
        XCTAssertThrowsError(try LayeredExport.writePNG(pageSize: d.pageSize, background: d.background, runs: runs, to: path)) {
            XCTAssertTrue($0 is Damaged, "\($0)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "earlier")
        XCTAssertLessThan(drawn.value, 400 * 2 / 3, "the other runs stopped early")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).filter { $0.contains("failed.png.") }
        XCTAssertEqual(leftovers, [])
    }

    func testTooLargePageIsRefusedBeforeAnyStrokeIsRead() {
        let page = Size(width: 40_000, height: 100)
        XCTAssertThrowsError(try LayeredExport.runCount(pageSize: page)) { XCTAssertTrue("\($0)".contains("32767"), "\($0)") }
        var read = false
        XCTAssertThrowsError(try LayeredExport.render(pageSize: page, background: .white, runs: [{ _ in read = true }]))
        XCTAssertFalse(read)
        XCTAssertEqual(try LayeredExport.runCount(pageSize: Size(width: 1920, height: 1080)), min(ProcessInfo.processInfo.activeProcessorCount, 2))
        XCTAssertEqual(try LayeredExport.runCount(pageSize: Size(width: 16000, height: 16000)), 1, "a 1 GB raster gets no second layer")
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
