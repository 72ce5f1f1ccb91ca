import InkCore
import InkRender

/// What copying a selection offers other apps: Oekaki's own type (the strokes), a PNG at twice the page's
/// resolution on a transparent background, and an SVG.
enum ClipboardOffers {
    static func offers(for strokes: [Stroke]) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = [(SystemClipboard.inkType, Array(ClipboardInk.eventLog(of: strokes).utf8))]
        guard let d = ClipboardInk.drawing(of: strokes) else { return out }
        if let png = try? Exporter.data(d, format: .png, options: ExportOptions(scale: 2, transparent: true)) { out.append(("image/png", png)) }
        if let svg = try? Exporter.data(d, format: .svg, options: ExportOptions(transparent: true)) { out.append(("image/svg+xml", svg)) }
        return out
    }
}
