/// Which layers a layer command acts on: one layer of the current page (0-based place, bottom first), or the
/// layers of a name on every page (a notebook layer).
public enum LayerTarget: Hashable, Sendable {
    case index(Int)
    case name(String)
}

/// A layer command that cannot be done (no such layer); the message says why, in the user's words.
public struct LayerError: Error, Hashable, Sendable, CustomStringConvertible {
    public var wording: Wording
    public var message: String { wording.description }
    public init(_ text: String, _ values: CustomStringConvertible...) { wording = Wording(text, values) }
    public var description: String { message }
}

/// Layers as commands: each change is one `Edit.layers` through `perform` (one undo step, stored and shared like any
/// edit); choosing the current layer is not an edit. New ink, shapes, text and pictures go to the current layer.
extension Editor {
    /// Place (bottom first) of the layer input goes to on the current page.
    public var currentLayer: Int { currentLayer(of: page) }
    /// The layer input goes to.
    public var layer: Layer { page.layers[currentLayer] }

    func currentLayer(of p: Page) -> Int {
        if let id = currentLayers[p.id], let i = p.layerIndex(of: id) { return i }
        return p.layers.count - 1
    }

    /// The places of the layers erasers and selection reach on `p`: the current one, or every visible one. A
    /// hidden layer is never reached: what cannot be seen is not erased or selected.
    func reachedLayers(of p: Page) -> [Int] {
        switch layerScope {
        case .current:
            let i = currentLayer(of: p)
            return p.layers[i].visible ? [i] : []
        case .visible:
            return p.layers.indices.filter { p.layers[$0].visible }
        }
    }

    /// Makes layer `index` (0-based, bottom first; clamped) of the current page current. Not an edit.
    public func selectLayer(_ index: Int) {
        let l = page.layers[min(max(index, 0), page.layers.count - 1)]
        if currentLayers[page.id] != l.id, layerScope == .current { selection = [] }
        currentLayers[page.id] = l.id
    }

    /// The layers a new page gets: one of its own ("Layer 1", the page's id) where the current page's own layers are,
    /// and an empty copy of every notebook layer, in the current page's order. The layer of the current layer's
    /// name becomes current there.
    func layersForNewPage(_ id: PageID) -> [Layer] {
        var out: [Layer] = []
        var own = false
        for l in page.layers {
            if l.everyPage {
                out.append(Layer(id: makeLayerID(), name: l.name, visible: l.visible, everyPage: true))
            } else if !own {
                own = true
                out.append(Layer(id: id))
            }
        }
        if !own { out.insert(Layer(id: id), at: 0) }
        let current = layer
        currentLayers[id] = current.everyPage ? out.first { $0.everyPage && $0.name == current.name }?.id ?? id : id
        return out
    }

    private func makeLayerID() -> LayerID { makePageID() }

    /// A new layer above the current one that becomes current; with `allPages`, a notebook layer: one above the
    /// current layer of every page (and on pages added later), all in one edit.
    @discardableResult
    public func addLayer(named name: String? = nil, allPages: Bool = false) -> Update {
        let name = Self.layerName(name) ?? "Layer \(page.layers.count + 1)"
        var steps: [LayerStep] = []
        for p in allPages ? document.pages : [page] {
            let l = Layer(id: makeLayerID(), name: name, everyPage: allPages)
            steps.append(.add(page: p.id, layer: l, at: currentLayer(of: p) + 1))
        }
        return perform(.layers(steps))
    }

    /// Renames the layer(s).
    @discardableResult
    public func renameLayer(_ target: LayerTarget, to name: String) throws -> Update {
        let name = Self.layerName(name) ?? Layer.defaultName
        return try setLooks(target) { $0.name = name }
    }

    /// Shows or hides the layer(s).
    @discardableResult
    public func setLayerVisible(_ target: LayerTarget, _ visible: Bool) throws -> Update {
        try setLooks(target) { $0.visible = visible }
    }

    private func setLooks(_ target: LayerTarget, _ change: (inout LayerLook) -> Void) throws -> Update {
        var steps: [LayerStep] = []
        for (p, i) in try layers(target) {
            let l = document.pages[p].layers[i]
            var to = l.look
            change(&to)
            if to != l.look { steps.append(.look(page: document.pages[p].id, layer: l.id, from: l.look, to: to)) }
        }
        return steps.isEmpty ? .none : perform(.layers(steps))
    }

