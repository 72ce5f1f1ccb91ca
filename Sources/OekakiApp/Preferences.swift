import Foundation

/// Settings that outlive a session, kept as `key=value` lines in `$XDG_CONFIG_HOME/oekaki/settings`.
struct Preferences {
    var touchMode: TouchMode = .draw
    /// False until the user picks a touch mode; then a pen appearing switches fingers to navigating.
    var touchModeChosen = false

    private static var path: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (env["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/oekaki/settings"
    }

    static func load() -> Preferences {
        var p = Preferences()
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return p }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "touch-mode", let m = TouchMode(rawValue: parts[1]) { p.touchMode = m; p.touchModeChosen = true }
        }
        return p
    }

    /// Best effort: a settings file that cannot be written only costs the choice at the next launch.
    func save() {
        let dir = (Self.path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try? "touch-mode=\(touchMode.rawValue)\n".write(toFile: Self.path, atomically: true, encoding: .utf8)
    }
}
