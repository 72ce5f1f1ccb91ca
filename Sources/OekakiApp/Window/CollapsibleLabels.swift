import CGtk

/// Text beside icons that gives way when the window is too narrow for it, so every control stays on
/// screen at the smallest supported width (1024 px); the icons and tooltips (with shortcuts) remain.
final class CollapsibleLabels {
    private var labels: [Widget] = []
    private(set) var shown = true
    /// Natural width of the labelled row, measured while the labels were shown.
    private var widthWithLabels: Int32 = 0

    func add(_ label: Widget) {
        labels.append(label)
        gtk_widget_set_visible(label, shown ? 1 : 0)
    }

    /// Shows the labels only if `row` fits in `available` logical pixels with them.
    func fit(_ row: Widget, into available: Int32) {
        if shown {
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(row, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
            widthWithLabels = natural
        }
        let show = widthWithLabels > 0 && available >= widthWithLabels
        guard show != shown else { return }
        shown = show
        for l in labels { gtk_widget_set_visible(l, show ? 1 : 0) }
    }
}
