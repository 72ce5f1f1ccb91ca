/// The drawing guides laid on the current page: at most one ruler, one set square and one compass. They are not
/// part of the document (never stored, never undone); a guide snaps pen strokes only while it is placed (shown).
public struct Guides: Hashable, Sendable {
    public var ruler: Ruler?
    public var setSquare: SetSquare?
    public var compass: Compass?

    public init(ruler: Ruler? = nil, setSquare: SetSquare? = nil, compass: Compass? = nil) {
        self.ruler = ruler; self.setSquare = setSquare; self.compass = compass
    }

    public var isEmpty: Bool { ruler == nil && setSquare == nil && compass == nil }

    /// The guides moved by `d`: the app keeps them where they are on screen and hands the editor them in the
    /// coordinates of the page being drawn on.
    public func offset(by d: Point) -> Guides {
        Guides(ruler: ruler?.offset(by: d), setSquare: setSquare?.offset(by: d), compass: compass?.offset(by: d))
    }

    /// What a stroke beginning at `p` follows: the nearest edge or circle within `radius`, or nil.
    public func line(near p: Point, within radius: Double) -> GuideLine? {
        guard p.isFinite, radius >= 0 else { return nil }
        var best: (GuideLine, Double)?
        func consider(_ g: GuideLine, _ d: Double) {
            if d <= radius, d < (best?.1 ?? .infinity) { best = (g, d) }
        }
        if let r = ruler { consider(.edge(r.edge), r.edge.distance(to: p)) }
        for e in setSquare?.edges ?? [] { consider(.edge(e), e.distance(to: p)) }
        if let c = compass { consider(.circle(c), c.distance(to: p)) }
        return best?.0
    }
}

/// A guide's line a stroke is drawn on.
public enum GuideLine: Hashable, Sendable {
    case edge(StraightEdge)
    case circle(Compass)
}
