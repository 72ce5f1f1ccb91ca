/// A pen stroke drawn along a guide: however the hand wanders, the ink is exact. Along an edge it is the straight
/// line between the projections of the first and the latest sample; on a compass's circle it is the arc from the
/// first sample's angle over the angles the samples swept, counted continuously (so it may pass 180°, or go
/// all the way round, and going back undraws).
struct GuidedStroke: Sendable {
    let line: GuideLine
    let first: InkPoint
    private(set) var last: InkPoint
    /// The circle's angles: where the stroke began, the latest sample's, and the sweep since the start.
    private let startAngle: Double
    private var lastAngle: Double
    private(set) var sweep = 0.0

    init(line: GuideLine, first: InkPoint) {
        self.line = line; self.first = first; last = first
        if case .circle(let c) = line {
            startAngle = c.angle(of: first.point)
        } else {
            startAngle = 0
        }
        lastAngle = startAngle
    }

    mutating func add(_ p: InkPoint) {
        guard p.point.isFinite else { return }
        last = p
        guard case .circle(let c) = line, p.point != c.centre else { return }
        let a = c.angle(of: p.point)
        var d = a - lastAngle
        // The shorter way round between two samples: samples are close together on any real circle.
        while d > Double.pi { d -= 2 * Double.pi }
        while d <= -Double.pi { d += 2 * Double.pi }
        sweep += d
        lastAngle = a
    }

    /// The stroke's samples: pressure 0.5 (the nominal width, as shapes have), the latest sample's time.
    var points: [InkPoint] {
        let pts: [Point]
        switch line {
        case .edge(let e):
            let a = e.project(first.point), b = e.project(last.point)
            pts = a == b ? [a] : [a, b]
        case .circle(let c):
            pts = c.arc(from: startAngle, sweep: sweep)
        }
        return pts.map { InkPoint(x: $0.x, y: $0.y, pressure: 0.5, time: last.time) }
    }

    /// A straight stroke is a line, as the line tool draws it; an arc is a polyline without a shape name.
    var shape: ShapeKind? {
        if case .edge = line { return .line }
        return nil
    }
}
