/// Text beside icons that gives way when the window is too narrow for it, so every control stays on
/// screen at the smallest supported width (1024 px); the icons and tooltips (with shortcuts) remain.
final class CollapsibleLabels {
    private var labels: [Widget] = []
    private(set) var shown = true
    /// Natural width of the labelled row, measured while the labels were shown.
    private var widthWithLabels: Int32 = 0

    func add(_ label: Widget) {
        labels.append(label)
        label.setVisible(shown)
    }

    /// Shows the labels only if `row` fits in `available` logical pixels with them.
    func fit(_ row: Widget, into available: Int32) {
        if shown {
            widthWithLabels = Int32(row.naturalWidth)
        }
        let show = widthWithLabels > 0 && available >= widthWithLabels
        guard show != shown else { return }
        shown = show
        for l in labels { l.setVisible(show) }
    }
}
