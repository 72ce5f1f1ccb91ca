import CGtk

/// Typed Swift calls for the GTK widgets the app uses, so the window's and the canvas's files say what they do to
/// a widget without naming a C function or casting a pointer. One concept: a widget's state and the few
/// class-specific calls (window, box, menu button, popover) the app makes; growing as more files move behind it.
extension UnsafeMutablePointer where Pointee == GtkWidget {
    func setVisible(_ on: Bool) { gtk_widget_set_visible(self, on ? 1 : 0) }
    func queueDraw() { gtk_widget_queue_draw(self) }
    func queueResize() { gtk_widget_queue_resize(self) }
    func grabFocus() { gtk_widget_grab_focus(self) }
    func addCSSClass(_ name: String) { gtk_widget_add_css_class(self, name) }
    func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(self, name) }
    func setTooltip(_ text: String) { gtk_widget_set_tooltip_text(self, text) }
    /// A cursor by its CSS name ("crosshair", "grab").
    func setCursor(_ name: String) { gtk_widget_set_cursor_from_name(self, name) }
    /// Takes the space its parent offers, both ways.
    func expand() { gtk_widget_set_hexpand(self, 1); gtk_widget_set_vexpand(self, 1) }
    func setFocusable(_ on: Bool) { gtk_widget_set_focusable(self, on ? 1 : 0) }
    /// Device pixels per logical pixel of the surface it is shown on.
    var scaleFactor: Int { Int(gtk_widget_get_scale_factor(self)) }
    /// Fills its row across (instead of its natural width).
    func fillAcross() { gtk_widget_set_halign(self, GTK_ALIGN_FILL) }
    /// Takes the free width of its row.
    func expandAcross() { gtk_widget_set_hexpand(self, 1) }
    func alignStart() { gtk_widget_set_halign(self, GTK_ALIGN_START) }
    func alignCenter() { gtk_widget_set_halign(self, GTK_ALIGN_CENTER) }
    /// Sits at the top of its parent's height (an overlay's banners).
    func alignTop() { gtk_widget_set_valign(self, GTK_ALIGN_START) }
    /// Sits in the middle of its parent's height.
    func alignMiddle() { gtk_widget_set_valign(self, GTK_ALIGN_CENTER) }
    /// A label that ends in "…" in its middle when narrower than its text (a title, a path).
    func ellipsizeMiddle() { gtk_label_set_ellipsize(OpaquePointer(self), PANGO_ELLIPSIZE_MIDDLE) }
    /// A label's text starts at its left edge (when the label is wider than its text).
    func alignTextStart() { gtk_label_set_xalign(OpaquePointer(self), 0) }
    /// A drawing area's size, in logical pixels.
    func setContentSize(width: Int, height: Int) {
        gtk_drawing_area_set_content_width(typed(self, as: GtkDrawingArea.self), Int32(width))
        gtk_drawing_area_set_content_height(typed(self, as: GtkDrawingArea.self), Int32(height))
    }
    /// Pointer, touch and stylus events pass through it to what lies below (a layer that only shows).
    func passInputThrough() { gtk_widget_set_can_target(self, 0) }
    /// A GtkFixed's child at (x, y) logical pixels of it.
    func moveChild(_ child: Widget, x: Double, y: Double) { gtk_fixed_move(typed(self, as: GtkFixed.self), child, x, y) }
    func setMargins(_ m: Int32) {
        gtk_widget_set_margin_start(self, m); gtk_widget_set_margin_end(self, m)
        gtk_widget_set_margin_top(self, m); gtk_widget_set_margin_bottom(self, m)
    }
    /// The width it would like, in logical pixels.
    var naturalWidth: Int {
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(self, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        return Int(natural)
    }

    // Its signals, typed (the names GTK gives them stay here).
    func onDestroy(_ body: @escaping () -> Void) { connect(gobject(self), "destroy", body) }
    /// A button was clicked (also when the click makes a toggle active again).
    func onClicked(_ body: @escaping () -> Void) { connect(gobject(self), "clicked", body) }
    /// A GObject property changed ("scale-factor", a window's "maximized").
    func onPropertyChange(_ property: String, _ body: @escaping () -> Void) { connectNotify(gobject(self), property: property, body) }
    /// A drawing area got a new size (logical pixels).
    func onResize(_ body: @escaping (_ width: Int32, _ height: Int32) -> Void) { connectResize(gobject(self), body) }
    /// The user asked to close the window; `body` returns true to keep it open.
    func onCloseRequest(_ body: @escaping () -> Bool) { connectStop(gobject(self), "close-request", body) }

    // A GtkWindow.
    func setWindowTitle(_ title: String) { gtk_window_set_title(typed(self, as: GtkWindow.self), title) }
    func closeWindow() { gtk_window_close(typed(self, as: GtkWindow.self)) }

    // A GtkBox.
    func removeChild(_ child: Widget) { gtk_box_remove(typed(self, as: GtkBox.self), child) }

    // A GtkEditable (an entry).
    var text: String {
        get { gtk_editable_get_text(OpaquePointer(self)).map { String(cString: $0) } ?? "" }
        nonmutating set { gtk_editable_set_text(OpaquePointer(self), newValue) }
    }

    // A GtkMenuButton.
    func popupMenu() { gtk_menu_button_popup(OpaquePointer(self)) }
    func popdownMenu() { gtk_menu_button_popdown(OpaquePointer(self)) }
}

