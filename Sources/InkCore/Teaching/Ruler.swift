/// A ruler laid on the page. Its drawing edge is the whole line through `origin` at `degrees` (counter-clockwise
/// on screen), as on Windows Ink's and PencilKit's rulers, which reach across the screen; the body lies on the
/// edge's `normal` side (below the edge at 0°), and its centimetres count from `origin`.
public struct Ruler: Hashable, Sendable {
    public var origin: Point
    public var degrees: Double

    public init(origin: Point, degrees: Double) { self.origin = origin; self.degrees = degrees }

    /// Page units are points (1/72 in).
    public static let centimetre = 72 / 2.54
    /// How wide the body is drawn, from the edge.
    public static let width = 3 * centimetre

    public var edge: StraightEdge { StraightEdge(origin: origin, degrees: degrees) }

    /// The edge moved by `d` (a guide follows the page it is used on).
    public func offset(by d: Point) -> Ruler { Ruler(origin: origin + d, degrees: degrees) }
}
