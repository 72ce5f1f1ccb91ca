import CGtk
import Foundation

/// Test support: with `OEKAKI_LAYOUT_REPORT=FILE` the window writes where every control with a tooltip sits
/// (window coordinates, logical pixels) after each resize, so tests can check that all of them are on screen.
enum LayoutReport {
    static let path = ProcessInfo.processInfo.environment["OEKAKI_LAYOUT_REPORT"]

    /// Lines `window W H`, then `control X Y W H TOOLTIP` for each mapped control.
    static func write(_ window: Widget) {
        guard let path else { return }
        var lines = ["window \(gtk_widget_get_width(window)) \(gtk_widget_get_height(window))"]
        collect(window, in: window, into: &lines)
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func collect(_ widget: Widget, in window: Widget, into lines: inout [String]) {
        guard gtk_widget_get_mapped(widget) != 0 else { return }
        if let tip = gtk_widget_get_tooltip_text(widget) {
            var bounds = graphene_rect_t()
            if gtk_widget_compute_bounds(widget, window, &bounds) != 0 {
                let r = bounds
                let text = String(cString: tip).replacingOccurrences(of: "\n", with: " ")
                lines.append(String(format: "control %.0f %.0f %.0f %.0f %@", r.origin.x, r.origin.y, r.size.width, r.size.height, text))
            }
        }
        var child = gtk_widget_get_first_child(widget)
        while let c = child {
            collect(c, in: window, into: &lines)
            child = gtk_widget_get_next_sibling(c)
        }
    }
}
