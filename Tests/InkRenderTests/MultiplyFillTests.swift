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
    private func page(fast: Bool, seed: UInt64, scale: Double, clip: Rect? = nil, second: Rect? = nil) throws -> [UInt32] {
        try pageAndFastFills(fast: fast, seed: seed, scale: scale, clip: clip, second: second).words
    }

    /// The page, and how many highlighters `MultiplyFill` drew (the rest: cairo).
    /// `second`: a clip inside the first (a repainted region of a page), set under the page's transform.
    private func pageAndFastFills(fast: Bool, seed: UInt64, scale: Double, clip: Rect? = nil, second: Rect? = nil) throws -> (words: [UInt32], fastFills: Int) {
        let saved = CairoContext.multiplyFills
        defer { CairoContext.multiplyFills = saved }
        CairoContext.multiplyFills = fast
        let surface = try ImageSurface(width: 160, height: 120)
        surface.fillRows(0, 120, with: RGBA(r: 250, g: 248, b: 240))
        let ctx = CairoContext(drawingInto: surface)
        ctx.setTransform(scale: scale, dx: 0.3, dy: -0.6)
        if let clip { ctx.clip(clip) }
        if let second { ctx.save(); ctx.identity(); ctx.clip(second); ctx.restore(); ctx.clip(second) }
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
        return (surface.words(), ctx.multiplyFill?.fills ?? 0)
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

    /// A page's edge on screen clips its highlighters: the mask is cut where cairo cuts the path.
    func testAClippedContextGetsCairosPixels() throws {
        let clips = [Rect(minX: 10.5, minY: 7.25, maxX: 70, maxY: 50), Rect(minX: 0.37, minY: 3.001, maxX: 99.9, maxY: 79.2),
                     Rect(minX: -20, minY: -10, maxX: 30.3, maxY: 200), Rect(minX: 12, minY: 9, maxX: 80, maxY: 60)]
        for (k, clip) in clips.enumerated() {
            for seed: UInt64 in 9...12 {
                for scale in [1.5, 1.0, 0.83] {
                    let second = k % 2 == 1 ? Rect(minX: 5.3, minY: 20.6, maxX: 61.1, maxY: 70.45) : nil
                    let (fast, fastFills) = try pageAndFastFills(fast: true, seed: seed, scale: scale, clip: clip, second: second)
                    let cairo = try page(fast: false, seed: seed, scale: scale, clip: clip, second: second)
                    XCTAssertGreaterThan(fastFills, 30, "clip \(k): the highlighters took the fast fill")
                    XCTAssertEqual(zip(fast, cairo).filter { $0 != $1 }.count, 0, "clip \(k) seed \(seed) scale \(scale)")
                }
            }
        }
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
