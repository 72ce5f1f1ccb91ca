import CGtk

/// Typed GTK calls for the widgets the page sidebar, the outline and the search bar use: a search entry, a
/// scrollbar's adjustment, a stack with its switcher, a scrolled list, pointer gestures and a widget's own keys.
/// Like `GtkWidgets.swift`, it keeps the window's files free of C calls and casts.
extension Widgets {
    /// A GtkSearchEntry; `changed` runs after typing pauses (GTK's debounce), with the text.
    static func searchEntry(placeholder: String, changed: @escaping (String) -> Void) -> Widget {
        let entry = gtk_search_entry_new()!
        // gtk_search_entry_set_placeholder_text is GTK 4.10; the property is older.
        var text = GValue()
        g_value_init(&text, GType(16 << 2)) // G_TYPE_STRING
        g_value_set_string(&text, placeholder)
        g_object_set_property(asGObject(gobject(entry)), "placeholder-text", &text)
        g_value_unset(&text)
        connect(gobject(entry), "search-changed") { changed(entry.text) }
        return entry
    }

    static func selectAllText(_ entry: Widget) { gtk_editable_select_region(OpaquePointer(entry), 0, -1) }
    /// Leaves no text of a field selected (no highlight while the canvas has the keys).
    static func selectNoText(_ entry: Widget) { gtk_editable_select_region(OpaquePointer(entry), 0, 0) }

    /// A vertical stack of pages with the switcher (buttons named `title`) that shows one of them.
    static func stack(_ pages: [(name: String, title: String, tip: String, child: Widget)]) -> (switcher: Widget, stack: Widget) {
        let stack = gtk_stack_new()!
        for p in pages { gtk_stack_add_titled(OpaquePointer(stack), p.child, p.name, p.title) }
        let switcher = gtk_stack_switcher_new()!
        gtk_stack_switcher_set_stack(OpaquePointer(switcher), OpaquePointer(stack))
        // The switcher's buttons, one per page in order.
        var tab = gtk_widget_get_first_child(switcher)
        for p in pages {
            guard let t = tab else { break }
            t.setTooltip(p.tip)
            tab = gtk_widget_get_next_sibling(t)
        }
        return (switcher, stack)
    }

    /// `child` in a vertically scrolled window (never sideways).
    static func scrolled(_ child: Widget) -> Widget {
        let s = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(s), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(OpaquePointer(s), child)
        return s
    }

    /// `child` in a window that scrolls sideways when narrower than it (never up and down), as tall as `child`.
    static func scrolledSideways(_ child: Widget) -> Widget {
        let s = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(OpaquePointer(s), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER)
        gtk_scrolled_window_set_propagate_natural_height(OpaquePointer(s), 1)
        gtk_scrolled_window_set_child(OpaquePointer(s), child)
        return s
    }

    /// A vertical scrollbar driving `adjustment`.
    static func scrollbar(_ adjustment: Adjustment) -> Widget {
        gtk_scrollbar_new(GTK_ORIENTATION_VERTICAL, adjustment.pointer)!
    }

    /// A flat button holding `child` (a row of a list).
    static func flatButton(_ child: Widget, tooltip: String, action: @escaping () -> Void) -> Widget {
        let b = gtk_button_new()!
        gtk_button_set_child(typed(b, as: GtkButton.self), child)
        gtk_widget_add_css_class(b, "flat")
        gtk_widget_set_focusable(b, 0)
        gtk_widget_set_tooltip_text(b, tooltip)
        connect(gobject(b), "clicked", action)
        return b
    }

