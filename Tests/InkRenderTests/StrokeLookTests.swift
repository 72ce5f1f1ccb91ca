import Foundation
import InkCore
@testable import InkRender
import XCTest

/// Caps, dashes and fills as cairo draws them for Xournal++.
final class StrokeLookTests: XCTestCase {
    /// Fills `polygon` black on a white w × h surface at `scale` and returns the grey coverage of each pixel.
    func coverage(_ polygon: [Point], width: Int, height: Int, scale: Double) throws -> [Int] {
        let s = try ImageSurface(width: width, height: height)
        s.fillRows(0, height, with: .white)
        let ctx = CairoContext(drawingInto: s)
        ctx.setTransform(scale: scale, dx: 0, dy: 0)
        ctx.fillPolygon(polygon, color: .black)
        s.markDirty()
        var out: [Int] = []
        out.reserveCapacity(width * height)
        for y in 0..<height { for x in 0..<width { out.append(255 - Int(s.pixel(x: x, y: y).r)) } }
        return out
    }

    /// Butt caps end at the points, square ones half the width beyond, round ones a half circle beyond.
    func testCapsEndWhereCairosDo() throws {
        for (cap, reach) in [(CapStyle.butt, 0.0), (.square, 5.0), (.round, 5.0)] {
            var style = StrokeStyle(tool: .pen, width: 10, trace: .polyline)
            style.cap = cap
            let s = Stroke(id: 1, style: style, points: [InkPoint(x: 20, y: 50), InkPoint(x: 80, y: 50)])
            let o = StrokeShape.outline(of: s)
            let xs = o.map(\.x)
            XCTAssertEqual(xs.min()!, 20 - reach, accuracy: 0.01, "\(cap)")
            XCTAssertEqual(xs.max()!, 80 + reach, accuracy: 0.01, "\(cap)")
            let c = try coverage(o, width: 100, height: 100, scale: 1)
            // The corner beyond the end: inked by a square cap only.
            XCTAssertEqual(c[46 * 100 + 83] > 200, cap == .square, "\(cap)")
            XCTAssertEqual(c[50 * 100 + 83] > 200, cap != .butt, "\(cap)")
        }
    }

    /// Xournal++'s patterns in page units whatever the width (cairo's dashes are not scaled by the line width), each
    /// dash a loop of its own; `dot` on a 30-unit line is 9 dots 3.5 apart.
    func testDashesFollowThePatternAlongTheLine() {
        for width in [1.0, 3, 6] {
            var style = StrokeStyle(tool: .pen, width: width, trace: .polyline, line: .dot)
            style.cap = .butt
            let s = Stroke(id: 1, style: style, points: [InkPoint(x: 0, y: 0), InkPoint(x: 15, y: 0), InkPoint(x: 30, y: 0)])
            let rings = StrokeShape.outlineRings(of: s)
            XCTAssertEqual(rings.count, 9, "width \(width)")
            XCTAssertEqual(rings.map { $0.map(\.x).min()! }, (0..<9).map { Double($0) * 3.5 }, "width \(width)")
            XCTAssertEqual(rings[0].map(\.x).max()!, 0.5, accuracy: 1e-9)
        }
        let dashed = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 2, trace: .polyline, line: .dash),
                            points: [InkPoint(x: 0, y: 0), InkPoint(x: 100, y: 0)])
        // 6 on, 3 off: dashes start at 0, 9, … 99.
        XCTAssertEqual(StrokeShape.outlineRings(of: dashed).count, 12)
        // A pattern too fine to see is drawn solid rather than as a million loops.
        let fine = Stroke(id: 1, style: StrokeStyle(tool: .pen, width: 2, trace: .polyline, line: LineStyle(dashes: [0.0001, 0.0001])!),
                          points: [InkPoint(x: 0, y: 0), InkPoint(x: 1000, y: 0)])
        XCTAssertEqual(StrokeShape.outlineRings(of: fine).count, 1)
    }

    /// A filled pen fills the polygon of its points under its ink at fill/255; a filled highlighter is ink and fill
    /// as one area at fill/255, multiplied over what is under it.
    func testFillsAsXournalppDrawsThem() throws {
        let square = [InkPoint(x: 20, y: 20), InkPoint(x: 80, y: 20), InkPoint(x: 80, y: 80), InkPoint(x: 20, y: 80), InkPoint(x: 20, y: 20)]
        let blue = RGBA(r: 0, g: 0, b: 255)
        let pen = Stroke(id: 1, style: StrokeStyle(tool: .pen, color: blue, width: 2, trace: .polyline, fill: 128), points: square)
        let surface = try ImageSurface(width: 100, height: 100)
        surface.fillRows(0, 100, with: .white)
        let ctx = CairoContext(drawingInto: surface)
        Painter.fill(pen, in: ctx, deviceScale: 1)
        surface.markDirty()
        XCTAssertColor(surface.pixel(x: 50, y: 50), near: RGBA(r: 127, g: 127, b: 255), tolerance: 2)
        XCTAssertColor(surface.pixel(x: 50, y: 20), near: blue, tolerance: 2)
        XCTAssertColor(surface.pixel(x: 10, y: 50), near: .white, tolerance: 0)
        // A filled highlighter over black ink: black stays black (multiplied), the rest is the colour at fill/255.
        let yellow = RGBA(r: 255, g: 255, b: 0, a: 120)
        let ink = Stroke(id: 2, style: StrokeStyle(tool: .pen, color: .black, width: 6, trace: .polyline), points: [InkPoint(x: 10, y: 50), InkPoint(x: 90, y: 50)])
        let marker = Stroke(id: 3, style: StrokeStyle(tool: .highlighter, color: yellow, width: 8, trace: .polyline, fill: 255), points: square)
        surface.fillRows(0, 100, with: .white)
        Painter.fill(ink, in: ctx, deviceScale: 1)
        Painter.fill(marker, in: ctx, deviceScale: 1)
        surface.markDirty()
        XCTAssertColor(surface.pixel(x: 50, y: 50), near: .black, tolerance: 2)
        XCTAssertColor(surface.pixel(x: 40, y: 35), near: RGBA(r: 255, g: 255, b: 0), tolerance: 2)
        XCTAssertColor(surface.pixel(x: 20, y: 40), near: RGBA(r: 255, g: 255, b: 0), tolerance: 2)
    }
}
