import Foundation
import InkSamples

// oekaki-bench: measures input latency, redraw, load, save, file size and PNG export against Xournal++ and
// rsvg-convert, and prints a table, JSON, or rewrites BENCHMARKS.md. Run a release build.

let usage = """
usage: oekaki-bench [--quick] [--json] [--write FILE]
  (no options)   full suite, readable table on stdout
  --quick        fewer repetitions (two to three minutes); every key is still reported
  --json         one JSON object with every key on stdout (progress goes to stderr)
  --write FILE   full suite, then rewrite the generated sections of FILE (BENCHMARKS.md: the summary, every figure)
  --latency      only the pen latency in the window (app_event_to_frame_ms_*), as JSON; with --write FILE it
                 rewrites only FILE's latency section
  --touch        only the touch figures (the real window on a Broadway display), as JSON
  --pages        only the 500-page notebook scroll figures (the real window under Xvfb), as JSON
  --class        only the class figure (30 clients drawing at once on a 3-node cluster), as JSON
  --shapes       only the hold-to-snap fit on 1,000-point strokes, as JSON
  --thumbnail    only the thumbnail figures (the 1M-point .oekaki, `oekaki-thumbnailer` process and in-process), as JSON
  --notebook     only the 500-page notebook figures (open, PDF of every page vs Xournal++), as JSON
  --xopp-pressure
                 only Xournal++-shaped pressure ink (10,000 × 100 points, a width per point): PNG and PDF export from
                 the .xopp vs xournalpp and rsvg-convert, PDF size; JSON, or with --write FILE its section of FILE
  --pdf          only the 300-page PDF figures (window to first page, annotated PDF export vs Xournal++), as JSON
  --navigation   only the page sidebar (500-page PDF) and 200 % pan gesture figures, as JSON; with --write FILE
                 it rewrites only FILE's navigation section
  --board        only the shared-board figures (board_*: the sync engine, the window joined at rest); with
                 --write FILE it rewrites only FILE's board section
"""

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("oekaki-bench: \(message)\n".utf8))
    exit(code)
}

var args = Array(CommandLine.arguments.dropFirst())
var quick = false, json = false, boardOnly = false, appOnly = false, touchOnly = false, syncOnly = false, pagesOnly = false, selectionOnly = false, shapesOnly = false, thumbnailOnly = false, notebookOnly = false, pdfOnly = false, xoppPressureOnly = false
var writePath: String?
var latencyOnly = false
var classOnly = false
var navigationOnly = false

if args.first == "--export-child" {
    // Internal: what `oekaki export IN OUT.png` does, used when the oekaki CLI is not built beside the bench.
    guard args.count == 3 else { fail("--export-child needs IN and OUT", code: 2) }
    do { try ExportBench.exportChild(args[1], args[2]) } catch { fail("\(error)", code: 1) }
    exit(0)
}

if args.first == "--launch" {
    // Internal: a small process that starts, times and measures a peer (see ChildProcess.measure).
    guard args.count >= 4, let timeout = Double(args[2]) else { fail("--launch needs RESULT TIMEOUT PROGRAM [ARGS]", code: 2) }
    do { try ChildProcess.launch(result: args[1], timeout: timeout, args[3], Array(args.dropFirst(4))) } catch { fail("\(error)", code: 1) }
    exit(0)
}

if args.first == "--xopp-pressure-file" {   // internal: only write the --xopp-pressure workload (for profiling)
    guard args.count == 2 else { fail("--xopp-pressure-file needs a PATH", code: 2) }
    do { try XournalppInk.write(to: args[1]) } catch { fail("\(error)", code: 1) }
    exit(0)
}

if args.first == "--zoom" {   // internal: only the app's zoom steps on 1M points, more of them (ZoomBench)
    do { try ZoomBench.run(steps: Int(args.dropFirst().first ?? "") ?? 12) } catch { fail("\(error)", code: 1) }
    exit(0)
}

if args.first == "--view-render" {   // internal: CPU of a zoom step's render of the view, in process (ViewRenderBench)
    ViewRenderBench.run(rounds: Int(args.dropFirst().first ?? "") ?? 5)
    exit(0)
}

var i = 0
while i < args.count {
    switch args[i] {
    case "--quick": quick = true
    case "--json": json = true
    case "--app-only": appOnly = true   // internal: only the window figures
    case "--touch": touchOnly = true
    case "--latency": latencyOnly = true
    case "--pages": pagesOnly = true
    case "--shapes": shapesOnly = true
    case "--class": classOnly = true
    case "--thumbnail": thumbnailOnly = true
    case "--notebook": notebookOnly = true
    case "--pdf": pdfOnly = true
    case "--xopp-pressure": xoppPressureOnly = true
    case "--sync-only": syncOnly = true   // internal: only the shared-board figures
    case "--board": boardOnly = true
    case "--navigation": navigationOnly = true
    case "--selection-only": selectionOnly = true   // internal: only the selection figures
    case "--write":
        guard i + 1 < args.count else { fail("--write needs a FILE\n\(usage)", code: 2) }
        writePath = args[i + 1]
        i += 1
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(args[i])'\n\(usage)", code: 2)
    }
    i += 1
}
if xoppPressureOnly {
    do {
        let r = PeerFolder.run("xopp", display: Executables.find("xournalpp") != nil) { folder, display in
            XoppPressureBench.run(folder: folder.path, home: folder.home, log: folder.log, rounds: quick ? 1 : 3, display: display)
        }
        if let path = writePath {
            do { try BenchmarksFile.update(path, with: [("xopp_pressure", XoppPressureBench.markdown(r, command: CommandLine.arguments.joined(separator: " ")))]) } catch { fail("\(error)", code: 1) }
            FileHandle.standardError.write(Data("oekaki-bench: wrote the xopp_pressure section of \(path)\n".utf8))
        }
        print(XoppPressureBench.json(r))
    }
    exit(0)
}

