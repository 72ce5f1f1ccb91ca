import Dispatch
import InkCore
import InkRender

/// The session's teaching state: the guides where they lie in view space (so they stay put on screen whichever
/// page is drawn on) and the pointers holding them, the laser's clock, and presentation mode's clicks.
struct TeachingState {
    /// A pointer holding a guide: what it took, and the guides and pivot when it went down there.
    struct Grab {
        var grip: GuideHandles.Grip
        var start: Point
        var at: Point
        var guides: Guides
        var pivot: Point?
    }
    /// Two fingers on one guide: where they were when the second came down, and the guides then.
    struct Pair {
        var guide: GuideHandles.Guide
        var ids: (PointerID, PointerID)
        var from: (Point, Point)
        var guides: Guides
    }

    var guides = Guides()
    var grabs: [PointerID: Grab] = [:]
    var pair: Pair?
    /// The canvas's size in pixels (the ruler turns about the point of its edge nearest the middle of the view).
    var viewSize = Size(width: 1, height: 1)
    /// The guide being turned, whose angle the canvas shows.
    var turning: GuideHandles.Guide?
    /// The latest input's time and the monotonic clock then (ms): the laser's fade runs on the events' clock.
    var clock: (event: Double, mono: Double)?
    /// Presentation mode: a click (a press and release without moving) turns the page instead of drawing.
    var presenting = false
    var clicks: [PointerID: Point] = [:]
    /// The laser's fade timer runs.
    var laserTicking = false
    /// Other people's laser ink on a shared board (lifted times on `monotonicMs`), drawn on the current page as
    /// their strokes in progress are, and its fade timer.
    var othersLaser: [LaserPointer.Trail] = []
    var othersLaserTicking = false

    static var monotonicMs: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// Now on the clock of the input events' `time`.
    var eventNow: Double? { clock.map { $0.event + (Self.monotonicMs - $0.mono) } }
}

extension DocumentSession {
    func handles(_ view: ViewTransform) -> GuideHandles {
        GuideHandles(guides: teaching.guides, view: view, size: teaching.viewSize)
    }

    /// Shows or takes away a guide. A new one is laid where the view shows it: the ruler level across the middle,
    /// the set square and compass centred.
    func toggleGuide(_ g: GuideHandles.Guide, view: ViewTransform) {
        let centre = view.pagePoint(fromView: Point(teaching.viewSize.width / 2, teaching.viewSize.height / 2))
        let fit = min(teaching.viewSize.width, teaching.viewSize.height) / view.zoom
        switch g {
        case .ruler:
            teaching.guides.ruler = teaching.guides.ruler == nil
                ? Ruler(origin: view.pagePoint(fromView: Point(40, teaching.viewSize.height / 2)), degrees: 0) : nil
        case .setSquare:
            let size = min(SetSquare.standardSize, fit * 0.8)
            teaching.guides.setSquare = teaching.guides.setSquare == nil
                ? SetSquare(centre: centre - Point(0, size / 4), degrees: 0, size: size) : nil
        case .compass:
            teaching.guides.compass = teaching.guides.compass == nil
                ? Compass(centre: centre, radius: min(5 * Ruler.centimetre, fit * 0.3)) : nil
        }
        teaching.grabs = [:]
        teaching.pair = nil
        var u = SessionUpdate()
        u.toolChanged = true
        publish(u)
    }

    /// Input that belongs to the teaching tools: a press on a guide's body, knob or handle moves or turns it (and
    /// two fingers on one move and turn it together); in presentation mode a click turns the page. Nil lets
    /// the editor have the event, with the guides handed over in the coordinates of the page it goes to.
    /// `event` is in the current page's coordinates, `v` the same point in view space.
    func teachingInput(_ event: InputEvent, at v: Point, view: ViewTransform, shift: Bool) -> SessionUpdate? {
        let id = event.pointer
        teaching.clock = (event.point.time, TeachingState.monotonicMs)
        if event.phase == .ended || event.phase == .cancelled {
            // The editor lifts the laser after this returns: look again once it has.
            onMainLoop { [weak self] in self?.followLaser() }
        }
        if let u = guideInput(event, at: v, view: view, shift: shift) { return u }
        if event.phase == .began { setEditorGuides(teaching.guides.offset(by: Point(0, 0) - currentOrigin)) }
        guard teaching.presenting else { return nil }
        switch event.phase {
        case .began:
            teaching.clicks[id] = v
        case .moved:
            if let p = teaching.clicks[id], p.distance(to: v) * view.zoom > 6 { teaching.clicks[id] = nil }
        case .ended:
            guard teaching.clicks.removeValue(forKey: id) != nil, !event.eraserEnd else { return nil }
            // A click: nothing is drawn (a dot would be left behind), the next page shows.
            var cancel = event
            cancel.phase = .cancelled
            var u = SessionUpdate(handle(cancel))
            u.drawingChanged = true
            u.merge(SessionUpdate(goToPage(currentPage + 1)))
            u.pageChanged = true
            return u
        case .cancelled:
            teaching.clicks[id] = nil
        }
        return nil
    }

