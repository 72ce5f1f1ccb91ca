/// A page's items across its layers: what the document, the editor and the store ask of a page as a whole.
/// Each item is on the layer it names (`Stroke.layer`); one naming a layer the page does not have (an untrusted
/// file or history) goes to the top layer, so an edit never loses ink.
extension Page {
    /// Every item, layer by layer from the bottom, each layer in drawing order (hidden layers included).
    public var strokes: [Stroke] {
        if layers.count == 1 { return layers[0].drawing.strokes }
        return layers.flatMap(\.drawing.strokes)
    }
    public var strokeCount: Int { layers.reduce(0) { $0 + $1.drawing.strokes.count } }
    public var pointCount: Int { layers.reduce(0) { $0 + $1.drawing.pointCount } }
    /// Bounds of every item's points, hidden layers included (an endless page's frame holds all of them).
    public var bounds: Rect? { Rect.union(of: layers.lazy.compactMap(\.drawing.bounds)) }
    /// The drawings of the shown layers, bottom to top: what renderers draw.
    public var shownDrawings: [Drawing] { layers.filter(\.visible).map(\.drawing) }
    /// The shown items, bottom layer first, each layer in drawing order.
    public var shownStrokes: [Stroke] {
        if layers.count == 1 { return layers[0].visible ? layers[0].drawing.strokes : [] }
        return layers.filter(\.visible).flatMap(\.drawing.strokes)
    }
    /// Shown items whose ink meets `rect`, bottom layer first: the index of each shown layer, never a scan.
    public func shownStrokes(in rect: Rect) -> [Stroke] {
        if layers.count == 1 { return layers[0].visible ? layers[0].drawing.strokes(in: rect) : [] }
        return layers.filter(\.visible).flatMap { $0.drawing.strokes(in: rect) }
    }
    /// Every item in one drawing, for callers that count, look up or compare a page's items (one-page files, tests).
    /// A drawing orders items by their own order, not by layer, so renderers draw `shownDrawings` instead.
    public var flattened: Drawing {
        if layers.count == 1 { return layers[0].drawing }
        let d = layers[0].drawing
        return Drawing(pageSize: d.pageSize, background: d.background, strokes: strokes)
    }

    /// The next stroke id the drawings would give (the document keeps numbering past it).
    var nextStrokeID: StrokeID { layers.reduce(1) { Swift.max($0, $1.drawing.nextStrokeID) } }

    /// Place of the layer with this id, bottom first.
    public func layerIndex(of id: LayerID) -> Int? { layers.firstIndex { $0.id == id } }
    public func layer(_ id: LayerID) -> Layer? { layerIndex(of: id).map { layers[$0] } }

    /// The place of the layer holding item `id` (its own layer is looked at first).
    public func layerIndex(ofItem id: StrokeID, hint: LayerID? = nil) -> Int? {
        if let hint, let i = layerIndex(of: hint), layers[i].drawing.stroke(id) != nil { return i }
        return layers.firstIndex { $0.drawing.stroke(id) != nil }
    }

    public func stroke(_ id: StrokeID) -> Stroke? {
        if layers.count == 1 { return layers[0].drawing.stroke(id) }
        for l in layers { if let s = l.drawing.stroke(id) { return s } }
        return nil
    }

    /// True when `a` draws before (below) `b` on this page: the lower layer first, then the drawing order.
    public func drawsBefore(_ a: Stroke, _ b: Stroke) -> Bool {
        if a.layer != b.layer {
            let la = layerIndex(of: a.layer) ?? Int.max, lb = layerIndex(of: b.layer) ?? Int.max
            if la != lb { return la < lb }
        }
        return a.drawsBefore(b)
    }

    /// Puts an item on the layer it names (the top one when that is missing), replacing an item of its id there.
    public mutating func insert(_ s: Stroke) {
        var s = s
        let i = layerIndex(of: s.layer) ?? layers.count - 1
        if layers[i].id != s.layer { s.layer = layers[i].id }
        layers[i].drawing.insert(s)
    }

    @discardableResult
    public mutating func remove(_ id: StrokeID, hint: LayerID? = nil) -> Stroke? {
        guard let i = layerIndex(ofItem: id, hint: hint) else { return nil }
        return layers[i].drawing.remove(id)
    }

