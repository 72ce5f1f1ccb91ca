import Foundation
import XCTest
import InkSamples

/// The command line takes a PDF wherever it takes a `.xopp`: `info`, `export` to `.oekaki` (the PDF embedded),
/// PNG of a page over its PDF page, PDF with the original's text kept (`pdftotext`), `--annotations-only`; a
/// `.xopp` whose pages have a PDF background; and PDFs a reader must refuse in one line.
final class PDFCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func t(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// Three pages of different sizes; page k says "Wombat page k" and has a blue bar at 40…240 × 40…70 pt.
    static let sizes = [(612.0, 792.0), (595.0, 842.0), (400.0, 300.0)]
    func writePaper(_ path: String) throws {
        try Data(TestPDF.pages(Self.sizes.enumerated().map { k, s in (s.0, s.1, "Wombat page \(k + 1)") })).write(to: URL(fileURLWithPath: path))
    }

    func info(_ file: String) throws -> [String: Any] {
        let r = try OekakiBinary.run(["info", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    func pdftotext(_ pdf: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") else { throw XCTSkip("pdftotext is not installed") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        p.arguments = [pdf, pdf + ".txt"]
        try p.run(); p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return try String(contentsOfFile: pdf + ".txt", encoding: .utf8)
    }

    /// `pdfinfo -f 1 -l N`: each page's size in points.
    func pageSizes(_ pdf: String) throws -> [String] {
        let p = Process(), out = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdfinfo")
        p.arguments = ["-f", "1", "-l", "100", pdf]
        p.standardOutput = out
        try p.run(); p.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains("size:") }
            .map { $0.components(separatedBy: "size:")[1].trimmingCharacters(in: .whitespaces).components(separatedBy: " pts")[0] }
    }

    func testInfoAndImportOfAPDF() throws {
        let paper = t("paper.pdf")
        try writePaper(paper)
        let s = try info(paper)
        XCTAssertEqual(s["format"] as? String, "pdf")
        let pages = s["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.count, 3)
        for (k, (p, want)) in zip(pages, Self.sizes).enumerated() {
            XCTAssertEqual(p["width"] as? Double, want.0); XCTAssertEqual(p["height"] as? Double, want.1)
            XCTAssertEqual(p["pdf"] as? Int, k + 1, "page \(k + 1) shows the PDF's page \(k + 1)")
        }
        XCTAssertEqual(try OekakiBinary.run(["info", paper, "--page", "4"]).status, 1)

        // Imported: the PDF travels inside the .oekaki; moved away, the document still exports its text.
        let doc = t("paper.oekaki")
        let r = try OekakiBinary.run(["export", paper, doc])
        XCTAssertEqual(r.status, 0, r.stderr)
        try FileManager.default.removeItem(atPath: paper)
        XCTAssertEqual((try info(doc)["pages"] as? [[String: Any]])?.count, 3)
        let out = t("out.pdf")
        XCTAssertEqual(try OekakiBinary.run(["export", doc, out]).status, 0)
        let text = try pdftotext(out)
        for k in 1...3 { XCTAssertTrue(text.contains("Wombat page \(k)"), text) }
        XCTAssertEqual(try pageSizes(out), ["612 x 792", "595 x 842", "400 x 300"])

        // PNG of page 2: its size, the PDF's bar drawn under nothing else.
        let png = t("page2.png")
        let p = try OekakiBinary.run(["export", doc, png, "--page", "2"])
        XCTAssertEqual(p.status, 0, p.stderr)
        let head = try Data(contentsOf: URL(fileURLWithPath: png)).prefix(24)
        XCTAssertEqual(head.suffix(8).map { $0 }, [0, 0, 2, 0x53, 0, 0, 3, 0x4a], "595 × 842 pixels")
    }

    /// A `.xopp` annotating a PDF: found beside the `.xopp` (its recorded absolute path is gone), embedded; the
    /// export keeps the PDF's text under the ink; `--annotations-only` the ink alone on pages of the same sizes;
    /// with no PDF anywhere, plain paper and one note naming the file.
    func testXoppWithAPDFBackground() throws {
        try writePaper(t("lecture.pdf"))
        let pageXML = Self.sizes.enumerated().map { k, s in
            let bg = k == 0 ? "<background type=\"pdf\" domain=\"absolute\" filename=\"/nowhere/old/lecture.pdf\" pageno=\"1\"/>"
                : "<background type=\"pdf\" pageno=\"\(k + 1)\"/>"
            return "<page width=\"\(s.0)\" height=\"\(s.1)\">\(bg)<layer><stroke tool=\"pen\" color=\"#ff0000ff\" width=\"12\">100 200 300 200</stroke></layer></page>"
        }.joined()
        let xml = "<?xml version=\"1.0\" standalone=\"no\"?><xournal creator=\"Xournal++ 1.1.3\" fileversion=\"4\">\(pageXML)</xournal>"
        let xopp = t("notes.xopp")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: xopp))
        let out = t("notes.pdf")
        let r = try OekakiBinary.run(["export", xopp, out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("note"), r.stderr)
        let text = try pdftotext(out)
        XCTAssertTrue(text.contains("Wombat page 2"), text)
        XCTAssertEqual(try pageSizes(out), ["612 x 792", "595 x 842", "400 x 300"])

        let bare = t("ink.pdf")
        let a = try OekakiBinary.run(["export", xopp, bare, "--annotations-only"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertFalse(try pdftotext(bare).contains("Wombat"))
        XCTAssertEqual(try pageSizes(bare), ["612 x 792", "595 x 842", "400 x 300"])
        XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: bare)).count, 500)
        XCTAssertEqual(try OekakiBinary.run(["export", xopp, t("x.png"), "--annotations-only"]).status, 2)

        // Into a .oekaki: the PDF is inside, so the original can go.
        let doc = t("notes.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["export", xopp, doc]).status, 0)
        try FileManager.default.removeItem(atPath: t("lecture.pdf"))
        XCTAssertEqual(try OekakiBinary.run(["export", doc, t("again.pdf")]).status, 0)
        XCTAssertTrue(try pdftotext(t("again.pdf")).contains("Wombat page 3"))

        // Back out as .xopp: the PDF goes beside it (Xournal++ keeps none inside) and the .xopp names it.
        let back = t("back.xopp")
        XCTAssertEqual(try OekakiBinary.run(["export", doc, back]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: back + ".bg.pdf"))
        XCTAssertEqual(try OekakiBinary.run(["export", back, t("back.pdf")]).status, 0)
        XCTAssertTrue(try pdftotext(t("back.pdf")).contains("Wombat page 1"))

        // Nowhere to be found now: plain paper, the ink, one note line naming the file.
        let m = try OekakiBinary.run(["export", xopp, t("plain.pdf")])
        XCTAssertEqual(m.status, 0, m.stderr)
        let notes = m.stderr.split(separator: "\n")
        XCTAssertEqual(notes.count, 1, m.stderr)
        XCTAssertTrue(m.stderr.contains("/nowhere/old/lecture.pdf") && m.stderr.contains("not found"), m.stderr)
        XCTAssertFalse(try pdftotext(t("plain.pdf")).contains("Wombat"))
    }

    /// SVG of a page on a PDF holds the PDF page (a PNG of it under the ink): rsvg-convert shows the PDF's bar.
    func testSVGShowsThePDFPage() throws {
        try XCTSkipUnless(Shell.find("rsvg-convert") != nil && Shell.find("convert") != nil, "rsvg-convert and convert read the SVG back")
        let paper = t("paper.pdf")
        try writePaper(paper)
        let svg = t("page2.svg")
        let r = try OekakiBinary.run(["export", paper, svg, "--page", "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(text.contains("<image") && text.contains("data:image/png;base64,"), String(text.prefix(600)))
        let png = t("page2.png")
        XCTAssertEqual(try Shell.run("rsvg-convert", [svg, "-o", png]).status, 0)
        let image = try RGBAImage(png: png)
        XCTAssertEqual([image.width, image.height], [595, 842])
        let bar = image.pixel(140, 55)
        XCTAssertTrue(bar[0] < 80 && bar[1] < 110 && bar[2] > 150, "the PDF's blue bar: \(bar)")
        XCTAssertEqual(image.pixel(400, 600), [255, 255, 255, 255], "the PDF page's white")
        // The words are there as pixels: some dark ones along the text's line (y ≈ 114…124 pt).
        let dark = (40..<200).filter { x in image.pixel(x, 116)[0] < 100 }.count
        XCTAssertGreaterThan(dark, 10, "the PDF's text is drawn")
    }

    func testHostilePDFsEndInOneLine() throws {
        let cases: [(String, [UInt8], String)] = [
            ("garbage.pdf", Array("%PDF-1.4\nthis is not a PDF body at all\n".utf8), "cannot open this PDF"),
            ("truncated.pdf", Array(TestPDF.pages([(100, 100, "x")]).prefix(30)), "cannot open this PDF"),
            ("encrypted.pdf", SamplePDF.encrypted(), "encrypted"),
            ("many.pdf", SamplePDF.emptyPages(100_000), "100000 pages"),
        ]
        for (name, bytes, message) in cases {
            let path = t(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let start = Date()
            for args in [["info", path], ["export", path, t("out.png")], ["export", path, t("out.oekaki")]] {
                let r = try OekakiBinary.run(args, timeout: 60)
                XCTAssertEqual(r.status, 1, "\(name) \(args): \(r.stderr)")
                let lines = r.stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, "\(name): one line, not \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(message) && r.stderr.contains(name), "\(name): \(r.stderr)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 30, name)
        }
    }
}

/// Hand-written PDFs (the CLI tests draw none themselves): pages of their own sizes with Helvetica text and
/// `SamplePDF`'s blue band in its place; `SamplePDF` also gives the file of many empty pages and the encrypted one.
enum TestPDF {
    static func pages(_ pages: [(Double, Double, String)]) -> [UInt8] {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>"]
        let kids = pages.indices.map { "\(4 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for (w, h, text) in pages {
            let content = "0.125 0.25 0.75 rg 40 \(h - 70) 200 30 re f 0 g BT /F1 18 Tf 40 \(h - 120) Td (\(text)) Tj ET"
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(w) \(h)] /Contents \(objects.count + 2) 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        return SamplePDF.handWritten(objects)
    }
}
