import Foundation

/// A polyline whose segments have their own widths (Xournal++'s pressure ink) as ONE outline: the union of the
/// segments' capsules (each as wide as its first point gives, as Xournal++ strokes them), traced as a left side
/// forward, a round end, a right side back and a round start, instead of one closed capsule per segment.
///
/// At a joint `p` between segments of radii r0 and r1 the union is bounded by the larger disc, radius R: each
/// side's offset line stops where it enters that disc (`s = √(R² − r²)` before or after `p`) and an arc of radius R
/// joins them (Rnote's and perfect-freehand's offset curves do the same with one radius). Where the side is the
/// inner one of a sharp turn, it takes both offsets as `outline` does, and where the arcs would not meet or the
/// disc reaches past half a neighbouring segment, the outline ends and begins anew there: every loop winds as the ink
/// does, so the non-zero fill is exactly the union. Near-straight joints whose radii differ by less than
/// `tolerance` get one mitred point a side. A 100-point pressure stroke so takes about 200 points, not 2,000.
extension StrokeShape {
    /// Largest distance (page units) the outline may stray from the union of capsules at a mitred joint: a twentieth
    /// of a pixel at 100 %.
    public static let pressureTolerance = 0.05

    /// The loops whose union is the ink, all wound alike: the outline's runs (one for ink of a sensible width),
    /// then any joints' discs.
    public static func pressureOutline(spine sp: [SpinePoint], options o: Options, tolerance: Double = pressureTolerance) -> [[Point]] {
        guard sp.count > 1 else { return [outline(spine: sp, options: o)] }
        // The segments of non-zero length, with their unit directions and radii.
        var pts: [Point] = [], dirs: [Point] = [], lens: [Double] = [], radii: [Double] = [], last = sp[0].point
        pts.reserveCapacity(sp.count); dirs.reserveCapacity(sp.count); lens.reserveCapacity(sp.count); radii.reserveCapacity(sp.count)
        for i in 0..<(sp.count - 1) {
            let a = sp[i].point, d = sp[i + 1].point - a, len = d.length
            guard len > 0, len.isFinite, sp[i].radius.isFinite else { continue }
            pts.append(a); dirs.append(d * (1 / len)); lens.append(len); radii.append(Swift.max(sp[i].radius, 0))
            last = sp[i + 1].point
        }
        guard !dirs.isEmpty else { return [] }
        pts.append(last)
        let caps = Swift.min(Swift.max(o.capSegments, 2), 64)
        let step = Double.pi / Double(caps)
        let cosMitre = cos(Swift.min(Swift.max(o.roundJoinAngle.isFinite ? o.roundJoinAngle : 0.35, 0), Double.pi))
        let m = dirs.count
        var left: [Point] = [], right: [Point] = [], loops: [[Point]] = [], discs: [[Point]] = []
        left.reserveCapacity(2 * m + 8); right.reserveCapacity(2 * m + 8)
        let rot = Rotation(angle: step).inverse
        // The stroke is traced in runs of segments; a run ends with its last capsule's round end, the next begins
        // with its first capsule's round start, so the runs' union is the capsules' union.
        var start = 0
        func begin(_ k: Int) {
            start = k
            let n = normal(dirs[k])
            left.append(pts[k] + n * radii[k]); right.append(pts[k] - n * radii[k])
        }
        func end(_ k: Int) {
            let ne = normal(dirs[k - 1]), r = radii[k - 1]
            left.append(pts[k] + ne * r); right.append(pts[k] - ne * r)
            var poly = left
            poly.reserveCapacity(left.count + right.count + 2 * caps)
            halfCircle(into: &poly, center: pts[k], start: ne * r, rotation: rot, segments: caps)
            poly.append(contentsOf: right.reversed())
            halfCircle(into: &poly, center: pts[start], start: normal(dirs[start]) * -radii[start], rotation: rot, segments: caps)
            loops.append(poly)
            left.removeAll(keepingCapacity: true); right.removeAll(keepingCapacity: true)
        }
        begin(0)
        for j in 1..<m {
            let p = pts[j], d0 = dirs[j - 1], d1 = dirs[j], r0 = radii[j - 1], r1 = radii[j]
            let na = normal(d0), nb = normal(d1)
            let R = Swift.max(r0, r1)
            let dot = d0.x * d1.x + d0.y * d1.y, cross = d0.x * d1.y - d0.y * d1.x
            if dot >= cosMitre, abs(r0 - r1) <= tolerance {
                // Nearly straight, nearly one width: one point a side where the offsets at R meet.
                var b = na + nb
                let bl = b.length
                b = bl > 1e-12 ? b * (1 / bl) : nb
                let scale = 1 / Swift.max(b.x * nb.x + b.y * nb.y, 0.5)
                if R * (scale - 1) <= tolerance {
                    left.append(p + b * (R * scale)); right.append(p - b * (R * scale))
                    continue
                }
            }
            let turn = atan2(cross, dot)
            let s0 = (R * R - r0 * r0).squareRoot(), s1 = (R * R - r1 * r1).squareRoot()
            // A disc reaching past half a neighbouring segment (a width far beyond the step, as a pressure spike
            // makes): the sides there would cross each other, so one run ends and the next begins at this joint.
            if s0 > lens[j - 1] / 2 || s1 > lens[j] / 2 || R <= 0 { end(j); begin(j); continue }
            let a0 = r0 < R ? acos(Swift.min(r0 / R, 1)) : 0, a1 = r1 < R ? acos(Swift.min(r1 / R, 1)) : 0
            var needDisc = false
            // Left side: from where the first offset enters the disc, clockwise (outwards for the left) to where
            // the second leaves it; the right side mirrors it.
            let sweepLeft = turn - a0 - a1
            if sweepLeft <= 0 {
                sweep(&left, center: p, from: p - d0 * s0 + na * r0, angle: sweepLeft, step: step)
                left.append(p + d1 * s1 + nb * r1)
            } else {
                inner(&left, p: p, from: p + na * r0, to: p + nb * r1, disc: r0 != r1)
                needDisc = needDisc || r0 != r1
            }
            let sweepRight = turn + a0 + a1
            if sweepRight >= 0 {
                sweep(&right, center: p, from: p - d0 * s0 - na * r0, angle: sweepRight, step: step)
                right.append(p + d1 * s1 - nb * r1)
            } else {
                inner(&right, p: p, from: p - na * r0, to: p - nb * r1, disc: r0 != r1)
                needDisc = needDisc || r0 != r1
            }
            if needDisc { discs.append(circle(center: p, radius: R, segments: 2 * caps)) }
        }
        end(m)
        return loops + discs
    }