    /// Applies a stroke edit forward (page and layer edits are the document's). Removing a missing item is ignored
    /// so replayed edits stay idempotent.
    public mutating func apply(_ edit: Edit) {
        if case .transform(let t) = edit {
            for (k, id) in t.ids.enumerated() where k < t.before.count {
                guard let i = layerIndex(ofItem: id), var s = layers[i].drawing.stroke(id) else { continue }
                let p = t.target(k)
                s.setTransform(p.transform)
                s.style.width = p.width
                layers[i].drawing.insert(s)
            }
            return
        }
        // An item replaced by one of the same id on the same layer (a board's copy of it, a restyle) is overwritten
        // in place by `insert` (moved when its order changed): taking it out first would shift the drawing's
        // array twice, a cost that grows with the page.
        var sameLayer: [StrokeID: Int] = [:]
        for s in edit.added { sameLayer[s.id] = layerIndex(of: s.layer) ?? layers.count - 1 }
        for s in edit.removed {
            if let l = sameLayer[s.id], layerIndex(ofItem: s.id, hint: s.layer) == l { continue }
            remove(s.id, hint: s.layer)
        }
        if edit.added.count <= Drawing.smallBatch { for s in edit.added { insert(s) }; return }
        // Many at once (a board's batch): each layer's drawing takes its share in one go.
        var byLayer: [Int: [Stroke]] = [:]
        for var s in edit.added {
            let i = layerIndex(of: s.layer) ?? layers.count - 1
            if layers[i].id != s.layer { s.layer = layers[i].id }
            byLayer[i, default: []].append(s)
        }
        for (i, list) in byLayer.sorted(by: { $0.key < $1.key }) { layers[i].drawing.insert(contentsOf: list) }
    }

    /// The place of the layer a delete step takes away: at the step's place, or wherever it is now.
    private func index(deletedBy l: Layer, at: Int) -> Int? {
        at >= 0 && at < layers.count && layers[at].id == l.id ? at : layerIndex(of: l.id)
    }

    /// The items a delete step finds on its layer but does not name: someone else's, put there by a shared board
    /// after the edit was made (an undo of adding a layer they drew on). They are not the edit's to take, so
    /// `apply` moves them to the top layer, as ink whose layer is gone goes there.
    public func strays(of step: LayerStep) -> [Stroke] {
        guard case .delete(_, let l, let at) = step, layers.count > 1, let i = index(deletedBy: l, at: at) else { return [] }
        return layers[i].drawing.strokes.filter { l.drawing.stroke($0.id) == nil }
    }

    /// Applies one layer step to this page. Total: a step naming a missing layer or a place out of range changes
    /// nothing, and the last layer is never taken away.
    public mutating func apply(_ step: LayerStep) {
        switch step {
        case .add(_, var l, let at):
            guard layerIndex(of: l.id) == nil else { return }
            // An item of the layer shown on another one meanwhile (a shared board moved it there while the layer
            // was deleted here) comes back with the layer: an item is on one layer only.
            for s in l.drawing.strokes { if let i = layerIndex(ofItem: s.id) { layers[i].drawing.remove(s.id) } }
            l.drawing.pageSize = pageSize
            layers.insert(l, at: Swift.min(Swift.max(at, 0), layers.count))
            syncDrawings()
        case .delete(_, let l, let at):
            guard layers.count > 1, let i = index(deletedBy: l, at: at) else { return }
            let strays = strays(of: step)
            layers.remove(at: i)
            if !strays.isEmpty {
                let top = layers.count - 1
                layers[top].drawing.insert(contentsOf: strays.map { var s = $0; s.layer = layers[top].id; return s })
            }
        case .move(_, let from, let to):
            guard layers.indices.contains(from), layers.indices.contains(to), from != to else { return }
            layers.insert(layers.remove(at: from), at: to)
        case .look(_, let id, let from, let to):
            guard let i = layerIndex(of: id) else { return }
            layers[i].look = layers[i].look.changed(from: from, to: to)
        case .moveItems(_, let ids, let from, let to):
            guard let f = layerIndex(of: from), let t = layerIndex(of: to), f != t else { return }
            for id in ids {
                guard var s = layers[f].drawing.remove(id) else { continue }
                s.layer = to
                layers[t].drawing.insert(s)
            }
        }
    }
}
