import CGtk
import InkCore
import Localization

/// One key the app answers to: its keyval (lower case), whether Ctrl is held, and whether Shift must be (nil: either).
struct ShortcutKey {
    var keyval: Int32
    var control = false
    var shift: Bool? = nil
    /// Keypad twins and layout variants work but are not listed in the shortcuts window.
    var listed = true

    /// GTK's accelerator syntax, for the shortcuts window.
    var accelerator: String {
        let name = KeyPress.name(of: keyval)
        return (control ? "<Control>" : "") + (shift == true ? "<Shift>" : "") + name
    }
}

/// A command and every key that runs it, with the words the shortcuts window shows.
struct Shortcut {
    var title: String
    var command: Command
    var keys: [ShortcutKey]
}

/// The keyboard map: the one table both the key handler and the shortcuts window (Ctrl+?) read, so the window
/// lists exactly the keys the app has. Tooltips in the toolbar name the same keys.
enum Shortcuts {
    static func groups() -> [(title: String, shortcuts: [Shortcut])] {
        func ctrl(_ k: Int32, shift: Bool? = nil, listed: Bool = true) -> ShortcutKey { ShortcutKey(keyval: k, control: true, shift: shift, listed: listed) }
        func plain(_ k: Int32, listed: Bool = true) -> ShortcutKey { ShortcutKey(keyval: k, listed: listed) }
        return [
            (localized("Files"), [
                Shortcut(title: localized("New drawing in a new window"), command: .newWindow, keys: [ctrl(GDK_KEY_n)]),
                Shortcut(title: localized("Open a drawing or import a .xopp"), command: .open, keys: [ctrl(GDK_KEY_o)]),
                Shortcut(title: localized("Save under a new name"), command: .saveAs, keys: [ctrl(GDK_KEY_s)]),
                Shortcut(title: localized("Export as PNG, SVG, PDF or .xopp"), command: .export, keys: [ctrl(GDK_KEY_e)]),
            ]),
            (localized("Drawing"), [
                Shortcut(title: localized("Undo"), command: .undo, keys: [ctrl(GDK_KEY_z, shift: false)]),
                Shortcut(title: localized("Redo"), command: .redo, keys: [ctrl(GDK_KEY_z, shift: true), ctrl(GDK_KEY_y)]),
                Shortcut(title: localized("Cancel the stroke in progress"), command: .cancelStroke, keys: [plain(GDK_KEY_Escape)]),
            ]),
            (localized("Tools"), [
                Shortcut(title: localized("Pen"), command: .tool(.pen), keys: [plain(GDK_KEY_p)]),
                Shortcut(title: localized("Highlighter"), command: .tool(.highlighter), keys: [plain(GDK_KEY_h)]),
                Shortcut(title: localized("Stroke eraser"), command: .tool(.strokeEraser), keys: [plain(GDK_KEY_e)]),
                Shortcut(title: localized("Area eraser"), command: .tool(.areaEraser), keys: [plain(GDK_KEY_a)]),
                Shortcut(title: localized("Line"), command: .tool(.line), keys: [plain(GDK_KEY_l)]),
                Shortcut(title: localized("Arrow"), command: .tool(.arrow), keys: [plain(GDK_KEY_w)]),
                Shortcut(title: localized("Rectangle (Shift: square)"), command: .tool(.rectangle), keys: [plain(GDK_KEY_r)]),
                Shortcut(title: localized("Ellipse (Shift: circle)"), command: .tool(.ellipse), keys: [plain(GDK_KEY_o)]),
                Shortcut(title: localized("Lasso select"), command: .tool(.lasso), keys: [plain(GDK_KEY_s)]),
                Shortcut(title: localized("Box select"), command: .tool(.selectRect), keys: [plain(GDK_KEY_b)]),
                Shortcut(title: localized("Text"), command: .tool(.text), keys: [plain(GDK_KEY_t)]),
                Shortcut(title: localized("Laser pointer"), command: .tool(.laser), keys: [plain(GDK_KEY_k)]),
                Shortcut(title: localized("Fine size"), command: .size(.fine), keys: [plain(GDK_KEY_1), plain(GDK_KEY_KP_1, listed: false)]),
                Shortcut(title: localized("Medium size"), command: .size(.medium), keys: [plain(GDK_KEY_2), plain(GDK_KEY_KP_2, listed: false)]),
                Shortcut(title: localized("Bold size"), command: .size(.bold), keys: [plain(GDK_KEY_3), plain(GDK_KEY_KP_3, listed: false)]),
            ]),
            (localized("Selection"), [
                Shortcut(title: localized("Select all on the page"), command: .selection(.all), keys: [ctrl(GDK_KEY_a)]),
                Shortcut(title: localized("Duplicate"), command: .selection(.duplicate(dx: Editor.pasteOffset, dy: Editor.pasteOffset)), keys: [ctrl(GDK_KEY_d)]),
                Shortcut(title: localized("Cut"), command: .cut, keys: [ctrl(GDK_KEY_x)]),
                Shortcut(title: localized("Copy"), command: .copy, keys: [ctrl(GDK_KEY_c)]),
                Shortcut(title: localized("Paste"), command: .paste, keys: [ctrl(GDK_KEY_v)]),
                Shortcut(title: localized("Delete"), command: .selection(.delete), keys: [plain(GDK_KEY_Delete), plain(GDK_KEY_KP_Delete, listed: false)]),
                Shortcut(title: localized("Move by 1"), command: .selection(.translate(dx: -1, dy: 0)), keys: [ShortcutKey(keyval: GDK_KEY_Left, shift: false)]),
                Shortcut(title: localized("Move by 1"), command: .selection(.translate(dx: 1, dy: 0)), keys: [ShortcutKey(keyval: GDK_KEY_Right, shift: false, listed: false)]),
                Shortcut(title: localized("Move by 1"), command: .selection(.translate(dx: 0, dy: -1)), keys: [ShortcutKey(keyval: GDK_KEY_Up, shift: false, listed: false)]),
                Shortcut(title: localized("Move by 1"), command: .selection(.translate(dx: 0, dy: 1)), keys: [ShortcutKey(keyval: GDK_KEY_Down, shift: false, listed: false)]),
                Shortcut(title: localized("Move by 10"), command: .selection(.translate(dx: -10, dy: 0)), keys: [ShortcutKey(keyval: GDK_KEY_Left, shift: true)]),
                Shortcut(title: localized("Move by 10"), command: .selection(.translate(dx: 10, dy: 0)), keys: [ShortcutKey(keyval: GDK_KEY_Right, shift: true, listed: false)]),
                Shortcut(title: localized("Move by 10"), command: .selection(.translate(dx: 0, dy: -10)), keys: [ShortcutKey(keyval: GDK_KEY_Up, shift: true, listed: false)]),
                Shortcut(title: localized("Move by 10"), command: .selection(.translate(dx: 0, dy: 10)), keys: [ShortcutKey(keyval: GDK_KEY_Down, shift: true, listed: false)]),
            ]),
            (localized("View"), [
                Shortcut(title: localized("Zoom in"), command: .zoomIn, keys: [
                    ctrl(GDK_KEY_plus), ctrl(GDK_KEY_equal, listed: false), ctrl(GDK_KEY_KP_Add, listed: false),
                    plain(GDK_KEY_plus), plain(GDK_KEY_KP_Add, listed: false)]),
                Shortcut(title: localized("Zoom out"), command: .zoomOut, keys: [
                    ctrl(GDK_KEY_minus), ctrl(GDK_KEY_underscore, listed: false), ctrl(GDK_KEY_KP_Subtract, listed: false),
                    plain(GDK_KEY_minus), plain(GDK_KEY_KP_Subtract, listed: false)]),
                Shortcut(title: localized("Fit the page in the window"), command: .zoomFit, keys: [ctrl(GDK_KEY_0), ctrl(GDK_KEY_KP_0, listed: false)]),
                Shortcut(title: localized("Present: full screen, a page at a time (Esc leaves)"), command: .present, keys: [plain(GDK_KEY_F5)]),
                Shortcut(title: localized("Find in text boxes and PDF text"), command: .find, keys: [ctrl(GDK_KEY_f)]),
                Shortcut(title: localized("Page previews and the PDF's outline"), command: .toggleSidebar, keys: [plain(GDK_KEY_F9)]),
            ]),
            (localized("Pages"), [
                Shortcut(title: localized("Next page"), command: .nextPage, keys: [ctrl(GDK_KEY_Page_Down), ctrl(GDK_KEY_KP_Page_Down, listed: false)]),
                Shortcut(title: localized("Previous page"), command: .previousPage, keys: [ctrl(GDK_KEY_Page_Up), ctrl(GDK_KEY_KP_Page_Up, listed: false)]),
                Shortcut(title: localized("First page"), command: .firstPage, keys: [plain(GDK_KEY_Home), plain(GDK_KEY_KP_Home, listed: false)]),
                Shortcut(title: localized("Last page"), command: .lastPage, keys: [plain(GDK_KEY_End), plain(GDK_KEY_KP_End, listed: false)]),
                Shortcut(title: localized("Layers of the page"), command: .layers, keys: [ctrl(GDK_KEY_l)]),
            ]),
            (localized("Help"), [
                Shortcut(title: localized("Keyboard shortcuts"), command: .showShortcuts, keys: [ctrl(GDK_KEY_question), ctrl(GDK_KEY_slash, listed: false)]),
            ]),
        ]
    }

    /// Keys held while dragging, and gestures: listed in the window, handled by the canvas.
    static func gestures() -> [(title: String, accelerator: String?, gesture: String?)] {
        [
            (localized("Pan: hold Space and drag (or drag with the middle button)"), "space", nil),
            (localized("Squares, circles and 15° lines: hold Shift while dragging a shape"), "<Shift>", nil),
            (localized("Pan with two fingers (when fingers navigate)"), nil, "gesture-two-finger-swipe-right"),
            (localized("Zoom with two fingers (when fingers navigate)"), nil, "gesture-pinch"),
        ]
    }

    /// Built once: key presses look commands up here.
    private static let table: [(ShortcutKey, Command)] = groups().flatMap { g in g.shortcuts.flatMap { s in s.keys.map { ($0, s.command) } } }

    /// The command for a key press, or nil when the key means nothing to Oekaki.
    static func command(for key: KeyPress) -> Command? {
        if key.alt { return nil }
        let k = key.lowercased
        return table.first { entry, _ in
            entry.keyval == k && entry.control == key.control && (entry.shift == nil || entry.shift == key.shift)
        }?.1
    }

    static func isSpace(_ key: KeyPress) -> Bool { key.keyval == UInt32(GDK_KEY_space) }
}
