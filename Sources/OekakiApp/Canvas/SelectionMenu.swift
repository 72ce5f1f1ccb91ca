import CGtk
import InkCore
import Localization

/// The popover a right-click or long-press on the selection opens: every operation on it.
extension MainWindow {
    func showSelectionMenu(at p: Point) {
        let popover = gtk_popover_new()!
        gtk_widget_set_parent(popover, canvas.widget)
        var rect = GdkRectangle(x: Int32(p.x), y: Int32(p.y), width: 1, height: 1)
        gtk_popover_set_pointing_to(typed(popover, as: GtkPopover.self), &rect)
        let list = Widgets.box(horizontal: false, spacing: 2)
        let items: [(String, String, Command)] = [
            ("edit-cut-symbolic", localized("Cut"), .cut),
            ("edit-copy-symbolic", localized("Copy"), .copy),
            ("edit-paste-symbolic", localized("Paste"), .paste),
            ("edit-copy-symbolic", localized("Duplicate"), .selection(.duplicate(dx: Editor.pasteOffset, dy: Editor.pasteOffset))),
            ("edit-delete-symbolic", localized("Delete"), .selection(.delete)),
            ("go-top-symbolic", localized("Bring to front"), .selection(.front)),
            ("go-bottom-symbolic", localized("Send to back"), .selection(.back)),
            ("applications-graphics-symbolic", localized("Use the pen's colour and width"), .selection(.style(color: session.styles[.pen]?.color, keepsAlpha: false, width: session.styles[.pen]?.width))),
        ]
        for (icon, label, command) in items {
            let b = Widgets.button(icon: icon, label: label, tooltip: label) { [weak self] in
                gtk_popover_popdown(typed(popover, as: GtkPopover.self))
                self?.perform(command)
            }
            gtk_widget_set_halign(b, GTK_ALIGN_FILL)
            gtk_widget_add_css_class(b, "flat")
            Widgets.append(list, b)
        }
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), list)
        // Unparented when it closes, so each menu is freed.
        connect(gobject(popover), "closed") { onMainLoop { gtk_widget_unparent(popover) } }
        gtk_popover_popup(typed(popover, as: GtkPopover.self))
    }
}
