/// What a drawing pointer is doing beyond laying ink: dragging out a shape with a shape tool, or drawing
/// freehand and perhaps holding still to snap (see `Editor`).
struct ShapeGesture: Sendable {
    /// A shape tool's drag: the shape runs from `start` to the pointer.
    var tool: Tool?
    var start = Point(0, 0)
    /// When the still period a fit was last tried for began (not tried again until the pointer moves on).
    var triedRest: Double?
    /// While a snapped shape shows: the freehand ink it replaced, restored if the pointer moves on, and where
    /// the pointer was when it snapped.
    var freehand: Stroke?
    var snappedAt = Point(0, 0)

    init(tool: Tool? = nil, at p: InkPoint) {
        self.tool = tool; start = p.point
    }

    /// When the pointer came to rest at `p`: the time of the earliest of the stroke's latest samples that are
    /// all within `radius` of it (a sample repeated in place is not stored, so `p` itself may be newer).
    static func restStart(_ points: [InkPoint], at p: Point, radius: Double) -> Double? {
        var start: Double?
        var k = points.count - 1
        // Bounded: a pointer resting for a long time adds samples only while it jitters.
        let stop = Swift.max(points.count - 512, 0)
        while k >= stop, points[k].point.distance(to: p) <= radius {
            start = points[k].time
            k -= 1
        }
        return start
    }
}
