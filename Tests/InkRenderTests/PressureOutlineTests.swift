import Foundation
import InkCore
@testable import InkRender
import InkSamples
import XCTest

/// Pressure polylines drawn as one outline a stroke look as the capsule a segment they replace, with far fewer points.
final class PressureOutlineTests: XCTestCase {
    /// Fills `rings` (chained, non-zero) black on white at `scale`; the grey coverage of each pixel.
    func coverage(_ rings: [[Point]], width: Int, height: Int, scale: Double) throws -> [Int] {
        let s = try ImageSurface(width: width, height: height)
        s.fillRows(0, height, with: .white)
        let ctx = CairoContext(drawingInto: s)
        ctx.setTransform(scale: scale, dx: 0, dy: 0)
        ctx.fillPolygon(StrokeShape.chain(rings), color: .black)
        s.markDirty()
        var out: [Int] = []
        out.reserveCapacity(width * height)
        for y in 0..<height { for x in 0..<width { out.append(255 - Int(s.pixel(x: x, y: y).r)) } }
        return out
    }

    /// Polylines that wander, zig-zag, jump in width over steps shorter than their widths, and reverse.
    static func strokes(seed: UInt64) -> [Stroke] {
        var rng = SampleInk.Generator(seed: seed)
        var out: [Stroke] = []
        for k in 0..<60 {
            var pts: [InkPoint] = []
            var x = rng.range(40, 160), y = rng.range(40, 160), heading = rng.range(0, 6.3), p = rng.range(0.2, 0.8)
            let kind = k % 4
            for _ in 0..<40 {
                pts.append(InkPoint(x: x, y: y, pressure: p))
                switch kind {
                case 0: heading += rng.range(-0.3, 0.3); p = max(0.05, min(1, p + rng.range(-0.05, 0.05)))   // pen-like
                case 1: heading += rng.range(-2.8, 2.8); p = rng.range(0.05, 1)                              // zig-zags
                case 2: heading += rng.range(-0.5, 0.5); p = max(0.05, min(1, p + rng.range(-0.3, 0.3)))    // width jumps
                default: heading += rng.range(-3.1, 3.1)                                                       // reversals
                }
                let step = kind == 2 ? rng.range(0.2, 2) : rng.range(0.5, 8)
                x = max(10, min(190, x + cos(heading) * step)); y = max(10, min(190, y + sin(heading) * step))
            }
            out.append(Stroke(id: StrokeID(k + 1), style: StrokeStyle(tool: .pen, width: [1.5, 3, 8][k % 3], trace: .polyline), points: pts))
        }
        return out
    }

    func testOneOutlineCoversWhatTheCapsulesCover() throws {
        var worst = 0, total = 0, differing = 0, inked = 0
        for seed in [1, 2, 3] as [UInt64] {
            for s in Self.strokes(seed: seed) {
                // Round parts in fine steps, so both trace the same circles and only the geometry is compared.
                var o = StrokeShape.options(for: s.style)
                o.capSegments = 32
                let sp = StrokeShape.spine(of: s, options: o)
                let a = try coverage([StrokeShape.segmentOutline(spine: sp, options: o)], width: 400, height: 400, scale: 2)
                let b = try coverage(StrokeShape.pressureOutline(spine: sp, options: o), width: 400, height: 400, scale: 2)
                for i in a.indices {
                    let d = abs(a[i] - b[i])
                    worst = max(worst, d); total += d
                    if d > 32 { differing += 1 }
                    if a[i] > 0 { inked += 1 }
                }
            }
        }
        // Edges move by at most the mitre tolerance (a tenth of a pixel here); no pixel is a hole or a blot.
        XCTAssertLessThan(worst, 96, "largest difference of one pixel")
        XCTAssertLessThan(Double(differing) / Double(inked), 0.006, "\(differing) of \(inked) inked pixels differ by more than 1/8")
        XCTAssertLessThan(Double(total) / Double(inked), 1.2, "mean difference per inked pixel")
    }

    /// Xournal++-shaped ink (per-point widths): the outline takes under a third of the capsules' points, so the
    /// PDF and SVG of such a notebook shrink as much.
    func testXournalppInkTakesFarFewerPoints() {
        var rng = SampleInk.Generator(seed: 7)
        var capsules = 0, outline = 0
        for k in 0..<200 {
            var s = SampleInk.stroke(id: StrokeID(k + 1), points: 100, pageSize: Size(width: 2000, height: 3000), rng: &rng)
            guard s.style.tool == .pen else { continue }
            s.style.trace = .polyline
            let o = StrokeShape.options(for: s.style)
            capsules += StrokeShape.segmentOutline(spine: StrokeShape.spine(of: s, options: o), options: o).count
            outline += StrokeShape.outline(of: s).count
        }
        XCTAssertLessThan(Double(outline), Double(capsules) / 3, "\(outline) outline points vs \(capsules) for capsules")
    }
}