    private func guideInput(_ event: InputEvent, at v: Point, view: ViewTransform, shift: Bool) -> SessionUpdate? {
        let id = event.pointer
        let h = handles(view)
        switch event.phase {
        case .began:
            if event.eraserEnd || teaching.guides.isEmpty { return nil }
            // A second finger while one holds a guide: the two move and turn it together.
            if event.device == .touch, teaching.pair == nil, let (other, g) = teaching.grabs.first, g.grip != .radius {
                let guide: GuideHandles.Guide
                switch g.grip {
                case .move(let x), .turn(let x): guide = x
                case .radius: guide = .compass
                }
                teaching.grabs = [:]
                teaching.pair = TeachingState.Pair(guide: guide, ids: (other, id), from: (g.at, v), guides: teaching.guides)
                return SessionUpdate()
            }
            guard let grip = h.grip(atView: view.viewPoint(fromPage: v)) else { return nil }
            let pivot: Point?
            switch grip {
            case .turn(let g): pivot = h.pivot(of: g); teaching.turning = g
            default: pivot = nil
            }
            teaching.grabs[id] = TeachingState.Grab(grip: grip, start: v, at: v, guides: teaching.guides, pivot: pivot)
            return SessionUpdate()
        case .moved, .ended, .cancelled:
            let done = event.phase != .moved
            if var p = teaching.pair, id == p.ids.0 || id == p.ids.1 {
                let a = id == p.ids.0 ? v : nil, b = id == p.ids.1 ? v : nil
                var now = p.from
                if let a { now.0 = a }
                if let b { now.1 = b }
                if event.phase != .cancelled {
                    teaching.guides = GuideHandles(guides: p.guides, view: view, size: teaching.viewSize)
                        .twoFingers(from: p.from, to: now, guide: p.guide)
                }
                p.from = now
                p.guides = teaching.guides
                teaching.pair = done ? nil : p
                return SessionUpdate()
            }
            guard var g = teaching.grabs[id] else { return nil }
            g.at = v
            if event.phase != .cancelled {
                teaching.guides = GuideHandles(guides: g.guides, view: view, size: teaching.viewSize)
                    .dragged(g.grip, from: g.start, to: v, pivot: g.pivot, coarse: shift)
            } else {
                teaching.guides = g.guides
            }
            teaching.grabs[id] = done ? nil : g
            if done { teaching.turning = nil }
            return SessionUpdate()
        }
    }
}

extension DocumentSession {
    /// While laser ink fades, the views redraw about 30 times a second; at rest (nothing fading) no timer runs.
    func followLaser() {
        guard laser.isFading, !teaching.laserTicking else { return }
        teaching.laserTicking = true
        every(milliseconds: 33) { [weak self] in
            guard let self else { return false }
            var u = SessionUpdate(self.expireLaser(at: self.teaching.eventNow ?? .infinity))
            u.drawingChanged = false
            u.laserChanged = true
            self.publish(u)
            self.teaching.laserTicking = self.laser.isFading
            return self.teaching.laserTicking
        }
    }
}

extension DocumentSession {
    /// Other people's laser ink arrived or went: shown at once, and redrawn about 30 times a second while some of
    /// it fades (on this machine's clock, as on theirs). Ink still being drawn needs no timer: each message
    /// redraws it, so a timer never competes with the arrivals.
    func showOthersLaser(_ trails: [LaserPointer.Trail]) {
        guard trails != teaching.othersLaser else { return }
        teaching.othersLaser = trails
        publish(.laser)
        guard trails.contains(where: { $0.liftedAt != nil }), !teaching.othersLaserTicking else { return }
        teaching.othersLaserTicking = true
        every(milliseconds: 33) { [weak self] in
            guard let self else { return false }
            let now = TeachingState.monotonicMs
            self.teaching.othersLaser.removeAll { $0.opacity(at: now) <= 0 }
            self.publish(.laser)
            self.teaching.othersLaserTicking = self.teaching.othersLaser.contains { $0.liftedAt != nil }
            return self.teaching.othersLaserTicking
        }
    }
}
