import Foundation
import Localization

/// The keyboard shortcuts window (Ctrl+?): a GtkShortcutsWindow built from `Shortcuts`' table, so it lists every
/// key the app answers to and nothing else. GtkShortcutsWindow's parts are made through GtkBuilder only.
enum ShortcutsWindow {
    static func show(parent: Widget) {
        guard let window = Widgets.builtWindow(xml(), id: "shortcuts") else { return }
        window.setTransient(for: parent)
        // GTK shows "Shortcuts" in the header only; the window list gets a name too.
        window.setWindowTitle(localized("Keyboard Shortcuts"))
        window.present()
    }

    /// The GtkBuilder description: one section, a group per table group, one row per listed command.
    static func xml() -> String {
        var groups = Shortcuts.groups().map { group in
            element("GtkShortcutsGroup", ["title": group.title], children: rows(group.shortcuts).map { row in
                element("GtkShortcutsShortcut", ["title": row.title, "accelerator": row.keys.map(\.accelerator).joined(separator: " ")])
            })
        }
        groups.append(element("GtkShortcutsGroup", ["title": localized("Moving around")], children: Shortcuts.gestures().map { g in
            var properties = ["title": g.title]
            if let a = g.accelerator { properties["accelerator"] = a }
            if let type = g.gesture { properties["shortcut-type"] = type }
            return element("GtkShortcutsShortcut", properties)
        }))
        let section = element("GtkShortcutsSection", ["section-name": "shortcuts", "max-height": "12"], children: groups)
        let window = element("GtkShortcutsWindow", ["modal": "1"], id: "shortcuts", children: [section])
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<interface>\n\(window)</interface>\n"
    }

    /// One row per title: neighbouring commands with one title (the four arrow moves) share a row showing each
    /// one's first key; a command's other keys show when listed (keypad twins do not).
    static func rows(_ shortcuts: [Shortcut]) -> [(title: String, keys: [ShortcutKey])] {
        var out: [(title: String, keys: [ShortcutKey])] = []
        for s in shortcuts {
            let keys = s.keys.enumerated().filter { $0.offset == 0 || $0.element.listed }.map(\.element)
            if let last = out.last, last.title == s.title {
                out[out.count - 1].keys += keys
            } else {
                out.append((s.title, keys))
            }
        }
        return out
    }

    private static func element(_ cls: String, _ properties: [String: String], id: String? = nil, children: [String] = []) -> String {
        var out = "<object class=\"\(cls)\"" + (id.map { " id=\"\($0)\"" } ?? "") + ">\n"
        for (name, value) in properties.sorted(by: { $0.key < $1.key }) {
            out += "<property name=\"\(name)\">\(escaped(value))</property>\n"
        }
        for c in children { out += "<child>\n\(c)</child>\n" }
        return out + "</object>\n"
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
