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

    /// The generated part of BENCHMARKS.md (between the markers).
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
        let misses = missed
        s += "\n**Goals:** " + (misses.isEmpty ? "all met in this run." : "missed in this run: " + misses.map { "`\($0.key)` = \(Format.number($0.value, unit: $0.unit)) (goal \($0.goal ?? ""))" }.joined(separator: "; ") + " — see the notes below.") + "\n"
        let notes = allNotes
        if !notes.isEmpty { s += "\n" + notes.map { "- \($0)\n" }.joined() }
        return s
    }
}

/// BENCHMARKS.md: only the part between the markers is rewritten; the prose around it stays.
enum BenchmarksFile {
    static let begin = "<!-- bench:begin (generated by oekaki-bench --write; edits here are overwritten) -->"
    static let end = "<!-- bench:end -->"

    static func update(_ path: String, with section: String) throws {
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let block = begin + "\n" + section + end
        let text: String
        if let b = old.range(of: "<!-- bench:begin"), let e = old.range(of: end, range: b.upperBound..<old.endIndex) {
            text = String(old[..<b.lowerBound]) + block + String(old[e.upperBound...])
        } else if old.isEmpty {
            text = "# Benchmarks\n\n" + block + "\n"
        } else {
            text = old + (old.hasSuffix("\n") ? "\n" : "\n\n") + block + "\n"
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
