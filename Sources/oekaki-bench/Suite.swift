import Foundation
import InkCore
import InkRender
import InkStore

/// Runs every measurement once, in an order that keeps the big 100,000-stroke drawing in memory last.
struct Suite {
    /// How many repetitions each figure gets.
    struct Plan {
        var loads: Int, commits: Int, redraws: Int, exportRounds: Int, penStrokes: Int, naiveSamples: Int, appRounds: Int
        var touchRounds = 3
        /// 110 strokes × 98 moved samples = 10,780 counted samples after 3 warm-up strokes (the issue asks ≥ 10,000).
        static let quick = Plan(loads: 3, commits: 15, redraws: 3, exportRounds: 1, penStrokes: 110, naiveSamples: 1, appRounds: 1, touchRounds: 1)
        static let full = Plan(loads: 10, commits: 60, redraws: 10, exportRounds: 5, penStrokes: 210, naiveSamples: 10, appRounds: 5)
    }

    let quick: Bool
    let command: String
    var plan: Plan { quick ? .quick : .full }

    func run() throws -> Measurements {
        let t0 = Clock.nanoseconds()
        var m = Measurements()
        m.quick = quick; m.command = command; m.started = Date()

        progress("generating the drawings (seeds \(Workloads.seeds))")
        let w = try Workloads()
        defer { w.removeAll() }
        m.machine = Machine.describe(log: w.log)
        m.points1m = w.million.pointCount
        progress("writing .oekaki, .xopp and .svg of \(m.points1m) points to \(w.folder)")
        try w.writeFiles()
        m.writeMs = w.writeMs
        m.oekakiBytes = Workloads.documentBytes(w.oekaki)
        m.oekakiNoHistoryBytes = Workloads.documentBytes(w.oekakiNoHistory)
        m.xoppBytes = Workloads.fileSize(w.xopp)
        m.svgBytes = Workloads.fileSize(w.svg)

        progress("load ×\(plan.loads), commit ×\(plan.commits)")
        m.load1m = try StoreBench.load(w.oekaki, runs: plan.loads)
        m.load100kPoints = try StoreBench.load(w.smallOekaki, runs: plan.loads)
        m.xoppLoad1m = try StoreBench.loadXopp(w.xopp, runs: plan.loads)
        (m.save1m, m.saveEmpty, m.fsync) = try StoreBench.saveStroke(into: w.oekaki, folder: w.folder, commits: plan.commits)

        progress("full redraw ×\(plan.redraws)")
        do {
            let cache = try ScreenCache(viewSize: InputBench.viewSize, transform: .identity)
            for _ in 0..<plan.redraws { m.redraw1m.add(Clock.ms { cache.render(w.million) }.1) }
        }

        progress("PNG export ×\(plan.exportRounds) rounds (ours, Xournal++, rsvg-convert, ours in-process)")
        var display: VirtualDisplay?
        if Executables.find("xournalpp") != nil {
            do { display = try VirtualDisplay.start(log: w.log) } catch { m.notes.append("\(error)") }
        }
        m.export = ExportBench.run(w, rounds: plan.exportRounds, display: display)
        progress("notebook: 500 pages, 2M points: open ×\(plan.exportRounds * 2), PDF of every page ×\(plan.exportRounds) (ours, Xournal++)")
        m.notebook = NotebookFileBench.run(folder: w.folder, home: w.home, log: w.log, rounds: quick ? 1 : 3, display: display)
        progress("PDF: 300 pages: open to the first page ×\(quick ? 1 : 3), annotated PDF export ×\(quick ? 1 : 3) (ours, Xournal++)")
        m.pdf = PDFBench.run(folder: w.folder, home: w.home, log: w.log, rounds: quick ? 1 : 3, display: display)
        display?.stop()
        measureWindow(w, into: &m)
        progress("thumbnail ×\(plan.exportRounds * 2) (process and in-process)")
        m.thumbnail = ThumbnailBench.run(w, rounds: plan.exportRounds * 2)
        m.notes += m.thumbnail.failures
        progress("shared board: apply ×\(quick ? 100 : 300), catch-up of 1M points ×3, ten writers × \(quick ? 200 : 1000) strokes")
        m.sync = SyncBench.run(w.million, folder: w.folder, applyRounds: quick ? 100 : 300, strokesEach: quick ? 200 : 1000)
        m.boardWindow = boardWindow(w)

        progress("selection: lasso on 1M points, dragging 10,000 strokes, ten moves stored")
        m.selection = SelectionBench.run(w.million, folder: w.folder, rounds: quick ? 1 : 3)
        m.notes += m.selection.notes
        progress("hold-to-snap fit on 1,000-point strokes")
        m.shapes = ShapeBench.run(rounds: quick ? 5 : 40)

        let pen = Workloads.penStrokes(plan.penStrokes)
        progress("generating 100,000 strokes; pen input the seeds' way ×\(plan.naiveSamples)")
        let large = try InputBench.setUp(w.large, render: false)
        // The naive samples repaint the whole cache, so afterwards it shows all 100,000 strokes, as in the app.
        m.naive100k = InputBench.naive(editor: large.0, cache: large.1, stroke: pen[0], samples: plan.naiveSamples)
        progress("pen input: \(pen.count) strokes on empty, 1,000- and 100,000-stroke drawings, interleaved")
        let empty = try InputBench.setUp(Drawing()), small = try InputBench.setUp(w.small)
        let r = try InputBench.fastPath([(empty.0, empty.1), (small.0, small.1), (large.0, large.1)], strokes: pen)
        (m.inputEmpty, m.input1k, m.input100k) = (r[0], r[1], r[2])
        if let last = pen.last, !InputBench.showsInk(empty.1, along: last) {
            m.notes.append("sanity check failed: the screen cache shows no ink under the last pen stroke (the input figures may time a path that draws nothing)")
        }
        progress("touch: the real window on a Broadway display, one finger and three fingers ×\(plan.touchRounds)")
        m.touch = TouchBench.run(rounds: plan.touchRounds, folder: w.folder, log: w.log)
        m.notes += m.touch.notes
        m.seconds = Double(Clock.nanoseconds() - t0) / 1e9
        return m
    }