if writePath != nil && quick && !navigationOnly { fail("--write records the full suite; drop --quick", code: 2) }

#if DEBUG
FileHandle.standardError.write(Data("oekaki-bench: warning: debug build; numbers are only meaningful from `swift build -c release`\n".utf8))
#endif

if classOnly {
    do {   // a scope of its own, so its `defer` removes the folder before exit
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-bench-class-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let r = ClassBench.run(folder: folder, seconds: quick ? 15 : 30)
        print(JSON.object([("board_class30_apply_ms_p50", .number(r.apply.median)), ("board_class30_apply_ms_p99", .number(r.apply.p99)),
                           ("max_ms", .number(r.apply.max)), ("strokes", .integer(r.strokes)), ("arrivals", .integer(r.apply.count)),
                           ("notes", .array(r.notes.map(JSON.string)))]).text())
    }
    exit(0)
}

if shapesOnly {
    let r = ShapeBench.run(rounds: quick ? 5 : 40)
    print(JSON.object([("shape_fit_ms_1k", .number(r.fit.median)), ("shape_fit_p99_ms_1k", .number(r.fit.p99)),
                       ("shape_fit_max_ms_1k", .number(r.fit.max)), ("fits", .integer(r.fit.count)),
                       ("snapped", .integer(r.snapped)), ("kept_as_ink", .integer(r.kept)),
                       ("median_ms_by_kind", .object(ShapeBench.kinds.map { ($0, .number(r.byKind[$0]?.median)) })),
                       ("max_ms_by_kind", .object(ShapeBench.kinds.map { ($0, .number(r.byKind[$0]?.max)) }))]).text())
    exit(0)
}

if latencyOnly {
    do {
        let w = try Workloads()
        defer { w.removeAll() }
        try w.writeFiles()
        let display = try VirtualDisplay.start(log: w.log)
        defer { display.stop() }
        let r = LatencyBench.run(w, display: display, rounds: quick ? 1 : 3)
        if let path = writePath {
            let machine = Machine.describe(log: w.log).summary
            try BenchmarksFile.update(path, with: [("latency", LatencyBench.markdown(r, command: CommandLine.arguments.joined(separator: " "), machine: machine))])
            FileHandle.standardError.write(Data("oekaki-bench: wrote the latency section of \(path)\n".utf8))
        }
        print(JSON.object(LatencyBench.keys(r).map { ($0.0, .number($0.1)) } + [("events", .object([("empty", .integer(r.empty.count)), ("1m", .integer(r.million.count))])),
                                                                                ("parts", .object(LatencyBench.parts(r).map { ($0.0, .number($0.1)) })),
                                                                                ("notes", .array(r.notes.map(JSON.string)))]).text())
    } catch {
        fail("\(error)", code: 1)
    }
    exit(0)
}

if touchOnly {
    do {   // a scope of its own, so its `defer` removes the folder before exit
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-bench-touch-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/touch.log", contents: nil)
        let r = TouchBench.run(rounds: quick ? 1 : 3, folder: folder, log: folder + "/touch.log")
        let ratio = r.three.median.flatMap { t in r.one.median.map { t / $0 } }
        print(JSON.object([("app_touch3_event_ms", .number(r.three.median)), ("app_touch1_event_ms", .number(r.one.median)),
                           ("touch3_over_touch1_event_cpu", .number(ratio)),
                           ("events_per_round", .object([("one", .integer(r.eventsPerRound.one)), ("three", .integer(r.eventsPerRound.three))])),
                           ("rounds", .object([("one", .array(r.one.values.map { .number($0) })), ("three", .array(r.three.values.map { .number($0) }))])),
                           ("notes", .array(r.notes.map(JSON.string)))]).text())
    }
    exit(0)
}

if thumbnailOnly {
    do {
        let w = try Workloads()
        defer { w.removeAll() }
        try w.writeFiles()
        let r = ThumbnailBench.run(w, rounds: quick ? 3 : 10)
        print(JSON.object([("thumbnail_ms_1m", .number(r.process.median)), ("thumbnail_inprocess_ms_1m", .number(r.inProcess.median)),
                           ("thumbnail_cpu_ms_1m", .number(r.cpu.median)), ("thumbnail_oekaki_ms_1m", .number(r.viaApp.median)),
                           ("runs", .array(r.process.values.map { .number($0) })),
                           ("notes", .array(r.failures.map(JSON.string)))]).text())
    } catch {
        fail("\(error)", code: 1)
    }
    exit(0)
}

