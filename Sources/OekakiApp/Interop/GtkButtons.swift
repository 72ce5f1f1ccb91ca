import CGtk
import InkRender

/// The app's buttons: icon and label buttons, toggles (plain or with a drawn face), the flat items of popover
/// menus, and the faces drawn for tools the icon theme lacks. Buttons in the window never take the keyboard
/// focus, so Space and the tool keys stay with the canvas; a dialog's text button does.
extension Widgets {
    /// A button showing a symbolic icon, optionally with a text label after it.
    /// With `collapsible`, the label gives way when the window is narrow (the icon and tooltip stay).
    static func button(icon: String?, label: String? = nil, tooltip: String, collapsible: CollapsibleLabels? = nil,
                       action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new()!
        // Buttons never take the keyboard focus: Space and the tool keys stay with the canvas.
        gtk_widget_set_focus_on_click(b, 0)
        gtk_widget_set_focusable(b, 0)
        setContent(of: b, icon: icon, label: label, collapsible: collapsible)
        gtk_widget_set_tooltip_text(b, tooltip)
        connect(gobject(b), "clicked", action)
        return b
    }

    /// A toggle button; `action` runs when it becomes active.
    static func toggle(icon: String? = nil, face: Widget? = nil, label: String? = nil, tooltip: String, group: Widget?,
                       collapsible: CollapsibleLabels? = nil, action: @escaping () -> Void) -> Widget {
        let b = gtk_toggle_button_new()!
        gtk_widget_set_focus_on_click(b, 0)
        gtk_widget_set_focusable(b, 0)
        setContent(of: b, icon: icon, face: face, label: label, collapsible: collapsible)
        gtk_widget_set_tooltip_text(b, tooltip)
        if let group { gtk_toggle_button_set_group(typed(b, as: GtkToggleButton.self), typed(group, as: GtkToggleButton.self)) }
        connect(gobject(b), "toggled") {
            if gtk_toggle_button_get_active(typed(b, as: GtkToggleButton.self)) != 0 { action() }
        }
        return b
    }

    /// A toggle button whose face is drawn by `paint` (colour swatches, size dots).
    static func drawnToggle(size: Int32, tooltip: String, group: Widget?, paint: @escaping (CairoContext, Double, Double) -> Void,
                            action: @escaping () -> Void) -> (button: Widget, face: Widget) {
        let face = drawn(size: size, paint: paint)
        let b = toggle(tooltip: tooltip, group: group, action: action)
        b.setButtonChild(face)
        gtk_widget_add_css_class(b, "swatch")
        return (b, face)
    }

    static func setActive(_ toggle: Widget, _ on: Bool) {
        gtk_toggle_button_set_active(typed(toggle, as: GtkToggleButton.self), on ? 1 : 0)
    }

    static func isActive(_ toggle: Widget) -> Bool {
        gtk_toggle_button_get_active(typed(toggle, as: GtkToggleButton.self)) != 0
    }

    /// A plain button with a text label, focusable (for dialogs, where Tab and Enter reach it).
    static func textButton(_ label: String, action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new_with_label(label)!
        connect(gobject(b), "clicked", action)
        return b
    }

    /// A flat, full-width button for a popover menu, with its key shown dimmed at the right.
    static func menuItem(_ title: String, accelerator: String? = nil, tooltip: String? = nil, action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new()!
        if let tooltip { gtk_widget_set_tooltip_text(b, tooltip) }
        gtk_widget_add_css_class(b, "flat")
        gtk_widget_set_focusable(b, 0)
        let row = box(spacing: 12)
        let text = gtk_label_new(title)!
        gtk_widget_set_hexpand(text, 1)
        gtk_widget_set_halign(text, GTK_ALIGN_START)
        append(row, text)
        if let accelerator {
            let key = gtk_label_new(accelerator)!
            gtk_widget_add_css_class(key, "dim-label")
            append(row, key)
        }
        gtk_button_set_child(typed(b, as: GtkButton.self), row)
        connect(gobject(b), "clicked", action)
        return b
    }

    /// A drawn 16 px face for buttons whose tool has no icon in the theme (the highlighter).
    static func face(_ paint: @escaping (CairoContext, Double, Double) -> Void) -> Widget {
        let face = drawn(size: 16, paint: paint)
        gtk_widget_set_valign(face, GTK_ALIGN_CENTER)
        return face
    }

    /// A square drawing area `size` px wide painted by `paint` (a button's face, a swatch).
    static func drawn(size: Int32, paint: @escaping (CairoContext, Double, Double) -> Void) -> Widget {
        let face = drawingArea()
        face.setContentSize(width: Int(size), height: Int(size))
        setDrawFunction(face) { cr, w, h in paint(cr, Double(w), Double(h)) }
        return face
    }

    private static func setContent(of button: Widget, icon: String?, face: Widget? = nil, label: String?, collapsible: CollapsibleLabels?) {
        let b = typed(button, as: GtkButton.self)
        let picture = face ?? icon.map { gtk_image_new_from_icon_name($0)! }
        switch (picture, label) {
        case let (p?, nil):
            if let icon, face == nil { gtk_button_set_icon_name(b, icon) } else { gtk_button_set_child(b, p) }
        case let (nil, l?):
            gtk_button_set_label(b, l)
        case let (p?, l?):
            let row = box(spacing: 6)
            let text = gtk_label_new(l)!
            append(row, p, text)
            gtk_button_set_child(b, row)
            collapsible?.add(text)
        default:
            break
        }
    }

}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    /// What a button shows: any widget (a drawn face, a label, a row).
    func setButtonChild(_ child: Widget) { gtk_button_set_child(typed(self, as: GtkButton.self), child) }
    /// Whether the control answers clicks (greyed out when not).
    func setSensitive(_ on: Bool) { gtk_widget_set_sensitive(self, on ? 1 : 0) }
}
