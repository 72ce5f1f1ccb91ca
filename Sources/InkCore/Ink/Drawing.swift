/// The strokes of one page in drawing order (bottom first), with their spatial index. `pageSize` and `background`
/// are what renderers of this page read; its `Page` keeps them in step with the page's format.
/// Drawing order is (order, id): ids grow monotonically and a new stroke's order is its id, so it goes on top;
/// an area-eraser piece keeps the order of the stroke it was cut from, so it stays at that stroke's place.
/// Restoring a stroke (undo, redo) puts it back exactly where it was.
public struct Drawing: Sendable {
    public static let defaultPageSize = Size(width: 1920, height: 1080)

    public var pageSize: Size
    public var background: RGBA
    public private(set) var strokes: [Stroke] = []
    public private(set) var index = SpatialIndex()
    /// The id the next new stroke gets; never reused within a document.
    public private(set) var nextStrokeID: StrokeID = 1
    /// The order of each stroke whose order is not its id (few: area-eraser pieces), so a lookup by id can
    /// binary-search the drawing order.
    private var reordered: [StrokeID: StrokeID] = [:]

    public init(pageSize: Size = Drawing.defaultPageSize, background: RGBA = .white, strokes: [Stroke] = []) {
        self.pageSize = pageSize; self.background = background
        // Sorted first, so building a drawing from stored strokes appends instead of moving the array around.
        let sorted = strokes.indices.dropFirst().allSatisfy({ strokes[$0 - 1].drawsBefore(strokes[$0]) })
            ? strokes : strokes.sorted { $0.drawsBefore($1) }
        for s in sorted { insert(s) }
    }

    public var pointCount: Int { strokes.reduce(0) { $0 + $1.points.count } }

    /// Min/max of all stored point coordinates, nil when empty.
    public var bounds: Rect? {
        Rect.union(of: strokes.lazy.compactMap(\.bounds))
    }

    public mutating func makeStrokeID() -> StrokeID {
        defer { nextStrokeID += 1 }
        return nextStrokeID
    }

    /// Lets a loader continue numbering after the ids it found (history may hold removed ids too).
    public mutating func reserveStrokeIDs(through id: StrokeID) {
        if id >= nextStrokeID { nextStrokeID = id + 1 }
    }

