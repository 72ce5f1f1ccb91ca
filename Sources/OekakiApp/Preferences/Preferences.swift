import Foundation
import InkCore

/// Settings that outlive a session, kept as `key=value` lines in `$XDG_CONFIG_HOME/oekaki/settings`.
struct Preferences {
    var touchMode: TouchMode = .draw
    /// False until the user picks a touch mode; then a pen appearing switches fingers to navigating.
    var touchModeChosen = false
    /// The last window's size and state, for the next window.
    var windowWidth = 1180
    var windowHeight = 780
    var maximized = false
    /// "Always recognize shapes": every pen stroke that fits a shape becomes it, without holding.
    var recognizeShapes = false
    /// The lasso and box take only strokes wholly inside (instead of half their points).
    var selectWhollyInside = false
    /// Resizing a selection keeps line widths (instead of scaling them with it).
    var keepLineWidths = false
    /// The pen's feel (`PenPreferences.swift`): pressure curve, stabilizer, palm rejection and its delay (ms).
    var pressureCurve = PressureCurve.linear
    var stabilizer = Stabilizer.Level.off
    var palmRejection = true
    var palmDelay = PalmRejection.defaultDelay
    /// What the stylus's eraser end and its two barrel buttons do.
    var eraserEnd = StylusAction.strokeEraser
    var firstButton = StylusAction.areaEraser
    var secondButton = StylusAction.none
    /// Erasers and selection reach the current layer only (as in Xournal++), or every visible layer.
    var layerScope = LayerScope.current
    /// The fill and line style of new pen and shape ink, as last chosen in the shapes menu (nil: not filled).
    var penFill: UInt8? = nil
    var penLine = LineStyle.solid
    /// The colour and width last picked for the pen, the highlighter and the erasers (nil: the tool's default).
    var inks: [Tool: Ink] = [:]
    static let keptInks: [Tool] = [.pen, .highlighter, .strokeEraser, .areaEraser]
    struct Ink: Equatable {
        var color: RGBA?
        var width: Double?
    }
    /// Widths a settings line may give (a hand-edited 10000 never makes a tool unusable).
    static let inkWidths = 0.1...200.0

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
            switch parts[0] {
            case "touch-mode":
                if let m = TouchMode(rawValue: parts[1]) { p.touchMode = m; p.touchModeChosen = true }
            // A damaged or hand-edited size never makes an unusable window.
            case "window-width": if let w = Int(parts[1]), (200...16384).contains(w) { p.windowWidth = w }
            case "window-height": if let h = Int(parts[1]), (200...16384).contains(h) { p.windowHeight = h }
            case "window-maximized": p.maximized = parts[1] == "true"
            case "recognize-shapes": p.recognizeShapes = parts[1] == "1"
            case "select-wholly-inside": p.selectWhollyInside = parts[1] == "1"
            case "keep-line-widths": p.keepLineWidths = parts[1] == "1"
            case "pressure-curve": if let c = PressureCurve(text: parts[1]) { p.pressureCurve = c }
            case "stabilizer": if let l = Stabilizer.Level(rawValue: parts[1]) { p.stabilizer = l }
            case "palm-rejection": p.palmRejection = parts[1] != "0"
            case "palm-delay": if let d = Double(parts[1]), PalmRejection.delayRange.contains(d) { p.palmDelay = d }
            case "eraser-end": if let a = StylusAction(rawValue: parts[1]) { p.eraserEnd = a }
            case "first-button": if let a = StylusAction(rawValue: parts[1]) { p.firstButton = a }
            case "second-button": if let a = StylusAction(rawValue: parts[1]) { p.secondButton = a }
            case "layer-scope": if let scope = LayerScope(rawValue: parts[1]) { p.layerScope = scope }
            // Xournal++'s own words for both: an alpha 0–255, and `dash`, `dashdot`, `dot` or `cust: …`.
            case "pen-fill": if let a = UInt8(parts[1]) { p.penFill = a }
            case "pen-line": if let l = LineStyle(name: parts[1]) { p.penLine = l }
            default:
                // `pen-color=#rrggbbaa`, `highlighter-width=16`, …
                for tool in keptInks {
                    if parts[0] == tool.rawValue + "-color", let c = RGBA(hex: parts[1]) { p.inks[tool, default: Ink()].color = c }
                    if parts[0] == tool.rawValue + "-width", let w = Double(parts[1]), inkWidths.contains(w) { p.inks[tool, default: Ink()].width = w }
                }
            }
        }
        return p
    }

    /// Changes what is stored now (another window may have saved since this one loaded its copy).
    static func update(_ change: (inout Preferences) -> Void) {
        var p = load()
        change(&p)
        p.save()
    }

    /// Best effort: a settings file that cannot be written only costs the choice at the next launch.
    func save() {
        let dir = (Self.path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var lines: [String] = []
        if touchModeChosen { lines.append("touch-mode=\(touchMode.rawValue)") }
        lines += ["window-width=\(windowWidth)", "window-height=\(windowHeight)", "window-maximized=\(maximized)"]
        if recognizeShapes { lines.append("recognize-shapes=1") }
        if selectWhollyInside { lines.append("select-wholly-inside=1") }
        if keepLineWidths { lines.append("keep-line-widths=1") }
        lines += ["pressure-curve=\(pressureCurve.text)", "stabilizer=\(stabilizer.rawValue)",
                  "palm-rejection=\(palmRejection ? 1 : 0)", "palm-delay=\(Int(palmDelay))",
                  "eraser-end=\(eraserEnd.rawValue)", "first-button=\(firstButton.rawValue)", "second-button=\(secondButton.rawValue)"]
        if layerScope != .current { lines.append("layer-scope=\(layerScope.rawValue)") }
        if let penFill { lines.append("pen-fill=\(penFill)") }
        if let name = penLine.name { lines.append("pen-line=\(name)") }
        for tool in Self.keptInks {
            if let c = inks[tool]?.color { lines.append("\(tool.rawValue)-color=\(c.hex)") }
            if let w = inks[tool]?.width { lines.append("\(tool.rawValue)-width=\(w)") }
        }
        try? (lines.joined(separator: "\n") + "\n").write(toFile: Self.path, atomically: true, encoding: .utf8)
    }
}