    /// Deletes the layer(s) with their items. A page never loses its last layer: deleting it leaves one empty
    /// "Layer 1" in the same edit.
    @discardableResult
    public func deleteLayer(_ target: LayerTarget) throws -> Update {
        var steps: [LayerStep] = []
        var byPage: [(page: Int, places: [Int])] = []
        for (p, i) in try layers(target) {
            if byPage.last?.page == p { byPage[byPage.count - 1].places.append(i) } else { byPage.append((p, [i])) }
        }
        for (p, places) in byPage {
            let page = document.pages[p]
            if places.count == page.layers.count {
                steps.append(.add(page: page.id, layer: Layer(id: makeLayerID()), at: page.layers.count))
            }
            // From the top, so each place is still right when its step is applied.
            for i in places.sorted(by: >) { steps.append(.delete(page: page.id, layer: page.layers[i], at: i)) }
        }
        selection.subtract(steps.flatMap { st -> [StrokeID] in
            if case .delete(_, let l, _) = st { return l.drawing.strokes.map(\.id) }
            return []
        })
        return perform(.layers(steps))
    }

    /// Moves the layer(s) `delta` places up (+1) or down (-1); a layer at the top or bottom stays.
    @discardableResult
    public func moveLayer(_ target: LayerTarget, by delta: Int) throws -> Update {
        var steps: [LayerStep] = []
        var places: [Int: [LayerID]] = [:]
        for (p, i) in try layers(target) { places[p, default: []].append(document.pages[p].layers[i].id) }
        for p in places.keys.sorted() {
            var ids = document.pages[p].layers.map(\.id)
            let moving = places[p] ?? []
            // Top first when going up, so two neighbours of one name move together instead of swapping.
            for id in delta > 0 ? moving.reversed() : moving {
                guard let from = ids.firstIndex(of: id) else { continue }
                let to = from + delta
                guard delta != 0, ids.indices.contains(to), !moving.contains(ids[to]) else { continue }
                ids.insert(ids.remove(at: from), at: to)
                steps.append(.move(page: document.pages[p].id, from: from, to: to))
            }
        }
        return steps.isEmpty ? .none : perform(.layers(steps))
    }

    /// Moves the selected items to layer `index` (0-based) of the current page, which becomes current.
    @discardableResult
    public func moveSelection(toLayer index: Int) throws -> Update {
        guard page.layers.indices.contains(index) else { throw noLayer(index) }
        let target = page.layers[index].id
        var from: [LayerID: [StrokeID]] = [:]
        for s in selectedStrokes where s.layer != target { from[s.layer, default: []].append(s.id) }
        currentLayers[page.id] = target
        guard !from.isEmpty else { return .none }
        let steps = from.keys.sorted().map { LayerStep.moveItems(page: page.id, items: from[$0] ?? [], from: $0, to: target) }
        return perform(.layers(steps))
    }

    /// (page, place) of every layer the target names, pages in order, places bottom first.
    private func layers(_ target: LayerTarget) throws -> [(Int, Int)] {
        switch target {
        case .index(let i):
            guard page.layers.indices.contains(i) else { throw noLayer(i) }
            return [(currentPage, i)]
        case .name(let name):
            var out: [(Int, Int)] = []
            for (p, page) in document.pages.enumerated() {
                for (i, l) in page.layers.enumerated() where l.name == name { out.append((p, i)) }
            }
            guard !out.isEmpty else { throw LayerError("no page has a layer named {0}", EventLog.quoted(name)) }
            return out
        }
    }

    private func noLayer(_ i: Int) -> LayerError {
        LayerError("page {0} has no layer {1} (it has {2})", currentPage + 1, i + 1, page.layers.count)
    }

    /// A layer name as kept: without control characters, at most `Layer.maxNameLength` characters; nil when empty.
    static func layerName(_ name: String?) -> String? {
        guard let name else { return nil }
        let clean = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }).prefix(Layer.maxNameLength))
        return clean.isEmpty ? nil : clean
    }

    /// After a layer edit was applied (or undone): its first page is shown unless the current page is among its
    /// pages; a layer it added becomes current there, and a deleted current layer leaves the one below current.
    func followLayers(through steps: [LayerStep]) {
        let pages = Set(steps.map(\.page))
        if !pages.contains(page.id), let first = steps.first, let i = document.index(of: first.page) { currentPage = i }
        for st in steps {
            switch st {
            case .add(let p, let l, _):
                currentLayers[p] = l.id
            case .delete(let p, let l, let at):
                guard currentLayers[p] == l.id, let i = document.index(of: p) else { continue }
                let layers = document.pages[i].layers
                currentLayers[p] = layers[min(max(at - 1, 0), layers.count - 1)].id
            case .moveItems(let p, _, _, let to):
                currentLayers[p] = to
            case .move, .look:
                break
            }
        }
        // Items gone, or on a layer now hidden, leave the selection (what cannot be seen is not selected).
        selection = Set(selection.filter { id in page.layerIndex(ofItem: id).map { page.layers[$0].visible } ?? false })
    }
}
