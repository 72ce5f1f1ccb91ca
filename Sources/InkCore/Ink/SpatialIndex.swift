/// A uniform grid over ink bounds, so erasing and region queries look only at nearby strokes.
/// Strokes spanning too many cells go to a short "large" list that every query checks.
public struct SpatialIndex: Sendable {
    public let cellSize: Double
    /// Above this many cells a stroke is kept in `large` instead (keeps huge coordinates from exploding the grid).
    public let maxCellsPerStroke: Int
    private var cells: [CellKey: [StrokeID]] = [:]
    private var large: [StrokeID] = []
    private var keys: [StrokeID: CellRange] = [:]

    struct CellKey: Hashable, Sendable { var x: Int32; var y: Int32 }
    struct CellRange: Hashable, Sendable { var x0, y0, x1, y1: Int32; var isLarge: Bool }

    public init(cellSize: Double = 256, maxCellsPerStroke: Int = 256) {
        self.cellSize = cellSize; self.maxCellsPerStroke = maxCellsPerStroke
    }

    public var count: Int { keys.count }

    private func cell(_ v: Double) -> Int32 {
        let c = (v / cellSize).rounded(.down)
        if c.isNaN { return 0 }
        return Int32(Swift.max(Swift.min(c, Double(Int32.max - 1)), Double(Int32.min + 1)))
    }

    private func range(_ r: Rect) -> CellRange {
        let x0 = cell(r.minX), y0 = cell(r.minY), x1 = cell(r.maxX), y1 = cell(r.maxY)
        // In Double: a page-spanning rect has ~2^64 cells, which would overflow Int64.
        let n = (Double(x1) - Double(x0) + 1) * (Double(y1) - Double(y0) + 1)
        return CellRange(x0: x0, y0: y0, x1: x1, y1: y1, isLarge: !(n <= Double(maxCellsPerStroke)))
    }

    public mutating func insert(_ id: StrokeID, bounds: Rect) {
        let r = range(bounds)
        keys[id] = r
        if r.isLarge { large.append(id); return }
        for y in r.y0...r.y1 { for x in r.x0...r.x1 { cells[CellKey(x: x, y: y), default: []].append(id) } }
    }

    public mutating func remove(_ id: StrokeID) {
        guard let r = keys.removeValue(forKey: id) else { return }
        if r.isLarge { if let i = large.firstIndex(of: id) { large.swapAt(i, large.count - 1); large.removeLast() }; return }
        for y in r.y0...r.y1 {
            for x in r.x0...r.x1 {
                let k = CellKey(x: x, y: y)
                guard var list = cells[k], let i = list.firstIndex(of: id) else { continue }
                list.swapAt(i, list.count - 1); list.removeLast()
                cells[k] = list.isEmpty ? nil : list
            }
        }
    }

    public mutating func removeAll() { cells = [:]; large = []; keys = [:] }

    /// Ids of strokes whose ink bounds may intersect `rect` (a superset; callers do the exact test).
    public func candidates(in rect: Rect) -> Set<StrokeID> {
        var out = Set(large)
        let r = range(rect)
        if r.isLarge {
            // A query bigger than the grid is cheaper as a scan of everything.
            out.formUnion(keys.keys)
            return out
        }
        for y in r.y0...r.y1 {
            for x in r.x0...r.x1 { if let list = cells[CellKey(x: x, y: y)] { out.formUnion(list) } }
        }
        return out
    }
}
