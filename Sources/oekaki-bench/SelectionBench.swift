import Foundation
import InkCore
import InkRender
import InkStore

/// The selection issue's figures on the million-point drawing (10,000 strokes of 100 points):
/// - `select_ms_1m`: a lasso around the page centre taking about 100,000 points, from the loop's last event to
///   the selection (the editor's hit test through the spatial index);
/// - `drag_selection_event_ms_10k`: one pointer event of dragging all 10,000 strokes as the canvas does it (the
///   selection's cached layer composited at the new offset over the screen cache of the rest, 1920×1080);
/// - `move_bytes_per_stroke`: what one move of every stroke adds to the `.oekaki` file, per stroke (the worst of
///   ten moves; the first one gives each stroke its transform column).
enum SelectionBench {
    struct Result {
        var select = Samples()
        var selectedPoints = 0
        var drag = Samples()
        var moveBytes = Samples()
        var notes: [String] = []
    }

    static func run(_ drawing: Drawing, folder: String, rounds: Int) -> Result {
        var r = Result()
        // A 96-gon around the page centre, its radius grown until it holds about 100,000 points (setup, untimed).
        let c = Point(drawing.pageSize.width / 2, drawing.pageSize.height / 2)
        func loop(_ radius: Double) -> [Point] {
            (0..<96).map { k in let a = Double(k) * 2 * .pi / 96; return Point(c.x + radius * cos(a), c.y + radius * sin(a)) }
        }
        func points(_ radius: Double) -> Int {
            guard let l = Lasso(loop(radius)) else { return 0 }
            return SelectionArea.loop(l).strokes(of: drawing, rule: .halfInside).reduce(0) { $0 + $1.points.count }
        }
        var lo = 1.0, hi = max(drawing.pageSize.width, drawing.pageSize.height)
        for _ in 0..<20 { let mid = (lo + hi) / 2; if points(mid) < 100_000 { lo = mid } else { hi = mid } }
        let path = loop(hi)
        r.selectedPoints = points(hi)
        let editor = Editor(drawing: drawing)
        editor.tool = .lasso
        for _ in 0..<rounds * 5 {
            for (i, p) in path.enumerated() {
                let e = InputEvent(pointer: 1, phase: i == 0 ? .began : .moved, point: InkPoint(x: p.x, y: p.y), device: .mouse)
                _ = editor.handle(e)
            }
            let end = InputEvent(pointer: 1, phase: .ended, point: InkPoint(x: path[0].x, y: path[0].y), device: .mouse)
            r.select.add(Clock.ms { _ = editor.handle(end) }.1)
        }

        // Dragging everything: the canvas renders the rest (nothing) once and the selection's layer once, then
        // per event composites both at the pointer's offset.
        do {
            let view = InputBench.viewSize
            let cache = try ScreenCache(viewSize: view, transform: .identity)
            cache.render(Drawing(pageSize: drawing.pageSize))
            let layer = try SelectionLayer(strokes: drawing.strokes, viewSize: view, transform: .identity)
            let target = try ImageSurface(width: Int(view.width), height: Int(view.height))
            let screen = CairoContext(drawingInto: target)
            for k in 0..<(rounds * 100) {
                let t0 = Clock.nanoseconds()
                let offset = AffineMap.translation(Double(k % 50), Double(k % 30))
                cache.draw(into: screen)
                layer.draw(into: screen, map: offset)
                r.drag.add(Double(Clock.nanoseconds() - t0) / 1e6)
            }
        } catch { r.notes.append("drag_selection_event_ms_10k: \(error)") }

        // Ten moves of all 10,000 strokes, each committed and the file closed (checkpointed) before measuring.
        let file = folder + "/moves.oekaki"
        do {
            let doc = try DocumentFile.create(path: file, drawing: drawing)
            let moving = Editor(drawing: doc.drawing, history: doc.history)
            doc.close()
            _ = try moving.apply(.all)
            var size = Workloads.fileSize(file)
            for k in 0..<10 {
                let d = try DocumentFile.open(path: file)
                try d.commit(try moving.apply(.translate(dx: Double(k + 1), dy: 1)).changes)
                d.close()
                let now = Workloads.fileSize(file)
                r.moveBytes.add(Double(now - size) / Double(max(drawing.strokes.count, 1)))
                size = now
            }
        } catch { r.notes.append("move_bytes_per_stroke: \(error)") }
        try? FileManager.default.removeItem(atPath: file)
        return r
    }
}
