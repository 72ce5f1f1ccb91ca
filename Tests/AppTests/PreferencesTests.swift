import Foundation
import InkCore
@testable import OekakiApp
import XCTest

/// The settings file (no display needed): what is saved comes back, and a damaged line costs only its own setting.
final class PreferencesTests: XCTestCase {
    private var config: URL!
    private var saved: String?

    override func setUpWithError() throws {
        saved = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
        config = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-prefs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        setenv("XDG_CONFIG_HOME", config.path, 1)
    }

    override func tearDownWithError() throws {
        if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") }
        try? FileManager.default.removeItem(at: config)
    }

    private var file: URL { config.appendingPathComponent("oekaki/settings") }

    func testThePensFillAndLineStyleComeBackAfterARestart() throws {
        XCTAssertNil(Preferences.load().penFill, "no file: not filled")
        XCTAssertEqual(Preferences.load().penLine, .solid)
        for (fill, line) in [(UInt8(128), LineStyle.dash), (0, .dashDot), (255, .dot), (64, LineStyle(dashes: [2, 1.5, 0.25, 1])!)] {
            Preferences.update { $0.penFill = fill; $0.penLine = line; $0.stabilizer = .high }
            let back = Preferences.load()
            XCTAssertEqual(back.penFill, fill)
            XCTAssertEqual(back.penLine, line, "\(line.dashes)")
            XCTAssertEqual(back.stabilizer, .high, "the other settings are kept beside them")
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("pen-fill=64\n") && text.contains("pen-line=cust: 2.00 1.50 0.25 1.00\n"), text)

        // Back to solid and unfilled: the defaults, and no lines for them.
        Preferences.update { $0.penFill = nil; $0.penLine = .solid }
        XCTAssertNil(Preferences.load().penFill)
        XCTAssertEqual(Preferences.load().penLine, .solid)
        let plain = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(plain.contains("pen-fill") || plain.contains("pen-line"), plain)
    }

    func testEachToolsColourAndWidthComeBackAfterARestart() throws {
        XCTAssertEqual(Preferences.load().inks, [:], "no file: every tool's default")
        let red = RGBA(r: 200, g: 10, b: 20), yellow = RGBA(r: 250, g: 220, b: 0, a: 102)
        Preferences.update { $0.inks[.pen] = .init(color: red, width: 6) }
        Preferences.update { $0.inks[.highlighter] = .init(color: yellow, width: 28) }
        Preferences.update { $0.inks[.areaEraser] = .init(color: nil, width: 48); $0.stabilizer = .low }
        let back = Preferences.load()
        XCTAssertEqual(back.inks[.pen], .init(color: red, width: 6))
        XCTAssertEqual(back.inks[.highlighter], .init(color: yellow, width: 28), "the alpha too")
        XCTAssertEqual(back.inks[.areaEraser], .init(color: nil, width: 48))
        XCTAssertNil(back.inks[.strokeEraser])
        XCTAssertEqual(back.stabilizer, .low)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("pen-color=#c80a14ff\n") && text.contains("highlighter-width=28.0\n"), text)

        // A damaged width or colour costs only itself.
        try "pen-color=#12345\npen-width=10000\nhighlighter-width=nan\nhighlighter-color=#00ff0080\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = Preferences.load()
        XCTAssertNil(bad.inks[.pen])
        XCTAssertEqual(bad.inks[.highlighter], .init(color: RGBA(r: 0, g: 255, b: 0, a: 128), width: nil))
    }

    func testAnUnreadableFillOrStyleFallsBackToTheDefault() throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for (fill, line) in [("300", "wavy"), ("-1", "cust: 1 -2"), ("half", "cust:"), ("", "cust: nan 3")] {
            try "pen-fill=\(fill)\npen-line=\(line)\nstabilizer=high\n".write(to: file.deletingLastPathComponent().appendingPathComponent("settings"),
                                                                            atomically: true, encoding: .utf8)
            let p = Preferences.load()
            XCTAssertNil(p.penFill, "pen-fill=\(fill)")
            XCTAssertEqual(p.penLine, .solid, "pen-line=\(line)")
            XCTAssertEqual(p.stabilizer, .high, "a bad line costs only its own setting")
        }
    }
}
