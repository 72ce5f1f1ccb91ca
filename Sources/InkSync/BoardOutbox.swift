import InkCore

extension BoardReplica {
    // MARK: the outbox

    /// What this replica holds that the board does not, among what local edits named since the board last
    /// caught up (`pendingStrokes`, `pagesPending`): the operations that make the board's state equal the local
    /// document there. New pages first, then page changes, strokes added (in drawing order), cuts as a `replace`
    /// of the original they came from, erases and clears as a `remove` of exactly the strokes that were visible
    /// here, changes of look and order, and deleted pages last. Nothing pending: nothing is looked at.
    public func outbox(chunk: Int = 10_000) -> [BoardOperation.Change] {
        guard !pendingStrokes.isEmpty || pagesPending else { return [] }
        var out: [BoardOperation.Change] = []
        var shownAt: [PageID: Int] = [:]
        for (i, p) in document.pages.enumerated() { shownAt[p.id] = i }
        let layers = pagesPending ? layerChanges(shownAt) : (changes: [], deletes: [])
        if pagesPending { out += pageChanges(shownAt) + layers.changes }
        out += strokeChanges(shownAt, chunk: chunk)
        if !layers.deletes.isEmpty { out.append(.deleteLayers(layers.deletes)) }
        let deletes = pagesPending ? pageDeletes(shownAt) : []
        if !deletes.isEmpty { out.append(.deletePages(deletes.sorted())) }
        return out
    }

    /// Drops what the board has caught up with from the pending sets; call it when no batch of this replica's is
    /// on its way (the comparison then is final). Costs in proportion to what is pending.
    public mutating func settle() {
        placeWaiting()
        guard !pendingStrokes.isEmpty || pagesPending else { return }
        var shownAt: [PageID: Int] = [:]
        for (i, p) in document.pages.enumerated() { shownAt[p.id] = i }
        if pagesPending, pageChanges(shownAt).isEmpty, pageDeletes(shownAt).isEmpty, layerChanges(shownAt).changes.isEmpty, layerChanges(shownAt).deletes.isEmpty { pagesPending = false }
        pendingStrokes = pendingStrokes.filter { differs($0.key, page: $0.value, shownAt) }
    }

    /// Everything compared at the next outbox: every stroke the board knows, every local one, the pages.
    mutating func markAllPending() {
        for (_, e) in ledger.entries { pendingStrokes[e.local] = e.page }
        for p in document.pages { for s in p.strokes { pendingStrokes[s.id] = p.id } }
        for (id, p) in parked { for s in p.page.strokes { pendingStrokes[s.id] = id } }
        pagesPending = true
    }

    /// True when nothing waits to be published.
    public var isSettled: Bool { pendingStrokes.isEmpty && !pagesPending }

    /// A pending local stroke the board holds otherwise (or not at all, while it is drawn here).
    private func differs(_ local: StrokeID, page: PageID, _ shownAt: [PageID: Int]) -> Bool {
        guard let gid = ledger.globalID(local: local), let e = ledger[gid] else {
            return shownAt[page].map { document.pages[$0].stroke(local) != nil } ?? false
        }
        let s = shownAt[e.page].map { document.pages[$0].stroke(e.local) } ?? parked[e.page]?.page.stroke(e.local)
        // Not here: nothing to publish unless the board shows it. A look of mine on a hidden copy goes out when it
        // is shown again (a local restore names it; the board restoring it marks it pending, `setVisible`), so a
        // moved-then-erased stroke never keeps the replica from settling (and from writing snapshots).
        guard let s else { return e.visible }
        return !e.visible || StrokeLook(of: s) != e.look || s.order != e.order || s.layer != e.layer
    }

    /// The confirmed stroke at `order` that is not drawn here (lowest id first), if any.
    private func goneOriginal(order: UInt64, _ shownAt: [PageID: Int]) -> BoardStrokeID? {
        ledger.byOrder[order]?.sorted().first { gid in
            guard let e = ledger[gid] else { return false }
            return (shownAt[e.page].map { document.pages[$0].stroke(e.local) } ?? parked[e.page]?.page.stroke(e.local)) == nil
        }
    }

    private func pageDeletes(_ shownAt: [PageID: Int]) -> [BoardPageID] {
        ledger.pages.compactMap { gid, e in e.visible && shownAt[e.local] == nil ? gid : nil }
    }

    /// New pages, restored, moved and reformatted ones (deletes go last, `pageDeletes`).
    private func pageChanges(_ shownAt: [PageID: Int]) -> [BoardOperation.Change] {
        var out: [BoardOperation.Change] = []
        var restores: [BoardPageID] = []
        var moves: [BoardPageID: PageKey] = [:], formats: [BoardPageID: PageFormat] = [:]
        for (gid, e) in ledger.pages {
            let here = shownAt[e.local] != nil
            if !e.visible && here { restores.append(gid) }
            if let k = keys[e.local], k != e.key, here { moves[gid] = k }
            if let f = here ? document.pages[shownAt[e.local]!].format : parked[e.local]?.format, f != e.format { formats[gid] = f }
        }
        for p in document.pages where ledger.globalPageID(local: p.id) == nil {
            out.append(.addPage(BoardPage(id: boardPageID(p.id), key: keys[p.id] ?? .first, format: p.format)))
        }
        if !restores.isEmpty { out.append(.restorePages(restores.sorted())) }
        if !moves.isEmpty { out.append(.movePages(moves)) }
        if !formats.isEmpty { out.append(.formatPages(formats)) }
        return out
    }

