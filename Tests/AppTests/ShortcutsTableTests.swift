import CGtk
import XCTest
@testable import OekakiApp

/// The keyboard map and the shortcuts window come from one table: every key runs its own command (no entry hides
/// another), every listed key is a valid GTK accelerator in the window, and the window lists every command.
final class ShortcutsTableTests: XCTestCase {
    func testEveryKeyInTheTableRunsItsCommand() {
        for group in Shortcuts.groups() {
            for s in group.shortcuts {
                for k in s.keys {
                    var mods: UInt32 = 0
                    if k.control { mods |= GDK_CONTROL_MASK.rawValue }
                    if k.shift == true { mods |= GDK_SHIFT_MASK.rawValue }
                    let press = KeyPress(keyval: UInt32(bitPattern: k.keyval), keycode: 0, modifiers: GdkModifierType(rawValue: mods))
                    XCTAssertEqual(Shortcuts.command(for: press), s.command, "\(k.accelerator) runs \(s.title)")
                }
            }
        }
        let ctrlN = KeyPress(keyval: UInt32(GDK_KEY_n), keycode: 0, modifiers: GDK_CONTROL_MASK)
        XCTAssertEqual(Shortcuts.command(for: ctrlN), .newWindow)
        let ctrlQuestion = KeyPress(keyval: UInt32(GDK_KEY_question), keycode: 0, modifiers: GdkModifierType(rawValue: GDK_CONTROL_MASK.rawValue | GDK_SHIFT_MASK.rawValue))
        XCTAssertEqual(Shortcuts.command(for: ctrlQuestion), .showShortcuts, "Ctrl+? (Shift is how most layouts type ?)")
    }

    func testTheWindowListsEveryCommandWithValidAccelerators() throws {
        let xml = ShortcutsWindow.xml()
        for group in Shortcuts.groups() {
            XCTAssertTrue(xml.contains(ShortcutsWindow.escaped(group.title)), group.title)
            let rows = ShortcutsWindow.rows(group.shortcuts)
            // Every command's first key is shown, in the row of its title.
            for s in group.shortcuts {
                guard let first = s.keys.first else { XCTFail("\(s.title) has no key"); continue }
                let row = rows.first { $0.title == s.title }
                XCTAssertTrue(row?.keys.contains { $0.accelerator == first.accelerator } ?? false, "\(s.title): its first key is in the window")
            }
            for row in rows {
                XCTAssertFalse(row.keys.isEmpty, "\(row.title) has a key")
                XCTAssertTrue(xml.contains(">\(ShortcutsWindow.escaped(row.title))<"), row.title)
                for k in row.keys {
                    var key: UInt32 = 0
                    var mods = GdkModifierType(rawValue: 0)
                    XCTAssertNotEqual(gtk_accelerator_parse(k.accelerator, &key, &mods), 0, "\(k.accelerator) parses")
                    XCTAssertTrue(xml.contains(ShortcutsWindow.escaped(k.accelerator)), k.accelerator)
                }
            }
        }
    }

    /// Keys held while dragging show as the key a user presses: GTK draws a sided modifier (Shift_L) as
    /// "Shift" with a small "L", though either Shift works.
    func testHeldKeysShowAsTheKeyAUserPresses() {
        let held = Shortcuts.gestures().compactMap(\.accelerator)
        XCTAssertFalse(held.isEmpty)
        for a in held {
            var key: UInt32 = 0
            var mods = GdkModifierType(rawValue: 0)
            XCTAssertNotEqual(gtk_accelerator_parse(a, &key, &mods), 0, "\(a) parses")
            XCTAssertTrue(key != 0 || mods.rawValue != 0, "\(a) names a key")
            XCTAssertFalse(a.hasSuffix("_L") || a.hasSuffix("_R"), "\(a): no sided modifier")
        }
    }
}
