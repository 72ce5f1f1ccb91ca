import CGtk

/// A message strip under the toolbar (save failures, export results, recovery offers).
final class Banner {
    enum Kind { case info, warning, error }

    let widget: Widget
    private let bar: OpaquePointer
    private let label: Widget
    private let actionButton: Widget
    private var action: (() -> Void)?
    private var hideTimer: UInt32 = 0

    init() {
        widget = gtk_info_bar_new()
        bar = OpaquePointer(widget)
        label = Widgets.label("")
        gtk_label_set_wrap(OpaquePointer(label), 1)
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_widget_set_hexpand(label, 1)
        gtk_info_bar_add_child(bar, label)
        actionButton = gtk_info_bar_add_button(bar, "", 1)
        gtk_info_bar_set_show_close_button(bar, 1)
        connectResponse(gobject(widget)) { [weak self] response in
            guard let self else { return }
            if response == 1 { self.action?() } else { self.hide() }
        }
        gtk_widget_set_visible(widget, 0)
    }

    func show(_ kind: Kind, _ text: String, action: (title: String, run: () -> Void)?, autoHide: Bool = false) {
        let type: GtkMessageType
        switch kind {
        case .info: type = GTK_MESSAGE_INFO
        case .warning: type = GTK_MESSAGE_WARNING
        case .error: type = GTK_MESSAGE_ERROR
        }
        gtk_info_bar_set_message_type(bar, type)
        Widgets.setLabel(label, text)
        self.action = action?.run
        if let a = action { gtk_button_set_label(typed(actionButton, as: GtkButton.self), a.title) }
        gtk_widget_set_visible(actionButton, action == nil ? 0 : 1)
        gtk_widget_set_visible(widget, 1)
        if hideTimer != 0 { g_source_remove(hideTimer); hideTimer = 0 }
        if autoHide {
            hideTimer = every(milliseconds: 5000) { [weak self] in
                self?.hideTimer = 0
                self?.hide()
                return false
            }
        }
    }

    func hide() {
        if hideTimer != 0 { g_source_remove(hideTimer); hideTimer = 0 }
        gtk_widget_set_visible(widget, 0)
    }
}
