import Foundation
import XCTest
import InkCore
@testable import InkRender

/// Highlighters drawn by `MultiplyFill` must be exactly the pixels cairo's own MULTIPLY writes.
final class MultiplyFillTests: XCTestCase {
    private func random(_ seed: UInt64) -> () -> Double {
        var s = seed
        return {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Double(s >> 11) / Double(1 << 53)
        }
    }

    /// A page of coloured ink, then highlighters of every kind over it and over each other, some reaching off the
    /// surface, drawn with the fast fill on or off.
    private func page(fast: Bool, seed: UInt64, scale: Double, clip: Rect? = nil) throws -> [UInt32] {
        let saved = CairoContext.multiplyFills
        defer { CairoContext.multiplyFills = saved }
        CairoContext.multiplyFills = fast
        let surface = try ImageSurface(width: 160, height: 120)
        surface.fillRows(0, 120, with: RGBA(r: 250, g: 248, b: 240))
        let ctx = CairoContext(drawingInto: surface)
        ctx.setTransform(scale: scale, dx: 0.3, dy: -0.6)
        if let clip { ctx.clip(clip) }
        let next = random(seed)
        func polygon(_ n: Int) -> [Point] {
            let cx = next() * 200 / scale - 20, cy = next() * 160 / scale - 20, r = 2 + next() * 40 / scale
            return (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * .pi
                let rr = r * (0.3 + next())
                return Point(cx + cos(a) * rr, cy + sin(a) * rr * 0.4)
            }
        }
        func color(alpha: UInt8) -> RGBA { RGBA(r: UInt8(next() * 255), g: UInt8(next() * 255), b: UInt8(next() * 255), a: alpha) }
        for _ in 0..<12 { ctx.fillPolygon(polygon(9), color: color(alpha: 255)) }
        for k in 0..<40 {
            let alpha: UInt8 = [120, 255, 1, 200, 77][k % 5]
            ctx.fillPolygon(polygon(3 + k % 14), color: color(alpha: alpha), multiply: true)
        }
        surface.flush()
        return surface.words()
    }

    func testHighlightersAreCairosPixels() throws {
        for seed: UInt64 in 1...6 {
            for scale in [1.0, 2.5, 0.7] {
                let fast = try page(fast: true, seed: seed, scale: scale), cairo = try page(fast: false, seed: seed, scale: scale)
                let differing = zip(fast, cairo).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "seed \(seed) scale \(scale)")
                // Not a blank page: the highlighters changed the paper and the ink.
                XCTAssertGreaterThan(Set(fast).count, 50)
            }
        }
    }

    func testAClippedContextLeavesItToCairo() throws {
        let clip = Rect(minX: 10.5, minY: 7.25, maxX: 70, maxY: 50)
        let fast = try page(fast: true, seed: 9, scale: 1.5, clip: clip), cairo = try page(fast: false, seed: 9, scale: 1.5, clip: clip)
        XCTAssertEqual(fast, cairo)
    }

    func testPixmansArithmetic() {
        // Transparent under anything: the source itself; white multiplied by a colour: that colour.
        XCTAssertEqual(MultiplyFill.multiply(0x7840_2010, 0), 0x7840_2010)
        XCTAssertEqual(MultiplyFill.multiply(0xff20_4080, 0xffff_ffff), 0xff20_4080)
        // Half-covered pixels take the source at half.
        XCTAssertEqual(MultiplyFill.times(0xff80_4020, 128), 0x8040_2010)
        XCTAssertEqual(MultiplyFill.plus(0xf0f0_0101, 0x2020_0101), 0xffff_0202)
        XCTAssertEqual(MultiplyFill.timesEach(0xff80_ff00, 0x80ff_8080), 0x8080_8000)
    }
}