    /// Where the stroke with this id and order is, or would go, in `strokes`.
    private func position(of id: StrokeID, order: StrokeID) -> (found: Bool, index: Int) {
        var lo = 0, hi = strokes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (strokes[mid].drawKey, strokes[mid].id) < (Int64(bitPattern: order), id) { lo = mid + 1 } else { hi = mid }
        }
        return (lo < strokes.count && strokes[lo].id == id, lo)
    }

    private func position(of id: StrokeID) -> (found: Bool, index: Int) {
        position(of: id, order: reordered[id] ?? id)
    }

    public func stroke(_ id: StrokeID) -> Stroke? {
        let p = position(of: id)
        return p.found ? strokes[p.index] : nil
    }

    /// Inserts in drawing order; a stroke with an id already present replaces it (and may move).
    public mutating func insert(_ s: Stroke) {
        reserveStrokeIDs(through: s.claimedID)
        // A stroke with this id already present under another order is taken out first (it moves).
        if (reordered[s.id] ?? s.id) != s.order { remove(s.id) }
        let p = position(of: s.id, order: s.order)
        let b = s.inkBounds
        if p.found {
            // The same ink where it was (a look or order of the board confirmed): the index already has it, and
            // taking it out scans cells that grow with the page.
            let was = strokes[p.index].inkBounds
            strokes[p.index] = s
            if was == b { return }
            index.remove(s.id)
        } else {
            strokes.insert(s, at: p.index)
        }
        if s.order != s.id { reordered[s.id] = s.order }
        if let b { index.insert(s.id, bounds: b) }
    }

    /// Up to this many strokes go in one by one; a larger batch is merged in (`insert(contentsOf:)`).
    public static let smallBatch = 8

    /// Inserts many strokes, as `insert` one after the other would. When several of them move in the drawing
    /// order (a board's batch of my strokes coming back at the board's place), they go in by one merge: the cost
    /// is the page's strokes once, where moving each would shift the array once per stroke.
    public mutating func insert(contentsOf batch: [Stroke]) {
        var moving = 0
        for s in batch where (reordered[s.id] ?? s.id) != s.order && position(of: s.id).found { moving += 1 }
        guard moving > Self.smallBatch else { for s in batch { insert(s) }; return }
        // The last of each id wins, as one after the other.
        var last: [StrokeID: Int] = [:]
        for (k, s) in batch.enumerated() { last[s.id] = k }
        var incoming = batch.indices.filter { last[batch[$0].id] == $0 }.map { batch[$0] }
        incoming.sort { $0.drawsBefore($1) }
        var replaced: [StrokeID: Rect?] = [:]
        var kept: [Stroke] = []
        kept.reserveCapacity(strokes.count)
        for s in strokes { if last[s.id] != nil { replaced[s.id] = s.inkBounds } else { kept.append(s) } }
        var merged: [Stroke] = []
        merged.reserveCapacity(kept.count + incoming.count)
        var i = 0, j = 0
        while i < kept.count || j < incoming.count {
            if j == incoming.count || (i < kept.count && kept[i].drawsBefore(incoming[j])) { merged.append(kept[i]); i += 1 } else { merged.append(incoming[j]); j += 1 }
        }
        strokes = merged
        for s in incoming {
            reserveStrokeIDs(through: s.claimedID)
            reordered[s.id] = s.order != s.id ? s.order : nil
            let b = s.inkBounds
            if let was = replaced[s.id] {
                if was == b { continue }
                index.remove(s.id)
            }
            if let b { index.insert(s.id, bounds: b) }
        }
    }

    @discardableResult
    public mutating func remove(_ id: StrokeID) -> Stroke? {
        let p = position(of: id)
        guard p.found else { return nil }
        index.remove(id)
        reordered[id] = nil
        return strokes.remove(at: p.index)
    }

    @discardableResult
    public mutating func removeAll() -> [Stroke] {
        defer { strokes = []; index.removeAll(); reordered = [:] }
        return strokes
    }

    /// Applies a stroke edit forward (page and layer edits are the document's). Removing a missing stroke is
    /// ignored so replayed edits stay idempotent.
    public mutating func apply(_ edit: Edit) {
        guard !edit.changesPages, !edit.changesLayers else { return }
        if case .clear = edit { removeAll(); return }
        if case .transform(let t) = edit { place(t); return }
        for s in edit.removed { remove(s.id) }
        insert(contentsOf: edit.added)
    }

    /// Moves each stroke of a transform edit to its target placement (missing strokes are skipped); the index
    /// follows the moved ink.
    private mutating func place(_ t: StrokeTransform) {
        for (i, id) in t.ids.enumerated() where i < t.before.count {
            guard var s = stroke(id) else { continue }
            let p = t.target(i)
            s.setTransform(p.transform)
            s.style.width = p.width
            insert(s)
        }
    }

    /// Strokes whose ink bounds intersect `rect`, in drawing order. Uses the index, not a scan.
    public func strokes(in rect: Rect) -> [Stroke] {
        var stats = HitTestStats()
        return strokes(in: rect, stats: &stats)
    }

    /// Same, counting the index query and the strokes it made us examine into `stats`.
    public func strokes(in rect: Rect, stats: inout HitTestStats) -> [Stroke] {
        let ids = index.candidates(in: rect)
        stats.queries += 1
        stats.examined += ids.count
        // Positions in `strokes`, which is in drawing order: sorting them orders the strokes without moving any
        // (a view's render asks for thousands, on one thread, before its bands start).
        var at: [Int] = []
        at.reserveCapacity(ids.count)
        for id in ids {
            let p = position(of: id)
            guard p.found, let b = strokes[p.index].inkBounds, b.intersects(rect) else { continue }
            at.append(p.index)
        }
        at.sort()
        return at.map { strokes[$0] }
    }
}
