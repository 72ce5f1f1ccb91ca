import Foundation
import InkCore
import InkRender

/// `oekaki-bench --view-render [ROUNDS]` (internal): the CPU time of what the window renders after one zoom step
/// on the million-point drawing, in process, so it can be compared on a busy machine where wall times are not
/// comparable: the bench window's view (1180×700 at 115 %) as one job, as the canvas renders it, with no outline
/// kept from before (`cold`) and with the outlines the previous render kept (as after the first steps), and cut
/// into 160-row patches, as it did before; the floor (cairo filling the view's outlines, shaped beforehand, on one
/// thread); the preview (the cache's raster scaled in and out). CPU time of the whole process (both cores),
/// median and best.
enum ViewRenderBench {
    static func run(rounds: Int) {
        let d = SampleInk.drawing(strokes: 10_000, pointsPerStroke: Workloads.pointsPerStroke, seed: Workloads.seeds.million)
        let doc = Document(drawing: d)
        let layout = PageLayout(document: doc, current: 0)
        let scene = Scene(document: doc, layout: layout)
        var start = ViewTransform()
        if let f = layout.frame(ofPage: 0) { start.offset = Point(-f.minX, -f.minY) }
        let view = Rect(minX: 0, minY: 0, maxX: 1180, maxY: 700)
        let t = start.zoomed(by: 1.15, around: Point(view.width / 2, view.height / 2))
        let rows = (160.0 * 1920 / view.width).rounded(.down)
        var whole = Samples(), patches = Samples(), cold = Samples(), wall = Samples()
        for _ in 0..<max(rounds, 1) {
            ScreenCache.forgetShapedOutlines()
            cold.add(cpuMs { _ = try? ScreenCache.renderPatch(scene, area: view, transform: t) })
            let w0 = Date()
            whole.add(cpuMs { _ = try? ScreenCache.renderPatch(scene, area: view, transform: t) })
            wall.add(Date().timeIntervalSince(w0) * 1000)
            patches.add(cpuMs {
                var y = view.minY
                while y < view.maxY {
                    _ = try? ScreenCache.renderPatch(scene, area: Rect(minX: view.minX, minY: y, maxX: view.maxX, maxY: min(view.maxY, y + rows)), transform: t)
                    y += rows
                }
            })
        }
        // The preview a zoom step shows at once: the cache's raster (view + 256 px overscan) scaled in or out.
        var previewIn = Samples(), previewOut = Samples()
        if let cache = try? ScreenCache(viewSize: Size(width: view.width, height: view.height), transform: start, overscan: 256) {
            cache.render(scene)
            for _ in 0..<max(rounds, 1) {
                previewIn.add(cpuMs { try? cache.reproject(to: t, viewSize: cache.viewSize) })
                previewOut.add(cpuMs { try? cache.reproject(to: start, viewSize: cache.viewSize) })
            }
        }
        // The floor: cairo filling the view's outlines, shaped beforehand, on one thread into one surface.
        let floor = RenderFloor(scene, area: view, transform: t)
        var fill = Samples()
        for _ in 0..<max(rounds, 1) { fill.add(cpuMs { try? floor.fill() }) }
        let a = t.pagePoint(fromView: Point(view.minX, view.minY)), b = t.pagePoint(fromView: Point(view.maxX, view.maxY))
        let visible = d.strokes(in: Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y))
        print(JSON.object([("view_render_cold_cpu_ms_1m", .number(cold.median)), ("view_strokes", .integer(visible.count)), ("view_outline_vertices", .integer(floor.vertices)),
                           ("view_fill_only_cpu_ms_1m", .number(fill.median)), ("view_fill_only_cpu_ms_1m_best", .number(fill.min)),("view_render_cpu_ms_1m", .number(whole.median)), ("view_render_wall_ms_1m", .number(wall.median)), ("view_render_cpu_ms_1m_best", .number(whole.min)),
                           ("view_patches_cpu_ms_1m", .number(patches.median)), ("view_patches_cpu_ms_1m_best", .number(patches.min)),
                           ("preview_in_cpu_ms", .number(previewIn.median)), ("preview_out_cpu_ms", .number(previewOut.median)),
                           ("rounds", .integer(whole.count))]).text())
    }

    /// CPU time of this process (every thread) spent in `body`, in milliseconds.
    static func cpuMs(_ body: () -> Void) -> Double {
        func now() -> Double {
            var u = rusage()
            getrusage(RUSAGE_SELF.rawValue, &u)
            return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000 + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000
        }
        let c = now()
        body()
        return now() - c
    }
}
