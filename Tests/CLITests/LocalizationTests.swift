import Foundation
import XCTest

/// Translations: every string the sources pass through gettext has a Japanese translation (so a new string
/// without one fails here), the Japanese plural rule is the language's (one form), and the CLI speaks Japanese
/// under LANGUAGE=ja.
final class LocalizationTests: XCTestCase {
    let root = InstallTests.packageRoot

    override func setUpWithError() throws {
        for tool in ["make", "xgettext", "msgmerge", "msgfmt"] {
            guard Shell.find(tool) != nil else { throw XCTSkip("\(tool) is needed (make deps installs gettext)") }
        }
    }

    func testJapaneseCatalogueCoversEveryStringInTheSources() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-pot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let pot = tmp.appendingPathComponent("fresh.pot").path
        let extract = try Shell.run(root.appendingPathComponent("Tools/extract-strings.sh").path, [pot], in: root)
        XCTAssertEqual(extract.status, 0, extract.output)
        // The engine's event-log messages are among them.
        let strings = try String(contentsOfFile: pot, encoding: .utf8)
        XCTAssertTrue(strings.contains("msgid \"unknown phase {0}\""), "LineError(…) is extracted")
        XCTAssertTrue(strings.contains("msgid \"expected a value\""), "Wording(…) is extracted")
        let merged = tmp.appendingPathComponent("ja.po").path
        XCTAssertEqual(try Shell.run("msgmerge", ["-q", "--no-fuzzy-matching", "-o", merged, "po/ja.po", pot], in: root).status, 0)
        let stats = try Shell.run("msgfmt", ["--check", "--statistics", "-o", "/dev/null", merged], in: root)
        XCTAssertEqual(stats.status, 0, stats.output)
        XCTAssertTrue(stats.output.contains("translated message"), stats.output)
        XCTAssertFalse(stats.output.contains("untranslated") || stats.output.contains("fuzzy"),
                       "every string in the sources has a Japanese translation (run `make pot`, then translate po/ja.po): \(stats.output)")
        let translated = Int(stats.output.split(separator: " ").first ?? "") ?? 0
        XCTAssertGreaterThan(translated, 100)
    }

    func testJapaneseHasOnePluralForm() throws {
        let po = try String(contentsOf: root.appendingPathComponent("po/ja.po"), encoding: .utf8)
        XCTAssertTrue(po.contains("\"Plural-Forms: nplurals=1; plural=0;\\n\""), "Japanese does not inflect for number")
        // Every plural entry has its one form, with the count in it.
        let entries = po.components(separatedBy: "\n\n").filter { $0.contains("msgid_plural") }
        XCTAssertGreaterThanOrEqual(entries.count, 2)
        for e in entries {
            XCTAssertTrue(e.contains("msgstr[0] \""), e)
            XCTAssertFalse(e.contains("msgstr[1]"), e)
            let form = e.components(separatedBy: "msgstr[0] ").last ?? ""
            XCTAssertTrue(form.contains("%d"), "the count appears in the translation: \(e)")
        }
    }

    func testCommandLineErrorsInJapanese() throws {
        let make = try Shell.run("make", ["--no-print-directory", "locale"], in: root)
        XCTAssertEqual(make.status, 0, make.output)
        guard let bin = OekakiBinary.url else { throw OekakiBinary.Failure.notFound([]) }
        var env = ProcessInfo.processInfo.environment
        env["LANGUAGE"] = "ja"
        env["LANG"] = "C.UTF-8"
        env["OEKAKI_LOCALEDIR"] = root.appendingPathComponent(".build/locale").path
        let r = try Shell.run(bin.path, ["export", "only-one.oekaki"], environment: env)
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.output, "oekaki: export: IN と OUT が必要です (使い方: oekaki export IN OUT [--scale S] [--transparent] [--page K] [--annotations-only])\n")
        let unknown = try Shell.run(bin.path, ["--frobnicate"], environment: env)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.output.hasSuffix("(使い方: oekaki [FILE]、すべてのコマンド: oekaki --help)\n"), unknown.output)
        // A file's trouble, worded by the store, and a plural.
        let missing = try Shell.run(bin.path, ["info", "/nonexistent/drawing.oekaki"], environment: env)
        XCTAssertEqual(missing.output, "oekaki: /nonexistent/drawing.oekaki: ファイルがありません\n")
        // The event log's parse errors, worded by the engine: the message and the phrase inside it.
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-ja-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let log = tmp.appendingPathComponent("bad.jsonl")
        try "{\"type\":\"undo\"}\n{\"type\":\"touch\",\"phase\":\"began\",\"id\":1,\"x\":\"1\",\"y\":2}\n{\"type\":NaN}\n"
            .write(to: log, atomically: true, encoding: .utf8)
        let replay = try Shell.run(bin.path, ["replay", log.path], environment: env)
        XCTAssertEqual(replay.status, 1)
        XCTAssertEqual(replay.output, "oekaki: \(log.path):2: \"x\" は数値でなければなりません (文字列 は不可)\n")
        try "{\"type\":NaN}\n".write(to: log, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Shell.run(bin.path, ["replay", log.path], environment: env).output,
                       "oekaki: \(log.path):1: JSON ではありません: 9 文字目で値が必要です\n")
        env["LANGUAGE"] = "en"
        XCTAssertEqual(try Shell.run(bin.path, ["replay", log.path], environment: env).output,
                       "oekaki: \(log.path):1: not JSON: expected a value at column 9\n")
        let en = try Shell.run(bin.path, ["export", "only-one.oekaki"], environment: env)
        XCTAssertEqual(en.output, "oekaki: export: needs IN and OUT (usage: oekaki export IN OUT [--scale S] [--transparent] [--page K] [--annotations-only])\n")
    }
}
