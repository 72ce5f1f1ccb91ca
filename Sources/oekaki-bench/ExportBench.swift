import Foundation
import InkCore
import InkRender
import InkStore
import PageExport

/// PNG export of the million-point drawing at scale 1 (1920×1080): our CLI process, Xournal++ and rsvg-convert,
/// run in turn (ours, Xournal++, rsvg-convert, ours in-process, then again), each timed from spawn to exit.
enum ExportBench {
    struct Tool {
        var name: String
        var runs = Samples()
        var peakRSSMiB = Samples()
        var cpuMs = Samples()
        var failures: [String] = []
    }

    struct Result {
        var ours = Tool(name: "oekaki export")
        /// The same PNG export starting from the peer's own file (what someone arriving from Xournal++ runs).
        var oursFromXopp = Tool(name: "oekaki export (from .xopp)")
        var oursPDF = Tool(name: "oekaki export (PDF)")
        var xournalppPDF: Tool?
        var oursInProcess = Samples()
        var xournalpp: Tool?
        var rsvg: Tool?
        var oursCommand = ""
        var notes: [String] = []
    }

    static let peerTimeout = 180.0

    /// The `oekaki` CLI built beside this binary; else this binary re-run as `--export-child`, which runs the
    /// same two calls (`DocumentLoader.load`, `Exporter.write`) the CLI's export does.
    static func oursExecutable() -> (path: String, args: [String], label: String) {
        let me = ChildProcess.ownExecutable
        let cli = (me as NSString).deletingLastPathComponent + "/oekaki"
        if FileManager.default.isExecutableFile(atPath: cli) { return (cli, ["export"], "oekaki export") }
        return (me, ["--export-child"], "oekaki-bench --export-child (oekaki not built beside the bench)")
    }

    /// What `oekaki export IN OUT.png` does (ExportCommand): a `.oekaki` page streamed from the file
    /// (`StreamedPNG`, the CLI's own code); anything else loaded whole. Used in-process and by `--export-child`.
    static func exportChild(_ input: String, _ output: String) throws {
        if StrokeStream.looksLikeDocument(path: input), try StreamedPNG.write(input, page: 0, to: output, options: ExportOptions()) { return }
        let doc = try DocumentLoader.load(path: input)
        try Exporter.write(doc.drawing, to: output, format: .png)
    }

    static func run(_ w: Workloads, rounds: Int, display: VirtualDisplay?) -> Result {
        var r = Result()
        let ours = oursExecutable()
        r.oursCommand = ours.label
        r.ours.name = ours.label
        let xpp = Executables.find("xournalpp"), rsvg = Executables.find("rsvg-convert")
        if xpp != nil, display != nil { r.xournalpp = Tool(name: "xournalpp"); r.xournalppPDF = Tool(name: "xournalpp (PDF)") }
        if xpp == nil { r.notes.append("xournalpp is not installed: its keys are null (make bench installs it)") }
        if xpp != nil, display == nil { r.notes.append("xournalpp needs an X display and Xvfb could not start: its keys are null") }
        if rsvg != nil { r.rsvg = Tool(name: "rsvg-convert") } else { r.notes.append("rsvg-convert is not installed: its keys are null (make bench installs librsvg2-bin)") }

        var env = ["PATH": Executables.path, "HOME": w.home, "XDG_CONFIG_HOME": w.home + "/.config",
                   "XDG_CACHE_HOME": w.home + "/.cache", "XDG_DATA_HOME": w.home + "/.local/share",
                   "XDG_RUNTIME_DIR": w.home + "/run", "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1"]
        let oursEnv = env
        if let d = display { env["DISPLAY"] = d.name; env["GDK_BACKEND"] = "x11" }
        let out = w.folder + "/out.png", pdf_ = w.folder + "/out.pdf"

        /// Runs one program and checks it left a PNG (or, with `pdf`, a PDF) behind.
        func once(_ tool: inout Tool, _ exe: String, _ args: [String], _ env: [String: String], pdf: Bool = false) {
            let out = pdf ? pdf_ : out
            unlink(out)
            do {
                let c = try ChildProcess.measure(exe, args, environment: env, log: w.log, timeout: peerTimeout)
                if c.timedOut { tool.failures.append("killed after \(Int(peerTimeout)) s"); return }
                guard c.exitStatus == 0 else { tool.failures.append("exit status \(c.exitStatus) (see \(w.log))"); return }
                if pdf {
                    guard let h = FileHandle(forReadingAtPath: out), let head = try? h.read(upToCount: 5), head == Data("%PDF-".utf8) else {
                        tool.failures.append("no PDF written"); return
                    }
                    try? h.close()
                } else {
                    guard let size = PNGHeader.size(out) else { tool.failures.append("no PNG written"); return }
                    if size != (1920, 1080) { tool.failures.append("PNG is \(size.0)×\(size.1), not 1920×1080") }
                }
                tool.runs.add(c.wallMs)
                tool.peakRSSMiB.add(c.peakRSSMiB)
                tool.cpuMs.add(c.cpuMs)
            } catch {
                tool.failures.append("\(error)")
            }
        }

        for _ in 0..<rounds {
            once(&r.ours, ours.path, ours.args + [w.oekaki, out], oursEnv)
            once(&r.oursFromXopp, ours.path, ours.args + [w.xopp, out], oursEnv)
            once(&r.oursPDF, ours.path, ours.args + [w.oekaki, pdf_], oursEnv, pdf: true)
            if var t = r.xournalppPDF, let x = xpp {
                once(&t, x, ["--create-pdf=\(pdf_)", w.xopp], env, pdf: true)
                r.xournalppPDF = t
            }
            if var t = r.xournalpp, let x = xpp {
                once(&t, x, ["--export-png-dpi=72", "--create-img=\(out)", w.xopp], env)
                r.xournalpp = t
            }
            if var t = r.rsvg, let x = rsvg {
                once(&t, x, ["-o", out, w.svg], env)
                r.rsvg = t
            }
            // The same work inside this process: no process start, no dynamic linking, warm allocator.
            if let ms = try? Clock.ms({ try exportChild(w.oekaki, out) }).1 { r.oursInProcess.add(ms) }
        }
        unlink(out); unlink(pdf_)
        return r
    }
}

/// Width and height from a PNG's IHDR chunk.
enum PNGHeader {
    static func size(_ path: String) -> (Int, Int)? {
        guard let fh = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? fh.close() }
        guard let d = try? fh.read(upToCount: 24), d.count == 24 else { return nil }
        let b = [UInt8](d)
        guard b[0] == 0x89, b[1] == 0x50, b[12] == 0x49, b[13] == 0x48 else { return nil }
        func be(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (be(16), be(20))
    }
}
