import Foundation

/// A 2-D affine map (not Foundation's AffineTransform, which every Foundation importer would see too) in cairo's convention: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
/// A moved, scaled or rotated stroke keeps its points as drawn and carries one of these (identity when never moved).
public struct AffineMap: Hashable, Sendable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ dx: Double, _ dy: Double) -> AffineMap {
        AffineMap(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy)
    }

    /// Scales by (sx, sy) keeping `center` where it is.
    public static func scale(_ sx: Double, _ sy: Double, about center: Point) -> AffineMap {
        AffineMap(a: sx, b: 0, c: 0, d: sy, tx: center.x - sx * center.x, ty: center.y - sy * center.y)
    }

    /// Turns by `degrees` counter-clockwise as seen on screen (y grows downwards) about `center`.
    /// Multiples of 90° are exact (no 6e-17 residue from cos/sin), so four quarter turns give the identity back.
    public static func rotation(degrees: Double, about center: Point) -> AffineMap {
        var turn = degrees.truncatingRemainder(dividingBy: 360)
        if turn < 0 { turn += 360 }
        let cs: Double, sn: Double
        switch turn {
        case 0: (cs, sn) = (1, 0)
        case 90: (cs, sn) = (0, 1)
        case 180: (cs, sn) = (-1, 0)
        case 270: (cs, sn) = (0, -1)
        default: (cs, sn) = (cos(turn * .pi / 180), sin(turn * .pi / 180))
        }
        // Screen counter-clockwise with y down: (1, 0) goes to (cos, -sin).
        let r = AffineMap(a: cs, b: -sn, c: sn, d: cs, tx: 0, ty: 0)
        return AffineMap.translation(-center.x, -center.y).then(r).then(.translation(center.x, center.y))
    }

    public var isIdentity: Bool { self == .identity }
    /// True when every coefficient is a finite number.
    public var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite }
    public var determinant: Double { a * d - b * c }

    /// Largest scale (any of a, b, c, d) and offset a stroke may be placed with: far beyond any real resize or move
    /// (a page is at most 100,000 units wide), and small enough that placing any finite point a document or a board
    /// can hold stays a finite number.
    public static let maxScale = 1e9, maxOffset = 1e12

    /// A map a stroke may be placed with: finite, not squashing the plane flat, and within `maxScale` and
    /// `maxOffset`. A merely finite map (b = -1.7e308, found by fuzzing a board's log) placed ink at infinity.
    public var isUsable: Bool {
        isFinite && abs(a) <= Self.maxScale && abs(b) <= Self.maxScale && abs(c) <= Self.maxScale && abs(d) <= Self.maxScale
            && abs(tx) <= Self.maxOffset && abs(ty) <= Self.maxOffset && determinant != 0 && determinant.isFinite
    }
    /// True when the map is a pure translation (points move by exactly (tx, ty)).
    public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

    /// This map followed by `next`.
    public func then(_ next: AffineMap) -> AffineMap {
        // Translations compose exactly: only the offsets add.
        if isTranslation && next.isTranslation { return .translation(tx + next.tx, ty + next.ty) }
        return AffineMap(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                               c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                               tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    /// The inverse map, nil when it squashes the plane flat.
    public var inverted: AffineMap? {
        if isTranslation { return .translation(-tx, -ty) }
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineMap(a: ia, b: ib, c: ic, d: id, tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    public func apply(_ p: Point) -> Point {
        if isTranslation { return Point(p.x + tx, p.y + ty) }
        return Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    public func apply(_ p: InkPoint) -> InkPoint {
        let q = apply(p.point)
        return InkPoint(x: q.x, y: q.y, pressure: p.pressure, time: p.time)
    }

    /// The bounding box of a rect's four corners after the map.
    public func apply(_ r: Rect) -> Rect {
        if isTranslation { return Rect(minX: r.minX + tx, minY: r.minY + ty, maxX: r.maxX + tx, maxY: r.maxY + ty) }
        return Rect(bounding: [Point(r.minX, r.minY), Point(r.maxX, r.minY), Point(r.minX, r.maxY), Point(r.maxX, r.maxY)].map(apply))!
    }

    /// How much lengths grow on average: √|det|, what a line width follows when a selection is resized.
    public var widthScale: Double { abs(determinant).squareRoot() }
}