    /// A label that ends in "…" when narrower than its text, left-aligned.
    static func ellipsized(_ text: String) -> Widget {
        let l = gtk_label_new(text)!
        gtk_label_set_ellipsize(OpaquePointer(l), PANGO_ELLIPSIZE_END)
        gtk_label_set_xalign(OpaquePointer(l), 0)
        return l
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    func setSizeRequest(width: Int, height: Int) { gtk_widget_set_size_request(self, Int32(width), Int32(height)) }
    func setMargins(start: Int = 0, end: Int = 0, top: Int = 0, bottom: Int = 0) {
        gtk_widget_set_margin_start(self, Int32(start)); gtk_widget_set_margin_end(self, Int32(end))
        gtk_widget_set_margin_top(self, Int32(top)); gtk_widget_set_margin_bottom(self, Int32(bottom))
    }
    /// Sits at the top right of an overlay.
    func alignTopEnd() { gtk_widget_set_halign(self, GTK_ALIGN_END); gtk_widget_set_valign(self, GTK_ALIGN_START) }
    /// Sits at the top centre of an overlay.
    func alignTopCenter() { gtk_widget_set_halign(self, GTK_ALIGN_CENTER); gtk_widget_set_valign(self, GTK_ALIGN_START) }
    /// Sits at the top left of an overlay (placed by its margins).
    func alignTopStart() { gtk_widget_set_halign(self, GTK_ALIGN_START); gtk_widget_set_valign(self, GTK_ALIGN_START) }
    func setHExpand(_ on: Bool) { gtk_widget_set_hexpand(self, on ? 1 : 0) }
    func setVExpand(_ on: Bool) { gtk_widget_set_vexpand(self, on ? 1 : 0) }

    /// Scrolls this scrolled window (`Widgets.scrolled`) just enough that `descendant` is in view; nothing before
    /// it is laid out (a hidden sidebar).
    func scrollToShow(_ descendant: Widget) {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(OpaquePointer(self)) else { return }
        // Where it is in the window's own visible area (above it: negative).
        var bounds = graphene_rect_t()
        guard gtk_widget_compute_bounds(descendant, self, &bounds) != 0 else { return }
        let top = Double(bounds.origin.y), bottom = top + Double(bounds.size.height)
        let value = gtk_adjustment_get_value(adjustment), page = gtk_adjustment_get_page_size(adjustment)
        guard page > 0 else { return }
        if top < 0 { gtk_adjustment_set_value(adjustment, value + top) } else if bottom > page { gtk_adjustment_set_value(adjustment, value + bottom - page) }
    }

    /// Runs `body` each time the widget comes on screen (its window or tab shown), once it is laid out.
    func onShown(_ body: @escaping () -> Void) {
        let widget = self
        connect(gobject(self), "map") { onNextFrames(of: widget, 1, body) }
    }

    var firstChild: Widget? { gtk_widget_get_first_child(self) }
    var isVisible: Bool { gtk_widget_get_visible(self) != 0 }
    var hasFocusWithin: Bool { gtk_widget_has_focus(self) != 0 || gtk_widget_get_focus_child(self) != nil }
    var height: Int { Int(gtk_widget_get_height(self)) }
    var width: Int { Int(gtk_widget_get_width(self)) }

    /// Keys pressed while this widget (or a child) has the focus, before the child sees them; `pressed`
    /// returns whether it handled the key.
    func onKeys(_ pressed: @escaping (KeyPress) -> Bool) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        connectKeys(keys, pressed: pressed, released: { _ in })
        gtk_widget_add_controller(self, keys)
    }

    /// A press, drag and release of the primary button: `began` at a point, `moved` and `ended` with the offset
    /// from it.
    func onDrag(began: @escaping (Double, Double) -> Void, moved: @escaping (Double, Double) -> Void, ended: @escaping (Double, Double) -> Void) {
        let g = gtk_gesture_drag_new()!
        connectPoint(gobject(g), "drag-begin", began)
        connectPoint(gobject(g), "drag-update", moved)
        connectPoint(gobject(g), "drag-end", ended)
        gtk_widget_add_controller(self, g)
    }

    /// The pointer moving over the widget.
    func onPointerMotion(_ body: @escaping () -> Void) {
        let motion = gtk_event_controller_motion_new()!
        connectPoint(gobject(motion), "motion") { _, _ in body() }
        gtk_widget_add_controller(self, motion)
    }

    /// A press of the secondary button (a context menu) at a point.
    func onSecondaryClick(_ body: @escaping (Double, Double) -> Void) {
        let g = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(g, UInt32(GDK_BUTTON_SECONDARY))
        connectClickPressed(gobject(g), body)
        gtk_widget_add_controller(self, g)
    }

    /// The mouse wheel or touchpad scrolling over the widget, in steps or pixels (vertical delta).
    func onScroll(_ body: @escaping (Double) -> Void) {
        let c = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
        connectScroll(gobject(c), body)
        gtk_widget_add_controller(self, c)
    }
}

/// A GtkAdjustment: a scrollbar's value within 0…upper, a page of `page` shown.
final class Adjustment {
    let pointer: UnsafeMutablePointer<GtkAdjustment>
    init() {
        pointer = gtk_adjustment_new(0, 0, 1, 20, 100, 1)
        g_object_ref_sink(gobject(pointer))
    }
    deinit { g_object_unref(gobject(pointer)) }
    var value: Double {
        get { gtk_adjustment_get_value(pointer) }
        set { gtk_adjustment_set_value(pointer, newValue) }
    }
    /// The scrolled extent and the part of it in view; the value is kept within.
    func setRange(upper: Double, page: Double, step: Double) {
        gtk_adjustment_configure(pointer, min(value, max(0, upper - page)), 0, upper, step, page * 0.9, page)
    }
    func onChange(_ body: @escaping () -> Void) { connect(gobject(pointer), "value-changed", body) }
}
