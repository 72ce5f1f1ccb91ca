import CCairo
import Foundation
import InkCore
@testable import InkRender
import XCTest

/// `CairoContext.addPolygon` maps the vertices to device pixels itself and hands cairo device coordinates (cairo
/// no longer maps each point). The pixels must be exactly those of the same polygon given to cairo in page
/// units, as it was drawn before, with or without lattice cuts.
final class DevicePathTests: XCTestCase {
    /// The polygon traced the way it was before: page-unit vertices, lattice cuts mapped back to page units.
    private func fillInPageUnits(_ pts: [Point], color: RGBA, in ctx: CairoContext, lattice: DeviceLattice) {
        let cr = ctx.cr
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        func device(_ p: Point) -> Point { Point(m.xx * p.x + m.xy * p.y + m.x0, m.yx * p.x + m.yy * p.y + m.y0) }
        cairo_move_to(cr, pts[0].x, pts[0].y)
        var prev = device(pts[0])
        for i in 1...pts.count {
            let p = i == pts.count ? pts[0] : pts[i]
            let d = device(p)
            lattice.forEachCut(from: prev, to: d) { x, y in
                var u = (x: x, y: y)
                cairo_device_to_user(cr, &u.x, &u.y)
                cairo_line_to(cr, u.x, u.y)
            }
            if i < pts.count { cairo_line_to(cr, p.x, p.y) }
            prev = d
        }
        cairo_close_path(cr)
        ctx.fill(color)
    }

    /// Two surfaces at the same page → device transform: `a` for `fillPolygon`, `b` for the page-unit path, and the
    /// lattice CairoContext uses for them (anchored where page y = 0 lands).
    private struct SideBySide {
        let a: ImageSurface, b: ImageSurface
        let ca: CairoContext, cb: CairoContext
        let m: cairo_matrix_t
        let lattice: DeviceLattice

        init(width: Int, height: Int, scale: Double, dx: Double, dy: Double) throws {
            a = try ImageSurface(width: width, height: height); b = try ImageSurface(width: width, height: height)
            ca = CairoContext(drawingInto: a); cb = CairoContext(drawingInto: b)
            ca.setTransform(scale: scale, dx: dx, dy: dy); cb.setTransform(scale: scale, dx: dx, dy: dy)
            var m = cairo_matrix_t()
            cairo_get_matrix(cb.cr, &m)
            self.m = m
            let step = Double(CairoContext.latticeStep)
            lattice = DeviceLattice(step: step, origin: (m.y0 + 1e-6).rounded(.down), minY: -step, maxY: Double(height) + step)
        }

        func device(_ p: Point) -> Point { Point(m.xx * p.x + m.xy * p.y + m.x0, m.yx * p.x + m.yy * p.y + m.y0) }

        /// Pixels that differ between the two surfaces, and pixels with ink on `a`.
        func compare() -> (differing: Int, inked: Int) {
            a.markDirty(); b.markDirty()
            var differing = 0, inked = 0
            for y in 0..<a.height {
                for x in 0..<a.width {
                    let p = a.pixel(x: x, y: y)
                    if p != b.pixel(x: x, y: y) { differing += 1 }
                    if p.a > 0 { inked += 1 }
                }
            }
            return (differing, inked)
        }
    }

