import Foundation
import InkCore
import InkRender
import InkSamples
import InkStore

/// The ink Xournal++ users bring (`XournalppInk`: a 2000×3000 page, 10,000 strokes of 100 points, a width per
/// point, the file laid out as Xournal++ 1.2 writes it), exported side by side in one run: our CLI from the
/// `.xopp` (PNG and PDF), `xournalpp --create-img` / `--create-pdf` on the same file, and rsvg-convert on the same
/// ink as SVG (our SVG export of it). Each round runs every program once, in turn; medians of the rounds.
enum XoppPressureBench {
    struct Result {
        var oursPNG = Samples(), oursPDF = Samples(), xournalppPNG = Samples(), xournalppPDF = Samples(), rsvgPNG = Samples()
        var oursPDFBytes: Int?, xournalppPDFBytes: Int?, svgBytes: Int?, xoppBytes: Int?
        var rounds = 0
        var notes: [String] = []

        func ratio(_ a: Samples, _ b: Samples) -> Double? {
            guard let x = a.median, let y = b.median, y > 0 else { return nil }
            return x / y
        }
        var pngVsXournalpp: Double? { ratio(xournalppPNG, oursPNG) }
        var pngVsRsvg: Double? { ratio(rsvgPNG, oursPNG) }
        var pdfVsXournalpp: Double? { ratio(xournalppPDF, oursPDF) }
        var pdfBytesVsXournalpp: Double? {
            guard let o = oursPDFBytes, let x = xournalppPDFBytes, x > 0 else { return nil }
            return Double(o) / Double(x)
        }

        /// The four keys with their goals: (key, value, goal, met).
        var keys: [(String, Double?, String, Bool?)] {
            [("export_png_xopp_pressure_vs_xournalpp", pngVsXournalpp, "≥ 5", pngVsXournalpp.map { $0 >= 5 }),
             ("export_png_xopp_pressure_vs_rsvg", pngVsRsvg, "≥ 3", pngVsRsvg.map { $0 >= 3 }),
             ("export_pdf_xopp_pressure_vs_xournalpp", pdfVsXournalpp, "≥ 10", pdfVsXournalpp.map { $0 >= 10 }),
             ("pdf_bytes_xopp_pressure_vs_xournalpp", pdfBytesVsXournalpp, "≤ 1.0", pdfBytesVsXournalpp.map { $0 <= 1 })]
        }
    }

    static func run(folder: String, home: String, log: String, rounds: Int, display: VirtualDisplay?) -> Result {
        var r = Result()
        r.rounds = rounds
        let xopp = folder + "/pressure.xopp", svg = folder + "/pressure.svg"
        let png = folder + "/pressure.png", pdf = folder + "/pressure.pdf"
        do {
            try XournalppInk.write(to: xopp)
            let doc = try DocumentLoader.load(path: xopp)
            try Exporter.write(doc.drawing, to: svg, format: .svg)
        } catch {
            r.notes.append("cannot write the workload: \(error)")
            return r
        }
        r.xoppBytes = Workloads.fileSize(xopp); r.svgBytes = Workloads.fileSize(svg)
        let ours = ExportBench.oursExecutable()
        let xpp = Executables.find("xournalpp"), rsvg = Executables.find("rsvg-convert")
        if xpp == nil { r.notes.append("xournalpp is not installed: its keys are null (make deps installs it)") }
        if xpp != nil, display == nil { r.notes.append("xournalpp needs an X display and Xvfb could not start: its keys are null") }
        if rsvg == nil { r.notes.append("rsvg-convert is not installed: its key is null") }
        let env = ["PATH": Executables.path, "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
                   "XDG_DATA_HOME": home + "/.local/share", "XDG_RUNTIME_DIR": home + "/run", "LANG": "C.UTF-8", "NO_AT_BRIDGE": "1"]
        var peerEnv = env
        if let d = display { peerEnv["DISPLAY"] = d.name; peerEnv["GDK_BACKEND"] = "x11" }

        /// Runs one program; its wall time when it exited 0 and left its file behind.
        func once(_ name: String, _ exe: String, _ args: [String], _ env: [String: String], output: String, into s: inout Samples) -> Int? {
            unlink(output)
            do {
                let c = try ChildProcess.measure(exe, args, environment: env, log: log, timeout: ExportBench.peerTimeout)
                guard !c.timedOut, c.exitStatus == 0 else { r.notes.append("\(name): exit status \(c.exitStatus)\(c.timedOut ? " (killed)" : "")"); return nil }
                let bytes = Workloads.fileSize(output)
                guard bytes > 0 else { r.notes.append("\(name): wrote nothing"); return nil }
                s.add(c.wallMs)
                return bytes
            } catch {
                r.notes.append("\(name): \(error)")
                return nil
            }
        }
        for _ in 0..<rounds {
            _ = once("oekaki PNG", ours.path, ours.args + [xopp, png], env, output: png, into: &r.oursPNG)
            if let x = xpp, display != nil {
                _ = once("xournalpp PNG", x, ["--export-png-dpi=72", "--create-img=\(png)", xopp], peerEnv, output: png, into: &r.xournalppPNG)
            }
            if let x = rsvg { _ = once("rsvg-convert", x, ["-o", png, svg], env, output: png, into: &r.rsvgPNG) }
            if let b = once("oekaki PDF", ours.path, ours.args + [xopp, pdf], env, output: pdf, into: &r.oursPDF) { r.oursPDFBytes = b }
            if let x = xpp, display != nil,
               let b = once("xournalpp PDF", x, ["--create-pdf=\(pdf)", xopp], peerEnv, output: pdf, into: &r.xournalppPDF) {
                r.xournalppPDFBytes = b
            }
        }
        for f in [xopp, svg, png, pdf] { unlink(f) }
        return r
    }

