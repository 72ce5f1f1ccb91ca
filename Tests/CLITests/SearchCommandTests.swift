import Foundation
import XCTest
import InkCore
import InkSamples

/// `oekaki search FILE QUERY` over text boxes (`.xopp` and `.oekaki`), a PDF's text (Latin and Japanese, made with
/// cairo and Pango), no match, bad files and arguments; `oekaki info` listing a PDF's outline.
final class SearchCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func t(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    struct Hit: Decodable, Equatable {
        var page: Int
        var kind: String
        var text: String
        var bounds: [Double]
    }

    func search(_ file: String, _ query: String) throws -> [Hit] {
        let r = try OekakiBinary.run(["search", file, query])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONDecoder().decode([Hit].self, from: Data(r.stdout.utf8))
    }

    func xopp(_ xml: String, _ name: String) throws -> String {
        let path = t(name)
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTextBoxesOfXoppAndOekaki() throws {
        let file = try xopp("""
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <page width="595" height="842"><background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="20" x="50" y="300" color="#000000ff">Wombat notes
        二行目のメモ</text>
        </layer></page>
        <page width="595" height="842"><background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="12" x="10" y="10" color="#000000ff">no marsupials here</text>
        <text font="Sans" size="12" x="300" y="500" color="#000000ff">A second WOMBAT</text></layer></page>
        </xournal>
        """, "notes.xopp")
        let oekaki = t("notes.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["export", file, oekaki]).status, 0)
        for f in [file, oekaki] {
            let hits = try search(f, "wombat")
            XCTAssertEqual(hits.map(\.page), [1, 2], f)
            XCTAssertEqual(hits.map(\.kind), ["text", "text"])
            XCTAssertEqual(hits[0].text, "Wombat notes 二行目のメモ")
            XCTAssertEqual(hits[1].text, "A second WOMBAT")
            // Each hit covers its word on the first line of its box, at (50, 300) and (300, 500): the second after
            // "A second " (about 60 units of 12-unit text), neither reaching the line below.
            XCTAssertEqual(hits[0].bounds[0], 50, accuracy: 1); XCTAssertEqual(hits[0].bounds[1], 300, accuracy: 1)
            XCTAssertLessThan(hits[0].bounds[3], 300 + 20 * 1.5, "not the second line")
            XCTAssertGreaterThan(hits[1].bounds[0], 340); XCTAssertLessThan(hits[1].bounds[0], 380)
            XCTAssertEqual(hits[1].bounds[1], 500, accuracy: 1)
            XCTAssertGreaterThan(hits[1].bounds[2], hits[1].bounds[0] + 30); XCTAssertLessThan(hits[1].bounds[3], 500 + 12 * 1.5)
            XCTAssertEqual(try search(f, "二行目").map(\.page), [1])
            XCTAssertEqual(try search(f, "ＷＯＭＢＡＴ ＮＯＴＥＳ").map(\.page), [1], "full-width letters")
        }
    }

    /// A text box's hit covers the matched characters as they are drawn: rendered to PNG, the glyphs of the match
    /// lie inside `bounds`, and neither the text before it, after it, nor the box's other lines reach into it.
    /// Each case is three pages: the box's text up to the hit, up to the hit's end, and whole; the ink a page
    /// adds to the one before it is the hit's (second page) or what follows it (third).
    func testTextBoxHitsCoverTheGlyphsAsRendered() throws {
        guard let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("ImageMagick's convert is needed")
        }
        let cases: [(before: String, hit: String, after: String, query: String)] = [
            ("First line of notes\nthe ", "wombat", " burrows deep\nthird line here", "WOMBAT"),       // middle of line 2 of 3
            ("Kwartier\nDer ", "Ärger", "nis wächst\nEnde", "ärger"),                          // Ä found by ä, mid-word
            ("日本語のメモ\n東京", "タワー", "へ行く\n三行目", "ﾀﾜｰ"),                                 // Japanese, half-width query
        ]
        let scale = 2.0, pageW = 400.0, pageH = 200.0
        for (n, c) in cases.enumerated() {
            func page(_ text: String) -> String {
                """
                <page width="\(pageW)" height="\(pageH)"><background type="solid" color="#ffffffff" style="plain"/><layer>
                <text font="Sans" size="20" x="30" y="40" color="#000000ff">\(text)</text></layer></page>
                """
            }
            let file = try xopp("""
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Xournal++ 1.1.3" fileversion="4">
            \(page(c.before))
            \(page(c.before + c.hit))
            \(page(c.before + c.hit + c.after))
            </xournal>
            """, "case\(n).xopp")
            let hits = try search(file, c.query).filter { $0.page == 3 }
            XCTAssertEqual(hits.count, 1, "\(c)")
            guard let b = hits.first?.bounds else { continue }
            XCTAssertEqual(hits[0].kind, "text")
            let png = t("case\(n)-%d.png")
            let r = try OekakiBinary.run(["export", file, png, "--scale", "\(scale)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            func gray(_ k: Int) throws -> [UInt8] {
                let raw = t("case\(n)-\(k).gray")
                let p = Process()
                p.executableURL = URL(fileURLWithPath: convert)
                p.arguments = [png.replacingOccurrences(of: "%d", with: "\(k)"), "-colorspace", "Gray", "-depth", "8", "gray:" + raw]
                try p.run(); p.waitUntilExit()
                return Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
            }
            let w = Int(pageW * scale), h = Int(pageH * scale)
            let pages = try [gray(1), gray(2), gray(3)]
            XCTAssertEqual(pages.map(\.count), [w * h, w * h, w * h])
            guard pages.allSatisfy({ $0.count == w * h }) else { continue }
            // Ink: a pixel clearly darker than on the page before (the first page's against paper).
            func ink(_ k: Int) -> [(Double, Double)] {
                (0..<(w * h)).compactMap { i in
                    let before = k == 0 ? 255 : Int(pages[k - 1][i])
                    return before - Int(pages[k][i]) > 96 ? ((Double(i % w) + 0.5) / scale, (Double(i / w) + 0.5) / scale) : nil
                }
            }
            let context = ink(0), hit = ink(1), following = ink(2)
            XCTAssertGreaterThan(hit.count, 50, "the hit's glyphs are drawn (\(c))")
            // Half a pixel of antialiasing either way.
            let slack = 0.5 / scale
            for (x, y) in hit {
                XCTAssertTrue(x >= b[0] - slack && x <= b[2] + slack && y >= b[1] - slack && y <= b[3] + slack,
                              "hit ink at (\(x), \(y)) outside \(b) (\(c))")
            }
            func inside(_ p: (Double, Double)) -> Bool { p.0 > b[0] + slack && p.0 < b[2] - slack && p.1 > b[1] + slack && p.1 < b[3] - slack }
            XCTAssertEqual(context.filter(inside).count, 0, "the box's other text stays outside \(b) (\(c))")
            XCTAssertEqual(following.filter(inside).count, 0, "what follows the hit stays outside \(b) (\(c))")
            // One line of three: about a third of the box's height, at its second line.
            XCTAssertLessThan(b[3] - b[1], 40, "\(b)")
            XCTAssertGreaterThan(b[1], 55, "\(b)")
        }
    }

    func testATextBoxHitAcrossALineBreakCoversBothLines() throws {
        let file = try xopp("""
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <page width="400" height="300"><background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="20" x="30" y="40" color="#000000ff">one two
        three four
        five six</text></layer></page>
        </xournal>
        """, "span.xopp")
        let span = try search(file, "two three"), two = try search(file, "two"), three = try search(file, "three")
        XCTAssertEqual(span.map(\.text), ["one two three four five six"])
        guard span.count == 1, two.count == 1, three.count == 1 else { return XCTFail("\(span) \(two) \(three)") }
        XCTAssertEqual(span[0].bounds[1], two[0].bounds[1], accuracy: 0.01)
        XCTAssertEqual(span[0].bounds[3], three[0].bounds[3], accuracy: 0.01)
        XCTAssertEqual(span[0].bounds[0], three[0].bounds[0], accuracy: 0.01, "line 2 starts left of 'two'")
        XCTAssertEqual(span[0].bounds[2], max(two[0].bounds[2], three[0].bounds[2]), accuracy: 0.01)
        XCTAssertLessThan(span[0].bounds[3], try search(file, "five")[0].bounds[1] + 0.01, "the third line is not covered")
    }

    func testPDFTextWithItsWordBoxes() throws {
        let pdf = t("paper.pdf")
        try Data(SamplePDF.make(pageCount: 3, text: { "Wombat page \($0 + 1), Café" })).write(to: URL(fileURLWithPath: pdf))
        let hits = try search(pdf, "PAGE 2")
        XCTAssertEqual(hits.count, 1)
        XCTAssertEqual(hits[0].page, 2)
        XCTAssertEqual(hits[0].kind, "pdf")
        XCTAssertEqual(hits[0].text, "Wombat page 2, Café")
        // The text's baseline is at y = 120, 18 pt, from x = 40: "page 2" starts after "Wombat ".
        let b = hits[0].bounds
        XCTAssertGreaterThan(b[0], 60); XCTAssertLessThan(b[0], 140)
        XCTAssertGreaterThan(b[2], b[0] + 30); XCTAssertLessThan(b[2], 240)
        XCTAssertGreaterThan(b[1], 95); XCTAssertLessThan(b[1], 115)
        XCTAssertGreaterThan(b[3], 115); XCTAssertLessThan(b[3], 130)
        XCTAssertEqual(try search(pdf, "cafe").map(\.page), [1, 2, 3])
        // Printed to a thousandth of a point, rounded outwards (sums of Pango's glyph advances printed as
        // 390.40608460000004 before).
        let laidOut = t("pango.pdf")
        try Data(SamplePDF.make(pageCount: 1, text: { _ in "Numbat burrows, wombat holes" }, font: "DejaVu Sans")).write(to: URL(fileURLWithPath: laidOut))
        let word = try XCTUnwrap(try search(laidOut, "wombat").first).bounds
        for v in word { XCTAssertEqual(v * 1000, (v * 1000).rounded(), accuracy: 1e-6, "\(word)") }
        // The same through a document that embeds the PDF.
        let oekaki = t("paper.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["export", pdf, oekaki]).status, 0)
        XCTAssertEqual(try search(oekaki, "page 2"), hits)
    }

    func testJapanesePDF() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/fc-list") else { throw XCTSkip("no fontconfig") }
        let fonts = Process(), out = Pipe()
        fonts.executableURL = URL(fileURLWithPath: "/usr/bin/fc-list")
        fonts.arguments = [":lang=ja", "family"]
        fonts.standardOutput = out
        try fonts.run(); fonts.waitUntilExit()
        let families = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let family = families.split(separator: "\n").first?.split(separator: ",").first.map(String.init) else {
            throw XCTSkip("no Japanese font is installed")
        }
        let pdf = t("nihongo.pdf")
        let texts = ["はじめに：ノートの使い方", "これは日本語のテストです。東京タワーへの旅行ガイド"]
        try Data(SamplePDF.make(pageCount: 2, text: { texts[$0] }, font: family)).write(to: URL(fileURLWithPath: pdf))
        let hits = try search(pdf, "日本語")
        XCTAssertEqual(hits.map(\.page), [2], "\(family)")
        XCTAssertEqual(hits.first?.kind, "pdf")
        XCTAssertTrue(hits.first?.text.contains("これは日本語のテストです") ?? false, "\(hits)")
        if let b = hits.first?.bounds {
            // Three characters of 18 pt, right of "これは", on the first line from y = 100.
            XCTAssertGreaterThan(b[0], 80); XCTAssertLessThan(b[2], 180); XCTAssertGreaterThan(b[2] - b[0], 40)
            XCTAssertGreaterThan(b[1], 95); XCTAssertLessThan(b[3], 130)
        }
        XCTAssertEqual(try search(pdf, "ｶﾞｲﾄﾞ").map(\.page), [2], "half-width katakana")
        XCTAssertEqual(try search(pdf, "ノート").map(\.page), [1])
        XCTAssertEqual(try search(pdf, "大阪"), [])
    }

    func testNoMatchIsAnEmptyArray() throws {
        let pdf = t("paper.pdf")
        try Data(SamplePDF.make(pageCount: 2)).write(to: URL(fileURLWithPath: pdf))
        let r = try OekakiBinary.run(["search", pdf, "zebra"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "[]")
    }

    func testBadFilesAndArguments() throws {
        let junk = t("junk.pdf")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: junk))
        for (args, status) in [(["search", junk, "x"], Int32(1)), (["search", t("missing.oekaki"), "x"], 1),
                               (["search", junk], 2), (["search"], 2), (["search", junk, "  "], 2),
                               (["search", junk, "x", "y"], 2), (["search", "--page", "1", junk, "x"], 2)] {
            let r = try OekakiBinary.run(args)
            XCTAssertEqual(r.status, status, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stdout, "", "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("oekaki: "), r.stderr)
            if status == 1 { XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr) }
        }
    }

    func testInfoListsThePDFOutline() throws {
        let pdf = t("book.pdf")
        let outline = [OutlineEntry(title: "Chapter 1: Wombats", page: 0, children: [
                           OutlineEntry(title: "1.1 Burrows", page: 1, top: 200), OutlineEntry(title: "1.2 日本語", page: 2)]),
                       OutlineEntry(title: "Chapter 2", page: 3)]
        try Data(SamplePDF.make(pageCount: 4, outline: outline)).write(to: URL(fileURLWithPath: pdf))
        let oekaki = t("book.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["export", pdf, oekaki]).status, 0)
        for f in [pdf, oekaki] {
            let r = try OekakiBinary.run(["info", f])
            XCTAssertEqual(r.status, 0, r.stderr)
            let info = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
            let got = info["outline"] as? [[String: Any]] ?? []
            func tree(_ items: [[String: Any]]) -> String {
                items.map { "\($0["title"] as? String ?? "?")@\($0["page"] as? Int ?? -1)(\(tree($0["children"] as? [[String: Any]] ?? [])))" }.joined(separator: ",")
            }
            XCTAssertEqual(tree(got), "Chapter 1: Wombats@1(1.1 Burrows@2(),1.2 日本語@3()),Chapter 2@4()", f)
        }
        // A PDF without an outline has no "outline".
        let plain = t("plain.pdf")
        try Data(SamplePDF.make(pageCount: 1)).write(to: URL(fileURLWithPath: plain))
        let r = try OekakiBinary.run(["info", plain])
        XCTAssertFalse(r.stdout.contains("\"outline\""), r.stdout)
    }
}