    func testDeviceCoordinatesGiveThePixelsOfPageUnitPaths() throws {
        var rng = SeededRandom(seed: 11)
        let width = 300, height = 260
        for (scale, dx, dy) in [(1.15, -13.3, -52.7), (2.0, 5.0, -41.5), (0.37, 0.0, 3.25)] {
            let two = try SideBySide(width: width, height: height, scale: scale, dx: dx, dy: dy)
            var cuts = 0
            for k in 0..<60 {
                // Wandering polygons of up to 40 vertices, some small, some crossing lattice lines.
                let n = 3 + Int(rng.next() % 38)
                var p = Point(rng.range(-20, Double(width) / scale), rng.range(-20, Double(height) / scale))
                var pts: [Point] = []
                let reach = k % 3 == 0 ? 60.0 : 8.0
                for _ in 0..<n { pts.append(p); p = p + Point(rng.range(-reach, reach), rng.range(-reach, reach)) }
                let color = RGBA(r: UInt8(rng.next() % 256), g: UInt8(rng.next() % 256), b: 90, a: k % 4 == 0 ? 120 : 255)
                two.ca.fillPolygon(pts, color: color)
                fillInPageUnits(pts, color: color, in: two.cb, lattice: two.lattice)
                for i in pts.indices { cuts += two.lattice.cutCount(two.device(pts[i]), two.device(pts[(i + 1) % pts.count])) }
            }
            let (differing, inked) = two.compare()
            XCTAssertEqual(differing, 0, "at scale \(scale)")
            XCTAssertGreaterThan(inked, width * height / 10)
            XCTAssertGreaterThan(cuts, 10, "some edges cross lattice lines")
        }
    }

    /// A band gets only its share of a polygon: runs of vertices above or below the surface become one edge
    /// out there. Tall zigzags reaching far above and below a short surface must still fill exactly as given.
    func testPolygonsReachingFarOutsideAShortSurfaceFillAlike() throws {
        var rng = SeededRandom(seed: 5)
        let width = 240, height = 40
        let two = try SideBySide(width: width, height: height, scale: 1.5, dx: 0.3, dy: -130.2)
        var outside = 0
        for k in 0..<40 {
            // Page y 40…140 lands on device rows -70…80: most vertices are above or below the 40 rows.
            var pts: [Point] = []
            for _ in 0..<(20 + k) { pts.append(Point(rng.range(0, 160), rng.range(40, 140))) }
            outside += pts.filter { let y = 1.5 * $0.y - 130.2; return y < -2 || y > Double(height) + 2 }.count
            let color = RGBA(r: UInt8(k * 6), g: 40, b: 200, a: k % 3 == 0 ? 100 : 255)
            two.ca.fillPolygon(pts, color: color)
            fillInPageUnits(pts, color: color, in: two.cb, lattice: two.lattice)
        }
        let (differing, inked) = two.compare()
        XCTAssertEqual(differing, 0)
        XCTAssertGreaterThan(inked, width * height / 2)
        XCTAssertGreaterThan(outside, 500)
    }

    /// Likewise left and right of a narrow surface, and past every side and corner of a small one: runs of vertices
    /// beside the surface become one edge there, which cairo counts only by its winding, as it did the run.
    func testPolygonsReachingFarBesideASurfaceFillAlike() throws {
        var rng = SeededRandom(seed: 8)
        for (width, height, spanX, spanY) in [(40, 240, (0.0, 160.0), (0.0, 150.0)), (60, 50, (-10.0, 170.0), (-20.0, 160.0))] {
            let two = try SideBySide(width: width, height: height, scale: 1.5, dx: -110.4, dy: 0.7)
            var beside = 0
            for k in 0..<40 {
                // Page x 60…100 lands on device columns -20…40: most vertices are left or right of the surface.
                var pts: [Point] = []
                for _ in 0..<(20 + k) { pts.append(Point(rng.range(spanX.0, spanX.1), rng.range(spanY.0, spanY.1))) }
                beside += pts.filter { let x = 1.5 * $0.x - 110.4; return x < -2 || x > Double(width) + 2 }.count
                let color = RGBA(r: UInt8(k * 6), g: 40, b: 200, a: k % 3 == 0 ? 100 : 255)
                two.ca.fillPolygon(pts, color: color)
                fillInPageUnits(pts, color: color, in: two.cb, lattice: two.lattice)
            }
            let (differing, inked) = two.compare()
            XCTAssertEqual(differing, 0, "\(width)×\(height)")
            XCTAssertGreaterThan(inked, width * height / 2)
            XCTAssertGreaterThan(beside, 500)
        }
    }
}
