/// The one entry point for input and commands: a drawing, its history, the current tool and the live strokes.
/// Every call returns an `Update` telling the view what to repaint and the store what to commit.
public final class Editor {
    public private(set) var drawing: Drawing
    public private(set) var history: History
    public private(set) var tracker = TouchTracker()
    public var tool: Tool = .pen
    /// Colour and width remembered per tool, as users expect when switching back and forth.
    public var styles: [Tool: StrokeStyle] = [
        .pen: StrokeStyle(tool: .pen, color: .black, width: PenSize.medium.width(for: .pen)),
        .highlighter: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: PenSize.medium.width(for: .highlighter)),
        .strokeEraser: StrokeStyle(tool: .strokeEraser, color: .black, width: PenSize.medium.width(for: .strokeEraser)),
        .areaEraser: StrokeStyle(tool: .areaEraser, color: .black, width: PenSize.medium.width(for: .areaEraser)),
    ]

    public init(drawing: Drawing = Drawing(), history: History = History()) {
        self.drawing = drawing; self.history = history
    }

    public var style: StrokeStyle {
        get { styles[tool] ?? StrokeStyle(tool: tool) }
        set { var s = newValue; s.tool = tool; styles[tool] = s }
    }

    public var liveStrokes: [Stroke] { tracker.liveStrokes }

    public func handle(_ event: InputEvent) -> Update {
        let id = event.pointer
        switch event.phase {
        case .began:
            var u = Update()
            if tracker.isLive(id) { u.merge(finish(id)) }
            let s = Stroke(id: drawing.makeStrokeID(), style: style)
            tracker.begin(id, stroke: s)
            u.dirty = tracker.append(id, event.point, hasPressure: event.hasPressure)
            return u
        case .moved:
            return Update(dirty: tracker.append(id, event.point, hasPressure: event.hasPressure))
        case .ended:
            guard tracker.isLive(id) else { return .none }
            var u = Update(dirty: tracker.append(id, event.point, hasPressure: event.hasPressure))
            u.merge(finish(id))
            return u
        case .cancelled:
            guard let s = tracker.end(id) else { return .none }
            return Update(dirty: s.inkBounds)
        }
    }

    private func finish(_ id: PointerID) -> Update {
        guard let s = tracker.end(id), !s.points.isEmpty else { return .none }
        return perform(.add([s]))
    }

    /// Discards every live stroke (Escape).
    public func cancelAll() -> Update {
        var u = Update()
        for id in tracker.order {
            if let s = tracker.end(id), let b = s.inkBounds { u.merge(Update(dirty: b)) }
        }
        return u
    }

    /// Applies a new edit and records it; a new edit empties the redo stack.
    public func perform(_ edit: Edit) -> Update {
        drawing.apply(edit)
        history.record(edit)
        return Update(dirty: edit.dirtyRect, changes: [.did(edit)])
    }

    public func undo() -> Update {
        guard let e = history.undo() else { return .none }
        drawing.apply(e.inverse)
        return Update(dirty: e.dirtyRect, changes: [.undid(e)])
    }

    public func redo() -> Update {
        guard let e = history.redo() else { return .none }
        drawing.apply(e)
        return Update(dirty: e.dirtyRect, changes: [.redid(e)])
    }

    public func clear() -> Update {
        guard !drawing.strokes.isEmpty else { return .none }
        return perform(.clear(drawing.strokes))
    }

    public func setPageSize(_ size: Size) { drawing.pageSize = size }
}
