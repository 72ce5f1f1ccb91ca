/// The one entry point for input and commands: a drawing, its history, the current tool and the live strokes.
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
    public private(set) var drawing: Drawing
    public private(set) var history: History
    public private(set) var tracker = TouchTracker()
    public var tool: Tool = .pen
    /// Colour and width remembered per tool, as users expect when switching back and forth.
    /// For the erasers the width is the eraser's diameter.
    public var styles: [Tool: StrokeStyle] = [
        .pen: StrokeStyle(tool: .pen, color: .black, width: PenSize.medium.width(for: .pen)),
        .highlighter: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: PenSize.medium.width(for: .highlighter)),
        .strokeEraser: StrokeStyle(tool: .strokeEraser, color: .black, width: PenSize.medium.width(for: .strokeEraser)),
        .areaEraser: StrokeStyle(tool: .areaEraser, color: .black, width: PenSize.medium.width(for: .areaEraser)),
    ]
    /// Cost of the erasers' hit tests so far (see `resetHitTestStats`).
    public private(set) var hitTestStats = HitTestStats()
    private var erasing: EraseGesture?

    public init(drawing: Drawing = Drawing(), history: History = History()) {
        self.drawing = drawing; self.history = history
    }

    public var style: StrokeStyle {
        get { styles[tool] ?? StrokeStyle(tool: tool) }
        set { var s = newValue; s.tool = tool; styles[tool] = s }
    }

    public var liveStrokes: [Stroke] { tracker.liveStrokes }
    /// True while an eraser gesture is in progress (its changes are in the drawing but not yet in the history).
    public var isErasing: Bool { erasing != nil }
    /// True when `id` is drawing a live stroke or erasing.
    public func isLive(_ id: PointerID) -> Bool { tracker.isLive(id) || erasing?.pointers[id] != nil }

    public func resetHitTestStats() { hitTestStats = HitTestStats() }

    public func handle(_ event: InputEvent) -> Update {
        let id = event.pointer
        switch event.phase {
        case .began:
            // A pointer that goes down again without having gone up ends its previous gesture first.
            var u = end(id)
            if tool.isEraser {
                u.merge(beginErasing(id, at: event.point.point))
            } else {
                let s = Stroke(id: drawing.makeStrokeID(), style: style)
                tracker.begin(id, stroke: s)
                u.dirty = union(u.dirty, tracker.append(id, event.point, hasPressure: event.hasPressure))
            }
            return u
        case .moved:
            if erasing?.pointers[id] != nil { return erase(id, to: event.point.point) }
            return Update(dirty: tracker.append(id, event.point, hasPressure: event.hasPressure))
        case .ended:
            if erasing?.pointers[id] != nil {
                var u = erase(id, to: event.point.point)
                u.merge(end(id))
                return u
            }
            guard tracker.isLive(id) else { return .none }
            var u = Update(dirty: tracker.append(id, event.point, hasPressure: event.hasPressure))
            u.merge(end(id))
            return u
        case .cancelled:
            if erasing?.pointers[id] != nil { return cancelErasing() }
            guard let s = tracker.end(id) else { return .none }
            return Update(dirty: s.inkBounds)
        }
    }

    /// Ends the gesture of `id` normally: a live stroke is recorded; the last eraser pointer records the erasing.
    private func end(_ id: PointerID) -> Update {
        if var g = erasing, g.pointers[id] != nil {
            g.pointers[id] = nil
            erasing = g
            return g.pointers.isEmpty ? finishErasing() : .none
        }
        guard let s = tracker.end(id), !s.points.isEmpty else { return .none }
        return perform(.add([s]))
    }

    /// Discards every live stroke and any eraser gesture in progress (Escape).
    public func cancelAll() -> Update {
        var u = cancelErasing()
        for id in tracker.order {
            if let s = tracker.end(id), let b = s.inkBounds { u.merge(Update(dirty: b)) }
        }
        return u
    }

    // MARK: erasing

    private func beginErasing(_ id: PointerID, at p: Point) -> Update {
        guard p.isFinite else { return .none }
        var g = erasing ?? EraseGesture()
        let radius = Swift.max(style.width.isFinite ? style.width : 0, 0) / 2
        g.pointers[id] = EraseGesture.Pointer(tool: tool, radius: radius, last: p)
        erasing = g
        return erase(id, to: p)
    }

    /// Erases along the pointer's path from its last sample to `p`.
    private func erase(_ id: PointerID, to p: Point) -> Update {
        guard var g = erasing, var ptr = g.pointers[id], p.isFinite else { return .none }
        let capsule = Capsule(from: ptr.last, to: p, radius: ptr.radius)
        ptr.last = p
        g.pointers[id] = ptr
        var dirty: [Rect] = []
        let candidates = drawing.strokes(in: capsule.bounds, stats: &hitTestStats)
        for s in candidates {
            switch ptr.tool {
            case .strokeEraser:
                guard StrokeEraser.touches(s, capsule) else { continue }
                g.remove(s, from: &drawing)
                if let b = s.inkBounds { dirty.append(b) }
                hitTestStats.hits += 1
            default:
                guard let pieces = AreaEraser.cut(s, by: capsule) else { continue }
                g.remove(s, from: &drawing)
                if let b = s.inkBounds { dirty.append(b) }
                for pts in pieces {
                    g.add(Stroke(id: drawing.makeStrokeID(), style: s.style, points: pts, order: s.order), to: &drawing)
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
        guard let edit = g.edit(in: drawing) else { return .none }
        // The drawing already shows the edit; only the history and the store still need it.
        history.record(edit)
        return Update(dirty: edit.dirtyRect, changes: [.did(edit)])
    }

    private func cancelErasing() -> Update {
        guard let g = erasing else { return .none }
        erasing = nil
        return Update(dirty: g.restore(&drawing))
    }

    // MARK: commands

    /// Applies a new edit and records it; a new edit empties the redo stack.
    public func perform(_ edit: Edit) -> Update {
        drawing.apply(edit)
        history.record(edit)
        return Update(dirty: edit.dirtyRect, changes: [.did(edit)])
    }

    /// Undo, redo and clear first record an eraser gesture in progress, so the history always matches the drawing.
    public func undo() -> Update {
        var u = finishErasing()
        guard let e = history.undo() else { return u }
        drawing.apply(e.inverse)
        u.merge(Update(dirty: e.dirtyRect, changes: [.undid(e)]))
        return u
    }

    public func redo() -> Update {
        var u = finishErasing()
        guard let e = history.redo() else { return u }
        drawing.apply(e)
        u.merge(Update(dirty: e.dirtyRect, changes: [.redid(e)]))
        return u
    }

    /// Removes every stroke as one undoable edit (live strokes keep drawing).
    public func clear() -> Update {
        var u = finishErasing()
        guard !drawing.strokes.isEmpty else { return u }
        u.merge(perform(.clear(drawing.strokes)))
        return u
    }

    public func setPageSize(_ size: Size) { drawing.pageSize = size }

    private func union(_ a: Rect?, _ b: Rect?) -> Rect? {
        guard let a else { return b }
        guard let b else { return a }
        return a.union(b)
    }
}
