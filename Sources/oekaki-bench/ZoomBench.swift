import Foundation
import InkCore

/// `oekaki-bench --zoom [STEPS]` (internal): only the zoom figures of the app bench, with more steps, for
/// comparing zoom work quickly: the million-point drawing in the real window under Xvfb, STEPS Ctrl+wheel steps
/// alternating in and out (one session), each timed by the app's own trace. Prints medians and every step;
/// with `OEKAKI_ZOOM_DETAIL=1` also each step's `zoom detail` trace lines (on stderr). After every step, once the
/// window is idle, cairo's fill of that step's view (`ZoomFloor`): each step's floor and its time over that floor.
/// Then the floor of the same views in process (`ViewRenderBench`), once the window is closed.
enum ZoomBench {
    static func run(steps: Int) throws {
        let w = try Workloads()
        defer { w.removeAll() }
        _ = try Workloads.createDocument(w.million, at: w.oekaki, withHistory: false)
        let display = try VirtualDisplay.start(log: w.log)
        defer { display.stop() }
        guard let xdotool = Executables.find("xdotool") else { throw BenchFailure("xdotool is not installed") }
        let app = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki-instrumented"
        guard let s = AppBench.Session(app: app, file: w.oekaki, floor: false, w: w, display: display, xdotool: xdotool) else {
            throw BenchFailure("the window did not appear")
        }
        s.settle()
        FileHandle.standardError.write(Data("oekaki-bench: app pid \(s.pid)\n".utf8))
        var r = AppBench.Result()
        let zoomFloor = ZoomFloor(w.million)
        for step in 0..<max(steps, 1) {
            if let z = s.zoomStep(in: step % 2 == 0, floor: zoomFloor) { r.add(z) }
        }
        s.stop()
        // What cairo needs for the same view, in the same minutes (the window is closed: nothing else runs).
        let floor = ViewRenderBench.measure(zoomFloor, rounds: 4, patches: false)
        print(JSON.object([("app_zoom_ms_1m", .number(r.zoomSharp1m.median)), ("app_zoom_preview_ms_1m", .number(r.zoomPreview1m.median)),
                           ("app_zoom_cpu_ms_1m", .number(r.zoomCPU1m.median)), ("app_zoom_gtk_cpu_ms_1m", .number(r.zoomGTKCPU1m.median)),
                           ("app_zoom_xserver_cpu_ms_1m", .number(r.zoomXServerCPU1m.median)), ("zoom_floor_ms_1m", .number(floor.floorWall.median)),
                           ("zoom_fill_cpu_ms_1m", .number(floor.fill.median)), ("zoom_render_ms_1m", .number(floor.wall.median)),
                           ("zoom_window_floor_ms_1m", .number(r.zoomWindowFloor1m.median)), ("app_zoom_1m_over_floor", .number(r.zoomOverFloor1m.median)),
                           ("steps", .integer(r.zoomSharp1m.count)), ("sharp_ms", .array(r.zoomSharp1m.values.map { .number($0) })),
                           ("cpu_ms", .array(r.zoomCPU1m.values.map { .number($0) })),
                           ("window_floor_ms", .array(r.zoomWindowFloor1m.values.map { .number($0) })),
                           ("over_floor", .array(r.zoomOverFloor1m.values.map { .number($0) }))]).text())
    }
}
