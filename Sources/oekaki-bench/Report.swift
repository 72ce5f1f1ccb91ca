import Foundation
import InkCore

/// Everything one run measured, before it is turned into keys, goals and ratios.
struct Measurements {
    var quick = false
    var command = ""
    var started = Date()
    var seconds = 0.0
    var machine: Machine?
    var inputEmpty = InputBench.Result()
    var input1k = InputBench.Result()
    var input100k = InputBench.Result()
    var naive100k = Samples()
    var redraw1m = Samples()
    var load1m = Samples()
    var load100kPoints = Samples()
    var xoppLoad1m = Samples()
    var save1m = Samples()
    var saveEmpty = Samples()
    var fsync = Samples()
    var points1m = 0
    var oekakiBytes = 0
    var oekakiNoHistoryBytes = 0
    var xoppBytes = 0
    var svgBytes = 0
    var export = ExportBench.Result()
    var app = AppBench.Result()
    /// Measured just after the window's zoom steps, in process: what cairo needs for the same view.
    var zoomFloor = ViewRenderBench.Result()
    var thumbnail = ThumbnailBench.Result()
    var notebook = NotebookFileBench.Result()
    var pdf = PDFBench.Result()
    var touch = TouchBench.Result()
    var shapes = ShapeBench.Result()
    var sync = SyncBench.Result()
    /// The app window joined to a board, at rest.
    var boardWindow = BoardAppBench.Result()
    var selection = SelectionBench.Result()
    var writeMs: [String: Double] = [:]
    var notes: [String] = []
}

/// One reported figure: where its key's value comes from, its spread, and its goal.
struct Row {
    enum Statistic: String { case p99, median, max, value }
    var key: String
    var label: String
    var unit: String
    var samples: Samples
    var statistic: Statistic
    var goal: String? = nil
    var met: Bool? = nil
    /// What the summary shows beside the value: the ratio a relative goal is judged by ("1.06× empty").
    var context: String? = nil
    /// The peers' figures for the same work, where there are peers ("Xournal++ 5251 ms (8.43×)").
    var peer: String? = nil

    var value: Double? {
        switch statistic {
        case .p99: return samples.p99
        case .median, .value: return samples.median
        case .max: return samples.max
        }
    }
}

struct Ratio {
    var key: String
    var label: String
    var value: Double?
    var goal: String? = nil
    var met: Bool? = nil
}

/// The issue's keys (in its order), the extras, the side-by-side ratios and the goals of one run.
struct Report {
    static let requiredKeys = ["input_p99_us_empty", "input_p99_us_100k", "input_naive_p99_us_100k", "redraw_ms_1m",
                               "load_ms_1m", "save_stroke_ms", "bytes_per_point", "export_png_ms_1m",
                               "xournalpp_png_ms_1m", "rsvg_png_ms_1m", "peak_rss_mib_1m"]

    let m: Measurements
    private(set) var rows: [Row] = []
    private(set) var extras: [Row] = []
    private(set) var ratios: [Ratio] = []