    /// The pending strokes' operations.
    private func strokeChanges(_ shownAt: [PageID: Int], chunk: Int) -> [BoardOperation.Change] {
        var out: [BoardOperation.Change] = []
        // Strokes the board knows.
        var removes: [BoardStrokeID] = [], strokeRestores: [BoardStrokeID] = []
        var looks: [LookChange] = []
        var fronts: [(Stroke, BoardStrokeID)] = [], backs: [(Stroke, BoardStrokeID)] = []
        var reorders: [BoardStrokeID: UInt64] = [:]
        var layerMoves: [BoardStrokeID: BoardLayerID] = [:]
        var gone: [UInt64: BoardStrokeID] = [:]   // board order → confirmed stroke no longer drawn here
        for (local, _) in pendingStrokes {
            guard let gid = ledger.globalID(local: local), let e = ledger[gid] else { continue }
            let s = shownAt[e.page].map { document.pages[$0].stroke(e.local) } ?? parked[e.page]?.page.stroke(e.local)
            let here = s != nil
            if e.visible && !here { removes.append(gid) }
            if !e.visible && here { strokeRestores.append(gid) }
            guard let s else { gone[e.order] = gone[e.order].map { Swift.min($0, gid) } ?? gid; continue }
            let look = StrokeLook(of: s)
            if look != e.look {
                looks.append(LookChange(id: gid, transform: look.transform == e.look.transform ? nil : look.transform,
                                        width: look.width == e.look.width ? nil : look.width,
                                        color: look.color == e.look.color ? nil : look.color))
            }
            if s.layer != e.layer { layerMoves[gid] = boardLayerID(s.layer, page: e.page) }
            if s.order != e.order {
                // Back where it was before the last front or back (an undo): exactly there.
                if s.order == e.was { reorders[gid] = s.order } else if s.drawKey > Int64(bitPattern: e.order) { fronts.append((s, gid)) } else { backs.append((s, gid)) }
            }
        }
        // Strokes new here, on shown pages (a parked page's new strokes wait until it is back).
        var adds: [BoardOperation.Change] = []
        var pieces: [BoardStrokeID: [BoardStroke]] = [:]
        var fresh: [(page: Int, stroke: Stroke)] = []
        for (local, page) in pendingStrokes where ledger.globalID(local: local) == nil {
            guard let i = shownAt[page], let s = document.pages[i].stroke(local) else { continue }
            fresh.append((i, s))
        }
        fresh.sort { $0.page != $1.page ? $0.page < $1.page : $0.stroke.drawsBefore($1.stroke) }
        for (i, s) in fresh {
            let page = boardPageID(document.pages[i].id)
            let gid = BoardStrokeID(client: client, number: s.id)
            var board = BoardStroke(id: gid, page: page, style: s.style, points: s.drawnPoints, transform: s.transform, shape: s.shape, content: s.content)
            if s.layer != s.page { board.layer = boardLayerID(s.layer, page: s.page) }
            // A piece of a stroke the board knows: its order is that stroke's board order (and its layer that
            // stroke's layer; one on another goes there with a `moveItems` once confirmed).
            if s.order != s.id, let original = gone[s.order] ?? goneOriginal(order: s.order, shownAt) {
                var piece = board
                piece.place = original
                piece.layer = nil
                pieces[original, default: []].append(piece)
            } else {
                adds.append(.add(board))
            }
        }
        out += adds
        var cutOriginals = Set<BoardStrokeID>()
        for original in pieces.keys.sorted() {
            out.append(.replace(removed: [original], added: pieces[original]!))
            cutOriginals.insert(original)
        }
        removes = removes.filter { !cutOriginals.contains($0) }.sorted()
        for i in stride(from: 0, to: removes.count, by: chunk) { out.append(.remove(Array(removes[i..<min(i + chunk, removes.count)]))) }
        strokeRestores.sort()
        for i in stride(from: 0, to: strokeRestores.count, by: chunk) {
            out.append(.restore(Array(strokeRestores[i..<min(i + chunk, strokeRestores.count)])))
        }
        looks.sort { $0.id < $1.id }
        for i in stride(from: 0, to: looks.count, by: chunk) { out.append(.look(Array(looks[i..<min(i + chunk, looks.count)]))) }
        // In drawing order, so strokes moved together keep their order among themselves.
        let step = min(chunk, OperationCodec.maxReordered)
        let front = fronts.sorted { $0.0.drawsBefore($1.0) }.map(\.1), back = backs.sorted { $0.0.drawsBefore($1.0) }.map(\.1)
        for i in stride(from: 0, to: front.count, by: step) { out.append(.front(Array(front[i..<min(i + step, front.count)]))) }
        // Each back entry goes below the one before: the last group sent is the bottom one.
        let backGroups = stride(from: 0, to: back.count, by: step).map { Array(back[$0..<min($0 + step, back.count)]) }
        for g in backGroups.reversed() { out.append(.back(g)) }
        if !reorders.isEmpty { out.append(.reorder(reorders)) }
        let moved = layerMoves.sorted { $0.key < $1.key }
        for i in stride(from: 0, to: moved.count, by: chunk) {
            out.append(.moveItems(Dictionary(uniqueKeysWithValues: moved[i..<min(i + chunk, moved.count)].map { ($0.key, $0.value) })))
        }
        return out
    }

    /// Numbers outbox changes as this client's next operations.
    public func operations(_ changes: [BoardOperation.Change]) -> [BoardOperation] {
        let first = nextOperationNumber
        return changes.enumerated().map { BoardOperation(client: client, number: first + UInt64($0.offset), change: $0.element) }
    }
}
