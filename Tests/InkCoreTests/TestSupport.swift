import XCTest
@testable import InkCore

/// Non-zero winding number of `p` with respect to the closed polygon (how the renderer fills outlines).
func winding(_ poly: [Point], _ p: Point) -> Int {
    var w = 0
    for i in 0..<poly.count {
        let a = poly[i], b = poly[(i + 1) % poly.count]
        let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
        if a.y <= p.y {
            if b.y > p.y && side > 0 { w += 1 }
        } else if b.y <= p.y && side < 0 {
            w -= 1
        }
    }
    return w
}

func isFilled(_ poly: [Point], _ p: Point) -> Bool { winding(poly, p) != 0 }

/// Events for one pointer drawing through `points` (began, moved…, ended).
func gesture(_ id: PointerID, _ points: [(Double, Double)], device: InputEvent.Device = .touch) -> [InputEvent] {
    // A single point is a tap: began and ended there.
    let points = points.count == 1 ? points + points : points
    return points.enumerated().map { i, p in
        let phase: InputEvent.Phase = i == 0 ? .began : (i == points.count - 1 ? .ended : .moved)
        return InputEvent(pointer: id, phase: phase, point: InkPoint(x: p.0, y: p.1), device: device)
    }
}

func event(_ id: PointerID, _ phase: InputEvent.Phase, _ x: Double, _ y: Double, pressure: Double? = nil) -> InputEvent {
    InputEvent(pointer: id, phase: phase, point: InkPoint(x: x, y: y, pressure: pressure ?? 0.5), device: pressure == nil ? .touch : .pen,
               hasPressure: pressure != nil)
}

extension Editor {
    @discardableResult
    func play(_ events: [InputEvent]) -> Update {
        var u = Update()
        for e in events { u.merge(handle(e)) }
        return u
    }

    /// Draws a straight line with a pen at pressure 0.5 (so the ink is exactly the nominal width)
    /// and returns the stroke it added.
    @discardableResult
    func line(_ id: PointerID = 1, from a: (Double, Double), to b: (Double, Double), steps: Int = 10) -> Stroke? {
        let pts = (0...steps).map { k -> (Double, Double) in
            let t = Double(k) / Double(steps)
            return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
        }
        let before = Set(drawing.strokes.map(\.id))
        play(gesture(id, pts).map { e in var e = e; e.device = .pen; e.hasPressure = true; return e })
        return drawing.strokes.first { !before.contains($0.id) }
    }
}

func stroke(_ id: StrokeID, _ pts: [(Double, Double)], width: Double = 4, tool: Tool = .pen, pressure: Double = 0.5) -> Stroke {
    Stroke(id: id, style: StrokeStyle(tool: tool, color: .black, width: width),
           points: pts.map { InkPoint(x: $0.0, y: $0.1, pressure: pressure) })
}
