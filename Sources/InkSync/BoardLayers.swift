import InkCore

/// A replica's layers. The ledger knows every layer the board has (its page, its key among the page's layers, its
/// name and visibility, whether it is deleted); each local layer has a key that fits its place (`layerKeys`). The
/// log's layer entries are applied as `Edit.layers` steps through `Document.apply` and followed like every board
/// edit, each value last writer wins as for pages (a layer's name and its visibility each on its own); the outbox
/// sends what the local layers hold that the ledger lacks. A layer's items travel as strokes: each names its layer
/// (`BoardStroke.layer`, `moveItems`).
extension BoardReplica {
    /// The global id a local layer has, or will have when published (a page's first layer is named like its page).
    func boardLayerID(_ local: LayerID, page: PageID) -> BoardLayerID {
        if let g = ledger.globalLayerID(local: local) { return g }
        if local == page { return BoardLayerID(page: boardPageID(page)) }
        return BoardLayerID(client: client, number: local)
    }

    /// The ledger entry of a page's first layer, which every page brings along (unless the ledger has it already).
    mutating func ownLayer(of page: BoardPageID, local: PageID) {
        let g = BoardLayerID(page: page)
        guard ledger[layer: g] == nil else { return }
        ledger[layer: g] = .init(local: local, page: local)
        if layerKeys[local] == nil { layerKeys[local] = .first }
        pagesTouched = true
    }

    /// On load: every known page's first layer in the ledger, and keys for the local layers (the board's where it
    /// knows them, the rest fitted around them).
    mutating func startLayers() {
        for (g, e) in ledger.pages { ownLayer(of: g, local: e.local) }
        for e in ledger.layers.values { layerKeys[e.local] = e.key }
        for p in document.pages { fitLayerKeys(p) }
        for p in parked.values { fitLayerKeys(p.page) }
    }

    /// Keys that fit a page's local layer order; a page's first layer starts where the board gives it (`first`).
    mutating func fitLayerKeys(_ p: Page) {
        if layerKeys[p.id] == nil, p.layer(p.id) != nil { layerKeys[p.id] = .first }
        Self.fitKeys(p.layers.map(\.id), &layerKeys)
    }

    /// After the board placed a layer here (added, restored, moved): where its key now ties with, or runs against,
    /// a key given here and not yet published, the local layers get keys that fit their order again, and those go
    /// out next. Left as it was, a tie sorted by id on the other replicas and stayed in the author's order here.
    mutating func refitLayerKeys(_ page: PageID) {
        guard let p = self.page(page) else { return }
        let before = p.layers.map { layerKeys[$0.id] }
        fitLayerKeys(p)
        if p.layers.map({ layerKeys[$0.id] }) != before { pagesPending = true }
    }

    /// A local layer edit (already applied): items moved between layers are compared at the next outbox, and the
    /// layers of its pages (new or moved ones get keys that fit their places).
    mutating func performLayers(_ steps: [LayerStep]) {
        for st in steps {
            if case .moveItems(let p, let ids, _, _) = st { for id in ids { pendingStrokes[id] = p; touched.insert(id) } }
        }
        for id in Set(steps.map(\.page)) { if let p = document.page(id) { fitLayerKeys(p) } }
        pagesPending = true
    }

    // MARK: the log

