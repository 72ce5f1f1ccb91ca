import Foundation
import InkCore
import InkSamples
import InkRender

/// What a zoom step's render of the view costs in process, with no window: the bench window's canvas (1170×681, the
/// `area` of the app's zoom trace) of the million-point drawing at 115 %, as one job, as the canvas renders it,
/// with no outline kept from before (`cold`) and with the outlines the previous render kept (as after the first
/// steps), and cut into 160-row patches, as it did before; the floor (cairo filling the outlines, shaped
/// beforehand, on one thread, of that view and of the one zoomed back out to 100 %); the preview (the cache's
/// raster scaled in and out). CPU times are the whole process's (both cores).
///
/// The suite publishes the floor beside the window's zoom figures, from the same minutes: on a shared machine
/// CPU time itself moves by ±15 % from minute to minute, so only figures taken together say how far a step is
/// from what cairo needs. `oekaki-bench --view-render [ROUNDS]` prints every figure.
enum ViewRenderBench {
    struct Result {
        var cold = Samples(), whole = Samples(), wall = Samples(), patches = Samples()
        var previewIn = Samples(), previewOut = Samples()
        /// cairo's fill of the zoomed-in view (115 %) and of the zoomed-out one (100 %), and per round their mean:
        /// the window's steps alternate between the two, and the zoomed-out view holds more ink.
        var fillIn = Samples(), fillOut = Samples(), fill = Samples()
        /// Per round: the mean step's fill and preview split perfectly over every core, and nothing else.
        var floorWall = Samples()
        var strokes = 0, vertices = 0, verticesOut = 0
    }

    /// `floor`: the million-point drawing's zoomed views, their outlines shaped for cairo's fill (the floor).
    static func measure(_ floor: ZoomFloor, rounds: Int, patches withPatches: Bool = true) -> Result {
        var r = Result()
        let (d, scene, view, start, t) = (floor.drawing, floor.scene, floor.view, floor.start, floor.zoomedIn)
        let rows = (160.0 * 1920 / view.width).rounded(.down)
        let cache = try? ScreenCache(viewSize: Size(width: view.width, height: view.height), transform: start, overscan: ScreenCache.viewOverscan)
        cache?.render(scene)
        let cores = Double(max(ProcessInfo.processInfo.activeProcessorCount, 1))
        for _ in 0..<max(rounds, 1) {
            ScreenCache.forgetShapedOutlines()
            r.cold.add(cpuMs { _ = try? ScreenCache.renderPatch(scene, area: view, transform: t) })
            let w0 = Date()
            r.whole.add(cpuMs { _ = try? ScreenCache.renderPatch(scene, area: view, transform: t) })
            r.wall.add(Date().timeIntervalSince(w0) * 1000)
            if withPatches {
                r.patches.add(cpuMs {
                    var y = view.minY
                    while y < view.maxY {
                        _ = try? ScreenCache.renderPatch(scene, area: Rect(minX: view.minX, minY: y, maxX: view.maxX, maxY: min(view.maxY, y + rows)), transform: t)
                        y += rows
                    }
                })
            }
            // The preview a zoom step shows at once: the cache's raster (the view and the app's overscan) scaled in or out.
            var preview = 0.0
            if let cache {
                let zoomIn = cpuMs { try? cache.reproject(to: t, viewSize: cache.viewSize) }
                let zoomOut = cpuMs { try? cache.reproject(to: start, viewSize: cache.viewSize) }
                r.previewIn.add(zoomIn); r.previewOut.add(zoomOut)
                preview = (zoomIn + zoomOut) / 2
            }
            let fillIn = floor.fillCPU(zoomIn: true), fillOut = floor.fillCPU(zoomIn: false)
            r.fillIn.add(fillIn); r.fillOut.add(fillOut); r.fill.add((fillIn + fillOut) / 2)
            r.floorWall.add(((fillIn + fillOut) / 2 + preview) / cores)
        }
        let a = t.pagePoint(fromView: Point(view.minX, view.minY)), b = t.pagePoint(fromView: Point(view.maxX, view.maxY))
        r.strokes = d.strokes(in: Rect(minX: a.x, minY: a.y, maxX: b.x, maxY: b.y)).count
        (r.vertices, r.verticesOut) = floor.vertices
        return r
    }

    static func run(rounds: Int) {
        let d = SampleInk.drawing(strokes: 10_000, pointsPerStroke: Workloads.pointsPerStroke, seed: Workloads.seeds.million)
        let r = measure(ZoomFloor(d), rounds: rounds)
        print(JSON.object([("view_render_cold_cpu_ms_1m", .number(r.cold.median)), ("view_strokes", .integer(r.strokes)), ("view_outline_vertices", .integer(r.vertices)),
                           ("view_fill_only_cpu_ms_1m", .number(r.fillIn.median)), ("view_fill_only_cpu_ms_1m_best", .number(r.fillIn.min)),
                           ("view_out_outline_vertices", .integer(r.verticesOut)), ("view_out_fill_only_cpu_ms_1m", .number(r.fillOut.median)),
                           ("zoom_floor_ms_1m", .number(r.floorWall.median)),
                           ("view_render_cpu_ms_1m", .number(r.whole.median)), ("view_render_wall_ms_1m", .number(r.wall.median)), ("view_render_cpu_ms_1m_best", .number(r.whole.min)),
                           ("view_patches_cpu_ms_1m", .number(r.patches.median)), ("view_patches_cpu_ms_1m_best", .number(r.patches.min)),
                           ("preview_in_cpu_ms", .number(r.previewIn.median)), ("preview_out_cpu_ms", .number(r.previewOut.median)),
                           ("rounds", .integer(r.whole.count))]).text())
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
