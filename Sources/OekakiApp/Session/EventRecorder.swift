import Foundation
import InkCore

/// `OEKAKI_EVENT_LOG=FILE`: the window appends every drawing event it hands the editor to FILE as an event log
/// (`oekaki replay` reads it back), with the tool in use when a stroke begins. How real strokes are recorded for
/// tests: what the app saw, sample by sample, with GTK's timestamps.
enum EventRecorder {
    nonisolated(unsafe) private static let file: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["OEKAKI_EVENT_LOG"], !path.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        let f = FileHandle(forWritingAtPath: path)
        f?.seekToEndOfFile()
        return f
    }()
    nonisolated(unsafe) private static var lastTool: String?
    nonisolated(unsafe) private static var lastGuides = Guides()

    /// The pen's feel as the session set it (`,"pressureCurve":…,"stabilizer":…`), written on each tool line so a
    /// replay shapes the raw samples as the window did.
    nonisolated(unsafe) static var penFeel = ""

    static var isOn: Bool { file != nil }

    static func setPenFeel(curve: PressureCurve, stabilizer: Stabilizer.Level) {
        let c = curve.preset.map { JSONText.string($0.rawValue) } ?? curve.text
        penFeel = ",\"pressureCurve\":\(c),\"stabilizer\":\(JSONText.string(stabilizer.rawValue))"
    }

    /// The pen came near or left (recorded only while palm rejection is on, so a replay judges touches alike).
    static func record(proximity near: Bool, time: Double) {
        guard let file else { return }
        let line = "{\"type\":\"proximity\",\"phase\":\"\(near ? "in" : "out")\",\"device\":\"pen\",\"t\":\(JSONText.number(time))}\n"
        file.write(Data(line.utf8))
    }

    static func record(_ e: InputEvent, tool: Tool, style: StrokeStyle, recognize: Bool) {
        guard let file else { return }
        var out = ""
        if e.phase == .began {
            var t = "{\"type\":\"tool\",\"tool\":\(JSONText.string(tool.rawValue))"
            if !tool.isEraser { t += ",\"color\":\(JSONText.string(style.color.hex))" }
            t += ",\"width\":\(JSONText.number(style.width))"
            // Fill and dashes as the tool line takes them, so a replay draws what the window drew.
            if tool == .pen || tool == .highlighter || tool.isShape {
                t += ",\"fill\":\(style.fill.map { Int($0) } ?? -1)"
                t += ",\"style\":\(JSONText.string(style.line.name ?? "solid"))"
            }
            t += ",\"recognize\":\(recognize)\(penFeel)}"
            if t != lastTool { out += t + "\n"; lastTool = t }
        }
        out += "{\"type\":\"touch\",\"phase\":\"\(e.phase.rawValue)\",\"id\":\(e.pointer),\"x\":\(JSONText.number(e.point.x)),\"y\":\(JSONText.number(e.point.y))"
        if e.hasPressure { out += ",\"pressure\":\(JSONText.number(e.point.pressure))" }
        out += ",\"device\":\"\(e.device.rawValue)\",\"t\":\(JSONText.number(e.point.time))}\n"
        file.write(Data(out.utf8))
    }

    /// The guides as the editor gets them for a stroke (the page's coordinates): a `place` or `remove` line for
    /// each that changed since the last stroke, so a replay snaps the stroke as the window did.
    static func record(guides g: Guides) {
        guard let file, g != lastGuides else { return }
        var out = ""
        func n(_ v: Double) -> String { JSONText.number(v) }
        if g.ruler != lastGuides.ruler {
            out += g.ruler.map { #"{"type":"ruler","op":"place","x":\#(n($0.origin.x)),"y":\#(n($0.origin.y)),"degrees":\#(n($0.degrees))}"# }
                ?? #"{"type":"ruler","op":"remove"}"#
            out += "\n"
        }
        if g.setSquare != lastGuides.setSquare {
            out += g.setSquare.map { #"{"type":"setsquare","op":"place","x":\#(n($0.centre.x)),"y":\#(n($0.centre.y)),"degrees":\#(n($0.degrees)),"size":\#(n($0.size))}"# }
                ?? #"{"type":"setsquare","op":"remove"}"#
            out += "\n"
        }
        if g.compass != lastGuides.compass {
            out += g.compass.map { #"{"type":"compass","op":"place","x":\#(n($0.centre.x)),"y":\#(n($0.centre.y)),"radius":\#(n($0.radius))}"# }
                ?? #"{"type":"compass","op":"remove"}"#
            out += "\n"
        }
        lastGuides = g
        file.write(Data(out.utf8))
    }
}
