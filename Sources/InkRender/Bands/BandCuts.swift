/// Where a banded render of the screen cuts its surface, by the work each band will hold as far as the strokes'
/// bounds tell it: more bands than cores, the heaviest started first and the last ones small, so that a core done
/// early takes a small band instead of waiting while the other ends a big one. (Rows cut evenly made bands whose
/// work differed by half, and the last of them left one core idle for 10–25 ms of a zoom step.)
/// Every inner cut is a lattice line of `CairoContext` (see `addPolygon`), so the bands' pixels are exactly one
/// surface's, wherever they are cut.
struct BandCuts {
    let height: Int
    /// Estimated work per row as differences: row y holds the sum of the first y + 1 entries.
    private var change: [Double]

    init(height: Int) {
        self.height = max(height, 0)
        change = [Double](repeating: 0, count: self.height + 1)
    }

    /// `work` spread evenly over device rows `y0`…`y1`; the part outside the surface is not counted.
    mutating func add(_ work: Double, rows y0: Double, _ y1: Double) {
        guard y1 > y0, work > 0, y0.isFinite, y1.isFinite else { return }
        let top = max(0, min(Double(height), y0)), bottom = max(0, min(Double(height), y1))
        guard bottom > top else { return }
        let perRow = work / max(y1 - y0, 1)
        change[Int(top)] += perRow
        change[Int(bottom.rounded(.up))] -= perRow
    }

    /// Row boundaries of at most `bands` bands, first 0 and last `height`, on the lattice of `mapping`: band i
    /// (from the top) gets a share of the work falling from `bands` to 1 (in proportion), as near as the lattice
    /// lines allow. With no work at all, the rows are shared out instead.
    func edges(mapping: DeviceMapping, bands: Int) -> [Int] {
        let lines = Self.latticeLines(height: height, mapping: mapping)
        let n = min(max(bands, 1), lines.count + 1)
        // Work above each row boundary 0…height.
        var above = [Double](repeating: 0, count: height + 1)
        var row = 0.0
        for y in 0..<height {
            row += change[y]
            above[y + 1] = above[y] + max(row, 0)
        }
        // No work known: the rows themselves are the work, cut by the same shares.
        if above[height] <= 0 { above = (0...height).map(Double.init) }
        let total = above[height]
        guard n > 1, total > 0 else { return [0, height] }
        let shares = (0..<n).map { Double(n - $0) }
        let whole = shares.reduce(0, +)
        var edges = [0]
        var target = 0.0, next = 0
        for i in 0..<(n - 1) {
            target += total * shares[i] / whole
            // The lattice line after the last cut whose work above is nearest the target.
            var best: Int?
            while next < lines.count {
                let y = lines[next]
                if best == nil || abs(above[y] - target) <= abs(above[best!] - target) { best = y; next += 1 } else { break }
            }
            guard let cut = best else { break }
            edges.append(cut)
        }
        edges.append(height)
        return edges
    }

    /// The lattice lines strictly inside a surface of `height` rows: where view y = 0 lands, floored (as the
    /// bands' contexts anchor it), plus whole steps.
    static func latticeLines(height: Int, mapping: DeviceMapping) -> [Int] {
        let step = CairoContext.latticeStep
        let anchor = mapping.latticeRow
        let first = anchor.isFinite ? Int(anchor.truncatingRemainder(dividingBy: Double(step)) + Double(step)) % step : 0
        return Array(stride(from: first == 0 ? step : first, to: height, by: step))
    }
}
