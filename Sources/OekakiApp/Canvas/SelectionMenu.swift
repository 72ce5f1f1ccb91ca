import InkCore
import Localization

/// The popover a right-click or long-press on the selection opens: every operation on it.
extension MainWindow {
    func showSelectionMenu(at p: Point) {
        let list = Widgets.box(horizontal: false, spacing: 2)
        let all: [(String, String, Command)] = [
            ("edit-cut-symbolic", localized("Cut"), .cut),
            ("edit-copy-symbolic", localized("Copy"), .copy),
            ("edit-paste-symbolic", localized("Paste"), .paste),
            ("edit-copy-symbolic", localized("Duplicate"), .selection(.duplicate(dx: Editor.pasteOffset, dy: Editor.pasteOffset))),
            ("edit-delete-symbolic", localized("Delete"), .selection(.delete)),
            ("go-top-symbolic", localized("Bring to front"), .selection(.front)),
            ("go-bottom-symbolic", localized("Send to back"), .selection(.back)),
            ("applications-graphics-symbolic", localized("Use the pen's colour and width"), .selection(.style(color: session.styles[.pen]?.color, keepsAlpha: false, width: session.styles[.pen]?.width))),
        ]
        var items = all
        // Only where there is another layer to go to.
        if session.layers.count > 1 { items.append(("view-paged-symbolic", localized("Move to layer…"), .moveToLayer(p))) }
        // The popover exists once the items do; each item closes it.
        var close: (() -> Void)?
        for (icon, label, command) in items {
            let b = Widgets.button(icon: icon, label: label, tooltip: label) { [weak self] in
                close?()
                self?.perform(command)
            }
            b.fillAcross()
            b.addCSSClass("flat")
            Widgets.append(list, b)
        }
        close = Popover.show(list, over: canvas.widget, at: (p.x, p.y))
    }
}
