import Foundation
import InkCore
import InkSamples
import InkRender
import InkStore

/// Writing on a 300-page PDF (A4, a line of text and a band per page, `SamplePDF`):
/// - `pdf_first_page_ms_300`: `oekaki paper.pdf` in the real window under Xvfb, from spawn to the first frame
///   showing the rendered PDF page (the app's trace line `pdf first_page`): the import (every page's size, the PDF
///   stored in a new `.oekaki`), the window, and the page's tile rendered off the GTK thread.
/// - `pdf_annotated_export_ms_300` against `pdf_annotated_xournalpp_ms_300`: the same PDF with 40 strokes of
///   100 points on every page, exported to PDF by `oekaki export` (from the `.oekaki`) and by `xournalpp --create-pdf`
///   (from the same document written as `.xopp`, its PDF beside it), both timed from spawn to exit.
enum PDFBench {
    static let pages = 300
    static let strokesPerPage = 40
    static let pointsPerStroke = 100

    struct Result {
        var firstPage = Samples()
        var oursPDF = Samples()
        var xournalppPDF = Samples()
        var notes: [String] = []
    }

    static func run(folder: String, home: String, log: String, rounds: Int, display: VirtualDisplay?) -> Result {
        var r = Result()
        let dir = folder + "/pdf-bench"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let paper = dir + "/paper.pdf", annotated = dir + "/annotated.oekaki", xopp = dir + "/annotated.xopp", out = dir + "/out.pdf"
        do {
            let a4 = PagePreset.a4.size
            try Data(SamplePDF.make(pageCount: pages, size: a4) { "Lecture notes, slide \($0 + 1) of \(pages)" }).write(to: URL(fileURLWithPath: paper))
            let loaded = try DocumentLoader.load(path: paper).document
            var nextStroke: StrokeID = 1
            let annotatedPages = loaded.pages.enumerated().map { i, p -> Page in
                var rng = SampleInk.Generator(seed: UInt64(3000 + i))
                var d = Drawing(pageSize: a4)
                for _ in 0..<strokesPerPage {
                    var s = SampleInk.stroke(id: nextStroke, points: pointsPerStroke, pageSize: a4, rng: &rng)
                    s.page = p.id
                    d.insert(s)
                    nextStroke += 1
                }
                return Page(id: p.id, format: p.format, drawing: d)
            }
            var doc = Document(pages: annotatedPages)
            doc.files = loaded.files
            try DocumentFile.create(path: annotated, document: doc).close()
            try XoppExport.write(doc, to: xopp)
        } catch {
            r.notes.append("pdf: cannot write the files: \(error)")
            return r
        }
        let cli = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki"
        // The window is timed through its trace, which only `oekaki-instrumented` writes.
        let app = cli + "-instrumented"
        guard FileManager.default.isExecutableFile(atPath: cli), FileManager.default.isExecutableFile(atPath: app) else {
            r.notes.append("pdf: oekaki or oekaki-instrumented is not built beside the bench")
            return r
        }
        var env = ["PATH": Executables.path, "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
                   "XDG_DATA_HOME": home + "/.local/share", "XDG_RUNTIME_DIR": home + "/run", "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1"]
        let oursEnv = env
        if let d = display { env["DISPLAY"] = d.name; env["GDK_BACKEND"] = "x11"; env["GSK_RENDERER"] = "cairo" }

        // Time to the first page: a fresh copy of the PDF each round, so every round imports it.
        if display != nil {
            for k in 0..<rounds {
                let round = dir + "/open-\(k)", trace = round + "/trace.log"
                try? FileManager.default.createDirectory(atPath: round, withIntermediateDirectories: true)
                try? FileManager.default.copyItem(atPath: paper, toPath: round + "/paper.pdf")
                var appEnv = env
                appEnv["OEKAKI_TRACE"] = trace
                let t0 = Date().timeIntervalSince1970 * 1000
                guard let pid = try? ChildProcess.start(app, [round + "/paper.pdf"], environment: appEnv, log: log) else {
                    r.notes.append("pdf: cannot start the app"); break
                }
                var shown: Double?
                let deadline = Date().addingTimeInterval(20)
                while shown == nil, Date() < deadline, ChildProcess.isRunning(pid) {
                    if let text = try? String(contentsOfFile: trace, encoding: .utf8),
                       let line = text.split(separator: "\n").first(where: { $0.hasPrefix("pdf first_page epoch_ms=") }),
                       let ms = Double(line.split(separator: "=").last ?? "") {
                        shown = ms
                    } else {
                        usleep(5_000)
                    }
                }
                ChildProcess.stop(pid)
                if let shown { r.firstPage.add(shown - t0) } else { r.notes.append("pdf: round \(k + 1): no PDF page shown within 20 s (see \(log))") }
                try? FileManager.default.removeItem(atPath: round)
            }
        } else {
            r.notes.append("pdf: no display: pdf_first_page_ms_300 is null")
        }

        let xpp = Executables.find("xournalpp")
        if xpp == nil || display == nil { r.notes.append("pdf: xournalpp or its display is missing: pdf_annotated_xournalpp_ms_300 is null") }
        func once(_ samples: inout Samples, _ exe: String, _ args: [String], _ env: [String: String], _ name: String) {
            unlink(out)
            do {
                let c = try ChildProcess.measure(exe, args, environment: env, log: log, timeout: 900)
                let n = NotebookFileBench.pdfPages(out)
                guard c.exitStatus == 0, !c.timedOut, n == pages else {
                    r.notes.append("pdf: \(name) failed (exit \(c.exitStatus), \(n) pages; see \(log))"); return
                }
                samples.add(c.wallMs)
            } catch { r.notes.append("pdf: \(name): \(error)") }
        }
        for _ in 0..<rounds {
            once(&r.oursPDF, cli, ["export", annotated, out], oursEnv, "oekaki export")
            if let x = xpp, display != nil { once(&r.xournalppPDF, x, ["--create-pdf=\(out)", xopp], env, "xournalpp --create-pdf") }
        }
        return r
    }
}
