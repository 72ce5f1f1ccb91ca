import Foundation
import XCTest

/// `oekaki info FILE`: the replay summary plus "format" and "version", read-only, for .oekaki and .xopp.
final class InfoCommandTests: XCTestCase {
    /// ../shared/corpus/xournalpp next to the repository: real Xournal++ files, never copied into it.
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/xournalpp")

    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("info-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func corpusFile(_ name: String) throws -> String {
        let p = Self.corpus.appendingPathComponent(name).path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: p), "corpus not present at \(p)")
        return p
    }

    func info(_ args: [String]) throws -> (json: [String: Any], result: OekakiBinary.Result) {
        let r = try OekakiBinary.run(["info"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        return (obj, r)
    }

    /// Stroke counts from the corpus README (pen, highlighter and whiteout strokes): every page, or page K.
    func testCorpusStrokeCounts() throws {
        let cases: [(String, Int?, Int)] = [
            ("README-Eraser-and-padded-box.xopp", nil, 6),
            ("Setsquare_annotations.xopp", nil, 14 + 16 + 6 + 16), ("Setsquare_annotations.xopp", 1, 14), ("Setsquare_annotations.xopp", 2, 16),
            ("Setsquare_annotations.xopp", 3, 6), ("Setsquare_annotations.xopp", 4, 16),
            ("strokes.xopp", nil, 12),
        ]
        for (name, page, strokes) in cases {
            let (j, r) = try info([try corpusFile(name)] + (page.map { ["--page", String($0)] } ?? []))
            XCTAssertEqual(j["strokes"] as? Int, strokes, "\(name) page \(page ?? 1)")
            XCTAssertEqual(j["format"] as? String, "xopp")
            XCTAssertEqual(j["version"] as? Int, 4)
            if name.hasPrefix("Setsquare") {
                XCTAssertFalse(r.stderr.contains("pages"), "every page is imported: \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("text"), "text comes in: \(r.stderr)")
                if page == nil { XCTAssertEqual(j["texts"] as? Int, 22, "texts are counted") }
                if page == nil {
                    XCTAssertEqual((j["pages"] as? [[String: Any]])?.map { $0["strokes"] as? Int }, [14, 16, 6, 16])
                    XCTAssertEqual((j["items"] as? [[String: Any]])?.compactMap { $0["page"] as? Int }.last, 4)
                } else {
                    XCTAssertNil(j["pages"], "one page's summary is as before pages")
                }
            }
        }
        let (j, r) = try info([try corpusFile("strokes.xopp")])
        let items = j["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.filter { $0["tool"] as? String == "highlighter" }.count, 4)
        XCTAssertTrue(r.stderr.contains("whiteout"), r.stderr)
        // The whiteout stroke takes the page colour.
        XCTAssertEqual(items[5]["color"] as? String, "#ffffffff")
        XCTAssertEqual(items[0]["color"] as? String, "#002e99ff")
    }

    func testZipPackagedXopp() throws {
        let (j, r) = try info([try corpusFile("width_recovery.xopp")])
        XCTAssertEqual(j["strokes"] as? Int, 9, "strokes cut where Xournal++ draws no segment")
        XCTAssertTrue(r.stderr.contains("invalid segment widths"), r.stderr)
    }

    func testPageOutOfRange() throws {
        let r = try OekakiBinary.run(["info", try corpusFile("Setsquare_annotations.xopp"), "--page", "5"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("there is no page 5 (the document has 4)"), r.stderr)
    }

    /// replay → .oekaki → info prints the replay summary, plus the format and version.
    func testReplayThenInfoEqualsReplaySummary() throws {
        for log in ["three-fingers.jsonl", "undo-redo.jsonl", "area-eraser.jsonl", "tap.jsonl"] {
            let out = tmp.appendingPathComponent(log + ".oekaki").path
            let rep = try OekakiBinary.run(["replay", Fixtures.path(log), "-o", out])
            XCTAssertEqual(rep.status, 0, rep.stderr)
            let inf = try OekakiBinary.run(["info", out])
            XCTAssertEqual(inf.status, 0, inf.stderr)
            // Any format version: the drawing part must be exactly the replay's.
            // Replay adds what was selected at the end of the log; info has no selection.
            let drawing = rep.stdout.replacingOccurrences(of: #","selected":0}"#, with: "}")
            let expected = String(drawing.dropLast(2)) + #","format":"oekaki","version":"#
            XCTAssertTrue(inf.stdout.hasPrefix(expected), "\(log): \(inf.stdout)")
            XCTAssertNotNil(Int(inf.stdout.dropFirst(expected.count).dropLast(2)), inf.stdout)
        }
    }

    func testInfoDoesNotChangeTheFile() throws {
        let out = tmp.appendingPathComponent("d.oekaki").path
        XCTAssertEqual(try OekakiBinary.run(["replay", Fixtures.path("three-fingers.jsonl"), "-o", out]).status, 0)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: out)
        let before = try Data(contentsOf: URL(fileURLWithPath: out))
        XCTAssertEqual(try OekakiBinary.run(["info", out]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", out, tmp.appendingPathComponent("x.xopp").path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out)[.modificationDate] as? Date, old)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "-wal"))
    }

    func testUsageAndInputErrors() throws {
        XCTAssertEqual(try OekakiBinary.run(["info"]).status, 2)
        XCTAssertEqual(try OekakiBinary.run(["info", "a", "b"]).status, 2)
        XCTAssertEqual(try OekakiBinary.run(["info", "--bogus", "a"]).status, 2)
        XCTAssertEqual(try OekakiBinary.run(["info", "a.xopp", "--page", "0"]).status, 2)
        XCTAssertEqual(try OekakiBinary.run(["info", "a.xopp", "--page"]).status, 2)
        let missing = try OekakiBinary.run(["info", tmp.appendingPathComponent("nope.oekaki").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
        let folder = try OekakiBinary.run(["info", tmp.path])
        XCTAssertEqual(folder.status, 1)
        XCTAssertTrue(folder.stderr.contains("is a folder"), folder.stderr)
    }
}