    init(_ m: Measurements) {
        self.m = m
        let e = m.export
        let xpp = e.xournalpp, rsvg = e.rsvg
        func div(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        let emptyP99 = m.inputEmpty.moved.p99, largeP99 = m.input100k.moved.p99
        let oursPNG = e.ours.runs.median
        let flat = div(m.save1m.median, m.saveEmpty.median)
        let xppRatio = div(xpp?.runs.median, oursPNG), rsvgRatio = div(rsvg?.runs.median, oursPNG)
        let bpp = m.points1m > 0 ? Double(m.oekakiBytes) / Double(m.points1m) : nil
        let oursRSS = e.ours.peakRSSMiB.max, xppRSS = xpp?.peakRSSMiB.max
        let fromXopp = e.oursFromXopp.runs.median
        let xppXoppRatio = div(xpp?.runs.median, fromXopp), rsvgXoppRatio = div(rsvg?.runs.median, fromXopp)
        let pdfRatio = div(e.xournalppPDF?.runs.median, e.oursPDF.runs.median)
        // Per million points, whatever the generated drawing's exact count.
        let xoppLoad = m.xoppLoad1m.scaled(by: 1e6 / Double(max(m.points1m, 1)))

        func single(_ v: Double?) -> Samples { Samples(v.map { [$0] } ?? []) }
        let a = m.app
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let drawRatio = div(a.draw1m.median, a.drawEmpty.median), panRatio = div(a.pan1m.median, a.panEmpty.median)
        let scrollRatio = div(a.scrollPage500.median, a.scrollPage1.median)
        let rssGrowth = a.rss1mMiB.flatMap { big in a.rssEmptyMiB.map { big - $0 } }
        rows = [
            Row(key: "input_p99_us_empty", label: "pen sample, empty drawing (p99)", unit: "µs", samples: m.inputEmpty.moved, statistic: .p99,
                goal: "≤ 250 µs", met: emptyP99.map { $0 <= 250 }),
            Row(key: "input_p99_us_100k", label: "pen sample, 100,000-stroke drawing (p99)", unit: "µs", samples: m.input100k.moved, statistic: .p99,
                goal: "≤ 250 µs and ≤ 1.2 × empty",
                met: largeP99.flatMap { l in emptyP99.map { l <= 250 && l <= 1.2 * $0 } }),
            Row(key: "input_naive_p99_us_100k", label: "pen sample the seeds' way, 100,000 strokes (p99)", unit: "µs", samples: m.naive100k, statistic: .p99,
                goal: "baseline"),
            Row(key: "redraw_ms_1m", label: "full re-render 1M points at 1920×1080, 2 cores", unit: "ms", samples: m.redraw1m, statistic: .median,
                goal: "as low as possible"),
            Row(key: "load_ms_1m", label: "open 1M-point .oekaki → Editor ready", unit: "ms", samples: m.load1m, statistic: .median,
                goal: "≤ 300 ms", met: m.load1m.median.map { $0 <= 300 }),
            Row(key: "save_stroke_ms", label: "commit one 100-point stroke into 1M points", unit: "ms", samples: m.save1m, statistic: .median,
                goal: "≤ 2 ms, flat (≤ 1.5 × into an empty document)",
                met: m.save1m.median.flatMap { v in flat.map { v <= 2 && $0 <= 1.5 } }),
            Row(key: "bytes_per_point", label: ".oekaki bytes per point (10,000 strokes, with history)", unit: "B", samples: Samples(bpp.map { [$0] } ?? []), statistic: .value,
                goal: "≤ 3", met: bpp.map { $0 <= 3 }),
            Row(key: "export_png_ms_1m", label: "PNG export 1M points: `\(e.oursCommand)` process", unit: "ms", samples: e.ours.runs, statistic: .median,
                goal: "≥ 5× faster than Xournal++, ≥ 3× than rsvg-convert",
                met: xppRatio.flatMap { x in rsvgRatio.map { x >= 5 && $0 >= 3 } }),
            Row(key: "xournalpp_png_ms_1m", label: "PNG export 1M points: xournalpp --create-img", unit: "ms", samples: xpp?.runs ?? Samples(), statistic: .median),
            Row(key: "rsvg_png_ms_1m", label: "PNG export 1M points: rsvg-convert on the SVG", unit: "ms", samples: rsvg?.runs ?? Samples(), statistic: .median),
            Row(key: "xopp_load_ms_1m", label: "read a .xopp (gunzip + XML + numbers), per 1M points", unit: "ms", samples: xoppLoad, statistic: .median,
                goal: "≤ 250 ms", met: xoppLoad.median.map { $0 <= 250 }),
            Row(key: "export_png_from_xopp_ms_1m", label: "PNG export 1M points from the .xopp: `oekaki export ink.xopp out.png`", unit: "ms", samples: e.oursFromXopp.runs, statistic: .median,
                goal: "≥ 5× faster than Xournal++, ≥ 3× than rsvg-convert",
                met: xppXoppRatio.flatMap { x in rsvgXoppRatio.map { x >= 5 && $0 >= 3 } }),
            Row(key: "export_pdf_ms_1m", label: "PDF export 1M points: `oekaki export ink.oekaki out.pdf`", unit: "ms", samples: e.oursPDF.runs, statistic: .median,
                goal: "≥ 10× faster than xournalpp --create-pdf", met: pdfRatio.map { $0 >= 10 }),
            Row(key: "xournalpp_pdf_ms_1m", label: "PDF export 1M points: xournalpp --create-pdf", unit: "ms", samples: e.xournalppPDF?.runs ?? Samples(), statistic: .median),
            Row(key: "app_draw_event_ms_empty", label: "window: app CPU per pen event, empty drawing", unit: "ms", samples: a.drawEmpty, statistic: .median),
            Row(key: "app_draw_event_ms_1m", label: "window: app CPU per pen event, 1M-point drawing", unit: "ms", samples: a.draw1m, statistic: .median,
                goal: "≤ 1.1 × empty", met: drawRatio.map { $0 <= 1.1 }),
            Row(key: "app_event_to_frame_ms_p50_empty", label: "window: pen motion event's timestamp to the end of the frame showing its ink, median, empty drawing",
                unit: "ms", samples: a.latencyEmpty, statistic: .median),
            Row(key: "app_event_to_frame_ms_p99_empty", label: "window: the same, 99th percentile of every event, empty drawing", unit: "ms",
                samples: a.latencyEmpty, statistic: .p99, goal: "≤ 16.7 ms (one frame at 60 Hz)",
                met: a.latencyEmpty.p99.map { $0 <= 16.7 }),
            Row(key: "app_event_to_frame_ms_p50_1m", label: "window: pen motion event's timestamp to the end of the frame showing its ink, median, 1M-point drawing",
                unit: "ms", samples: a.latency1m, statistic: .median),
            Row(key: "app_event_to_frame_ms_p99_1m", label: "window: the same, 99th percentile of every event, 1M-point drawing", unit: "ms",
                samples: a.latency1m, statistic: .p99, goal: "≤ 16.7 ms (one frame at 60 Hz)",
                met: a.latency1m.p99.map { $0 <= 16.7 }),
            Row(key: "app_pan_event_ms_empty", label: "window: app CPU per pan event, empty drawing", unit: "ms", samples: a.panEmpty, statistic: .median),
            Row(key: "app_pan_event_ms_1m", label: "window: app CPU per pan event, 1M-point drawing", unit: "ms", samples: a.pan1m, statistic: .median,
                goal: "≤ 1.5 × empty", met: panRatio.map { $0 <= 1.5 }),
            Row(key: "app_scroll_event_ms_page1", label: "window: app CPU per scroll event, page 1 of a 500-page notebook (2M points)", unit: "ms", samples: a.scrollPage1, statistic: .median),
            Row(key: "app_scroll_event_ms_page500", label: "window: app CPU per scroll event, page 500 of the same notebook", unit: "ms", samples: a.scrollPage500, statistic: .median,
                goal: "≤ 1.2 × page 1", met: scrollRatio.map { $0 <= 1.2 }),
            Row(key: "app_zoom_ms_1m", label: "window: one zoom step on 1M points until the view is sharp", unit: "ms", samples: a.zoomSharp1m, statistic: .median,
                goal: "≤ 150 ms (preview ≤ 16 ms)", met: a.zoomSharp1m.median.flatMap { s in a.zoomPreview1m.median.map { s <= 150 && $0 <= 16 } }),
            Row(key: "app_zoom_preview_ms_1m", label: "window: zoom step on 1M points until the scaled preview is on screen", unit: "ms", samples: a.zoomPreview1m, statistic: .median),
            Row(key: "app_zoom_cpu_ms_1m", label: "window: app CPU (all threads) from a zoom step on 1M points until the view is sharp", unit: "ms", samples: a.zoomCPU1m, statistic: .median),
            Row(key: "app_zoom_gtk_cpu_ms_1m", label: "window: the app's GTK thread CPU in a zoom step on 1M points (input, scaling the preview, frames, paste)", unit: "ms",
                samples: a.zoomGTKCPU1m, statistic: .median),
            Row(key: "app_zoom_xserver_cpu_ms_1m", label: "window: the X server's CPU in a zoom step on 1M points", unit: "ms",
                samples: a.zoomXServerCPU1m, statistic: .median),
            Row(key: "zoom_window_floor_ms_1m", label: "zoom floor in the window, per step: cairo's fill of the step's view (just after it, on one thread), the step's GTK thread and X server CPU, split evenly over \(cores) cores", unit: "ms",
                samples: a.zoomWindowFloor1m, statistic: .median),
            Row(key: "zoom_floor_ms_1m", label: "zoom floor, no window: cairo filling the view's outlines (shaped beforehand) plus scaling the preview, the mean of a step in and a step out, CPU split evenly over \(cores) cores",
                unit: "ms", samples: m.zoomFloor.floorWall, statistic: .median),
            Row(key: "zoom_fill_cpu_ms_1m", label: "zoom floor, no window: cairo filling the view's outlines (shaped beforehand), one thread, CPU, the mean of the views zoomed in (115 %) and out (100 %)", unit: "ms",
                samples: m.zoomFloor.fill, statistic: .median),
            Row(key: "zoom_render_ms_1m", label: "zoom, no window: our render of the view zoomed in (115 %; outlines kept from the last render), all cores, wall", unit: "ms",
                samples: m.zoomFloor.wall, statistic: .median),
            Row(key: "app_floor_pan_event_ms", label: "window: floor, a bare GtkDrawingArea taking the pan events", unit: "ms", samples: a.panFloor, statistic: .median),
            Row(key: "app_floor_draw_event_ms", label: "window: floor, a bare GtkDrawingArea taking the pen events", unit: "ms", samples: a.drawFloor, statistic: .median),
            Row(key: "app_rss_growth_mib_1m", label: "window: RSS with the 1M-point drawing open minus with an empty one", unit: "MiB", samples: single(rssGrowth), statistic: .value,
                goal: "≤ 100 MiB", met: rssGrowth.map { $0 <= 100 }),
            Row(key: "peak_rss_mib_1m", label: "peak RSS of our export process (max of runs)", unit: "MiB", samples: e.ours.peakRSSMiB, statistic: .max,
                goal: "≤ Xournal++'s", met: oursRSS.flatMap { o in xppRSS.map { o <= $0 } }),
            Row(key: "app_touch3_event_ms", label: "real window, three fingers drawing at once: app CPU per touch event (Broadway)", unit: "ms",
                samples: m.touch.three, statistic: .median, goal: "≤ 3 × one finger's",
                met: m.touch.three.median.flatMap { t in m.touch.one.median.map { t <= 3 * $0 } }),
            Row(key: "sync_apply_p99_ms", label: "shared board: publish → applied and stored at another replica, loopback (p99)", unit: "ms",
                samples: m.sync.apply, statistic: .p99, goal: "≤ 20 ms", met: m.sync.apply.p99.map { $0 <= 20 }),
            Row(key: "sync_catchup_ms_1m", label: "shared board: a new replica joins a board of 1M points", unit: "ms",
                samples: m.sync.catchUp1m, statistic: .median, goal: "≤ 2000 ms", met: m.sync.catchUp1m.median.map { $0 <= 2000 }),
            Row(key: "board_sync_idle_cpu_pct_1m", label: "shared board: `oekaki sync` live on a 1M-point board, nothing happening, CPU over 10 s", unit: "% of a core",
                samples: m.sync.syncIdleCPU1m, statistic: .value, goal: "≤ 1 %", met: m.sync.syncIdleCPU1m.median.map { $0 <= 1 }),
            Row(key: "board_apply_ms_p50", label: "shared board of 1M points: one stroke committed at a replica until committed in another's file (p50)", unit: "ms",
                samples: m.sync.apply1m, statistic: .median, goal: "report"),
            Row(key: "board_apply_ms_p99", label: "shared board of 1M points: one stroke committed at a replica until committed in another's file (p99)", unit: "ms",
                samples: m.sync.apply1m, statistic: .p99, goal: "≤ 20 ms", met: m.sync.apply1m.p99.map { $0 <= 20 }),
            Row(key: "board_class30_apply_ms_p50", label: "a class on one board: 30 clients drawing at once (100-sample pressure strokes) on a 3-node cluster, one's commit until committed in each other replica's file (p50)", unit: "ms",
                samples: m.sync.class30, statistic: .median, goal: "report"),
            Row(key: "board_class30_apply_ms_p99", label: "a class on one board: 30 clients drawing at once on a 3-node cluster, one's commit until committed in each other replica's file (p99)", unit: "ms",
                samples: m.sync.class30, statistic: .p99, goal: "≤ 50 ms", met: m.sync.class30.p99.map { $0 <= 50 }),
            Row(key: "board_catchup_s_1m", label: "shared board: a new replica of a 1M-point board (log only, no snapshot yet)", unit: "s",
                samples: Samples(m.sync.catchUp1m.values.map { $0 / 1000 }), statistic: .median, goal: "≤ 2 s", met: m.sync.catchUp1m.median.map { $0 <= 2000 }),
            Row(key: "board_catchup_s_1m_history", label: "shared board: a new replica of the 1M-point board after a term of lessons, 100,000 further edits (strokes, moves, erases, undos, page edits): the newest snapshot, then the log after it", unit: "s",
                samples: m.sync.catchUpHistory, statistic: .median, goal: "≤ 2 s", met: m.sync.catchUpHistory.median.map { $0 <= 2 }),
            Row(key: "board_idle_cpu_pct_1m", label: "shared board: the app window (`oekaki-instrumented`) joined to a 1M-point board, nothing happening, CPU over 10 s", unit: "% of a core",
                samples: m.boardWindow.idle1m, statistic: .value, goal: "≤ 1 %", met: m.boardWindow.idle1m.median.map { $0 <= 1 }),
            Row(key: "board_idle_cpu_pct_10m", label: "shared board: the app window joined to a 10M-point board (100,000 strokes), nothing happening, CPU over 10 s", unit: "% of a core",
                samples: m.boardWindow.idle10m, statistic: .value, goal: "≤ 1 %", met: m.boardWindow.idle10m.median.map { $0 <= 1 }),
            Row(key: "sync_ten_writers_ms", label: "shared board: 10 writers × \(m.sync.strokesEach) strokes at once until all replicas agree", unit: "ms",
                samples: m.sync.tenWriters, statistic: .value, goal: "report"),
            Row(key: "select_ms_1m", label: "lasso selection on 1M points taking \(m.selection.selectedPoints) points (median)", unit: "ms",
                samples: m.selection.select, statistic: .median, goal: "≤ 50 ms", met: m.selection.select.median.map { $0 <= 50 }),
            Row(key: "drag_selection_event_ms_10k", label: "dragging a 10,000-stroke selection: per event, cached layer composited (median)", unit: "ms",
                samples: m.selection.drag, statistic: .median, goal: "≤ 4 ms", met: m.selection.drag.median.map { $0 <= 4 }),
            Row(key: "move_bytes_per_stroke", label: ".oekaki growth per stroke for one move of 10,000 strokes (worst of ten)", unit: "B",
                samples: m.selection.moveBytes, statistic: .max, goal: "≤ 64 B", met: m.selection.moveBytes.max.map { $0 <= 64 }),
            Row(key: "thumbnail_ms_1m", label: "256×256 thumbnail of 1M points: `oekaki-thumbnailer` process", unit: "ms", samples: m.thumbnail.process, statistic: .median,
                goal: "≤ 100 ms", met: m.thumbnail.process.median.map { $0 <= 100 }),
            Row(key: "shape_fit_p99_ms_1k", label: "hold-to-snap: CPU to fit a shape to a 1,000-point stroke at pen-up (p99)", unit: "ms",
                samples: m.shapes.fit, statistic: .p99, goal: "≤ 2 ms", met: m.shapes.fit.p99.map { $0 <= 2 }),
            Row(key: "notebook_open_ms_500p", label: "open a 500-page notebook of 2M points (every page, read-only)", unit: "ms", samples: m.notebook.open, statistic: .median,
                goal: "≤ 300 ms", met: m.notebook.open.median.map { $0 <= 300 }),
            Row(key: "notebook_pdf_ms_500p", label: "PDF of all 500 pages: `oekaki export` process", unit: "ms", samples: m.notebook.oursPDF, statistic: .median,
                goal: "≥ 5 × faster than Xournal++", met: div(m.notebook.xournalppPDF.median, m.notebook.oursPDF.median).map { $0 >= 5 }),
            Row(key: "pdf_first_page_ms_300", label: "window: `oekaki paper.pdf` (300 pages) from spawn to its first page rendered", unit: "ms",
                samples: m.pdf.firstPage, statistic: .median, goal: "≤ 1000 ms", met: m.pdf.firstPage.median.map { $0 <= 1000 }),
            Row(key: "pdf_annotated_export_ms_300", label: "PDF of a 300-page PDF with 1.2M points of ink: `oekaki export` process", unit: "ms",
                samples: m.pdf.oursPDF, statistic: .median, goal: "faster than Xournal++", met: div(m.pdf.xournalppPDF.median, m.pdf.oursPDF.median).map { $0 >= 1 }),
        ]

        func ms(_ v: Double?) -> String { Format.number(v, unit: "ms") }
        func times(_ v: Double?) -> String { v.map { " (\(Format.ratio($0)))" } ?? "" }
        func relative(_ v: Double?, _ what: String) -> String? { v.map { "\(Format.ratio($0)) \(what)" } }
        let notebookRatio = div(m.notebook.xournalppPDF.median, m.notebook.oursPDF.median)
        let annotatedRatio = div(m.pdf.xournalppPDF.median, m.pdf.oursPDF.median)
        let context: [String: String?] = [
            "input_p99_us_100k": relative(div(largeP99, emptyP99), "empty"),
            "save_stroke_ms": relative(flat, "empty"),
            "app_draw_event_ms_1m": relative(drawRatio, "empty"),
            "app_pan_event_ms_1m": relative(panRatio, "empty"),
            "app_scroll_event_ms_page500": relative(scrollRatio, "page 1"),
            "app_zoom_ms_1m": a.zoomPreview1m.median.map { "preview \(ms($0))" },
            "app_touch3_event_ms": relative(div(m.touch.three.median, m.touch.one.median), "one finger"),
        ]
        let peers: [String: String?] = [
            "export_png_ms_1m": xpp.map { _ in "Xournal++ \(ms(xpp?.runs.median))\(times(xppRatio)), rsvg-convert \(ms(rsvg?.runs.median))\(times(rsvgRatio))" },
            "export_png_from_xopp_ms_1m": xpp.map { _ in "Xournal++ \(ms(xpp?.runs.median))\(times(xppXoppRatio)), rsvg-convert \(ms(rsvg?.runs.median))\(times(rsvgXoppRatio))" },
            "export_pdf_ms_1m": e.xournalppPDF.map { "Xournal++ \(ms($0.runs.median))\(times(pdfRatio))" },
            "bytes_per_point": m.xoppBytes > 0 ? "Xournal++'s .xopp \(Format.number(Double(m.xoppBytes) / Double(max(m.points1m, 1)), unit: "B"))" : nil,
            "peak_rss_mib_1m": xppRSS.map { "Xournal++ \(Format.number($0, unit: "MiB"))" },
            "notebook_pdf_ms_500p": m.notebook.xournalppPDF.median.map { "Xournal++ \(ms($0))\(times(notebookRatio))" },
            "pdf_annotated_export_ms_300": m.pdf.xournalppPDF.median.map { "Xournal++ \(ms($0))\(times(annotatedRatio))" },
        ]
        for i in rows.indices {
            rows[i].context = context[rows[i].key] ?? nil
            rows[i].peer = peers[rows[i].key] ?? nil
        }

        let pts = Double(max(m.points1m, 1))
        extras = [
            Row(key: "app_touch1_event_ms", label: "real window, one finger drawing: app CPU per touch event (Broadway)", unit: "ms",
                samples: m.touch.one, statistic: .median),
            Row(key: "shape_fit_ms_1k", label: "hold-to-snap: CPU to fit a shape to a 1,000-point stroke (median)", unit: "ms",
                samples: m.shapes.fit, statistic: .median),
            Row(key: "input_p99_us_1k", label: "pen sample, 1,000-stroke drawing (p99)", unit: "µs", samples: m.input1k.moved, statistic: .p99),
            Row(key: "input_median_us_empty", label: "pen sample, empty drawing (median)", unit: "µs", samples: m.inputEmpty.moved, statistic: .median),
            Row(key: "input_median_us_100k", label: "pen sample, 100,000 strokes (median)", unit: "µs", samples: m.input100k.moved, statistic: .median),
            Row(key: "pen_down_p99_us_100k", label: "pen down (new live layer), 100,000 strokes (p99)", unit: "µs", samples: m.input100k.began, statistic: .p99),
            Row(key: "pen_up_p99_us_100k", label: "pen up (edit + bake into cache), 100,000 strokes (p99)", unit: "µs", samples: m.input100k.ended, statistic: .p99),
            Row(key: "frame_composite_ms", label: "screen frame: composite cache + live layer (median)", unit: "ms", samples: m.input100k.composite, statistic: .median),
            Row(key: "load_ms_100k_points", label: "open 1,000-stroke .oekaki → Editor ready", unit: "ms", samples: m.load100kPoints, statistic: .median),
            Row(key: "save_stroke_ms_empty", label: "commit one 100-point stroke into an empty document", unit: "ms", samples: m.saveEmpty, statistic: .median),
            Row(key: "fsync_ms", label: "this disk: append 4 KiB + fsync, the floor of a durable commit", unit: "ms", samples: m.fsync, statistic: .median),
            Row(key: "export_png_inprocess_ms_1m", label: "PNG export 1M points inside this process (load + render + encode + write)", unit: "ms", samples: e.oursInProcess, statistic: .median),
            Row(key: "thumbnail_cpu_ms_1m", label: "CPU time of the thumbnail process (user + system, both cores)", unit: "ms", samples: m.thumbnail.cpu, statistic: .median),
            Row(key: "thumbnail_inprocess_ms_1m", label: "256×256 thumbnail of 1M points inside this process", unit: "ms", samples: m.thumbnail.inProcess, statistic: .median),
            Row(key: "thumbnail_oekaki_ms_1m", label: "the same thumbnail through the app's binary: `oekaki thumbnail` process (loads GTK)", unit: "ms", samples: m.thumbnail.viaApp, statistic: .median),
            Row(key: "notebook_xournalpp_pdf_ms_500p", label: "PDF of all 500 pages: `xournalpp --create-pdf` on the notebook's .xopp", unit: "ms", samples: m.notebook.xournalppPDF, statistic: .median),
            Row(key: "pdf_annotated_xournalpp_ms_300", label: "PDF of the same annotated 300-page PDF: `xournalpp --create-pdf` on its .xopp", unit: "ms",
                samples: m.pdf.xournalppPDF, statistic: .median),
            Row(key: "notebook_open_page_ms_500p", label: "open one page of the 500-page notebook for streaming (StrokeStream)", unit: "ms", samples: m.notebook.openFirstPage, statistic: .median),
            Row(key: "export_png_cpu_ms_1m", label: "CPU time of our export process (user + system, both cores)", unit: "ms", samples: e.ours.cpuMs, statistic: .median),
            Row(key: "xournalpp_png_cpu_ms_1m", label: "CPU time of xournalpp exporting", unit: "ms", samples: xpp?.cpuMs ?? Samples(), statistic: .median),
            Row(key: "rsvg_png_cpu_ms_1m", label: "CPU time of rsvg-convert", unit: "ms", samples: rsvg?.cpuMs ?? Samples(), statistic: .median),
            Row(key: "xournalpp_peak_rss_mib_1m", label: "peak RSS of xournalpp exporting the same ink (max of runs)", unit: "MiB", samples: xpp?.peakRSSMiB ?? Samples(), statistic: .max),
            Row(key: "rsvg_peak_rss_mib_1m", label: "peak RSS of rsvg-convert (max of runs)", unit: "MiB", samples: rsvg?.peakRSSMiB ?? Samples(), statistic: .max),
            Row(key: "bytes_per_point_no_history", label: ".oekaki bytes per point, saved without history", unit: "B", samples: single(m.oekakiNoHistoryBytes > 0 ? Double(m.oekakiNoHistoryBytes) / pts : nil), statistic: .value),
            Row(key: "xopp_bytes_per_point", label: ".xopp bytes per point (same ink)", unit: "B", samples: single(m.xoppBytes > 0 ? Double(m.xoppBytes) / pts : nil), statistic: .value),
            Row(key: "svg_bytes_per_point", label: ".svg bytes per point (same ink, outlines)", unit: "B", samples: single(m.svgBytes > 0 ? Double(m.svgBytes) / pts : nil), statistic: .value),
        ] + m.writeMs.sorted { $0.key < $1.key }.map {
            Row(key: $0.key, label: "write the 1M-point file once (\($0.key.split(separator: "_").first ?? ""))", unit: "ms", samples: single($0.value), statistic: .value)
        }

        ratios = [
            Ratio(key: "input_100k_over_empty", label: "pen sample p99: 100,000 strokes / empty", value: div(largeP99, emptyP99), goal: "≤ 1.2", met: div(largeP99, emptyP99).map { $0 <= 1.2 }),
            Ratio(key: "naive_over_fast_100k", label: "pen sample p99 at 100,000 strokes: seeds' way / ours", value: div(m.naive100k.p99, largeP99)),
            Ratio(key: "save_1m_over_empty", label: "stroke commit median: 1M-point document / empty", value: flat, goal: "≤ 1.5 (flat)", met: flat.map { $0 <= 1.5 }),
            Ratio(key: "xournalpp_over_ours_png", label: "PNG export median: Xournal++ / ours (both processes)", value: xppRatio, goal: "≥ 5", met: xppRatio.map { $0 >= 5 }),
            Ratio(key: "rsvg_over_ours_png", label: "PNG export median: rsvg-convert / ours (both processes)", value: rsvgRatio, goal: "≥ 3", met: rsvgRatio.map { $0 >= 3 }),
            Ratio(key: "xournalpp_over_ours_png_from_xopp", label: "PNG export from .xopp: Xournal++ / ours (both processes)", value: xppXoppRatio, goal: "≥ 5", met: xppXoppRatio.map { $0 >= 5 }),
            Ratio(key: "rsvg_over_ours_png_from_xopp", label: "PNG export: rsvg-convert (SVG) / ours from .xopp", value: rsvgXoppRatio, goal: "≥ 3", met: rsvgXoppRatio.map { $0 >= 3 }),
            Ratio(key: "xournalpp_over_ours_pdf", label: "PDF export: Xournal++ / ours (both processes)", value: pdfRatio, goal: "≥ 10", met: pdfRatio.map { $0 >= 10 }),
            Ratio(key: "app_draw_1m_over_empty", label: "window, pen event CPU: 1M points / empty", value: drawRatio, goal: "≤ 1.1", met: drawRatio.map { $0 <= 1.1 }),
            Ratio(key: "app_scroll_page500_over_page1", label: "window, scroll event CPU in a 500-page notebook: page 500 / page 1", value: scrollRatio, goal: "≤ 1.2", met: scrollRatio.map { $0 <= 1.2 }),
            Ratio(key: "app_pan_1m_over_empty", label: "window, pan event CPU: 1M points / empty", value: panRatio, goal: "≤ 1.5", met: panRatio.map { $0 <= 1.5 }),
            Ratio(key: "app_pan_empty_over_floor", label: "window, pan event CPU: empty drawing / bare GtkDrawingArea (our overhead)", value: div(a.panEmpty.median, a.panFloor.median)),
            Ratio(key: "app_pan_1m_over_floor", label: "window, pan event CPU: 1M points / bare GtkDrawingArea", value: div(a.pan1m.median, a.panFloor.median)),
            Ratio(key: "app_zoom_1m_over_floor", label: "window, zoom step on 1M points until sharp / that step's floor (median of the steps' ratios; our overhead)",
                  value: a.zoomOverFloor1m.median),
            Ratio(key: "app_draw_empty_over_floor", label: "window, pen event CPU: empty drawing / bare GtkDrawingArea (our overhead)", value: div(a.drawEmpty.median, a.drawFloor.median)),
            Ratio(key: "xournalpp_over_ours_png_inprocess", label: "PNG export median: Xournal++ / ours in-process", value: div(xpp?.runs.median, e.oursInProcess.median)),
            Ratio(key: "rsvg_over_ours_png_inprocess", label: "PNG export median: rsvg-convert / ours in-process", value: div(rsvg?.runs.median, e.oursInProcess.median)),
            Ratio(key: "xournalpp_over_ours_png_cpu", label: "PNG export CPU time (all threads): Xournal++ / ours", value: div(xpp?.cpuMs.median, e.ours.cpuMs.median)),
            Ratio(key: "rsvg_over_ours_png_cpu", label: "PNG export CPU time (all threads): rsvg-convert / ours", value: div(rsvg?.cpuMs.median, e.ours.cpuMs.median)),
            Ratio(key: "ours_over_xournalpp_peak_rss", label: "peak RSS exporting: ours / Xournal++", value: div(oursRSS, xppRSS), goal: "≤ 1", met: div(oursRSS, xppRSS).map { $0 <= 1 }),
            Ratio(key: "touch3_over_touch1_event_cpu", label: "app CPU per touch event: three fingers / one finger", value: div(m.touch.three.median, m.touch.one.median),
                  goal: "≤ 3", met: div(m.touch.three.median, m.touch.one.median).map { $0 <= 3 }),
            Ratio(key: "xopp_over_oekaki_bytes", label: "file size: .xopp / .oekaki (same ink)", value: m.oekakiBytes > 0 && m.xoppBytes > 0 ? Double(m.xoppBytes) / Double(m.oekakiBytes) : nil),
            Ratio(key: "xournalpp_over_ours_pdf_500p", label: "PDF of a 500-page notebook: Xournal++ / ours (both processes)",
                  value: div(m.notebook.xournalppPDF.median, m.notebook.oursPDF.median), goal: "≥ 5",
                  met: div(m.notebook.xournalppPDF.median, m.notebook.oursPDF.median).map { $0 >= 5 }),
            Ratio(key: "xournalpp_over_ours_pdf_annotated_300", label: "PDF of an annotated 300-page PDF: Xournal++ / ours (both processes)",
                  value: div(m.pdf.xournalppPDF.median, m.pdf.oursPDF.median)),
        ]
    }

    var allNotes: [String] {
        var n = m.notes + m.export.notes + m.app.notes + m.sync.notes + m.boardWindow.notes + m.notebook.notes + m.pdf.notes
        for t in [m.export.ours, m.export.oursFromXopp, m.export.oursPDF] + [m.export.xournalpp, m.export.rsvg, m.export.xournalppPDF].compactMap({ $0 }) where !t.failures.isEmpty {
            n.append("\(t.name): \(t.failures.count) failed run(s): \(Set(t.failures).sorted().joined(separator: "; "))")
        }
        return n
    }

    var missed: [Row] { rows.filter { $0.met == false } }

    /// The rows with a goal a run can meet or fall short of (not the baseline, "as low as possible" or "report").
    var goals: [Row] { rows.filter { $0.goal.map { !["baseline", "as low as possible", "report"].contains($0) } ?? false } }

    // MARK: JSON

    func json() -> String {
        var top: [(String, JSON)] = rows.map { ($0.key, .number($0.value)) }
        top += extras.map { ($0.key, .number($0.value)) }
        top.append(("ratios", .object(ratios.map { ($0.key, .number($0.value)) })))
        top.append(("goals", .object((rows + []).compactMap { r in
            guard let g = r.goal, r.met != nil || g != "baseline" else { return nil }
            return (r.key, .object([("goal", .string(g)), ("value", .number(r.value)), ("met", r.met.map(JSON.bool) ?? .null)]))
        })))
        top.append(("figures", .object((rows + extras).map { r in
            (r.key, .object([("unit", .string(r.unit)), ("statistic", .string(r.statistic.rawValue)), ("median", .number(r.samples.median)),
                             ("p99", .number(r.samples.p99)), ("min", .number(r.samples.min)), ("max", .number(r.samples.max)),
                             ("n", .integer(r.samples.count))]))
        })))
        var run: [(String, JSON)] = [("mode", .string(m.quick ? "quick" : "full")), ("command", .string(m.command)),
                                     ("date", .string(Self.iso(m.started))), ("seconds", .number(m.seconds)),
                                     ("export_command", .string(m.export.oursCommand)),
                                     ("points_1m", .integer(m.points1m)),
                                     ("input_samples_empty", .integer(m.inputEmpty.moved.count)),
                                     ("input_samples_100k", .integer(m.input100k.moved.count)),
                                     ("input_naive_samples_100k", .integer(m.naive100k.count))]
        run.append(("notes", .array(allNotes.map(JSON.string))))
        top.append(("run", .object(run)))
        if let mc = m.machine {
            top.append(("machine", .object([("cpu", .string(mc.cpuModel)), ("cores", .integer(mc.cores)),
                                             ("memory_gib", .number(mc.memoryGiB)), ("system", .string(mc.system)),
                                             ("kernel", .string(mc.kernel)),
                                             ("xournalpp", mc.xournalppVersion.map(JSON.string) ?? .null),
                                             ("rsvg_convert", mc.rsvgVersion.map(JSON.string) ?? .null)])))
        }
        return JSON.object(top).text() + "\n"
    }

    static func iso(_ d: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return f.string(from: d)
    }
}

/// Number formatting shared by the table and the Markdown.
enum Format {
    static func number(_ v: Double?, unit: String = "") -> String {
        guard let v, v.isFinite else { return "—" }
        // Seconds read better than millions of microseconds (the naive baseline).
        if unit == "µs", v >= 1e6 { return number(v / 1e6, unit: "s") }
        if unit == "µs", v >= 1e4 { return number(v / 1e3, unit: "ms") }
        let digits = abs(v) >= 100 ? 0 : abs(v) >= 10 ? 1 : 2
        let s = String(format: "%.\(digits)f", v)
        return unit.isEmpty ? s : "\(s) \(unit)"
    }
    static func spread(_ s: Samples, unit: String) -> String {
        guard let lo = s.min, let hi = s.max else { return "—" }
        return s.count == 1 ? "(one run)" : "\(number(lo, unit: unit)) – \(number(hi, unit: unit))"
    }
    static func ratio(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "—" }
        return String(format: v >= 10 ? "%.0f×" : "%.2f×", v)
    }
    static func met(_ m: Bool?) -> String { m.map { $0 ? "yes" : "**no**" } ?? "" }
}