    /// The inner side of a turn. One width: straight from one offset to the other (the little loop this makes lies
    /// in both segments and winds as they do). Two widths: in through the joint and out again, so nothing is
    /// wound against the ink; the joint's disc covers what lies between.
    private static func inner(_ side: inout [Point], p: Point, from: Point, to: Point, disc: Bool) {
        side.append(from)
        if disc { side.append(p) }
        side.append(to)
    }

    /// `from` and the points of an arc round `center` by `angle` radians (sign: direction), without its end.
    private static func sweep(_ out: inout [Point], center: Point, from: Point, angle: Double, step: Double) {
        out.append(from)
        let k = Int((abs(angle) / step).rounded(.up))
        guard k > 1 else { return }
        let rot = Rotation(angle: angle / Double(k))
        var v = from - center
        for _ in 1..<k { v = rot.apply(v); out.append(center + v) }
    }

    /// A full circle wound as every outline (clockwise on screen).
    private static func circle(center: Point, radius: Double, segments: Int) -> [Point] {
        let rot = Rotation(angle: 2 * Double.pi / Double(segments)).inverse
        var v = Point(radius, 0), out: [Point] = []
        out.reserveCapacity(segments)
        for _ in 0..<segments { out.append(center + v); v = rot.apply(v) }
        return out
    }
}