    mutating func receiveLayers(_ change: BoardOperation.Change, own: Bool) {
        switch change {
        case .addLayer(let l): addLayer(l, own: own)
        case .deleteLayers(let ids): for id in ids { setLayerVisible(id, false, own: own) }
        case .restoreLayers(let ids): for id in ids { setLayerVisible(id, true, own: own) }
        case .moveLayers(let moves):
            var pages = Set<PageID>()
            for (id, key) in moves.sorted(by: { $0.key < $1.key }) {
                guard var e = ledger[layer: id] else { continue }
                let old = e.key
                e.key = key
                ledger[layer: id] = e
                pagesTouched = true
                if !own, layerKeys[e.local] == old { layerKeys[e.local] = key; pages.insert(e.page) }
            }
            for p in pages.sorted() { arrangeLayers(p) }
        case .lookLayers(let looks):
            var steps: [LayerStep] = []
            for (id, look) in looks.sorted(by: { $0.key < $1.key }) {
                guard var e = ledger[layer: id] else { continue }
                let old = e.look
                e.look = look
                ledger[layer: id] = e
                pagesTouched = true
                // Theirs, part by part: a part they changed is followed unless this replica changed that same part
                // and has not published it yet (it goes out next, the later writer). A rename here and a hide there
                // made at once both stay.
                guard !own, old != look, let l = page(e.page)?.layer(e.local) else { continue }
                let mine = l.look
                let followed = LayerLook(name: mine.name == old.name ? look.name : mine.name,
                                         visible: mine.visible == old.visible ? look.visible : mine.visible)
                if followed != mine { steps.append(.look(page: e.page, layer: e.local, from: mine, to: followed)) }
            }
            followLayers(steps)
        case .moveItems(let moves):
            var steps: [LayerStep] = []
            for (id, layer) in moves.sorted(by: { $0.key < $1.key }) {
                guard var e = ledger[id] else { continue }
                guard let to = ledger[layer: layer], to.page == e.page else { notes.append("move of \(id) to layer \(layer), not on its page, ignored"); continue }
                let old = e.layer
                e.layer = to.local
                ledger[id] = e
                touched.insert(e.local)
                guard !own, old != to.local else { continue }
                if let s = stroke(e.local, page: e.page) {
                    if s.layer == old { steps.append(.moveItems(page: e.page, items: [e.local], from: old, to: to.local)) }
                } else if var h = hidden[e.local], h.layer == old {
                    h.layer = to.local
                    // Kept out only because its layer was deleted (not erased here, a change still to publish): it
                    // shows again, on its new layer, or on the top layer when that is deleted here too (as ink
                    // whose layer is gone does; `show` tells the board). Kept out, it stayed hidden here for good
                    // once this replica brought the layer back, while the board showed it (seed 24186).
                    if e.visible, pendingStrokes[e.local] == nil { hidden[e.local] = nil; show(withOrder(h, e.order)) } else { hidden[e.local] = h }
                }
            }
            followLayers(steps)
            // An item whose layer is deleted here stays where it is, and the board hears of that place: compared
            // at the next outbox, so every replica ends with it on the same layer.
            for case .moveItems(let p, let ids, _, let to) in steps {
                for id in ids where stroke(id, page: p).map({ $0.layer != to }) ?? false { pendingStrokes[id] = p }
            }
        default: break
        }
    }

    /// Steps the board brought about: on shown pages one followed edit, on parked pages straight into the page.
    private mutating func followLayers(_ steps: [LayerStep]) {
        var shown: [LayerStep] = []
        for st in steps {
            if document.index(of: st.page) != nil { shown.append(st) } else { parked[st.page]?.page.apply(st) }
        }
        if !shown.isEmpty { follow(.layers(shown)) }
    }

    /// Where a layer of this key and id goes among the page's layers.
    private func place(_ key: PageKey, _ id: BoardLayerID, in p: Page) -> Int {
        p.layers.filter { (layerKeys[$0.id] ?? .first, boardLayerID($0.id, page: p.id)) < (key, id) }.count
    }

    private mutating func addLayer(_ l: BoardLayer, own: Bool) {
        guard ledger[layer: l.id] == nil else { notes.append("add of layer \(l.id), which exists, ignored"); return }
        guard let page = ledger[page: l.page]?.local else { notes.append("add of layer \(l.id) on page \(l.page), which does not exist, ignored"); return }
        pagesTouched = true
        if own && l.id.client == client {
            // My layer: already here (or deleted here since, an edit still to publish).
            ledger[layer: l.id] = .init(local: l.id.number, page: page, key: l.key, look: l.look, everyPage: l.everyPage)
            if layerKeys[l.id.number] == nil { layerKeys[l.id.number] = l.key }
            return
        }
        let local = makePageID()
        ledger[layer: l.id] = .init(local: local, page: page, key: l.key, look: l.look, everyPage: l.everyPage)
        layerKeys[local] = l.key
        guard let p = self.page(page) else { return }
        let layer = Layer(id: local, name: l.look.name, visible: l.look.visible, everyPage: l.everyPage)
        followLayers([.add(page: page, layer: layer, at: place(l.key, l.id, in: p))])
        refitLayerKeys(page)
    }

