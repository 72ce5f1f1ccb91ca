import InkCore

/// Horizontal device lines every `step` pixels through y = origin, where polygon edges are cut (see
/// `CairoContext.addPolygon`). Only lines between `minY` and `maxY` are used. (Vertical lines would let
/// patches with left/right edges match too, at about the same cost again; bands are full width.)
struct DeviceLattice {
    let step: Double
    let origin: Double
    let minY: Double
    let maxY: Double
    private let inverseStep: Double

    init(step: Double, origin: Double, minY: Double, maxY: Double) {
        self.step = step; self.origin = origin; self.minY = minY; self.maxY = maxY
        inverseStep = 1 / step
    }

    /// The lattice row holding `p` (a point on a line counts as the row below it): an edge whose ends share
    /// a row crosses no line.
    @inline(__always)
    func cell(_ p: Point) -> Int {
        let y = (p.y - origin) * inverseStep
        // Far outside (or not finite): clamped; such edges take the exact path whenever their ends differ.
        guard abs(y) < 1e12 else { return y.isNaN ? 0 : (y < 0 ? -1_000_000_000_000 : 1_000_000_000_000) }
        // Floored by hand: `rounded(.down)` is a call to libm's floor, once per vertex of every stroke drawn.
        let t = Int(y)
        return Double(t) > y ? t - 1 : t
    }

    /// Indices k of the lines origin + k·step strictly between a and b and inside minY…maxY (empty when k0 > k1).
    @inline(__always)
    private func lines(_ a: Double, _ b: Double) -> (k0: Double, k1: Double) {
        let from = max(min(a, b), minY), to = min(max(a, b), maxY)
        guard from < to else { return (1, 0) }
        var k0 = ((from - origin) / step).rounded(.down) + 1
        var k1 = ((to - origin) / step).rounded(.up) - 1
        // Rounding may put a candidate exactly on an end: that is not a cut.
        if origin + k0 * step <= min(a, b) { k0 += 1 }
        if origin + k1 * step >= max(a, b) { k1 -= 1 }
        return (k0, k1)
    }

    /// How many cuts the edge a→b gets.
    func cutCount(_ a: Point, _ b: Point) -> Int {
        let y = lines(a.y, b.y)
        return Int(max(0, y.k1 - y.k0 + 1))
    }

    /// Calls `body` with the points where the edge a→b crosses lattice lines, in order from a to b
    /// (y exact, x interpolated).
    @inline(__always)
    func forEachCut(from a: Point, to b: Point, _ body: (Double, Double) -> Void) {
        let (k0, k1) = lines(a.y, b.y)
        guard k0 <= k1 else { return }
        let down = b.y < a.y
        var k = down ? k1 : k0
        while k0 <= k && k <= k1 {
            let y = origin + k * step
            body(a.x + (b.x - a.x) * ((y - a.y) / (b.y - a.y)), y)
            k += down ? -1 : 1
        }
    }
}
