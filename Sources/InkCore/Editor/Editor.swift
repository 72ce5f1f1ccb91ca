/// The one entry point for input and commands: a document of pages, its history, the current page and tool, and
/// the live strokes. Input goes to the current page; a stroke stays on the page where it began.
/// Page operations (`addPage`, `duplicatePage`, `deletePage`, `movePage`, `setFormat`) are undoable edits.
/// Undoing or redoing an edit of another page makes that page current, so the view shows what changed.
/// Every call returns an `Update` telling the view what to repaint and the store what to commit.
///
/// Pen and highlighter pointers draw live strokes (one per pointer id) that become an `.add` edit on release.
/// Eraser pointers edit the drawing live; a whole eraser gesture (first eraser pointer down until the last
/// one up) becomes one `.remove` or `.replace` edit on release, and cancel puts everything back.
/// Cancelling any eraser pointer cancels the whole eraser gesture (all pointers erasing together).
/// The tool is chosen when a pointer goes down, so switching tools mid-gesture does not change that pointer.
/// Area-eraser pieces get new ids but keep the order of the stroke they were cut from, so they stay where it was
/// in the drawing order (below strokes made after it); undo restores the original in its place.
public final class Editor {
    public internal(set) var document: Document
    /// Index of the page input goes to.
    public internal(set) var currentPage = 0
    /// The layer input goes to, per page (by id); a page not named here draws on its top layer.
    var currentLayers: [PageID: LayerID] = [:]
    /// Whether erasers and selection reach the current layer only or every visible layer.
    public var layerScope = LayerScope.current
    public internal(set) var history: History
    public internal(set) var tracker = TouchTracker()
    public var tool: Tool = .pen
    /// Colour and width remembered per tool, as users expect when switching back and forth.
    /// For the erasers the width is the eraser's diameter.
    public var styles: [Tool: StrokeStyle] = [
        .pen: StrokeStyle(tool: .pen, color: .black, width: PenSize.medium.width(for: .pen)),
        .highlighter: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: PenSize.medium.width(for: .highlighter)),
        .strokeEraser: StrokeStyle(tool: .strokeEraser, color: .black, width: PenSize.medium.width(for: .strokeEraser)),
        .areaEraser: StrokeStyle(tool: .areaEraser, color: .black, width: PenSize.medium.width(for: .areaEraser)),
        .laser: StrokeStyle(tool: .laser, color: .laserRed, width: PenSize.medium.width(for: .laser)),
    ]
    /// Cost of the erasers' hit tests so far (see `resetHitTestStats`).
    public private(set) var hitTestStats = HitTestStats()
    private var erasing: EraseGesture?
    /// Shape tools make squares and circles, and turn lines and arrows in 15° steps (Shift in the app).
    public var constrainShapes = false
    /// "Always recognize shapes": every pen or highlighter stroke that fits a shape becomes it on release.
    public var recognizeShapes = false
    /// How long (ms, of the samples' `t`) a pointer must rest before its stroke snaps to a shape.
    public static let holdDuration = 500.0
    var shapeGestures: [PointerID: ShapeGesture] = [:]

    /// The ruler, set square and compass laid on the current page (its coordinates); pen and highlighter strokes
    /// beginning within the event's `guideRadius` of one follow it. See `Editor+Teaching.swift`.
    public var guides = Guides()
    var guided: [PointerID: GuidedStroke] = [:]
    /// The laser pointer's glowing, fading ink: never in the document or the history.
    public internal(set) var laser = LaserPointer()

    /// The selected strokes of the current page (see `SelectionCommands.swift`). Not part of the history; a
    /// selection lives on one page, so changing pages clears it.
    public internal(set) var selection: Set<StrokeID> = []
    /// Which strokes a lasso or box takes.
    public var selectionRule = SelectionRule.halfInside
    /// "Keep line widths": a resize leaves widths as they are instead of scaling them by √|sx·sy|.
    public var keepLineWidths = false
    /// A selection gesture adds to the selection instead of replacing it (Shift in the app).
    public var addsToSelection = false
    /// The path of each pointer drawing a selection loop or box.
    var selecting: [PointerID: SelectionGesture] = [:]
    /// The lane new stroke, page and layer ids are numbered in: `.alone` unless another numberer adds to the same
    /// document on another thread (a shared board's replica numbers other people's strokes and pages off the input
    /// thread, in the other lane).
    public var ids = IDSource.alone

    /// The pen's feel (`Editor+Pen.swift`): its pressure curve, the stabilizer of pen and highlighter ink, and
    /// palm rejection of touches while the pen is near.
    public var pressureCurve = PressureCurve.linear
    public var stabilizer = Stabilizer.Level.off
    /// Off unless asked for (the app's preference, a log's first `proximity` line): pens and fingers drawing
    /// together is how the editor behaved before there was palm rejection.
    public var palmRejection = PalmRejection(enabled: false)
    var stabilizing: [PointerID: Stabilizer] = [:]
    /// When each touch down now began (ms), and the strokes touches made lately: a pen arriving takes back the
    /// ones that began within the palm rejection's look-back.
    var touchesBegan: [PointerID: Double] = [:]
    var touchItems: [(began: Double, edit: Edit)] = []

    public init(document: Document = Document(), history: History = History()) {
        self.document = document; self.history = history
    }

    func makeStrokeID() -> StrokeID { document.makeStrokeID(in: ids) }
    func makePageID() -> PageID { document.makePageID(in: ids) }

    /// Embeds a file's bytes (an image, a PDF) in the document, once per content; items name it by the hash.
    /// Outside the history: the bytes stay for the session whatever is undone.
    @discardableResult
    public func addFile(_ bytes: [UInt8]) -> ContentHash { document.addFile(bytes) }

    /// Applies what other people changed on a shared board, outside the history: they are not this user's edits,
    /// so undo never takes them back. Each goes through `Document.apply`, the one way an edit changes a document
    /// (the replica and the file applied the same edits with it). Returns the area of the current page to repaint
    /// and whether the pages changed; the current page stays the same page wherever it moved.
    public func follow(_ edits: [Edit]) -> Update {
        var u = Update()
        let current = page.id
        var dirty: [Rect] = []
        for e in edits {
            if e.changesPages || e.changesLayers {
                document.apply(e)
                u.pagesChanged = true
                continue
            }
            guard e.strokePage == current, let i = document.index(of: current) else { document.apply(e); continue }
            // What this editor shows of the strokes going (it may hold a newer version than the board's).
            let p = document.pages[i]
            for s in e.removed { if let b = p.stroke(s.id)?.inkBounds { dirty.append(b) } }
            if let b = e.dirtyRect { dirty.append(b) }
            document.apply(e)
            let gone = Set(e.removed.map(\.id)).subtracting(e.added.map(\.id))
            if !gone.isEmpty { selection.subtract(gone) }
        }
        if u.pagesChanged {
            currentPage = document.index(of: current) ?? min(currentPage, document.pages.count - 1)
            // Items gone with a layer someone else deleted leave the selection.
            if page.id != current { selection = [] } else { selection = Set(selection.filter { page.stroke($0) != nil }) }
        }
        u.dirty = Rect.union(of: dirty)
        return u
    }

    /// A one-page editor (a fixed page of the drawing's size holding `drawing`), as single-page callers use it.
    public convenience init(drawing: Drawing, history: History = History()) {
        self.init(document: Document(drawing: drawing), history: history)
    }

    public var page: Page { document.pages[currentPage] }
    /// The current layer's items (all the current page has while it has one layer).
    public var drawing: Drawing { page.layers[currentLayer].drawing }

    /// The style the current tool draws or erases with; shape tools draw in the pen's, so they share it.
    public var style: StrokeStyle {
        get { styles[styleTool] ?? StrokeStyle(tool: styleTool) }
        set { var s = newValue; s.tool = styleTool; styles[styleTool] = s }
    }

    private var styleTool: Tool { tool.isShape ? .pen : tool }

    public var liveStrokes: [Stroke] { tracker.liveStrokes }
    /// True while an eraser gesture is in progress (its changes are in the drawing but not yet in the history).
    public var isErasing: Bool { erasing != nil }
    /// True when `id` is drawing a live stroke or erasing.
    public func isLive(_ id: PointerID) -> Bool { tracker.isLive(id) || erasing?.pointers[id] != nil || laser.isLive(id) }

    public func resetHitTestStats() { hitTestStats = HitTestStats() }

    /// One event after palm rejection, the pressure curve and the stabilizer (`Editor+Pen.swift`): the tools.
    func route(_ event: InputEvent) -> Update {
        let id = event.pointer
        // The tool is picked when a pointer goes down: a stylus's eraser end erases whole strokes whatever is chosen.
        // A barrel button or the eraser end may pick another tool in the preferences.
        let tool = event.phase == .began ? event.tool ?? (event.eraserEnd ? Tool.strokeEraser : self.tool) : self.tool
        // The text tool's clicks place or open boxes in the app (`addText`, `changeText`), never ink.
        // A pointer already drawing or erasing finishes as it began.
        if tool == .text, !isLive(id) { return .none }
        if let u = select(event) { return u }
        if let u = teach(event) { return u }
        switch event.phase {
        case .began:
            // A pointer that goes down again without having gone up ends its previous gesture first.
            var u = end(id)
            if tool.isSelection {
                selecting[id] = SelectionGesture(tool: tool, path: event.point.point.isFinite ? [event.point.point] : [],
                                                 tapRadius: event.tapRadius)
            } else if tool.isEraser {
                u.merge(beginErasing(id, at: event.point.point, tool: tool))
            } else if tool.isShape {
                // An ordinary pen stroke, traced exactly.
                var pen = styles[.pen] ?? StrokeStyle(tool: .pen)
                pen.tool = .pen; pen.trace = .polyline
                // Only closed shapes hold an area to fill.
                if tool == .line || tool == .arrow { pen.fill = nil }
                tracker.begin(id, stroke: Stroke(id: makeStrokeID(), style: pen, page: page.id, layer: layer.id))
                shapeGestures[id] = ShapeGesture(tool: tool, at: event.point)
                u.merge(drag(id, to: event.point))
            } else {
                let s = Stroke(id: makeStrokeID(), style: styles[tool] ?? StrokeStyle(tool: tool), page: page.id, layer: layer.id)
                tracker.begin(id, stroke: s)
                shapeGestures[id] = ShapeGesture(at: event.point)
                u.dirty = union(u.dirty, tracker.append(id, event.point, hasPressure: event.hasPressure))
            }
            return u
        case .moved:
            if erasing?.pointers[id] != nil { return erase(id, to: event.point.point) }
            return sample(id, event)
        case .ended:
            if erasing?.pointers[id] != nil {
                var u = erase(id, to: event.point.point)
                u.merge(end(id))
                return u
            }
            guard tracker.isLive(id) else { return .none }
            var u = sample(id, event)
            u.merge(end(id))
            return u
        case .cancelled:
            if erasing?.pointers[id] != nil { return cancelErasing() }
            let g = shapeGestures.removeValue(forKey: id)
            guard let s = tracker.end(id) else { return .none }
            return Update(dirty: union(s.inkBounds, g?.freehand?.inkBounds))
        }
    }

    // MARK: shapes

    /// A sample of a live stroke: a shape tool reshapes; freehand ink grows, and snaps to a shape when the
    /// pointer has rested within the event's `holdRadius` for `holdDuration` (un-snapping if it then moves on).
    private func sample(_ id: PointerID, _ event: InputEvent) -> Update {
        guard var g = shapeGestures[id] else { return Update(dirty: tracker.append(id, event.point, hasPressure: event.hasPressure)) }
        if g.tool != nil { return drag(id, to: event.point) }
        let p = event.point
        // Under the stabilizer the ink trails the pen: whether the pen rests, and where, is the pen's own samples'.
        let raw = stabilizing[id]?.samples
        let at = raw?.last?.point ?? p.point
        if let ink = g.freehand {
            // The shape stays while the pointer rests; moving on brings the ink back and continues it.
            if at.distance(to: g.snappedAt) <= event.holdRadius { return .none }
            let shown = tracker.live[id]?.inkBounds
            tracker.replace(id, with: ink)
            g.freehand = nil
            shapeGestures[id] = g
            return Update(dirty: union(union(shown, ink.inkBounds), tracker.append(id, p, hasPressure: event.hasPressure)))
        }
        let dirty = tracker.append(id, p, hasPressure: event.hasPressure)
        guard let ink = tracker.live[id],
              let rest = ShapeGesture.restStart(raw ?? ink.points, at: at, radius: event.holdRadius),
              p.time - rest >= Self.holdDuration, g.triedRest != rest else { return Update(dirty: dirty) }
        g.triedRest = rest
        defer { shapeGestures[id] = g }
        // The shape is fitted to where the hand went: the steadied ink trails it and rounds its corners over the
        // stabilizer's window, and fitting shapes to shaky hands is what the fit is for.
        var fitted = ink
        if let raw { fitted.setPoints(raw) }
        guard let snapped = Self.snapped(fitted) else { return Update(dirty: dirty) }
        g.freehand = ink
        g.snappedAt = at
        tracker.replace(id, with: snapped)
        return Update(dirty: union(union(dirty, ink.inkBounds), snapped.inkBounds))
    }

    /// The stroke replaced by the shape that fits it, or nil when none fits well.
    static func snapped(_ ink: Stroke) -> Stroke? {
        guard ink.style.tool == .pen || ink.style.tool == .highlighter,
              let shape = ShapeFit.shape(for: ink.points.map(\.point)) else { return nil }
        var s = ink
        s.setPoints(shape.inkPoints(time: ink.points.last?.time ?? 0))
        s.style.trace = .polyline
        s.shape = shape.kind
        if shape.kind == .line || shape.kind == .arrow { s.style.fill = nil }
        return s
    }

    /// A shape tool's live stroke: the shape from where the pointer went down to `p`.
    private func drag(_ id: PointerID, to p: InkPoint) -> Update {
        guard let g = shapeGestures[id], let tool = g.tool, var s = tracker.live[id],
              let shape = ShapeTool.shape(tool, from: g.start, to: p.point, constrained: constrainShapes, width: s.style.width)
        else { return .none }
        let before = s.inkBounds
        s.setPoints(shape.inkPoints(time: p.time))
        s.shape = shape.kind
        tracker.replace(id, with: s)
        return Update(dirty: union(before, s.inkBounds))
    }

    /// Ends the gesture of `id` normally: a live stroke is recorded; the last eraser pointer records the erasing.
    func end(_ id: PointerID) -> Update {
        if var g = erasing, g.pointers[id] != nil {
            g.pointers[id] = nil
            erasing = g
            return g.pointers.isEmpty ? finishErasing() : .none
        }
        let g = shapeGestures.removeValue(forKey: id)
        guard var s = tracker.end(id), !s.points.isEmpty else { return .none }
        // A click with a shape tool draws nothing: there is no shape without a drag.
        if g?.tool != nil, s.points.count < 2 { return Update(dirty: s.inkBounds) }
        var dirty: Rect?
        if recognizeShapes, g?.freehand == nil, g?.tool == nil, let shape = Self.snapped(s) {
            dirty = s.inkBounds
            s = shape
        }
        var u = perform(.add([s]))
        u.dirty = union(u.dirty, dirty)
        return u
    }

    /// Discards every live stroke and any eraser gesture in progress (Escape).
    public func cancelAll() -> Update {
        var u = cancelErasing()
        selecting = [:]
        u.merge(cancelTeaching())
        for id in tracker.order {
            if let s = tracker.end(id), let b = s.inkBounds { u.merge(Update(dirty: b)) }
            if let b = shapeGestures.removeValue(forKey: id)?.freehand?.inkBounds { u.merge(Update(dirty: b)) }
        }
        return u
    }

    // MARK: erasing

    private func beginErasing(_ id: PointerID, at p: Point, tool: Tool) -> Update {
        guard p.isFinite else { return .none }
        var g = erasing ?? EraseGesture(page: page.id)
        let width = (styles[tool] ?? StrokeStyle(tool: tool)).width
        let radius = Swift.max(width.isFinite ? width : 0, 0) / 2
        g.pointers[id] = EraseGesture.Pointer(tool: tool, radius: radius, last: p)
        erasing = g
        return erase(id, to: p)
    }

    /// Erases along the pointer's path from its last sample to `p`.
    private func erase(_ id: PointerID, to p: Point) -> Update {
        guard var g = erasing, var ptr = g.pointers[id], p.isFinite, let pi = document.index(of: g.page) else { return .none }
        let capsule = Capsule(from: ptr.last, to: p, radius: ptr.radius)
        ptr.last = p
        g.pointers[id] = ptr
        var dirty: [Rect] = []
        var candidates: [Stroke] = []
        for l in reachedLayers(of: document.pages[pi]) {
            candidates += document.pages[pi].layers[l].drawing.strokes(in: capsule.bounds, stats: &hitTestStats)
        }
        // Erasers take ink only; text boxes and images are deleted through selection.
        for s in candidates where s.content.isInk {
            switch ptr.tool {
            case .strokeEraser:
                guard StrokeEraser.touches(s, capsule) else { continue }
                g.remove(s, from: &document.pages[pi])
                if let b = s.inkBounds { dirty.append(b) }
                hitTestStats.hits += 1
            default:
                guard let pieces = AreaEraser.cut(s, by: capsule) else { continue }
                g.remove(s, from: &document.pages[pi])
                if let b = s.inkBounds { dirty.append(b) }
                for pts in pieces {
                    let piece = Stroke(id: makeStrokeID(), style: s.style, points: pts, order: s.order, page: s.page, layer: s.layer)
                    g.add(piece, to: &document.pages[pi])
                }
                hitTestStats.hits += 1
            }
        }
        erasing = g
        return Update(dirty: Rect.union(of: dirty))
    }

    private func finishErasing() -> Update {
        guard let g = erasing else { return .none }
        erasing = nil
        guard let pi = document.index(of: g.page), let edit = g.edit(in: document.pages[pi]) else { return .none }
        // The drawing already shows the edit; only the history and the store still need it.
        history.record(edit)
        return Update(dirty: edit.dirtyRect, changes: [.did(edit)])
    }

    /// Whether `edit` removes, replaces, moves or moves to another layer pieces the eraser gesture in progress has
    /// cut (what it took whole is off the page, so no edit can take it).
    private func takesErasedInk(_ edit: Edit) -> Bool {
        guard let g = erasing else { return false }
        var touched = edit.removed.map(\.id)
        switch edit {
        case .transform(let t): touched += t.ids
        case .layers(let steps):
            for case .moveItems(_, let items, _, _) in steps { touched += items }
        default: break
        }
        return touched.contains { g.pieces.contains($0) }
    }

    /// The erasing so far recorded as its own edit, the erasers still down going on in a new gesture.
    private func settleErasing() -> Update {
        guard let g = erasing else { return .none }
        let u = finishErasing()
        var next = EraseGesture(page: g.page)
        next.pointers = g.pointers
        if !next.pointers.isEmpty { erasing = next }
        return u
    }

    private func cancelErasing() -> Update {
        guard let g = erasing else { return .none }
        erasing = nil
        guard let pi = document.index(of: g.page) else { return .none }
        return Update(dirty: g.restore(&document.pages[pi]))
    }

    // MARK: commands

    /// Applies a new edit and records it; a new edit empties the redo stack. When the edit takes ink an eraser still
    /// down has cut or removed (a selection made meanwhile), that erasing so far is recorded first and the eraser goes
    /// on in a new gesture: undo must find the pieces in the history, not only on the page.
    public func perform(_ edit: Edit) -> Update {
        var u = takesErasedInk(edit) ? settleErasing() : .none
        let before = page.id
        document.apply(edit)
        history.record(edit)
        u.merge(shown(edit, undone: false, change: .did(edit), before: before))
        return u
    }

    /// Undo, redo and clear first record an eraser gesture in progress, so the history always matches the drawing.
    /// On a shared board other people may already have done what an undo would (erased my stroke, say): such a
    /// step changes nothing, so it is passed over and one undo (or redo) always does something visible.
    public func undo() -> Update {
        var u = finishErasing()
        while let e = history.undo() {
            let before = page.id
            let idle = changesNothing(e.inverse)
            document.apply(e.inverse)
            followSelection(through: e.inverse)
            u.merge(shown(e, undone: true, change: .undid(e), before: before))
            if !idle { break }
        }
        return u
    }

    public func redo() -> Update {
        var u = finishErasing()
        while let e = history.redo() {
            let before = page.id
            let idle = changesNothing(e)
            document.apply(e)
            followSelection(through: e)
            u.merge(shown(e, undone: false, change: .redid(e), before: before))
            if !idle { break }
        }
        return u
    }

    /// True when applying a stroke edit now would change nothing: what it removes is gone and what it adds is there.
    private func changesNothing(_ e: Edit) -> Bool {
        switch e {
        case .add, .remove, .replace, .clear:
            guard let id = e.strokePage, let i = document.index(of: id) else { return false }
            let d = document.pages[i]
            let touched = e.removed.count + e.added.count
            return touched > 0 && e.removed.allSatisfy { d.stroke($0.id) == nil } && e.added.allSatisfy { d.stroke($0.id) != nil }
        default:
            return false
        }
    }

    /// The update for an edit just applied (or undone): the current page follows the edit, so what changed is
    /// in view; a page it added becomes current, a page it took away leaves its neighbour current.
    /// `before` is the id of the page that was current before the edit was applied.
    private func shown(_ e: Edit, undone: Bool, change: Change, before: PageID) -> Update {
        switch undone ? e.inverse : e {
        case .addPage(let p, _): currentPage = document.index(of: p.id) ?? currentPage
        case .deletePage(_, let at): currentPage = min(max(at, 0), document.pages.count - 1)
        case .movePage(_, let to): currentPage = min(max(to, 0), document.pages.count - 1)
        case .setFormat(let c): if c.count == 1, let i = document.index(of: c[0].page) { currentPage = i }
        case .add, .remove, .replace, .clear, .transform:
            if let id = e.strokePage, let i = document.index(of: id) { currentPage = i }
        case .layers(let steps):
            followLayers(through: steps)
        }
        currentPage = min(currentPage, document.pages.count - 1)
        if page.id != before { selection = [] }
        return Update(dirty: e.dirtyRect, pagesChanged: e.changesPages || e.changesLayers || page.id != before, changes: [change])
    }

    /// Removes every item erasers reach on the current page (the current layer, or every visible layer) as one
    /// undoable edit (live strokes keep drawing).
    public func clear() -> Update {
        var u = finishErasing()
        let items = reachedLayers(of: page).flatMap { page.layers[$0].drawing.strokes }
        guard !items.isEmpty else { return u }
        u.merge(perform(.clear(items)))
        return u
    }

    /// Sizes the current page without an undoable edit: the `canvas` line of an event log.
    public func setPageSize(_ size: Size) { document.pages[currentPage].format.size = size }

    /// A fresh stroke id of this document (copies made by selection commands).
    func newStrokeID() -> StrokeID { makeStrokeID() }

    // MARK: pages

    /// Makes page `index` (0-based) current; not an edit. Out of range goes to the first or last page.
    public func goToPage(_ index: Int) -> Update {
        var u = finishErasing()
        let i = min(max(index, 0), document.pages.count - 1)
        if i != currentPage { currentPage = i; selection = []; u.pagesChanged = true }
        return u
    }

    /// A new empty page after the current one, of the same size and background (or `format`); it becomes current.
    public func addPage(_ format: PageFormat? = nil) -> Update {
        var u = finishErasing()
        let id = makePageID()
        let p = Page(id: id, format: format ?? page.format, layers: layersForNewPage(id))
        u.merge(perform(.addPage(p, at: currentPage + 1)))
        return u
    }

    /// A copy of the current page with its strokes (new ids, same drawing order) after it; it becomes current.
    public func duplicatePage() -> Update {
        var u = finishErasing()
        let id = makePageID()
        // Every layer is copied with its look; the first takes the new page's id, as a page's first layer does.
        var layers: [Layer] = []
        for (k, l) in page.layers.enumerated() {
            let lid = k == 0 ? id : makePageID()
            var copy = Drawing(pageSize: page.pageSize)
            for s in l.drawing.strokes {
                var c = s
                c.id = makeStrokeID(); c.order = c.id; c.page = id; c.layer = lid
                copy.insert(c)
            }
            layers.append(Layer(id: lid, name: l.name, visible: l.visible, everyPage: l.everyPage, drawing: copy))
        }
        currentLayers[id] = layers[currentLayer].id
        u.merge(perform(.addPage(Page(id: id, format: page.format, layers: layers), at: currentPage + 1)))
        return u
    }

    /// Deletes the current page with its strokes. The last page is never deleted: its strokes are cleared instead,
    /// so a document always has a page.
    public func deletePage() -> Update {
        var u = finishErasing()
        guard document.pages.count > 1 else {
            u.merge(clear())
            return u
        }
        u.merge(perform(.deletePage(page, at: currentPage)))
        return u
    }

    /// Moves the current page `delta` places (-1 up, +1 down); it stays current. Nothing at either end.
    public func movePage(by delta: Int) -> Update {
        var u = finishErasing()
        let to = currentPage + delta
        guard delta != 0, document.pages.indices.contains(to) else { return u }
        u.merge(perform(.movePage(from: currentPage, to: to)))
        return u
    }

    /// Changes the size and background of the current page, or of every page.
    public func setFormat(_ format: PageFormat, allPages: Bool = false) -> Update {
        var u = finishErasing()
        let targets = allPages ? document.pages : [page]
        let changes = targets.filter { $0.format != format }.map { Edit.FormatChange(page: $0.id, from: $0.format, to: format) }
        guard !changes.isEmpty else { return u }
        u.merge(perform(.setFormat(changes)))
        return u
    }

    /// Changes only the background, keeping each page's size.
    public func setBackground(_ background: Background, allPages: Bool = false) -> Update {
        var u = finishErasing()
        let targets = allPages ? document.pages : [page]
        let changes = targets.filter { $0.background != background }.map {
            Edit.FormatChange(page: $0.id, from: $0.format, to: PageFormat(size: $0.size, background: background))
        }
        guard !changes.isEmpty else { return u }
        u.merge(perform(.setFormat(changes)))
        return u
    }

    /// Changes only the size (nil: endless), keeping each page's background.
    public func setSize(_ size: Size?, allPages: Bool = false) -> Update {
        var u = finishErasing()
        let targets = allPages ? document.pages : [page]
        let changes = targets.filter { $0.size != size }.map {
            Edit.FormatChange(page: $0.id, from: $0.format, to: PageFormat(size: size, background: $0.background))
        }
        guard !changes.isEmpty else { return u }
        u.merge(perform(.setFormat(changes)))
        return u
    }

    private func union(_ a: Rect?, _ b: Rect?) -> Rect? {
        guard let a else { return b }
        guard let b else { return a }
        return a.union(b)
    }
}
