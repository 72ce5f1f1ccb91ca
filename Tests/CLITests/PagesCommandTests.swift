import Foundation
import XCTest

/// Notebooks on the command line: every page of a `.xopp` in and out, `info`'s pages, PDF with every page,
/// PNG/SVG one page or all with `%d`, page events in logs, and hostile page counts and sizes.
final class PagesCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/xournalpp")

    func corpusFile(_ name: String) throws -> String {
        let p = Self.corpus.appendingPathComponent(name).path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: p), "corpus not present at \(p)")
        return p
    }
    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func info(_ args: [String]) throws -> [String: Any] {
        let r = try OekakiBinary.run(["info"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }
    func pages(_ j: [String: Any]) -> [[String: Any]] { j["pages"] as? [[String: Any]] ?? [] }

    func replay(_ lines: [String], to out: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path("log.jsonl")))
        let r = try OekakiBinary.run(["replay", path("log.jsonl"), "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// Setsquare_annotations.xopp has 4 pages: all of them come in, go into a `.oekaki` and back out to `.xopp`.
    func testEveryPageOfANotebookSurvivesImportAndExport() throws {
        let src = try corpusFile("Setsquare_annotations.xopp")
        let original = try info([src])
        XCTAssertEqual(pages(original).map { $0["strokes"] as? Int }, [14, 16, 6, 16])
        XCTAssertEqual(pages(original).map { $0["background"] as? String }, ["plain", "plain", "plain", "plain"])
        for (k, p) in pages(original).enumerated() {
            XCTAssertEqual(p["width"] as? Double ?? 0, 595.275591, accuracy: 1e-6, "page \(k + 1)")
        }
        var r = try OekakiBinary.run(["export", src, path("n.oekaki")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("text"), "the 22 texts come in: \(r.stderr)")
        r = try OekakiBinary.run(["export", path("n.oekaki"), path("back.xopp")])
        XCTAssertEqual(r.status, 0, r.stderr)
        for file in [path("n.oekaki"), path("back.xopp")] {
            let j = try info([file])
            XCTAssertEqual(pages(j).map { $0["strokes"] as? Int }, [14, 16, 6, 16], file)
            XCTAssertEqual((j["items"] as? [[String: Any]])?.map { $0["page"] as? Int }, (original["items"] as? [[String: Any]])?.map { $0["page"] as? Int })
            XCTAssertEqual(j["points"] as? Int, original["points"] as? Int, file)
            XCTAssertEqual(j["texts"] as? Int, 22, file)
        }
        // --page K is page K's summary, as before pages.
        let third = try info([path("n.oekaki"), "--page", "3"])
        XCTAssertEqual(third["strokes"] as? Int, 6)
        XCTAssertNil(third["pages"])
        r = try OekakiBinary.run(["info", path("n.oekaki"), "--page", "5"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("there is no page 5; the document has 4"), r.stderr)
    }

    /// The graph background (with its margin) comes in and goes back out as Xournal++ wrote it.
    func testGraphBackgroundRoundTrips() throws {
        let src = try corpusFile("strokes.xopp")
        XCTAssertEqual(pages(try info([src])).first?["background"] as? String, "graph")
        XCTAssertEqual(try OekakiBinary.run(["export", src, path("g.xopp")]).status, 0)
        let xml = try Shell.run("sh", ["-c", "gzip -dc '\(path("g.xopp"))' | grep -o '<background[^>]*>'"]).output
        XCTAssertEqual(xml.trimmingCharacters(in: .whitespacesAndNewlines),
                       ##"<background type="solid" color="#ffffffff" style="graph" config="m1=40,rm=1"/>"##)
    }

    func testPDFHasEveryPageAndPercentDWritesEveryPageAsItsOwnImage() throws {
        try XCTSkipUnless(Shell.find("pdfinfo") != nil && Shell.find("convert") != nil, "poppler-utils and ImageMagick")
        let src = try corpusFile("Setsquare_annotations.xopp")
        XCTAssertEqual(try OekakiBinary.run(["export", src, path("all.pdf")]).status, 0)
        XCTAssertTrue(try Shell.run("pdfinfo", [path("all.pdf")]).output.contains("Pages:           4"))
        XCTAssertEqual(try OekakiBinary.run(["export", src, path("one.pdf"), "--page", "2"]).status, 0)
        XCTAssertTrue(try Shell.run("pdfinfo", [path("one.pdf")]).output.contains("Pages:           1"))

        XCTAssertEqual(try OekakiBinary.run(["export", src, path("p-%d.png")]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", src, path("p-%d.svg")]).status, 0)
        for k in 1...4 {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path("p-\(k).png")), "page \(k)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: path("p-\(k).svg")), "page \(k)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("p-5.png")))
        // One page alone is the same image as that page of the set; different pages are different images.
        XCTAssertEqual(try OekakiBinary.run(["export", src, path("third.png"), "--page", "3"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("third.png"))), try Data(contentsOf: URL(fileURLWithPath: path("p-3.png"))))
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path("p-2.png"))), try Data(contentsOf: URL(fileURLWithPath: path("p-3.png"))))
        // Mistakes are usage errors.
        for args in [["export", src, path("x-%d.pdf")], ["export", src, path("x-%d.png"), "--page", "2"]] {
            let r = try OekakiBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
        }
    }

    /// Page events in a log: ink goes to the current page, `replay -o` stores the pages, and each page's PNG shows
    /// only its own ink.
    func testEventLogPagesAreReplayedStoredAndExported() throws {
        try XCTSkipUnless(Shell.find("convert") != nil, "ImageMagick reads the PNGs back")
        func line(_ y: Int) -> [String] {
            [#"{"type":"touch","phase":"began","id":1,"x":20,"y":\#(y),"device":"mouse"}"#,
             #"{"type":"touch","phase":"moved","id":1,"x":100,"y":\#(y),"device":"mouse"}"#,
             #"{"type":"touch","phase":"ended","id":1,"x":180,"y":\#(y),"device":"mouse"}"#]
        }
        var log = [#"{"type":"canvas","width":200,"height":150}"#, ##"{"type":"tool","tool":"pen","color":"#000000","width":6}"##]
        log += line(30)                                                   // page 1
        log += [#"{"type":"page","op":"add","background":"ruled"}"#] + line(60)          // page 2
        log += [#"{"type":"page","op":"add","width":300,"height":100}"#] + line(90)      // page 3, then deleted
        log += [#"{"type":"page","op":"delete"}"#]
        log += [#"{"type":"page","op":"prev"}"#, #"{"type":"page","op":"prev"}"#, #"{"type":"page","op":"prev"}"#] + line(120)  // page 1 again
        log += [#"{"type":"page","op":"goto","index":2}"#, #"{"type":"page","op":"next"}"#] + line(140)  // still page 2 (the last)
        try replay(log, to: path("log.oekaki"))
        let j = try info([path("log.oekaki")])
        XCTAssertEqual(pages(j).count, 2)
        XCTAssertEqual(pages(j).map { $0["strokes"] as? Int }, [2, 2])
        XCTAssertEqual(pages(j).map { $0["background"] as? String }, ["plain", "ruled"])
        XCTAssertEqual(pages(j).map { $0["width"] as? Int }, [200, 200])
        XCTAssertEqual((j["items"] as? [[String: Any]])?.map { $0["page"] as? Int }, [1, 1, 2, 2])

        XCTAssertEqual(try OekakiBinary.run(["export", path("log.oekaki"), path("log-%d.png")]).status, 0)
        let one = try RGBAImage(png: path("log-1.png")), two = try RGBAImage(png: path("log-2.png"))
        XCTAssertEqual([one.width, one.height], [200, 150])
        func ink(_ img: RGBAImage, _ y: Int) -> Bool { img.pixel(100, y)[0] < 60 }
        XCTAssertTrue(ink(one, 30) && ink(one, 120), "page 1 has its two lines")
        XCTAssertFalse(ink(one, 60) || ink(one, 140), "and not page 2's")
        XCTAssertTrue(ink(two, 60) && ink(two, 140), "page 2 has its two lines")
        XCTAssertFalse(ink(two, 30), "and not page 1's")
        // Page 2 is ruled: Xournal++'s blue line 80 units from the top (half a pixel wide here, so a light blue),
        // nothing between the lines.
        let line = two.pixel(10, 79)
        XCTAssertTrue(line[0] < 230 && line[2] == 255, "the first ruled line: \(line)")
        XCTAssertEqual(two.pixel(10, 92).prefix(3), [255, 255, 255].prefix(3), "paper between the lines")
        XCTAssertEqual(one.pixel(10, 80).prefix(3), [255, 255, 255].prefix(3), "page 1 is plain")
    }

    func testBadPageEventsStopTheReplayWithTheLine() throws {
        let cases: [(String, String)] = [
            (#"{"type":"page","op":"fold"}"#, #"unknown page op "fold""#),
            (#"{"type":"page","op":"goto"}"#, #"missing "index""#),
            (#"{"type":"page","op":"goto","index":0}"#, "not a page number"),
            (#"{"type":"page","op":"add","width":300}"#, "both \"width\" and \"height\""),
            (#"{"type":"page","op":"add","width":-3,"height":4}"#, "outside"),
            (#"{"type":"page","op":"add","background":"tartan"}"#, #"unknown background "tartan""#),
        ]
        for (event, words) in cases {
            try Data((event + "\n").utf8).write(to: URL(fileURLWithPath: path("bad.jsonl")))
            let r = try OekakiBinary.run(["replay", path("bad.jsonl")])
            XCTAssertEqual(r.status, 1, event)
            XCTAssertTrue(r.stderr.hasSuffix("bad.jsonl:1: " + words + "\n") || r.stderr.contains("bad.jsonl:1: ") && r.stderr.contains(words), "\(event): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }

    /// Hostile notebooks: too many pages, absurd or negative sizes end in one line, quickly.
    func testHostilePageCountsAndSizesAreOneLineErrors() throws {
        func xopp(_ name: String, pages: Int, width: String = "595", height: String = "842") throws -> String {
            var xml = #"<?xml version="1.0" standalone="no"?><xournal creator="hostile" fileversion="4">"#
            let page = ##"<page width="\##(width)" height="\##(height)"><background type="solid" color="#ffffffff" style="graph"/><layer/></page>"##
            xml += String(repeating: page, count: pages) + "</xournal>"
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path(name)))
            return path(name)
        }
        let cases: [(String, String)] = [
            (try xopp("many.xopp", pages: 100_000), "more than 10000 pages"),
            (try xopp("huge.xopp", pages: 1, width: "1e12"), "pages must be between 0 and 100000 units"),
            (try xopp("negative.xopp", pages: 2, height: "-842"), "page 1 is 595 × -842"),
        ]
        for (file, words) in cases {
            for command in [["info", file], ["export", file, path("out.pdf")]] {
                let start = Date()
                let r = try OekakiBinary.run(command, timeout: 30)
                XCTAssertEqual(r.status, 1, "\(command): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(words), "\(command): \(r.stderr)")
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                XCTAssertLessThan(Date().timeIntervalSince(start), 20, "bounded time")
            }
        }
        // 10,000 pages are a (large) notebook: they open.
        let j = try info([try xopp("ten-thousand.xopp", pages: 10_000)])
        XCTAssertEqual(pages(j).count, 10_000)
    }
}
