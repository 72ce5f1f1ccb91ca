import Foundation

/// The report as a readable terminal table and as the Markdown section of BENCHMARKS.md.
extension Report {
    func table() -> String {
        var lines: [[String]] = [["key", "value", "median", "spread (min–max)", "n", "goal", "met"]]
        for r in rows + extras {
            lines.append([r.key, Format.number(r.value, unit: r.unit) + (r.statistic == .p99 ? " p99" : r.statistic == .max ? " max" : ""),
                          Format.number(r.samples.median, unit: r.unit), Format.spread(r.samples, unit: r.unit),
                          String(r.samples.count), r.goal ?? "", Format.met(r.met).replacingOccurrences(of: "*", with: "")])
        }
        var out = align(lines)
        out += "\nside by side (same run)\n"
        out += align([["ratio", "value", "goal", "met"]] + ratios.map {
            [$0.label, Format.ratio($0.value), $0.goal ?? "", Format.met($0.met).replacingOccurrences(of: "*", with: "")]
        })
        if let mc = m.machine { out += "\nmachine: \(mc.summary)\n" }
        out += "run: \(m.quick ? "quick" : "full"), \(Report.iso(m.started)), \(String(format: "%.0f", m.seconds)) s, command: \(m.command)\n"
        for n in allNotes { out += "note: \(n)\n" }
        return out
    }