/// Builders for the widgets the window uses, so layout code reads as a list of controls.
enum Widgets {
    static func box(horizontal: Bool = true, spacing: Int32 = 0, linked: Bool = false) -> Widget {
        let b = gtk_box_new(horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, spacing)!
        if linked { gtk_widget_add_css_class(b, "linked") }
        return b
    }

    static func append(_ box: Widget, _ children: Widget...) {
        for c in children { gtk_box_append(typed(box, as: GtkBox.self), c) }
    }

    static func separator() -> Widget {
        let s = gtk_separator_new(GTK_ORIENTATION_VERTICAL)!
        gtk_widget_set_margin_start(s, 4)
        gtk_widget_set_margin_end(s, 4)
        return s
    }

    static func label(_ text: String) -> Widget { gtk_label_new(text)! }

    static func setLabel(_ label: Widget, _ text: String) {
        gtk_label_set_text(OpaquePointer(label), text)
    }


    /// A GtkDrawingArea whose frames a draw function paints (`setDrawFunction`).
    static func drawingArea() -> Widget { gtk_drawing_area_new() }

    /// A label that wraps onto more lines past `maxChars` characters, dimmed (a hint under controls).
    static func hint(_ text: String, maxChars: Int) -> Widget {
        let l = gtk_label_new(text)!
        gtk_widget_add_css_class(l, "dim-label")
        gtk_label_set_wrap(OpaquePointer(l), 1)
        gtk_label_set_max_width_chars(OpaquePointer(l), Int32(maxChars))
        return l
    }

    /// A one-line text field; `activate` runs on Enter.
    static func entry(text: String, tooltip: String?, activate: @escaping () -> Void) -> Widget {
        let e = gtk_entry_new()!
        e.text = text
        if let tooltip { gtk_widget_set_tooltip_text(e, tooltip) }
        connect(gobject(e), "activate", activate)
        return e
    }

    /// A GtkFixed holding `child` at its top left: children placed by position and sized by their requests.
    static func fixed(_ child: Widget) -> Widget {
        let f = gtk_fixed_new()!
        gtk_fixed_put(typed(f, as: GtkFixed.self), child, 0, 0)
        return f
    }

    /// `child` with `layers` floating over it, the later ones on top (each placed by its own alignment).
    static func overlay(_ child: Widget, layers: [Widget]) -> Widget {
        let o = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(o), child)
        for l in layers { gtk_overlay_add_overlay(OpaquePointer(o), l) }
        return o
    }

    /// A line across a popover between groups of controls.
    static func separatorAcross() -> Widget { gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)! }

    /// A heading in a popover (bold, at the start of its row).
    static func heading(_ text: String) -> Widget {
        let l = gtk_label_new(text)!
        gtk_widget_set_halign(l, GTK_ALIGN_START)
        gtk_widget_add_css_class(l, "heading")
        return l
    }
}

/// A GtkPopover attached to a widget and pointing at a spot of it, freed when it closes (a context menu).
enum Popover {
    /// Shows `child` in a popover over `parent` pointing at `point` (the parent's coordinates); `close()` is
    /// handed to the caller's items.
    static func show(_ child: Widget, over parent: Widget, at point: (x: Double, y: Double), onClosed: (() -> Void)? = nil) -> () -> Void {
        let popover = gtk_popover_new()!
        gtk_widget_set_parent(popover, parent)
        var rect = GdkRectangle(x: Int32(point.x), y: Int32(point.y), width: 1, height: 1)
        gtk_popover_set_pointing_to(typed(popover, as: GtkPopover.self), &rect)
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), child)
        // Unparented when it closes, so each menu is freed.
        connect(gobject(popover), "closed") { onClosed?(); onMainLoop { gtk_widget_unparent(popover) } }
        gtk_popover_popup(typed(popover, as: GtkPopover.self))
        return { gtk_popover_popdown(typed(popover, as: GtkPopover.self)) }
    }
}
