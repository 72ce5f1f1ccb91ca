import CGtk
import Foundation

/// The controls that hold a choice: check buttons (alone or as a group of options), spin buttons (a number) and
/// drop-downs (one of a list). Typed, so the window's and the preferences' files read their values in Swift.
extension Widgets {
    /// A check button; with `group`, one of a set of options (radio style). `toggled` runs on every change, with
    /// whether it is now ticked (also when the app ticks it).
    static func check(_ label: String, active: Bool = false, group: Widget? = nil, focusable: Bool = true,
                      toggled: @escaping (Bool) -> Void) -> Widget {
        let c = gtk_check_button_new_with_label(label)!
        if !focusable { gtk_widget_set_focusable(c, 0) }
        if let group { gtk_check_button_set_group(c.asCheck, group.asCheck) }
        if active { c.isChecked = true }
        connect(gobject(c), "toggled") { toggled(c.isChecked) }
        return c
    }

    /// A spin button for a number within `range`, stepping by `step`; `changed` runs with each new number.
    static func spin(_ range: ClosedRange<Double>, step: Double, value: Double? = nil, changed: ((Double) -> Void)? = nil) -> Widget {
        let s = gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step)!
        if let value { s.number = value }
        if let changed { s.onValueChanged { changed(s.number) } }
        return s
    }

    /// A drop-down choosing one of `items` (by index), `selected` first; `chosen` runs with each new choice.
    static func dropDown(_ items: [String], selected: Int = 0, chosen: ((Int) -> Void)? = nil) -> Widget {
        let d = dropDown(items)
        d.selectedIndex = selected
        if let chosen { d.onSelectionChanged { chosen(d.selectedIndex) } }
        return d
    }

    private static func dropDown(_ items: [String]) -> Widget {
        let cStrings = items.map { strdup($0) } + [nil]
        defer { for p in cStrings { free(p) } }
        let list = cStrings.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) { gtk_string_list_new($0) }
        }
        return gtk_drop_down_new(list, nil)!
    }
}

extension UnsafeMutablePointer where Pointee == GtkWidget {
    fileprivate var asCheck: UnsafeMutablePointer<GtkCheckButton> { typed(self, as: GtkCheckButton.self) }

    /// A check button's tick.
    var isChecked: Bool {
        get { gtk_check_button_get_active(asCheck) != 0 }
        nonmutating set { gtk_check_button_set_active(asCheck, newValue ? 1 : 0) }
    }

    /// A spin button's number.
    var number: Double {
        get { gtk_spin_button_get_value(OpaquePointer(self)) }
        nonmutating set { gtk_spin_button_set_value(OpaquePointer(self), newValue) }
    }

    /// A spin button's digits after the point and its width in characters.
    func setDigits(_ digits: Int, widthChars: Int) {
        gtk_spin_button_set_digits(OpaquePointer(self), UInt32(digits))
        gtk_editable_set_width_chars(OpaquePointer(self), Int32(widthChars))
    }

    /// A drop-down's chosen index.
    var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(OpaquePointer(self))) }
        nonmutating set { gtk_drop_down_set_selected(OpaquePointer(self), guint(newValue)) }
    }

    /// Runs `body` when a spin button's number changes.
    func onValueChanged(_ body: @escaping () -> Void) { connect(gobject(self), "value-changed", body) }
    /// Runs `body` when the choice of a drop-down changes.
    func onSelectionChanged(_ body: @escaping () -> Void) { connectNotify(gobject(self), property: "selected", body) }
}
