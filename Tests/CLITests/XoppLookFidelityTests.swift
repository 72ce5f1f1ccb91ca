import Foundation
import XCTest
import TestSupport
import InkCore
import InkSamples

/// Fills, dash patterns and highlighters as Xournal++ draws them, pixel by pixel: Xournal++ exports each document
/// at 72 dpi, `oekaki export` renders our import of it, and the two images may differ only where antialiasing
/// differs (no pixel by more than 96 of 255 in any channel, and at most 0.1 % of the pixels by more than 64).
/// Covers a filled ellipse, every dash style at three widths, overlapping and filled highlighters, pressure ink
/// with dashes, the corpus's `strokes.xopp`, `Setsquare_annotations.xopp` and `README-Eraser-and-padded-box.xopp`
/// with their text (caps made round for
/// Xournal++ 1.1), and text boxes, which must match exactly, zoomed too. Skipped where Xournal++, Xvfb or ImageMagick
/// are missing, and the corpus files where `../shared` is.
final class XoppLookFidelityTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        for tool in ["/usr/bin/xournalpp", "/usr/bin/Xvfb", "/usr/bin/convert", "/usr/bin/gzip", "/usr/bin/pdftoppm"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        }
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("xlook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws {
        if let tmp, ProcessInfo.processInfo.environment["OEKAKI_KEEP_TMP"] == nil { try? FileManager.default.removeItem(at: tmp) }
    }

    /// `../shared/corpus/xournalpp` beside the repository (the first such folder up from this file, so a worktree
    /// beside the repository finds it too).
    static let corpus: URL = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<6 {
            dir = dir.deletingLastPathComponent()
            let c = dir.appendingPathComponent("shared/corpus/xournalpp")
            if FileManager.default.fileExists(atPath: c.path) { return c }
        }
        return XoppInkFidelityTests.corpus
    }()

    @discardableResult
    func run(_ exe: String, _ args: [String], env: [String: String] = [:], stdin: URL? = nil, stdout: URL? = nil) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        p.environment = e
        if let stdout { FileManager.default.createFile(atPath: stdout.path, contents: nil); p.standardOutput = try FileHandle(forWritingTo: stdout) } else { p.standardOutput = FileHandle.nullDevice }
        if let stdin { p.standardInput = try FileHandle(forReadingFrom: stdin) }
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// RGB bytes of an image flattened on white, cut or padded to w × h.
    func rgb(_ png: String, _ w: Int, _ h: Int) throws -> [UInt8] {
        let raw = tmp.appendingPathComponent(UUID().uuidString + ".rgb").path
        XCTAssertEqual(try run("/usr/bin/convert", [png, "-background", "white", "-flatten", "-gravity", "NorthWest",
                                                   "-extent", "\(w)x\(h)", "-depth", "8", "rgb:\(raw)"]), 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    /// A gzipped one-page document as Xournal++ 1.2 writes it.
    func xopp(_ name: String, width: Int, height: Int, strokes: [String]) throws -> URL {
        let xml = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.2.2" fileversion="4">
        <page width="\(width)" height="\(height)"><background type="solid" color="#ffffffff" style="plain"/><layer>
        \(strokes.joined(separator: "\n"))
        </layer></page></xournal>
        """
        return try gzipped(xml, name)
    }

    func gzipped(_ xml: String, _ name: String) throws -> URL {
        let plain = tmp.appendingPathComponent(name + ".xml"), out = tmp.appendingPathComponent(name)
        try Data(xml.utf8).write(to: plain)
        XCTAssertEqual(try run("/usr/bin/gzip", ["-n", "-c", plain.path], stdout: out), 0)
        return out
    }

    /// A corpus document's first page with a plain background (not what is compared).
    func corpusCopy(_ name: String) throws -> URL? {
        let src = Self.corpus.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: src.path) else { return nil }
        let xml = tmp.appendingPathComponent(name + ".in.xml")
        try run("/usr/bin/gzip", ["-dc", src.path], stdout: xml)
        var text = try String(contentsOf: xml, encoding: .utf8)
        for style in ["graph", "lined", "ruled", "dotted", "staves"] { text = text.replacingOccurrences(of: "style=\"\(style)\"", with: "style=\"plain\"") }
        // Debian's Xournal++ 1.1 predates `capStyle` and draws every cap round (1.2 draws them as the file says, as
        // we do: `StrokeLookTests`), so its reference is made of round caps.
        if try xournalppVersion().hasPrefix("1.1") { text = text.replacingOccurrences(of: "capStyle=\"butt\"", with: "capStyle=\"round\"") }
        return try gzipped(text, name)
    }

    func xournalppVersion() throws -> String {
        let out = tmp.appendingPathComponent("version.txt")
        try run("/usr/bin/xournalpp", ["--version"], stdout: out)
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
    }

    static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> String {
        (0...64).map { i -> String in
            let a = 2 * Double.pi * Double(i) / 64
            return String(format: "%.3f %.3f", cx + rx * cos(a), cy + ry * sin(a))
        }.joined(separator: " ")
    }

    /// The synthetic page: a filled ellipse, the four kinds of pattern at widths 1, 3 and 6, crossing highlighters
    /// over pen ink (multiplied), a filled highlighter, and dashed pressure ink.
    func looks() throws -> URL {
        var strokes = [##"<stroke tool="pen" color="#1a5fb4ff" width="2" fill="128" capStyle="round">\##(Self.ellipse(cx: 100, cy: 80, rx: 70, ry: 45))</stroke>"##]
        var y = 160
        for style in ["dash", "dashdot", "dot", "cust: 4.00 2.00 1.00 2.00"] {
            for w in [1, 3, 6] {
                strokes.append(##"<stroke tool="pen" color="#000000ff" width="\##(w)" capStyle="round" style="\##(style)">20 \##(y) 120 \##(y + 8) 220 \##(y - 4) 300 \##(y + 10)</stroke>"##)
                y += 18
            }
        }
        strokes += [
            ##"<stroke tool="pen" color="#000000ff" width="3" capStyle="round">330 40 560 40 330 120</stroke>"##,
            ##"<stroke tool="highlighter" color="#ffff007f" width="20" capStyle="round">320 50 560 60</stroke>"##,
            ##"<stroke tool="highlighter" color="#00c0ff7f" width="20" capStyle="round">340 30 420 120 540 30</stroke>"##,
            ##"<stroke tool="highlighter" color="#ff80007f" width="14" fill="200" capStyle="round">350 150 450 150 400 220 350 150</stroke>"##,
            ##"<stroke tool="highlighter" color="#ff00ff7f" width="14" capStyle="round">330 190 560 190</stroke>"##,
            ##"<stroke tool="pen" color="#c01c28ff" width="2 1 3 2.5 1.5 4" capStyle="round" style="dash">330 260 380 250 430 270 480 255 530 275 560 260</stroke>"##,
        ]
        return try xopp("looks.xopp", width: 600, height: 400, strokes: strokes)
    }

    func testFillsDashesAndHighlightersMatchXournalppPixelForPixel() throws {
        var docs = [("looks", try looks())]
        for name in ["strokes.xopp", "Setsquare_annotations.xopp", "README-Eraser-and-padded-box.xopp"] {
            if let u = try corpusCopy(name) { docs.append((name, u)) }
        }
        try compareWithXournalpp(docs)
    }

    /// Text as Xournal++ lays it out and draws it: its fonts, sizes, styles and colours, lines broken by the writer,
    /// a tab, Japanese, boxes at fractional positions, lines running off the page (never wrapped, as Xournal++
    /// never wraps), at 72 dpi and zoomed to 137 dpi, and in the PDF export. Every
    /// pixel is Xournal++'s (where glyphs were placed our own way, 2 % of this page's pixels differed by more than a
    /// quarter).
    func testTextLooksAsXournalppDrawsIt() throws {
        let doc = try xopp("text.xopp", width: 520, height: 360, strokes: [
            ##"<text font="Sans" size="12" x="20.37" y="20.81" color="#000000ff">The quick brown fox jumps over the lazy dog 0123456789"##,
            ##"second line, a bit longer than the first"##,
            ##"third: 日本語のテキストも書けます"##,
            "\tafter a tab</text>",
            ##"<text font="Serif Bold" size="17" x="30.5" y="110.25" color="#1a5fb4ff">Bold serif, AV To Wa"##,
            ##"two lines</text>"##,
            ##"<text font="Monospace" size="10" x="40.25" y="190.6" color="#000000ff">mono  spaced   x = f(y) + 2</text>"##,
            ##"<text font="Sans Italic" size="9.5" x="240.49" y="230" color="#613583ff">italic small, kerning: AV To Wa</text>"##,
            ##"<text font="Sans" size="26" x="20" y="270.3" color="#c01c28ff">Big heading Wg 見出し</text>"##,
            ##"<text font="Sans" size="12" x="330" y="320" color="#000000ff">a line running past the page's edge, unwrapped"##,
            ##"and\ta second one</text>"##,
        ])
        try compareWithXournalpp([("text", doc)], worstAllowed: 16, over64Allowed: 0)
        try compareWithXournalpp([("text-137dpi", doc)], dpi: 137, worstAllowed: 16, over64Allowed: 0)
        // Xournal++'s PDF lays text out with the font's own advances (a PDF's options): ours does too.
        try compareWithXournalpp([("text-pdf", doc)], dpi: 150, pdf: true, worstAllowed: 64, over64Allowed: 0)
        // Not only alike: drawn. Dark glyphs where the first line is, paper under the page's last rows.
        let ours = tmp.appendingPathComponent("text-check.png")
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path]).status, 0)
        let px = try rgb(ours.path, 520, 360)
        let firstLine = stride(from: (24 * 520 + 20) * 3, to: (34 * 520 + 300) * 3, by: 3).filter { px[$0] < 100 }.count
        XCTAssertGreaterThan(firstLine, 200, "the first line's glyphs")
        XCTAssertTrue(px[(350 * 520) * 3..<(360 * 520) * 3].allSatisfy { $0 == 255 }, "nothing below the text")
    }

    /// LaTeX formulas as Xournal++ keeps them: the PDF LaTeX made (here cairo's, with text and a coloured band),
    /// stretched over the element's box, over ink, beside a formula of Xournal++ 1.0 (a PNG).
    func testTeXFormulasLookAsXournalppDrawsThem() throws {
        let pdf = try SamplePDF.make(pageCount: 1, size: Size(width: 300, height: 140), text: { _ in "x² + y² = r²" })
        let png = try XCTUnwrap(Data(base64Encoded: Self.redDotPNG))
        let doc = try xopp("tex.xopp", width: 600, height: 400, strokes: [
            ##"<stroke tool="pen" color="#000000ff" width="3" capStyle="round">20 60 580 60</stroke>"##,
            ##"<teximage text="x^2 + y^2 = r^2" texlength="15" left="40" top="40" right="340" bottom="180">\##(Data(pdf).base64EncodedString())</teximage>"##,
            // Stretched: twice as wide as the page it was made on.
            ##"<teximage text="x^2" texlength="3" left="40" top="220" right="640" bottom="360">\##(Data(pdf).base64EncodedString())</teximage>"##,
            ##"<teximage text="\bullet" texlength="7" left="400" top="60" right="440" bottom="100">\##(png.base64EncodedString())</teximage>"##,
        ])
        // Back out to Xournal++ as formulas: the LaTeX and the same PDF, so Xournal++ can edit them and draws them
        // as before (the PNG one, from before Xournal++ 1.1, as that PNG).
        let again = tmp.appendingPathComponent("tex-again.xopp")
        let out = try OekakiBinary.run(["export", doc.path, again.path])
        XCTAssertEqual(out.status, 0, out.stderr)
        let plain = tmp.appendingPathComponent("tex-again.xml")
        XCTAssertEqual(try run("/bin/gzip", ["-dc", again.path], stdout: plain), 0)
        let xml = String(decoding: try Data(contentsOf: plain), as: UTF8.self)
        XCTAssertTrue(xml.contains(##"<teximage text="x^2 + y^2 = r^2" texlength="15" left="40" top="40" right="340" bottom="180">\##(Data(pdf).base64EncodedString())</teximage>"##), xml)
        XCTAssertTrue(xml.contains(##"<teximage text="\bullet" texlength="7" left="400" top="60" right="440" bottom="100">\##(png.base64EncodedString())</teximage>"##), xml)
        XCTAssertFalse(xml.contains("<image"), xml)
        let info = try OekakiBinary.run(["info", again.path])
        XCTAssertTrue(info.stdout.contains(#""kind":"image","width":1200,"height":560,"latex":"x^2 + y^2 = r^2""#), info.stdout)
        // The formula's PDF is a picture of it here (a raster resampled onto the page), glyphs drawn from outlines
        // there: a few pixels of its small glyphs' edges differ by up to half (12 of the page's 240,000 over 64).
        try compareWithXournalpp([("tex", doc), ("tex-again", again)], worstAllowed: 128, over64Allowed: 30)
        let drawn = try ["tex", "tex-again"].map { name in
            let png = [name + "-xpp.png", name + "-xpp-1.png"].map { tmp.appendingPathComponent($0).path }.first { FileManager.default.fileExists(atPath: $0) }
            return try rgb(try XCTUnwrap(png, "Xournal++ drew \(name)"), 600, 400)
        }
        XCTAssertEqual(drawn[0], drawn[1], "Xournal++ draws our export of the formulas exactly as the notebook they came from")
        // Not only alike: drawn. The band is blue where the formula's box puts it, the PNG's dot red.
        let ours = tmp.appendingPathComponent("tex-check.png")
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path]).status, 0)
        let px = try rgb(ours.path, 600, 400)
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(px[(y * 600 + x) * 3..<(y * 600 + x) * 3 + 3]) }
        XCTAssertEqual(at(40 + 100, 40 + 55).map { Int($0) / 16 }, [0x20 / 16, 0x40 / 16, 0xc0 / 16], "the first formula's band")
        XCTAssertEqual(at(40 + 200, 220 + 55).map { Int($0) / 16 }, [0x20 / 16, 0x40 / 16, 0xc0 / 16], "the stretched formula's band")
        XCTAssertGreaterThan(Int(at(420, 80)[0]), 200, "the PNG formula's dot")
        XCTAssertLessThan(Int(at(420, 80)[1]), 60, "the PNG formula's dot")
    }

    /// Pictures among the ink, stretched over a box at fractional coordinates and shrunk into a small one: inside
    /// each box every pixel is Xournal++'s (the picture was sampled a quarter pixel off before), and at their edges,
    /// where Xournal++ fades a picture into the page and ours keeps its edge, no pixel differs by a quarter.
    func testPicturesLookAsXournalppDrawsThem() throws {
        let png = tmp.appendingPathComponent("pic.png")
        XCTAssertEqual(try run("/usr/bin/convert", ["-size", "120x80", "gradient:#ff4000-#0040ff", "-fill", "#102030", "-draw", "circle 60,40 60,70",
                                                    "-fill", "white", "-draw", "rectangle 10,10 30,30", png.path]), 0)
        let b64 = try Data(contentsOf: png).base64EncodedString()
        let doc = try xopp("pictures.xopp", width: 400, height: 300, strokes: [
            ##"<image left="20.3" top="30.6" right="260.8" bottom="190.2">\##(b64)</image>"##,
            ##"<image left="280" top="200" right="340" bottom="240">\##(b64)</image>"##,
        ])
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        defer { PrivateXvfb.stop(x.process) }
        let theirs = tmp.appendingPathComponent("pictures-xpp.png"), ours = tmp.appendingPathComponent("pictures-ours.png")
        try run("/usr/bin/xournalpp", ["--export-png-dpi=72", "--create-img=\(theirs.path)", doc.path],
                env: ["DISPLAY": x.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        try XCTSkipUnless(FileManager.default.fileExists(atPath: theirs.path), "Xournal++ could not run here")
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path]).status, 0)
        let a = try rgb(theirs.path, 400, 300), b = try rgb(ours.path, 400, 300)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 64, "a pixel of the page differs by \(worst) from Xournal++'s")
        // Inside the boxes (whole pixels at least a pixel in from their edges).
        for (x0, y0, x1, y1) in [(22, 32, 259, 189), (282, 202, 338, 238)] {
            var worst = 0
            for y in y0..<y1 { for x in x0..<x1 { for c in 0..<3 {
                let i = (y * 400 + x) * 3 + c
                worst = max(worst, abs(Int(a[i]) - Int(b[i])))
            } } }
            XCTAssertLessThanOrEqual(worst, 24, "inside the picture at \(x0),\(y0) a pixel differs by \(worst) from Xournal++'s")
        }
        // Not only alike: drawn. The disc's dark middle where the big box puts it.
        let mid = ((110 * 400) + 140) * 3
        XCTAssertLessThan(Int(b[mid]) + Int(b[mid + 1]) + Int(b[mid + 2]), 200, "the disc's middle")
    }

    /// A page whose background is a picture (Xournal++'s "With image" background, attached beside the `.xopp`), stretched
    /// to twice its size, ink over it; then our `.xopp` export of it, which attaches the picture the same way.
    func testImageBackgroundsLookAsXournalppDrawsThem() throws {
        let doc = tmp.appendingPathComponent("pic.xopp")
        XCTAssertEqual(try run("/usr/bin/convert", ["-size", "300x200", "gradient:#ff4000-#0040ff", "-fill", "#102030",
                                                    "-draw", "circle 150,100 150,150", doc.path + ".bg_1.png"]), 0)
        let xml = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.2.2" fileversion="4">
        <page width="600" height="400"><background type="pixmap" domain="attach" filename="bg_1.png"/><layer>
        <stroke tool="pen" color="#ffff00ff" width="6" capStyle="round">40 360 560 360</stroke>
        </layer></page></xournal>
        """
        let plain = tmp.appendingPathComponent("pic.xml")
        try Data(xml.utf8).write(to: plain)
        XCTAssertEqual(try run("/usr/bin/gzip", ["-n", "-c", plain.path], stdout: doc), 0)
        let again = tmp.appendingPathComponent("again.xopp")
        let r = try OekakiBinary.run(["export", doc.path, again.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: again.path + ".bg_1.png"), "the picture attached beside our export")
        let info = try OekakiBinary.run(["info", doc.path])
        XCTAssertTrue(info.stdout.contains(#""background":"plain","picture":true,"strokes":1"#), info.stdout)
        XCTAssertFalse(info.stderr.contains("image background"), "no note: nothing was left out (\(info.stderr))")
        // Not the outermost pixels: Xournal++ stretches the picture with nothing beyond its edges, so they fade
        // into the paper there (by up to 112 in a corner); ours keeps the picture's colour to the page's edge.
        try compareWithXournalpp([("pic", doc), ("again", again)], border: 1)
        // Not only alike: drawn. The disc is in the middle of the page, the gradient's ends at its sides.
        let ours = tmp.appendingPathComponent("pic-check.png")
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path]).status, 0)
        let px = try rgb(ours.path, 600, 400)
        func at(_ x: Int, _ y: Int) -> [Int] { px[(y * 600 + x) * 3..<(y * 600 + x) * 3 + 3].map { Int($0) } }
        XCTAssertEqual(at(300, 200).map { $0 / 16 }, [0x10 / 16, 0x20 / 16, 0x30 / 16], "the disc, stretched to the page's middle")
        XCTAssertGreaterThan(at(20, 20)[0], 200, "red-orange at the top")
        XCTAssertGreaterThan(at(20, 380)[2], 200, "blue at the bottom")
        XCTAssertEqual(at(300, 360), [255, 255, 0], "the ink over the picture")
    }

    /// An 8 × 8 PNG: a red disc on transparency (what Xournal++ 1.0 kept for a formula).
    static let redDotPNG = "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAAIElEQVR4nGO4IyLCgA8jc/6jYRQF6JJwRXRUQNCRODEAGiZg4cu1KwgAAAAASUVORK5CYII="

    /// Exports each document with Xournal++ (at `dpi`) and `oekaki export` (at the same scale), and compares them
    /// pixel by pixel (`border`: pixels at the image's edges left out): no pixel may differ by more than
    /// `worstAllowed` in any channel, and at most `over64Allowed` pixels (by default 0.1 %) by more than 64.
    /// With `pdf`, the two PDF exports (`xournalpp --create-pdf`, `oekaki export … .pdf`) are compared instead, each
    /// read back by pdftoppm at `dpi`.
    func compareWithXournalpp(_ docs: [(String, URL)], border: Int = 0, dpi: Int = 72, pdf: Bool = false, worstAllowed: Int = 96,
                              over64Allowed: Int? = nil) throws {
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        defer { PrivateXvfb.stop(x.process) }
        var compared = 0
        for (name, doc) in docs {
            var theirs = tmp.appendingPathComponent(name + "-xpp.png"), ours = tmp.appendingPathComponent(name + "-ours.png")
            let env = ["DISPLAY": x.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"]
            if pdf {
                let theirPDF = tmp.appendingPathComponent(name + "-xpp.pdf"), ourPDF = tmp.appendingPathComponent(name + "-ours.pdf")
                try run("/usr/bin/xournalpp", ["--create-pdf=\(theirPDF.path)", doc.path], env: env)
                let r = try OekakiBinary.run(["export", doc.path, ourPDF.path])
                XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
                for (from, to) in [(theirPDF, theirs), (ourPDF, ours)] where FileManager.default.fileExists(atPath: from.path) {
                    try run("/usr/bin/pdftoppm", ["-png", "-r", "\(dpi)", "-f", "1", "-l", "1", "-singlefile", from.path,
                                                  to.deletingPathExtension().path])
                }
            } else {
                try run("/usr/bin/xournalpp", ["--export-png-dpi=\(dpi)", "--create-img=\(theirs.path)", doc.path], env: env)
                let r = try OekakiBinary.run(["export", doc.path, ours.path] + (dpi == 72 ? [] : ["--scale", "\(Double(dpi) / 72)"]))
                XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            }
            guard let first = [theirs.path, theirs.path.replacingOccurrences(of: ".png", with: "-1.png")]
                .first(where: { FileManager.default.fileExists(atPath: $0) }) else { continue }
            theirs = URL(fileURLWithPath: first)
            XCTAssertTrue(FileManager.default.fileExists(atPath: ours.path), "\(name): ours drawn")
            let size = try XoppInkFidelityTests.sizeOfImage(theirs.path)
            let a = try rgb(theirs.path, size.0, size.1), b = try rgb(ours.path, size.0, size.1)
            XCTAssertEqual(a.count, b.count)
            var worst = 0, over64 = 0
            for i in stride(from: 0, to: min(a.count, b.count) - 2, by: 3) {
                let x = (i / 3) % size.0, y = (i / 3) / size.0
                if x < border || y < border || x >= size.0 - border || y >= size.1 - border { continue }
                let dr: Int = abs(Int(a[i]) - Int(b[i])), dg: Int = abs(Int(a[i + 1]) - Int(b[i + 1]))
                let db: Int = abs(Int(a[i + 2]) - Int(b[i + 2]))
                let d = max(dr, dg, db)
                worst = max(worst, d)
                if d > 64 { over64 += 1 }
            }
            let pixels = a.count / 3
            print("xopp look \(name): worst channel difference \(worst), \(over64) of \(pixels) pixels over 64")
            XCTAssertLessThanOrEqual(worst, worstAllowed, "\(name): a pixel differs by \(worst) from Xournal++'s (kept with OEKAKI_KEEP_TMP=1 in \(tmp.path))")
            XCTAssertLessThanOrEqual(over64, over64Allowed ?? pixels / 1000, "\(name): \(over64) pixels differ by more than 64 from Xournal++'s")
            compared += 1
        }
        try XCTSkipIf(compared == 0, "Xournal++ could not run here")
        XCTAssertEqual(compared, docs.count, "Xournal++ rendered every document")
    }
}