    private func align(_ lines: [[String]]) -> String {
        let widths = (0..<lines[0].count).map { c in lines.map { $0[c].count }.max() ?? 0 }
        return lines.map { l in
            l.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    /// BENCHMARKS.md's first screen: every goal, the last figure, the peers' figures and whether it was met.
    func summary() -> String {
        let mc = m.machine
        var s = "Last run: \(Report.iso(m.started)), \(m.quick ? "quick" : "full") suite, on \(mc?.cpuModel ?? "unknown CPU") × \(mc?.cores ?? 0) cores"
        s += mc.map { " (\(String(format: "%.1f", $0.memoryGiB)) GiB RAM, \($0.system), Linux \($0.kernel))" } ?? ""
        s += "; peers \(mc?.xournalppVersion ?? "Xournal++ not installed"), \(mc?.rsvgVersion ?? "rsvg-convert not installed"). "
        let met = goals.filter { $0.met == true }.count
        s += "**\(met) of \(goals.count) goals met.**\n\n"
        s += "| figure | goal | last measured | peer | |\n|---|---|---:|---|---|\n"
        for r in goals {
            let value = Format.number(r.value, unit: r.unit) + (r.statistic == .p99 ? " (p99)" : r.statistic == .max ? " (max)" : "")
            s += "| \(Self.summaryNames[r.key] ?? r.label) | \(r.goal ?? "") | \(value)\(r.context.map { ", \($0)" } ?? "") | \(r.peer ?? "") | \(r.met.map { $0 ? "met" : "**short**" } ?? "—") |\n"
        }
        return s
    }

    /// What a reader calls each goal's figure (the method paragraphs below the table use the same names, in order).
    static let summaryNames: [String: String] = [
        "input_p99_us_empty": "Pen sample, empty drawing", "input_p99_us_100k": "Pen sample, 100,000 strokes",
        "load_ms_1m": "Open a 1M-point drawing", "save_stroke_ms": "Save one stroke into 1M points",
        "bytes_per_point": "File size per point", "export_png_ms_1m": "PNG export, 1M points",
        "xopp_load_ms_1m": "Read a .xopp, per 1M points", "export_png_from_xopp_ms_1m": "PNG export from a .xopp, 1M points",
        "export_pdf_ms_1m": "PDF export, 1M points", "app_draw_event_ms_1m": "Window: pen event on 1M points",
        "app_pan_event_ms_1m": "Window: pan event on 1M points", "app_scroll_event_ms_page500": "Window: scroll at page 500 of 500",
        "app_zoom_ms_1m": "Window: zoom step on 1M points", "app_rss_growth_mib_1m": "Window: memory for 1M points",
        "peak_rss_mib_1m": "Peak memory of the PNG export", "app_touch3_event_ms": "Window: three fingers at once",
        "sync_apply_p99_ms": "Shared board: a stroke reaches another replica",
        "board_idle_cpu_pct_1m": "Shared board: the window at rest, 1M points", "board_idle_cpu_pct_10m": "Shared board: the window at rest, 10M points", "sync_catchup_ms_1m": "Shared board: join a board of 1M points",
        "select_ms_1m": "Lasso 100,000 of 1M points", "drag_selection_event_ms_10k": "Drag 10,000 selected strokes, per event",
        "move_bytes_per_stroke": "File growth per moved stroke", "thumbnail_ms_1m": "Thumbnail of 1M points",
        "shape_fit_p99_ms_1k": "Hold-to-snap fit, 1,000 points", "notebook_open_ms_500p": "Open a 500-page notebook",
        "notebook_pdf_ms_500p": "PDF of a 500-page notebook", "pdf_first_page_ms_300": "Open a 300-page PDF",
        "pdf_annotated_export_ms_300": "PDF export of an annotated 300-page PDF",
    ]

    /// BENCHMARKS.md's last section: every key of the run with its spread, the ratios, the export runs, the notes.
    func markdown() -> String {
        var s = ""
        let mc = m.machine
        s += "Measured \(Report.iso(m.started)) on \(mc?.cpuModel ?? "unknown CPU") × \(mc?.cores ?? 0) cores"
        s += mc.map { ", \(String(format: "%.1f", $0.memoryGiB)) GiB RAM, \($0.system), Linux \($0.kernel)" } ?? ""
        s += ".\nPeers: \(mc?.xournalppVersion ?? "Xournal++ not installed"); \(mc?.rsvgVersion ?? "rsvg-convert not installed").\n"
        s += "Command: `\(m.command)` (\(m.quick ? "quick" : "full") suite, \(String(format: "%.0f", m.seconds)) s; `make bench` runs the same with `.build/release/oekaki-bench --write BENCHMARKS.md`). "
        s += "Our export is timed as the process `\(m.export.oursCommand) ink-1m.oekaki out.png`.\n\n"

        s += "| key | what | value | median | spread (min–max) | n | goal | met |\n|---|---|---:|---:|---:|---:|---|---|\n"
        for r in rows {
            s += "| `\(r.key)` | \(r.label) | **\(Format.number(r.value, unit: r.unit))**\(r.statistic == .p99 ? " (p99)" : r.statistic == .max ? " (max)" : "") | "
            s += "\(Format.number(r.samples.median, unit: r.unit)) | \(Format.spread(r.samples, unit: r.unit)) | \(r.samples.count) | \(r.goal ?? "") | \(Format.met(r.met)) |\n"
        }
        s += "\n### Side by side (ratios from this run)\n\n| comparison | ratio | goal | met |\n|---|---:|---|---|\n"
        for r in ratios { s += "| \(r.label) | \(Format.ratio(r.value)) | \(r.goal ?? "") | \(Format.met(r.met)) |\n" }

        let e = m.export
        s += "\n### PNG export runs (interleaved: ours, Xournal++, rsvg-convert, ours in-process; wall time spawn → exit)\n\n"
        s += "| program | median | spread (min–max) | runs | CPU time (median, all threads) | peak RSS (max) |\n|---|---:|---:|---:|---:|---:|\n"
        func exportRow(_ name: String, _ t: ExportBench.Tool?) {
            guard let t, !t.runs.isEmpty else { s += "| \(name) | not run (peer missing) | | | | |\n"; return }
            s += "| \(name) | \(Format.number(t.runs.median, unit: "ms")) | \(Format.spread(t.runs, unit: "ms")) | \(t.runs.count) | "
            s += "\(Format.number(t.cpuMs.median, unit: "ms")) | \(Format.number(t.peakRSSMiB.max, unit: "MiB")) |\n"
        }
        exportRow("`\(e.oursCommand)`", e.ours)
        exportRow("`xournalpp --export-png-dpi=72 --create-img`", e.xournalpp)
        exportRow("`rsvg-convert -o out.png ink-1m.svg`", e.rsvg)
        s += "| ours in-process (no process start) | \(Format.number(e.oursInProcess.median, unit: "ms")) | \(Format.spread(e.oursInProcess, unit: "ms")) | \(e.oursInProcess.count) | | |\n"

        s += "\n### More figures\n\n| key | what | value | median | spread (min–max) | n |\n|---|---|---:|---:|---:|---:|\n"
        for r in extras {
            s += "| `\(r.key)` | \(r.label) | \(Format.number(r.value, unit: r.unit))\(r.statistic == .p99 ? " (p99)" : r.statistic == .max ? " (max)" : "") | "
            s += "\(Format.number(r.samples.median, unit: r.unit)) | \(Format.spread(r.samples, unit: r.unit)) | \(r.samples.count) |\n"
        }
        let notes = allNotes
        if !notes.isEmpty { s += "\n" + notes.map { "- \($0)\n" }.joined() }
        return s
    }
}

extension Report {
    /// BENCHMARKS.md's shared-board section: every `board_` key of the run (`oekaki-bench --board --write FILE`
    /// rewrites only this section, so the board figures can be measured without the whole suite).
    func boardMarkdown() -> String {
        var s = "Measured \(Report.iso(m.started))"
        if let mc = m.machine { s += " on \(mc.cpuModel) × \(mc.cores) cores" }
        s += "; command: `\(m.command)` (\(m.quick ? "quick" : "full"), \(String(format: "%.0f", m.seconds)) s).\n\n"
        s += "| key | what | value | spread (min–max) | n | goal | met |\n|---|---|---:|---:|---:|---|---|\n"
        for r in rows where r.key.hasPrefix("board_") {
            s += "| `\(r.key)` | \(r.label) | **\(Format.number(r.value, unit: r.unit))**\(r.statistic == .p99 ? " (p99)" : "") | "
            s += "\(Format.spread(r.samples, unit: r.unit)) | \(r.samples.count) | \(r.goal ?? "") | \(Format.met(r.met)) |\n"
        }
        let ph = m.sync.apply1mPhases
        if ph.commit.count > 0 {
            func f(_ x: Samples) -> String { "\(Format.number(x.median, unit: "ms")) / \(Format.number(x.p99, unit: "ms"))" }
            s += "\n`board_apply_ms` by phase (median / p99 of \(ph.commit.count)): A's commit (fsync) \(f(ph.commit)), A's publish until "
            s += "JetStream's acknowledgement \(f(ph.publish)), B receiving, decoding and committing it (fsync) \(f(ph.arrive)).\n"
        }
        if let n = m.sync.historyReplayed.median {
            s += "\n`board_catchup_s_1m_history`: each new replica read the snapshot and then \(Int(n)) log entries (median of \(m.sync.historyReplayed.count) joins).\n"
        }
        if m.sync.class30Strokes > 0 {
            s += "\n`board_class30_apply_ms_*`: \(m.sync.class30Strokes) strokes, \(m.sync.class30.count) arrivals (each stroke at each of the 29 other replicas), all 30 replicas and the 3 servers on this machine's \(ProcessInfo.processInfo.activeProcessorCount) cores.\n"
        }
        let parts = m.sync.parts + m.boardWindow.parts
        if !parts.isEmpty {
            s += "\nTime by part: " + parts.map { "\($0.name) \(String(format: "%.0f", $0.seconds)) s" }.joined(separator: "; ") + ".\n"
        }
        let notes = m.sync.notes + m.boardWindow.notes
        if !notes.isEmpty { s += "\n" + notes.map { "- \($0)\n" }.joined() }
        return s
    }
}

/// BENCHMARKS.md: only the parts between the markers are rewritten (`summary` at the top, `figures` at the end);
/// the prose around them stays.
enum BenchmarksFile {
    static func begin(_ name: String) -> String { "<!-- bench:\(name):begin (generated by oekaki-bench --write; edits here are overwritten) -->" }
    static func end(_ name: String) -> String { "<!-- bench:\(name):end -->" }

    static func update(_ path: String, with sections: [(name: String, text: String)]) throws {
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if text.isEmpty { text = "# Benchmarks\n" }
        for (name, section) in sections {
            let block = begin(name) + "\n" + section + end(name)
            if let b = text.range(of: "<!-- bench:\(name):begin"), let e = text.range(of: end(name), range: b.upperBound..<text.endIndex) {
                text = String(text[..<b.lowerBound]) + block + String(text[e.upperBound...])
            } else {
                text += (text.hasSuffix("\n") ? "\n" : "\n\n") + block + "\n"
            }
        }
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw BenchFailure("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