if pagesOnly {
    do {
        let w = try Workloads()
        defer { w.removeAll() }
        let display = try VirtualDisplay.start(log: w.log)
        defer { display.stop() }
        let r = AppBench.run(w, display: display, rounds: quick ? 1 : 3, onlyNotebook: true)
        let ratio = r.scrollPage500.median.flatMap { l in r.scrollPage1.median.map { l / $0 } }
        print(JSON.object([("app_scroll_event_ms_page1", .number(r.scrollPage1.median)),
                           ("app_scroll_event_ms_page500", .number(r.scrollPage500.median)),
                           ("app_scroll_page500_over_page1", .number(ratio)),
                           ("rounds", .object([("page1", .array(r.scrollPage1.values.map { .number($0) })),
                                               ("page500", .array(r.scrollPage500.values.map { .number($0) }))])),
                           ("notes", .array(r.notes.map(JSON.string)))]).text())
    } catch {
        fail("\(error)", code: 1)
    }
    exit(0)
}

if navigationOnly {
    do {
        let w = try Workloads()
        defer { w.removeAll() }
        try w.writeFiles()
        let display = try VirtualDisplay.start(log: w.log)
        defer { display.stop() }
        let r = NavigationBench.run(w, display: display, rounds: quick ? 1 : 3)
        if let path = writePath {
            let command = "oekaki-bench " + CommandLine.arguments.dropFirst().filter { $0 != path }.filter { $0 != "--write" }.joined(separator: " ")
            try BenchmarksFile.update(path, with: [("navigation", NavigationBench.markdown(r, command: command, machine: Machine.describe(log: w.log)))])
            FileHandle.standardError.write(Data("oekaki-bench: wrote the navigation section of \(path)\n".utf8))
        }
        print(NavigationBench.json(r))
    } catch {
        fail("\(error)", code: 1)
    }
    exit(0)
}

if pdfOnly {
    do {
        let r = PeerFolder.run("pdf", display: true) { folder, display in
            PDFBench.run(folder: folder.path, home: folder.home, log: folder.log, rounds: quick ? 1 : 3, display: display)
        }
        let ratio = r.xournalppPDF.median.flatMap { x in r.oursPDF.median.map { x / $0 } }
        print(JSON.object([("pdf_first_page_ms_300", .number(r.firstPage.median)), ("pdf_annotated_export_ms_300", .number(r.oursPDF.median)),
                           ("pdf_annotated_xournalpp_ms_300", .number(r.xournalppPDF.median)), ("xournalpp_over_ours_pdf_annotated_300", .number(ratio)),
                           ("rounds", .object([("first_page", .array(r.firstPage.values.map { .number($0) })),
                                               ("ours", .array(r.oursPDF.values.map { .number($0) })),
                                               ("xournalpp", .array(r.xournalppPDF.values.map { .number($0) }))])),
                           ("notes", .array(r.notes.map(JSON.string)))]).text())
    }
    exit(0)
}

if notebookOnly {
    do {
        let r = PeerFolder.run("notebook", display: Executables.find("xournalpp") != nil) { folder, display in
            NotebookFileBench.run(folder: folder.path, home: folder.home, log: folder.log, rounds: quick ? 1 : 3, display: display)
        }
        let ratio = r.xournalppPDF.median.flatMap { x in r.oursPDF.median.map { x / $0 } }
        print(JSON.object([("points", .integer(r.points)), ("notebook_open_ms_500p", .number(r.open.median)),
                           ("notebook_open_page_ms_500p", .number(r.openFirstPage.median)),
                           ("notebook_pdf_ms_500p", .number(r.oursPDF.median)), ("notebook_xournalpp_pdf_ms_500p", .number(r.xournalppPDF.median)),
                           ("xournalpp_over_ours_pdf_500p", .number(ratio)), ("notes", .array(r.notes.map(JSON.string)))]).text())
    }
    exit(0)
}

let command = CommandLine.arguments.joined(separator: " ")
do {
    let suite = Suite(quick: quick, command: command)
    let m = appOnly ? try suite.runAppOnly() : syncOnly ? try suite.runSyncOnly() : boardOnly ? try suite.runBoardOnly()
        : selectionOnly ? try suite.runSelectionOnly() : try suite.run()
    let report = Report(m)
    if let path = writePath, boardOnly {
        try BenchmarksFile.update(path, with: [("board", report.boardMarkdown())])
        FileHandle.standardError.write(Data("oekaki-bench: wrote the board section of \(path)\n".utf8))
    } else if let path = writePath {
        try BenchmarksFile.update(path, with: [("summary", report.summary()), ("figures", report.markdown()), ("board", report.boardMarkdown())])
        FileHandle.standardError.write(Data("oekaki-bench: wrote \(path)\n".utf8))
    }
    print(json ? report.json() : report.table(), terminator: "")
} catch {
    fail("\(error)", code: 1)
}
