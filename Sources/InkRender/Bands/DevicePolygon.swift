import CCairo
import InkCore

/// A polygon mapped to a whole surface's device pixels once and cut at its lattice lines, as
/// `CairoContext.addPolygon` hands a polygon to cairo; filled later in pieces, each band of a banded render
/// taking the rows it holds (`CairoContext.fill(_:rowsFrom:color:)`). A stroke crossing several bands is so
/// mapped and cut once, not once per band (that was a tenth of the instructions of a zoomed view's render), and
/// each band's share is the whole surface's points moved up by whole rows, so the bands fill exactly the edges
/// one surface fills.
struct DevicePolygon: @unchecked Sendable {
    /// One closed ring of device points of the whole surface, lattice cuts included.
    let points: [Point]
}

/// User space → the device pixels of a whole surface, with the lattice its bands are cut on: what
/// `DevicePolygon`s are made with. A value, usable from every band's thread.
struct DeviceMap: @unchecked Sendable {
    private let matrix: cairo_matrix_t
    /// cairo's own inverse of `matrix` (`cairo_matrix_invert`, as its context keeps it for `cairo_device_to_user`).
    private let inverse: cairo_matrix_t
    private let lattice: DeviceLattice?

    init(matrix: cairo_matrix_t, lattice: DeviceLattice?) {
        self.matrix = matrix
        var inverse = matrix
        cairo_matrix_invert(&inverse)
        self.inverse = inverse
        self.lattice = lattice
    }

    /// `pts` (user space) in device pixels, cut where edges cross lattice lines; nil when a point lies beyond
    /// cairo's range or the cuts would pass the budget `addPolygon` allows (fill such a polygon band by band
    /// with `fillPolygon`).
    func polygon(_ pts: [Point]) -> DevicePolygon? {
        let n = pts.count
        guard n > 0 else { return nil }
        let m = matrix, safe = CairoContext.safeCoordinate
        var fits = true
        // Written in place, not appended: this runs for every vertex of every stroke in view.
        let dev = [Point](unsafeUninitializedCapacity: n) { buf, count in
            pts.withUnsafeBufferPointer { src in
                for i in 0..<n {
                    let p = src[i]
                    let d = Point(m.xx * p.x + m.xy * p.y + m.x0, m.yx * p.x + m.yy * p.y + m.y0)
                    guard abs(d.x) < safe, abs(d.y) < safe else { fits = false; break }
                    (buf.baseAddress! + i).initialize(to: d)
                    count = i + 1
                }
            }
        }
        guard fits else { return nil }
        guard let lattice else { return DevicePolygon(points: dev) }
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { cells -> DevicePolygon? in
            var cuts = 0, prev = lattice.cell(dev[n - 1])
            for i in 0..<n {
                let c = lattice.cell(dev[i])
                cells[i] = c
                cuts += abs(c - prev)
                prev = c
            }
            guard cuts > 0 else { return DevicePolygon(points: dev) }
            guard cuts <= max(8 * n, 4096) else { return nil }
            // Cut points as `addPolygon` makes them: device → user → device, as cairo maps a user-space point.
            var inverse = inverse
            let out = [Point](unsafeUninitializedCapacity: n + cuts) { buf, count in
                var k = 0
                func put(_ p: Point) { (buf.baseAddress! + k).initialize(to: p); k += 1 }
                put(dev[0])
                for i in 1...n {
                    let from = dev[i - 1], to = i == n ? dev[0] : dev[i]
                    if cells[i == n ? 0 : i] != cells[i - 1] {
                        lattice.forEachCut(from: from, to: to) { x, y in
                            var u = (x: x, y: y)
                            cairo_matrix_transform_point(&inverse, &u.x, &u.y)
                            put(Point(m.xx * u.x + m.xy * u.y + m.x0, m.yx * u.x + m.yy * u.y + m.y0))
                        }
                    }
                    if i < n { put(to) }
                }
                count = k
            }
            return DevicePolygon(points: out)
        }
    }
}
