import CGtk

/// A GtkMenuButton and the popover it opens: the toolbar's and the header bar's menus. The popover is made with
/// its content and owned by the button; `popdownMenu()` (GtkWidgets.swift) closes it from an item.
extension Widgets {
    /// A menu button showing `label`, a theme `icon` or a drawn `face` (one of them), whose popover holds `content`.
    /// Not `focusable`, it leaves the keys with the canvas.
    static func menuButton(label: String? = nil, icon: String? = nil, face: Widget? = nil, tooltip: String? = nil,
                           focusable: Bool = true, content: Widget) -> Widget {
        let b = gtk_menu_button_new()!
        let button = OpaquePointer(b)
        if let label { gtk_menu_button_set_label(button, label) }
        if let icon { gtk_menu_button_set_icon_name(button, icon) }
        if let face { gtk_menu_button_set_child(button, face) }
        if let tooltip { gtk_widget_set_tooltip_text(b, tooltip) }
        if !focusable { gtk_widget_set_focusable(b, 0) }
        let popover = gtk_popover_new()!
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), content)
        gtk_menu_button_set_popover(button, popover)
        return b
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// A menu button's text.
    func setMenuLabel(_ text: String) { gtk_menu_button_set_label(OpaquePointer(self), text) }
    /// Runs `body` each time the menu button's popover opens (before it is laid out).
    func onMenuShown(_ body: @escaping () -> Void) {
        guard let popover = gtk_menu_button_get_popover(OpaquePointer(self)) else { return }
        connect(gobject(popover), "show", body)
    }
}
