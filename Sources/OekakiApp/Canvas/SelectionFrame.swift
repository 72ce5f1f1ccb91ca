import Foundation
import InkCore
import InkRender

/// The frame drawn around a selection: its box, eight resize handles and a rotate handle, and what dragging
/// each one does. Handles are hit-tested in view pixels (at least `handleSize` across, for a finger) and always
/// before the ink under them. Geometry is in page units; the view transform only sizes the handles.
struct SelectionFrame {
    /// What the pointer went down on.
    enum Grip: Equatable {
        /// Inside the box: the selection follows the pointer.
        case move
        /// A corner or edge handle: (−1, 0 or 1) per axis, the side being dragged; the opposite side stays put.
        case resize(Int, Int)
        case rotate
    }

    /// Diameter of a handle's hit area, in view pixels (≥ 32 px: reachable with a finger).
    static let handleSize = 32.0
    /// Drawn size of a handle square, in view pixels.
    static let handleMark = 10.0
    /// How far the frame stands off the ink, in view pixels: a thin selection (one line) keeps a middle that
    /// moves it between its handles.
    static let padding = 18.0
    /// How far above the box the rotate handle sits, in view pixels.
    static let rotateDistance = 36.0
    /// Shift turns the rotation in these steps.
    static let snapDegrees = 15.0

    /// The selection's ink bounds (page units).
    let box: Rect
    let view: ViewTransform

    /// The frame in view pixels: the ink's box with `padding` around it.
    var viewBox: Rect { view.viewRect(fromPage: box).insetBy(-Self.padding) }

    /// Each handle's grip and centre in view pixels.
    var handles: [(grip: Grip, at: Point)] {
        let v = viewBox
        let xs = [v.minX, (v.minX + v.maxX) / 2, v.maxX], ys = [v.minY, (v.minY + v.maxY) / 2, v.maxY]
        var out: [(Grip, Point)] = [(.rotate, Point(xs[1], v.minY - Self.rotateDistance))]
        for (j, y) in ys.enumerated() {
            for (i, x) in xs.enumerated() where !(i == 1 && j == 1) {
                out.append((.resize(i - 1, j - 1), Point(x, y)))
            }
        }
        return out
    }

    /// The grip under `p` (view pixels): a handle first, then the box; nil outside both.
    func grip(atView p: Point) -> Grip? {
        let r = Self.handleSize / 2
        if let h = handles.min(by: { $0.at.distance(to: p) < $1.at.distance(to: p) }), h.at.distance(to: p) <= r { return h.grip }
        return viewBox.contains(p) ? .move : nil
    }

    /// The page map that dragging `grip` from page point `a` to `b` gives, and the selection op that stores it.
    /// `shift` keeps the aspect ratio of a corner resize and snaps a rotation to 15° steps.
    func drag(_ grip: Grip, from a: Point, to b: Point, shift: Bool) -> (map: AffineMap, op: SelectionOp) {
        switch grip {
        case .move:
            return (.translation(b.x - a.x, b.y - a.y), .translate(dx: b.x - a.x, dy: b.y - a.y))
        case .resize(let i, let j):
            // The opposite side of the frame is the pivot; an edge handle scales one axis only.
            let pad = Self.padding / view.zoom
            let frame = box.insetBy(-pad)
            let pivot = Point(i < 0 ? frame.maxX : frame.minX, j < 0 ? frame.maxY : frame.minY)
            func factor(_ moved: Double, _ start: Double, _ pivot: Double) -> Double {
                let d = start - pivot
                guard abs(d) > 1e-9 else { return 1 }
                let f = (moved - pivot) / d
                // Never flat: a handle dragged onto the pivot leaves a sliver, not nothing.
                return abs(f) < 0.01 ? (f < 0 ? -0.01 : 0.01) : f
            }
            var sx = i == 0 ? 1 : factor(b.x, a.x, pivot.x), sy = j == 0 ? 1 : factor(b.y, a.y, pivot.y)
            if shift, i != 0, j != 0 {
                let s = max(abs(sx), abs(sy))
                sx = sx < 0 ? -s : s; sy = sy < 0 ? -s : s
            }
            return (.scale(sx, sy, about: pivot), .scale(sx: sx, sy: sy, about: pivot, keepWidths: nil))
        case .rotate:
            let c = Point((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
            // Counter-clockwise on screen (y down) is positive.
            func angle(_ p: Point) -> Double { atan2(-(p.y - c.y), p.x - c.x) * 180 / .pi }
            var degrees = angle(b) - angle(a)
            if shift { degrees = (degrees / Self.snapDegrees).rounded() * Self.snapDegrees }
            return (.rotation(degrees: degrees, about: c), .rotate(degrees: degrees, about: c))
        }
    }

    /// A page map as a map of view pixels (what the cached layer is drawn under while dragging).
    func viewMap(_ m: AffineMap) -> AffineMap {
        let toView = AffineMap(a: view.zoom, b: 0, c: 0, d: view.zoom, tx: view.offset.x, ty: view.offset.y)
        guard let toPage = toView.inverted else { return .identity }
        return toPage.then(m).then(toView)
    }
}
