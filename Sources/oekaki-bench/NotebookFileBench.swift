import Foundation
import InkCore
import InkRender
import InkStore

/// The 500-page notebook of 2,000,000 points (`NotebookBench.notebook()`) as a file: how long it takes to open, and
/// `oekaki export nb.oekaki nb.pdf` (every page) against `xournalpp --create-pdf` on the same notebook's `.xopp`,
/// both timed from spawn to exit.
enum NotebookFileBench {
    static let pages = NotebookBench.pages

    struct Result {
        var points = 0
        var open = Samples()
        var openFirstPage = Samples()
        var oursPDF = Samples()
        var xournalppPDF = Samples()
        var notes: [String] = []
    }

    static func run(folder: String, home: String, log: String, rounds: Int, display: VirtualDisplay?) -> Result {
        var r = Result()
        let oekaki = folder + "/notebook-500p.oekaki", xopp = folder + "/notebook-500p.xopp", pdf = folder + "/notebook-500p.pdf"
        do {
            let doc = NotebookBench.notebook()
            r.points = doc.pointCount
            try DocumentFile.create(path: oekaki, document: doc).close()
            try XoppExport.write(doc, to: xopp)
        } catch {
            r.notes.append("notebook: cannot write the files: \(error)")
            return r
        }
        for _ in 0..<rounds * 2 {
            if let (doc, ms) = try? Clock.ms({ try DocumentFile.open(path: oekaki, readOnly: true) }) {
                if doc.document.pages.count == pages { r.open.add(ms) } else { r.notes.append("notebook: opened \(doc.document.pages.count) pages") }
            }
            if let (_, ms) = try? Clock.ms({ try StrokeStream.open(path: oekaki, page: 0) }) { r.openFirstPage.add(ms) }
        }
        let cli = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki"
        var env = ["PATH": Executables.path, "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
                   "XDG_DATA_HOME": home + "/.local/share", "XDG_RUNTIME_DIR": home + "/run", "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1"]
        let oursEnv = env
        if let d = display { env["DISPLAY"] = d.name; env["GDK_BACKEND"] = "x11" }
        let xpp = Executables.find("xournalpp")
        if xpp == nil || display == nil { r.notes.append("notebook: xournalpp or its display is missing: notebook_xournalpp_pdf_ms_500p is null") }
        if !FileManager.default.isExecutableFile(atPath: cli) { r.notes.append("notebook: oekaki is not built beside the bench") }
        func once(_ samples: inout Samples, _ exe: String, _ args: [String], _ env: [String: String], _ name: String) {
            unlink(pdf)
            do {
                let c = try ChildProcess.measure(exe, args, environment: env, log: log, timeout: 600)
                guard c.exitStatus == 0, !c.timedOut, pdfPages(pdf) == pages else {
                    r.notes.append("notebook: \(name) failed (exit \(c.exitStatus), \(pdfPages(pdf)) pages; see \(log))"); return
                }
                samples.add(c.wallMs)
            } catch { r.notes.append("notebook: \(name): \(error)") }
        }
        for _ in 0..<rounds {
            if FileManager.default.isExecutableFile(atPath: cli) { once(&r.oursPDF, cli, ["export", oekaki, pdf], oursEnv, "oekaki export") }
            if let x = xpp, display != nil { once(&r.xournalppPDF, x, ["--create-pdf=\(pdf)", xopp], env, "xournalpp --create-pdf") }
        }
        for f in [oekaki, xopp, pdf] { unlink(f) }
        return r
    }

    /// Pages of a PDF as its page tree says (`/Count` of the first `/Type /Pages`), 0 when unreadable.
    static func pdfPages(_ path: String) -> Int {
        guard let d = FileManager.default.contents(atPath: path) else { return 0 }
        let text = String(decoding: d.prefix(1 << 16) + d.suffix(1 << 20), as: UTF8.self)
        var best = 0
        for m in text.split(separator: "/Count ").dropFirst() {
            if let n = Int(m.prefix { $0.isNumber }) { best = max(best, n) }
        }
        return best
    }
}
