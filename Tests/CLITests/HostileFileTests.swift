import Foundation
import XCTest

/// Every file under Fixtures/hostile (made by make-hostile.py) and a gzip bomb made at test time:
/// `info` and `export` end within seconds with exit 1 and one line naming the file, or — for the two
/// repairable cases — exit 0 with a sane drawing and a note saying what was dropped.
final class HostileFileTests: XCTestCase {
    static let repairable: [String: String] = [
        "nan-coordinates.xopp": "non-finite or out-of-range coordinates; dropped them",
        // The middle stroke keeps its one drawable segment, as Xournal++ shows it.
        "negative-width.xopp": "invalid segment widths; left those segments out",
    ]

    /// What the one line must say, per file: the user should know what is wrong without a debugger.
    static let expected: [String: String] = [
        "random.oekaki": "not a drawing",
        "text.oekaki": "a text file, not a drawing",
        "empty.oekaki": "the file is empty",
        "sqlite-header-only.oekaki": "damaged",
        "newer-format.oekaki": "made by a newer Oekaki (format 999); this one reads up to ",
        "other-app.oekaki": "not an Oekaki document",
        "huge-page.oekaki": "page size",
        "negative-width-stroke.oekaki": "width -3",
        "unknown-tool.oekaki": "unknown tool 'laser'",
        "blob-claims-a-million-points.oekaki": "point data is truncated",
        "blob-claims-2e40-points.oekaki": "at most 10000000 are allowed",
        "blob-random.oekaki": "point data",
        "history-missing-stroke.oekaki": "damaged",
        "truncated.oekaki": "truncated",
        "endless-view.oekaki": "unexpected view 'strokes'",
        "huge-page.xopp": "pages must be between 0 and 100000",
        "odd-coordinates.xopp": "odd number of coordinates",
        "bad-colour.xopp": "unreadable colour",
        "entity-bomb.xopp": "DOCTYPE and entity declarations are not allowed",
        "undeclared-entity.xopp": "entity '&boom;' is not allowed",
        "deep-nesting.xopp": "nested deeper than 64",
        "truncated-gzip.xopp": "truncated",
        "unclosed-xml.xopp": "ends inside <stroke>",
        "gzip-of-garbage.xopp": "XML",
        "zip-garbage.xopp": "zip",
        "no-pages.xopp": "no pages",
        "wrong-root.xopp": "not a Xournal++ document",
    ]

    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    private func checkRejected(_ file: String, expect fragment: String, name: String, line: UInt = #line) throws {
        var infoError: String?
        for args in [["info", file], ["export", file, tmp.appendingPathComponent("out.png").path],
                     ["thumbnail", file, tmp.appendingPathComponent("out.png").path]] {
            let start = Date()
            let r = try OekakiBinary.run(args, timeout: 30)
            let secs = Date().timeIntervalSince(start)
            XCTAssertEqual(r.status, 1, "\(name) \(args[0]): \(r.stderr)", line: line)
            XCTAssertEqual(r.stdout, "", name, line: line)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertEqual(lines.count, 1, "\(name) \(args[0]): one line, got: \(r.stderr)", line: line)
            XCTAssertTrue(r.stderr.hasPrefix("oekaki: "), r.stderr, line: line)
            XCTAssertTrue(r.stderr.contains(fragment), "\(name) \(args[0]): expected '\(fragment)' in: \(r.stderr)", line: line)
            XCTAssertLessThan(secs, 10, "\(name) \(args[0]) took \(secs) s", line: line)
            // The thumbnailer words a bad file exactly as `info` does.
            if args[0] == "info" { infoError = r.stderr }
            if args[0] == "thumbnail" { XCTAssertEqual(r.stderr, infoError, "\(name): thumbnail and info disagree", line: line) }
        }
        // So does the thumbnailer the desktop runs, under its own name.
        let t = try OekakiBinary.run(["thumbnailer", file, tmp.appendingPathComponent("out.png").path], timeout: 30)
        XCTAssertEqual(t.status, 1, "\(name) oekaki-thumbnailer: \(t.stderr)", line: line)
        XCTAssertEqual(t.stderr, infoError.map { "oekaki-thumbnailer: " + $0.dropFirst("oekaki: ".count) }, name, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out.png").path), "no output for bad input")
    }

    func testEveryHostileFixture() throws {
        let dir = Fixtures.directory.appendingPathComponent("hostile")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasSuffix(".py") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 29, "the corpus is there")
        for name in names {
            let file = dir.appendingPathComponent(name).path
            if let note = Self.repairable[name] {
                let r = try OekakiBinary.run(["info", file], timeout: 30)
                XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(note), "\(name): \(r.stderr)")
                XCTAssertFalse(r.stdout.contains("nan") || r.stdout.contains("inf") || r.stdout.contains("null,"), r.stdout)
                let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
                XCTAssertGreaterThan(json?["strokes"] as? Int ?? 0, 0, name)
                continue
            }
            guard let fragment = Self.expected[name] else { XCTFail("\(name): no expectation; add it to the table"); continue }
            try checkRejected(file, expect: fragment, name: name)
        }
    }

    /// 300 MB of zeros gzipped to about 1 MB: refused at the 256 MiB limit, fast, without exhausting memory.
    func testGzipBomb() throws {
        let bomb = tmp.appendingPathComponent("bomb.xopp").path
        let sh = Process()
        sh.executableURL = URL(fileURLWithPath: "/bin/sh")
        sh.arguments = ["-c", "head -c 300000000 /dev/zero | gzip -1 > '\(bomb)'"]
        try sh.run(); sh.waitUntilExit()
        try XCTSkipUnless(sh.terminationStatus == 0, "gzip is not available")
        try checkRejected(bomb, expect: "inflates to more than 256 MiB", name: "bomb")
    }

    /// Random bytes behind each magic number the loader recognises.
    func testRandomBytesBehindEachMagic() throws {
        var seed: UInt64 = 77
        func byte() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(seed >> 56) }
        let magics: [(String, [UInt8])] = [("sqlite", Array("SQLite format 3\u{0}".utf8)), ("gzip", [0x1F, 0x8B, 8, 0]),
                                           ("zip", [0x50, 0x4B, 3, 4]), ("xml", Array("<?xml".utf8))]
        for (name, magic) in magics {
            let f = tmp.appendingPathComponent("\(name).bin")
            try Data(magic + (0..<3000).map { _ in byte() }).write(to: f)
            let r = try OekakiBinary.run(["info", f.path], timeout: 30)
            XCTAssertEqual(r.status, 1, "\(name): \(r.stderr)")
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "\(name): \(r.stderr)")
        }
    }
}
