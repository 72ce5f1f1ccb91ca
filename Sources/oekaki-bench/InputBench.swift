import InkCore
import InkRender

/// The cost of one pen sample as the app pays it on the GTK thread: `Editor.handle` (tracking, shaping,
/// dirty rect) plus `ScreenCache.updateLive`, which draws only the new segment into the 1920×1080 screen cache.
enum InputBench {
    static let viewSize = Size(width: 1920, height: 1080)

    struct Result {
        /// Microseconds per `moved` sample: the headline figure.
        var moved = Samples()
        /// Pen-down (allocates the stroke's live layer) and pen-up (records the edit, bakes the stroke into the cache).
        var began = Samples()
        var ended = Samples()
        /// Milliseconds to composite cache + live layer into a 1920×1080 target: once per screen frame, not per sample.
        var composite = Samples()
    }

    /// A screen cache showing `drawing` at 100 % with the page filling the 1920×1080 view, as the app sets it up.
    /// Without `render` the cache starts blank (the naive baseline's first sample renders everything anyway).
    static func setUp(_ drawing: Drawing, render: Bool = true) throws -> (Editor, ScreenCache, Double?) {
        let editor = Editor(drawing: drawing)
        let cache = try ScreenCache(viewSize: viewSize, transform: .identity)
        guard render else { return (editor, cache, nil) }
        let ms = Clock.ms { cache.render(editor.drawing) }.1
        return (editor, cache, ms)
    }

    /// Replays `strokes` as pen input through the fast path (the app's `CanvasView.input` → `apply`) on every
    /// scene in turn, stroke by stroke, so machine noise (other processes on a shared box) hits all scenes alike.
    /// The first `warmUp` strokes are not counted.
    static func fastPath(_ scenes: [(Editor, ScreenCache)], strokes: [Stroke], warmUp: Int = 3) throws -> [Result] {
        var results = [Result](repeating: Result(), count: scenes.count)
        let target = try ImageSurface(width: Int(viewSize.width), height: Int(viewSize.height))
        let screen = CairoContext(drawingInto: target)
        for (n, s) in strokes.enumerated() where s.points.count >= 3 {
            for (k, (editor, cache)) in scenes.enumerated() {
                replay(s, number: n, editor: editor, cache: cache, screen: screen, counted: n >= warmUp, into: &results[k])
            }
        }
        return results
    }

    private static func replay(_ s: Stroke, number n: Int, editor: Editor, cache: ScreenCache, screen: CairoContext,
                               counted: Bool, into r: inout Result) {
        let pts = s.points
        for (i, p) in pts.enumerated() {
            let phase: InputEvent.Phase = i == 0 ? .began : i == pts.count - 1 ? .ended : .moved
            let event = InputEvent(pointer: 1, phase: phase, point: InkPoint(x: p.x, y: p.y, pressure: p.pressure, time: p.time + Double(n) * 2000), device: .pen)
            let t0 = Clock.nanoseconds()
            let u = editor.handle(event)
            apply(u, to: cache, editor: editor)
            let us = Double(Clock.nanoseconds() - t0) / 1e3
            guard counted else { continue }
            switch phase {
            case .began: r.began.add(us)
            case .moved: r.moved.add(us)
            default: r.ended.add(us)
            }
            // A screen frame every 20th sample, measured apart from the sample (GTK composites once per frame).
            if phase == .moved, i % 20 == 0 {
                r.composite.add(Clock.ms { cache.draw(into: screen) }.1)
            }
        }
    }

    /// True when the cache shows ink under the middle of `stroke` (a guard against timing a path that draws nothing).
    static func showsInk(_ cache: ScreenCache, along stroke: Stroke) -> Bool {
        let p = stroke.points[stroke.points.count / 2]
        let px = cache.pixel(x: Int(p.x), y: Int(p.y))
        return px.a > 0 && px != RGBA.white
    }

    /// What the app does with an editor update: bake a finished stroke on top, else repaint; then the live segment.
    private static func apply(_ u: Update, to cache: ScreenCache, editor: Editor) {
        for change in u.changes {
            switch change {
            case .did(let e), .redid(let e):
                if case .add(let ss) = e { for s in ss { cache.bake(s) } } else { cache.invalidate(e.dirtyRect, in: editor.drawing) }
            case .undid(let e):
                cache.invalidate(e.dirtyRect, in: editor.drawing)
            }
        }
        cache.updateLive(editor.liveStrokes)
    }

    /// The seeds' way: every `moved` sample repaints every finished stroke into the screen raster (here even with
    /// the two-core banded renderer, a kinder baseline than the seeds' one-thread redraw) and then the live stroke.
    /// Returns microseconds for `samples` moved samples.
    static func naive(editor: Editor, cache: ScreenCache, stroke: Stroke, samples: Int) -> Samples {
        var out = Samples()
        let pts = stroke.points
        let n = max(1, min(samples, pts.count - 2))
        _ = editor.handle(InputEvent(pointer: 1, phase: .began, point: pts[0], device: .pen))
        for i in 1...n {
            let t0 = Clock.nanoseconds()
            _ = editor.handle(InputEvent(pointer: 1, phase: .moved, point: pts[i], device: .pen))
            cache.render(editor.drawing)
            cache.updateLive(editor.liveStrokes)
            out.add(Double(Clock.nanoseconds() - t0) / 1e3)
        }
        _ = editor.cancelAll()
        cache.updateLive(editor.liveStrokes)
        return out
    }
}
