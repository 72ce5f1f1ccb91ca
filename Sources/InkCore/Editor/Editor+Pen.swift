/// How the pen feels, applied to every event before the tools see it, so the app and a replayed log behave alike:
/// palm rejection judges touches (and takes back a palm's stroke when the pen arrives), the pressure curve
/// reshapes real pressure, and the stabilizer steadies pen and highlighter ink as it is drawn.
extension Editor {
    public func handle(_ event: InputEvent) -> Update {
        var e = event
        var u = Update()
        switch e.device {
        case .pen:
            let (cancel, arrived) = palmRejection.pen(e)
            if let arrived { u.merge(takeBackTouches(cancel, arrivedAt: arrived)) }
        case .touch:
            guard palmRejection.admits(e) else { return u }
        case .mouse:
            break
        }
        // Real pressure only: simulated pressure is not the hand's.
        if e.hasPressure { e.point.pressure = pressureCurve.value(at: e.point.pressure) }
        let r = stabilized(e)
        if e.device == .touch { noteTouch(e, r) }
        u.merge(r)
        return u
    }

    /// The pen came near the screen or left it (GDK's proximity events, a log's `proximity` line). Arriving takes
    /// back the touches that began up to the look-back before; leaving starts the delay.
    public func proximity(near: Bool, at time: Double) -> Update {
        let (cancel, arrived) = palmRejection.proximity(near: near, at: time)
        guard let arrived else { return .none }
        return takeBackTouches(cancel, arrivedAt: arrived)
    }

    /// Whether a touch beginning at `time` may navigate (pan, zoom): the same rule as drawing.
    public func touchMayNavigate(at time: Double) -> Bool { !palmRejection.blocksTouch(at: time) }

    // MARK: stabilizer

    /// Pen and highlighter ink goes through the stabilizer; shapes, erasers, selections and guides do not.
    private func stabilized(_ e: InputEvent) -> Update {
        let id = e.pointer
        switch e.phase {
        case .began:
            stabilizing[id] = nil
            let u = route(e)
            if stabilizer != .off, let s = tracker.live[id], s.style.trace == .smoothed,
               s.style.tool == .pen || s.style.tool == .highlighter {
                var st = Stabilizer(level: stabilizer)
                _ = st.filter(s.points.last ?? e.point)
                stabilizing[id] = st
            }
            return u
        case .moved:
            // Taken out while it grows, so its sample arrays are not copied on every event.
            guard var st = stabilizing.removeValue(forKey: id) else { return route(e) }
            var f = e
            f.point = st.filter(e.point)
            stabilizing[id] = st
            return route(f)
        case .ended:
            guard let st = stabilizing.removeValue(forKey: id) else { return route(e) }
            // A stroke a hold snapped to a shape keeps the shape.
            guard shapeGestures[id]?.freehand == nil, var ink = tracker.live[id] else { return route(e) }
            // The ends finished from the samples around them (`Stabilizer`): the live stroke takes the finished
            // points (pressure made up again along them for a device without it) and ends on the last.
            let points = st.finished(at: e.point)
            guard let last = points.last else { return route(e) }
            var u = Update(dirty: ink.inkBounds)
            ink.setPoints([])
            tracker.begin(id, stroke: ink)
            for p in points.dropLast() { u.merge(Update(dirty: tracker.append(id, p, hasPressure: e.hasPressure))) }
            var f = e
            f.point = last
            u.merge(route(f))
            return u
        case .cancelled:
            stabilizing[id] = nil
            return route(e)
        }
    }

    // MARK: palm rejection

    /// Remembers when each touch began and which strokes touches made, for as long as a pen's arrival could still
    /// take them back (also while palm rejection is off: a log turns it on at its first `proximity` line).
    private func noteTouch(_ e: InputEvent, _ u: Update) {
        let t = e.point.time
        switch e.phase {
        case .began: touchesBegan[e.pointer] = t
        case .moved: break
        case .ended, .cancelled:
            let began = touchesBegan.removeValue(forKey: e.pointer) ?? t
            for c in u.changes {
                if case .did(let edit) = c, case .add = edit { touchItems.append((began, edit)) }
            }
        }
        // Only strokes that began within the look-back of now can still be taken back.
        touchItems.removeAll { t - $0.began > palmRejection.lookBack }
        if touchItems.count > 64 { touchItems.removeFirst(touchItems.count - 64) }
    }

    /// Cancels the touches down now that a pen's arrival showed to be a palm, and takes their finished strokes
    /// out of the drawing and the history, as if they had never been drawn.
    private func takeBackTouches(_ pointers: [PointerID], arrivedAt time: Double) -> Update {
        var u = Update()
        for id in pointers where isLive(id) {
            stabilizing[id] = nil
            u.merge(route(InputEvent(pointer: id, phase: .cancelled, point: InkPoint(x: 0, y: 0, time: time), device: .touch)))
        }
        for id in pointers { touchesBegan[id] = nil }
        let late = touchItems.filter { time - $0.began <= palmRejection.lookBack && $0.began <= time }
        touchItems.removeAll { time - $0.began <= palmRejection.lookBack && $0.began <= time }
        for item in late.reversed() { u.merge(withdraw(item.edit)) }
        return u
    }

    /// Takes a palm's stroke back: out of the history when it is the last edit (nothing to undo or redo), else
    /// removed by an edit of its own; strokes already gone (erased, undone) are left alone.
    private func withdraw(_ edit: Edit) -> Update {
        guard let pid = edit.strokePage, let pi = document.index(of: pid) else { return .none }
        let present = edit.added.compactMap { document.pages[pi].stroke($0.id) }
        guard !present.isEmpty else { return .none }
        let ids = Set(edit.added.map(\.id))
        if present.count == edit.added.count, let top = history.undoStack.last, case .add(let s) = top,
           Set(s.map(\.id)) == ids {
            _ = history.withdrawLast()
            document.apply(edit.inverse)
            selection.subtract(ids)
            return Update(dirty: edit.dirtyRect, changes: [.undid(edit)])
        }
        let before = currentPage
        defer { currentPage = before }
        return perform(.remove(present))
    }
}