    /// The window figures, then what cairo needs for its zoom steps from the same minutes; one set of shaped
    /// outlines of the zoomed views serves the floor beside every step and the floor after them.
    func measureWindow(_ w: Workloads, into m: inout Measurements) {
        let floor = ZoomFloor(w.million)
        m.app = appWindow(w, zoomFloor: floor)
        m.zoomFloor = zoomFloor(floor)
    }

    /// The window figures, on a display of their own.
    func appWindow(_ w: Workloads, zoomFloor: ZoomFloor) -> AppBench.Result {
        progress("app window under Xvfb ×\(plan.appRounds) rounds (floor, empty, 1M points)")
        do {
            let display = try VirtualDisplay.start(log: w.log)
            defer { display.stop() }
            return AppBench.run(w, display: display, rounds: plan.appRounds, zoomFloor: zoomFloor)
        } catch {
            var r = AppBench.Result()
            r.notes.append("app window: \(error)")
            return r
        }
    }

    /// What cairo needs for the window's zoom steps, measured right after them (the figures are compared).
    func zoomFloor(_ floor: ZoomFloor) -> ViewRenderBench.Result {
        progress("zoom floor: the window's zoomed views rendered in process ×\(quick ? 2 : 6) (cairo's fill alone, our render)")
        return ViewRenderBench.measure(floor, rounds: quick ? 2 : 6, patches: false)
    }

    /// Only the shared-board figures.
    func runSyncOnly() throws -> Measurements {
        var m = Measurements()
        m.quick = quick; m.command = command; m.started = Date()
        let w = try Workloads()
        defer { w.removeAll() }
        m.points1m = w.million.pointCount
        progress("shared board: apply ×\(quick ? 100 : 300), catch-up of 1M points ×3, ten writers × \(quick ? 200 : 1000) strokes")
        m.sync = SyncBench.run(w.million, folder: w.folder, applyRounds: quick ? 100 : 300, strokesEach: quick ? 200 : 1000)
        return m
    }

    /// Only the shared-board figures: the sync engine's, then the window joined to boards of 1M and 10M points.
    func runBoardOnly() throws -> Measurements {
        let t0 = Clock.nanoseconds()
        var m = try runSyncOnly()
        let w = try Workloads()
        defer { w.removeAll() }
        m.machine = Machine.describe(log: w.log)
        m.boardWindow = boardWindow(w)
        m.seconds = Double(Clock.nanoseconds() - t0) / 1e9
        return m
    }

    /// The app window joined to a board at rest, on a display of its own.
    func boardWindow(_ w: Workloads) -> BoardAppBench.Result {
        progress("shared board: the window joined to boards of 1M and 10M points, at rest")
        do {
            let display = try VirtualDisplay.start(log: w.log)
            defer { display.stop() }
            return BoardAppBench.run(w, display: display)
        } catch {
            var r = BoardAppBench.Result()
            r.notes.append("board window: \(error)")
            return r
        }
    }

    /// Only the selection figures.
    func runSelectionOnly() throws -> Measurements {
        var m = Measurements()
        m.quick = quick; m.command = command; m.started = Date()
        let w = try Workloads()
        defer { w.removeAll() }
        m.points1m = w.million.pointCount
        m.selection = SelectionBench.run(w.million, folder: w.folder, rounds: quick ? 1 : 3)
        m.notes += m.selection.notes
        return m
    }

    /// Only the window figures (a quick check while working on the canvas).
    func runAppOnly() throws -> Measurements {
        var m = Measurements()
        m.quick = quick; m.command = command; m.started = Date()
        let w = try Workloads()
        defer { w.removeAll() }
        try w.writeFiles()
        m.points1m = w.million.pointCount
        measureWindow(w, into: &m)
        return m
    }

    func progress(_ s: String) {
        FileHandle.standardError.write(Data("oekaki-bench: \(s)\n".utf8))
    }
}