    private mutating func setLayerVisible(_ id: BoardLayerID, _ visible: Bool, own: Bool) {
        guard var e = ledger[layer: id] else { return }
        let before = e.visible
        e.visible = visible
        ledger[layer: id] = e
        pagesTouched = true
        guard !own, before != visible, let p = page(e.page) else { return }
        guard (p.layer(e.local) != nil) == before else { return }
        if visible {
            // Back with the items the board still shows on it (a deleted layer's items were kept hidden).
            var items: [Stroke] = []
            for (_, s) in hidden where s.page == e.page && s.layer == e.local {
                if let g = ledger.globalID(local: s.id), ledger[g]?.visible == true { items.append(s) }
            }
            for s in items { hidden[s.id] = nil; touched.insert(s.id) }
            let layer = Layer(id: e.local, name: e.look.name, visible: e.look.visible, everyPage: e.everyPage, drawing: Drawing(strokes: items))
            followLayers([.add(page: e.page, layer: layer, at: place(e.key, id, in: p))])
            refitLayerKeys(e.page)
        } else {
            // A page keeps one layer: a delete of its last one here is not applied (the board's next entries decide).
            guard p.layers.count > 1, let i = p.layerIndex(of: e.local) else { notes.append("layer \(id) is its page's last layer here; kept"); return }
            let l = p.layers[i]
            for s in l.drawing.strokes { hidden[s.id] = s; touched.insert(s.id) }
            followLayers([.delete(page: e.page, layer: l, at: i)])
        }
    }

    /// Puts a page's layers in key order (ties by global id).
    private mutating func arrangeLayers(_ page: PageID) {
        guard let p = self.page(page) else { return }
        func order(_ l: Layer) -> (PageKey, BoardLayerID) { (layerKeys[l.id] ?? .first, boardLayerID(l.id, page: page)) }
        let sorted = p.layers.sorted { order($0) < order($1) }
        var ids = p.layers.map(\.id)
        var steps: [LayerStep] = []
        for (i, l) in sorted.enumerated() where ids[i] != l.id {
            guard let j = ids.firstIndex(of: l.id) else { continue }
            steps.append(.move(page: page, from: j, to: i))
            ids.insert(ids.remove(at: j), at: i)
        }
        followLayers(steps)
        refitLayerKeys(page)
    }

    // MARK: the outbox

    /// Layers new, restored, moved or changed here (before the strokes, which may name them), and the layers deleted
    /// here (after the strokes, whose removes they follow).
    func layerChanges(_ shownAt: [PageID: Int]) -> (changes: [BoardOperation.Change], deletes: [BoardLayerID]) {
        var out: [BoardOperation.Change] = []
        var restores: [BoardLayerID] = [], moves: [BoardLayerID: PageKey] = [:], looks: [BoardLayerID: LayerLook] = [:]
        var here = Set<LayerID>()
        for p in document.pages {
            let pageKnown = ledger.globalPageID(local: p.id) != nil
            for l in p.layers {
                here.insert(l.id)
                guard let g = ledger.globalLayerID(local: l.id), let e = ledger[layer: g] else {
                    // A new page's first layer comes with the page.
                    if l.id == p.id && !pageKnown { continue }
                    out.append(.addLayer(BoardLayer(id: boardLayerID(l.id, page: p.id), page: boardPageID(p.id), key: layerKeys[l.id] ?? .first,
                                                    look: l.look, everyPage: l.everyPage)))
                    continue
                }
                if !e.visible { restores.append(g) }
                if let k = layerKeys[l.id], k != e.key { moves[g] = k }
                if l.look != e.look { looks[g] = l.look }
            }
        }
        if !restores.isEmpty { out.append(.restoreLayers(restores.sorted())) }
        if !moves.isEmpty { out.append(.moveLayers(moves)) }
        if !looks.isEmpty { out.append(.lookLayers(looks)) }
        let deletes = ledger.layers.compactMap { g, e in e.visible && shownAt[e.page] != nil && !here.contains(e.local) ? g : nil }
        return (out, deletes.sorted())
    }
}
