import Foundation

/// What the numbers were measured on.
struct Machine {
    var cpuModel: String
    var cores: Int
    var memoryGiB: Double
    var system: String
    var kernel: String
    var xournalppVersion: String?
    var rsvgVersion: String?

    static func describe(log: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let os = ((try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? "").split(separator: "\n")
            .first { $0.hasPrefix("PRETTY_NAME=") }.map { String($0.dropFirst(12)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "unknown"
        let kernel = ((try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        return Machine(cpuModel: model.isEmpty ? "unknown" : model,
                       cores: ProcessInfo.processInfo.activeProcessorCount,
                       memoryGiB: Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30),
                       system: os, kernel: kernel,
                       xournalppVersion: version(of: "xournalpp", log: log),
                       rsvgVersion: version(of: "rsvg-convert", log: log))
    }

    /// First line of `PROGRAM --version`, nil when not installed.
    private static func version(of program: String, log: String) -> String? {
        guard let exe = Executables.find(program) else { return nil }
        let out = log + ".version"
        unlink(out)
        defer { unlink(out) }
        guard let run = try? ChildProcess.run(exe, ["--version"], environment: ["PATH": Executables.path, "HOME": "/nonexistent"], log: out, timeout: 20),
              run.succeeded, let text = try? String(contentsOfFile: out, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    var summary: String {
        var s = "\(cpuModel), \(cores) cores, \(String(format: "%.1f", memoryGiB)) GiB RAM, \(system), Linux \(kernel)"
        s += "; peers: " + [xournalppVersion ?? "Xournal++ not installed", rsvgVersion ?? "rsvg-convert not installed"].joined(separator: ", ")
        return s
    }
}
