/// The editor's teaching tools: the laser pointer, and pen strokes drawn along a placed guide (ruler, set square,
/// compass). `Editor.handle` hands every event here first (`teach`); what is not theirs goes on as usual.
extension Editor {
    /// Handles `event` when it belongs to the laser or to a stroke along a guide; nil otherwise.
    func teach(_ event: InputEvent) -> Update? {
        let id = event.pointer
        if event.phase == .began, laser.isLive(id) || guided[id] != nil {
            // Down again without an up: the old stroke ends first, then the new one starts afresh.
            var u = finishTeaching(id, at: event.point)
            u.merge(handle(event))
            return u
        }
        if laser.isLive(id) { return laserEvent(event) }
        if guided[id] != nil { return guidedEvent(event) }
        // A stylus's eraser end erases whatever tool is chosen (`handle` picks the stroke eraser for it).
        guard event.phase == .began, !event.eraserEnd, event.point.point.isFinite else { return nil }
        if tool == .laser {
            var u = end(id)
            var p = event.point
            if !event.hasPressure { p.pressure = 0.5 }
            u.merge(Update(dirty: laser.begin(id, at: p, style: style, page: page.id)))
            return u
        }
        guard tool == .pen || tool == .highlighter, !guides.isEmpty,
              let line = guides.line(near: event.point.point, within: event.guideRadius) else { return nil }
        var u = end(id)
        let g = GuidedStroke(line: line, first: event.point)
        var s = Stroke(id: makeStrokeID(), style: style, page: page.id, layer: layer.id)
        s.style.trace = .polyline
        s.setPoints(g.points)
        s.shape = g.shape
        tracker.begin(id, stroke: s)
        guided[id] = g
        u.merge(Update(dirty: s.inkBounds))
        return u
    }

    /// Drops laser ink that has faded away by `now` (the clock of the input events' `time`, ms).
    public func expireLaser(at now: Double) -> Update {
        Update(dirty: laser.expire(at: now))
    }

    /// Escape: strokes along guides and laser ink being drawn go (their live strokes are the tracker's).
    func cancelTeaching() -> Update {
        var u = Update()
        for id in Array(guided.keys) {
            guided[id] = nil
            if let b = tracker.end(id)?.inkBounds { u.merge(Update(dirty: b)) }
        }
        u.merge(Update(dirty: laser.cancelLive()))
        return u
    }

    private func laserEvent(_ event: InputEvent) -> Update {
        let id = event.pointer
        var p = event.point
        if !event.hasPressure { p.pressure = 0.5 }
        switch event.phase {
        case .began:
            return .none
        case .moved:
            return Update(dirty: laser.add(id, p))
        case .ended:
            let u = Update(dirty: laser.add(id, p))
            laser.lift(id, at: p.time)
            return u
        case .cancelled:
            return Update(dirty: laser.cancel(id))
        }
    }

    private func guidedEvent(_ event: InputEvent) -> Update {
        let id = event.pointer
        switch event.phase {
        case .began:
            return .none
        case .moved:
            return follow(id, to: event.point)
        case .ended:
            var u = follow(id, to: event.point)
            u.merge(finishTeaching(id, at: event.point))
            return u
        case .cancelled:
            guided[id] = nil
            return Update(dirty: tracker.end(id)?.inkBounds)
        }
    }

    /// The live stroke of `id` redrawn along its guide to the sample `p`.
    private func follow(_ id: PointerID, to p: InkPoint) -> Update {
        guard var g = guided[id], var s = tracker.live[id] else { return .none }
        g.add(p)
        guided[id] = g
        let before = s.inkBounds
        s.setPoints(g.points)
        tracker.replace(id, with: s)
        var u = Update(dirty: before)
        u.merge(Update(dirty: s.inkBounds))
        return u
    }

    /// Ends the laser stroke or the guided stroke of `id`: laser ink starts its fade, a guided stroke is recorded.
    private func finishTeaching(_ id: PointerID, at p: InkPoint) -> Update {
        if laser.isLive(id) {
            laser.lift(id, at: p.time)
            return .none
        }
        guard guided.removeValue(forKey: id) != nil, let s = tracker.end(id), !s.points.isEmpty else { return .none }
        return perform(.add([s]))
    }
}
