/// What a copied selection becomes outside the editor: a drawing of just that ink (for the PNG and SVG the
/// clipboard offers) and an event log that draws the same strokes again (Oekaki's own clipboard type).
public enum ClipboardInk {
    /// The strokes moved so their ink starts at (0, 0), on a transparent page exactly their ink's size.
    public static func drawing(of strokes: [Stroke]) -> Drawing? {
        guard let ink = Rect.union(of: strokes.lazy.compactMap(\.inkBounds)), ink.width > 0, ink.height > 0 else { return nil }
        let moved = strokes.map { s -> Stroke in
            var c = s
            c.setTransform(s.transform.then(.translation(-ink.minX, -ink.minY)))
            return c
        }
        return Drawing(pageSize: Size(width: ink.width, height: ink.height), background: RGBA(r: 0, g: 0, b: 0, a: 0), strokes: moved)
    }

    /// The strokes an event log from `eventLog(of:)` (another Oekaki's clipboard) draws; nil when it is not one.
    public static func strokes(fromEventLog bytes: [UInt8]) -> [Stroke]? {
        var replay = EventLogReplay()
        do {
            try replay.feed(bytes + [0x0A])
            let editor = try replay.finish()
            return editor.drawing.strokes.isEmpty ? nil : editor.drawing.strokes
        } catch {
            return nil
        }
    }

    /// One `tool` line and pen `touch` lines with pressure per stroke, in drawing order (transforms applied).
    public static func eventLog(of strokes: [Stroke]) -> String {
        var out = ""
        // Ink only: an event log draws pen lines (text and images travel as the PNG and SVG).
        for s in strokes where !s.points.isEmpty && s.content.isInk {
            out += "{\"type\":\"tool\",\"tool\":\(JSONText.string(s.style.tool.rawValue)),\"color\":\(JSONText.string(s.style.color.hex)),\"width\":\(JSONText.number(s.style.width))}\n"
            let pts = s.points.count == 1 ? [s.points[0], s.points[0]] : s.points
            for (i, p) in pts.enumerated() {
                let phase = i == 0 ? "began" : i == pts.count - 1 ? "ended" : "moved"
                out += "{\"type\":\"touch\",\"phase\":\"\(phase)\",\"id\":1,\"x\":\(JSONText.number(p.x)),\"y\":\(JSONText.number(p.y)),\"pressure\":\(JSONText.number(p.pressure)),\"device\":\"pen\",\"t\":\(JSONText.number(p.time))}\n"
            }
        }
        return out
    }
}
