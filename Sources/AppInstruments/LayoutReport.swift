import CGtk
import Foundation
import OekakiApp

/// Test support: with `OEKAKI_LAYOUT_REPORT=FILE` the window writes where every control with a tooltip sits
/// (window coordinates, logical pixels) after each resize, so tests can check that all of them are on screen,
/// and every label with the width its text needs (a translation that does not fit shows up as clipped).
enum LayoutReport {
    /// Lines `window W H`, then `control X Y W H TOOLTIP` for each mapped control and `label X Y W H NEEDED TEXT`.
    static func write(_ window: Widget, to path: String) {
        var lines = ["window \(gtk_widget_get_width(window)) \(gtk_widget_get_height(window))"]
        collect(window, in: window, into: &lines)
        try? (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `origin` is where `root` (the window, or an open popover: its own surface) sits in window coordinates.
    private static func collect(_ widget: Widget, in root: Widget, at origin: (x: Double, y: Double) = (0, 0), into lines: inout [String]) {
        guard gtk_widget_get_mapped(widget) != 0 else { return }
        if let tip = gtk_widget_get_tooltip_text(widget) {
            var bounds = graphene_rect_t()
            if gtk_widget_compute_bounds(widget, root, &bounds) != 0 {
                let r = bounds
                let text = String(cString: tip).replacingOccurrences(of: "\n", with: " ")
                lines.append(String(format: "control %.0f %.0f %.0f %.0f %@", origin.x + Double(r.origin.x), origin.y + Double(r.origin.y),
                                    r.size.width, r.size.height, text))
            }
        }
        // Labels: where they are, and the width their text needs (smaller means clipped or ellipsized).
        if isA(widget, gtk_label_get_type()), let text = gtk_label_get_text(OpaquePointer(widget)), text.pointee != 0 {
            var bounds = graphene_rect_t()
            var natural: Int32 = 0
            gtk_widget_measure(widget, GTK_ORIENTATION_HORIZONTAL, -1, nil, &natural, nil, nil)
            if gtk_widget_compute_bounds(widget, root, &bounds) != 0 {
                let r = bounds
                let words = String(cString: text).replacingOccurrences(of: "\n", with: " ")
                lines.append(String(format: "label %.0f %.0f %.0f %.0f %d %@", origin.x + Double(r.origin.x), origin.y + Double(r.origin.y),
                                    r.size.width, r.size.height, natural, words))
            }
        }
        var child = gtk_widget_get_first_child(widget)
        while let c = child {
            if isA(c, gtk_popover_get_type()) {
                // A popover is its own surface, placed relative to the window's: widget bounds do not cross it.
                collect(c, in: c, at: popoverOrigin(c, in: root, at: origin), into: &lines)
            } else {
                collect(c, in: root, at: origin, into: &lines)
            }
            child = gtk_widget_get_next_sibling(c)
        }
    }

    private static func popoverOrigin(_ popover: Widget, in root: Widget, at origin: (x: Double, y: Double)) -> (x: Double, y: Double) {
        guard let surface = gtk_native_get_surface(OpaquePointer(popover)) else { return origin }
        var px = 0.0, py = 0.0, wx = 0.0, wy = 0.0
        gtk_native_get_surface_transform(OpaquePointer(popover), &px, &py)
        if let native = gtk_widget_get_native(root) { gtk_native_get_surface_transform(native, &wx, &wy) }
        return (origin.x + Double(gdk_popup_get_position_x(surface)) - wx + px,
                origin.y + Double(gdk_popup_get_position_y(surface)) - wy + py)
    }
}