    static func json(_ r: Result) -> String {
        func runs(_ s: Samples) -> JSON { .array(s.values.map { .number($0) }) }
        return JSON.object(r.keys.map { ($0.0, JSON.number($0.1)) } + [
            ("ms", .object([("oekaki_png", .number(r.oursPNG.median)), ("xournalpp_png", .number(r.xournalppPNG.median)),
                            ("rsvg_png", .number(r.rsvgPNG.median)), ("oekaki_pdf", .number(r.oursPDF.median)),
                            ("xournalpp_pdf", .number(r.xournalppPDF.median))])),
            ("bytes", .object([("oekaki_pdf", .integer(r.oursPDFBytes ?? 0)), ("xournalpp_pdf", .integer(r.xournalppPDFBytes ?? 0)),
                               ("xopp", .integer(r.xoppBytes ?? 0)), ("svg", .integer(r.svgBytes ?? 0))])),
            ("runs", .object([("oekaki_png", runs(r.oursPNG)), ("xournalpp_png", runs(r.xournalppPNG)), ("rsvg_png", runs(r.rsvgPNG)),
                              ("oekaki_pdf", runs(r.oursPDF)), ("xournalpp_pdf", runs(r.xournalppPDF))])),
            ("notes", .array(r.notes.map(JSON.string)))]).text()
    }

    /// BENCHMARKS.md's section for this workload (`oekaki-bench --xopp-pressure --write FILE`).
    static func markdown(_ r: Result, command: String) -> String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.0f ms", $0) } ?? "—" }
        func x(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "—" }
        func mb(_ b: Int?) -> String { b.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "—" }
        var out = "Xournal++-shaped pressure ink (`XournalppInk`: 2000×3000 page, 10,000 strokes × 100 points, a width per point), "
        out += "\(r.rounds) rounds side by side, medians; `\(command)`.\n\n"
        out += "| key | value | goal | met |\n|---|---|---|---|\n"
        for (k, v, g, met) in r.keys { out += "| `\(k)` | \(x(v)) | \(g) | \(met.map { $0 ? "yes" : "no" } ?? "—") |\n" }
        out += "\n| export | Oekaki | Xournal++ | rsvg-convert |\n|---|---|---|---|\n"
        out += "| PNG (72 dpi) | \(ms(r.oursPNG.median)) | \(ms(r.xournalppPNG.median)) | \(ms(r.rsvgPNG.median)) |\n"
        out += "| PDF, time | \(ms(r.oursPDF.median)) | \(ms(r.xournalppPDF.median)) | |\n"
        out += "| PDF, size | \(mb(r.oursPDFBytes)) | \(mb(r.xournalppPDFBytes)) | |\n"
        out += "\nThe `.xopp` is \(mb(r.xoppBytes)), its SVG (rsvg-convert's input) \(mb(r.svgBytes)).\n"
        for n in r.notes { out += "\n- \(n)" }
        return out + (r.notes.isEmpty ? "" : "\n")
    }
}
