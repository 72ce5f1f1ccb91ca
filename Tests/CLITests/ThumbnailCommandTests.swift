import Foundation
import XCTest

/// `oekaki thumbnail IN OUT.png [--size N]`: the page fitted into N×N and centred, ink where the drawing has it,
/// transparent outside the page; `.oekaki` and `.xopp`; what the installed thumbnailer entry runs.
final class ThumbnailCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        try XCTSkipUnless(Shell.find("convert") != nil, "ImageMagick's convert reads the PNGs back")
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("thumbnail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { if let tmp { try? FileManager.default.removeItem(at: tmp) } }

    func t(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// A 1000×500 page with one black 20-unit-wide horizontal line at y = 250 from x = 100 to 900.
    func landscapeDrawing() throws -> String {
        var lines = [#"{"type":"canvas","width":1000,"height":500}"#,
                     ##"{"type":"tool","tool":"pen","color":"#000000","width":20}"##,
                     #"{"type":"touch","phase":"began","id":1,"x":100,"y":250,"device":"mouse","t":0}"#]
        for x in stride(from: 150, through: 850, by: 50) {
            lines.append(#"{"type":"touch","phase":"moved","id":1,"x":\#(x),"y":250,"device":"mouse","t":\#(x)}"#)
        }
        lines.append(#"{"type":"touch","phase":"ended","id":1,"x":900,"y":250,"device":"mouse","t":900}"#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: t("log.jsonl"), atomically: true, encoding: .utf8)
        let r = try OekakiBinary.run(["replay", t("log.jsonl"), "-o", t("wide.oekaki")])
        XCTAssertEqual(r.status, 0, r.stderr)
        return t("wide.oekaki")
    }

    func testPageIsFittedCentredAndTransparentOutside() throws {
        let doc = try landscapeDrawing()
        let r = try OekakiBinary.run(["thumbnail", doc, t("thumb.png")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let image = try RGBAImage(png: t("thumb.png"))
        XCTAssertEqual(image.width, 256, "default size")
        XCTAssertEqual(image.height, 256)
        // Scale 256/1000: the page is 256×128, centred, so it spans rows 64…191; the line is row 128, x ≈ 26…230.
        for (x, y) in [(128, 10), (128, 60), (5, 245), (128, 195)] {
            XCTAssertEqual(image.pixel(x, y)[3], 0, "outside the page at (\(x), \(y)) is transparent")
        }
        for (x, y) in [(128, 70), (128, 100), (5, 128), (250, 128), (128, 185)] {
            XCTAssertEqual(image.pixel(x, y), [255, 255, 255, 255], "paper at (\(x), \(y))")
        }
        for x in [40, 128, 215] {
            let p = image.pixel(x, 128)
            XCTAssertEqual(p[3], 255)
            XCTAssertLessThan(p[0], 60, "ink at (\(x), 128): \(p)")
        }
        // The line is 20 × 0.256 ≈ 5 px thick: drawn at thumbnail resolution, not a smear.
        XCTAssertGreaterThan(image.pixel(128, 133)[0], 200, "paper 5 px below the line's centre")
    }

    /// A filled, dashed rectangle: its thumbnail shows the translucent fill and gaps along the outline, as the page does.
    func testFillAndDashesAreDrawn() throws {
        let lines = [#"{"type":"canvas","width":1000,"height":500}"#,
                     ##"{"type":"tool","tool":"rectangle","color":"#0000ff","width":1,"fill":128,"style":"dash"}"##,
                     #"{"type":"touch","phase":"began","id":1,"x":200,"y":100,"device":"mouse","t":0}"#,
                     #"{"type":"touch","phase":"moved","id":1,"x":500,"y":250,"device":"mouse","t":50}"#,
                     #"{"type":"touch","phase":"ended","id":1,"x":800,"y":400,"device":"mouse","t":100}"#]
        try (lines.joined(separator: "\n") + "\n").write(toFile: t("log.jsonl"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try OekakiBinary.run(["replay", t("log.jsonl"), "-o", t("rect.oekaki")]).status, 0)
        // Xournal++'s dashes do not grow with the width (6 on, 3 off, less the round caps): scale 2 shows them.
        let r = try OekakiBinary.run(["thumbnail", t("rect.oekaki"), t("thumb.png"), "--size", "2000"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try RGBAImage(png: t("thumb.png"))
        // Scale 2, the page at rows 500…1499: the rectangle spans x = 400…1600, y = 700…1300.
        let inside = image.pixel(1000, 1000)
        XCTAssertEqual(Double(inside[0]), 127, accuracy: 20, "half-blue fill inside: \(inside)")
        XCTAssertEqual(inside[2], 255, "half-blue fill inside: \(inside)")
        let top = (450...1550).map { image.pixel($0, 699) }
        let inked = top.filter { $0[0] < 90 && $0[2] > 200 }.count, gaps = top.filter { $0[0] > 200 }.count
        XCTAssertGreaterThan(inked, 400, "dashes along the top edge")
        XCTAssertGreaterThan(gaps, 100, "gaps between the dashes: \(top.prefix(60).map { $0[0] })")
    }

    func testSizeAndXoppInput() throws {
        let doc = try landscapeDrawing()
        XCTAssertEqual(try OekakiBinary.run(["export", doc, t("wide.xopp")]).status, 0)
        // Thumbnailers pass an output name without an extension.
        let r = try OekakiBinary.run(["thumbnail", t("wide.xopp"), t("out-no-extension"), "--size", "64"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try RGBAImage(png: t("out-no-extension"))
        XCTAssertEqual([image.width, image.height], [64, 64])
        XCTAssertEqual(image.pixel(32, 2)[3], 0)
        XCTAssertLessThan(image.pixel(32, 32)[0], 200, "the 1.3 px line crosses the middle: \(image.pixel(32, 32))")
    }

    /// An endless page (a new drawing's) is framed by its ink, wherever the ink is.
    func testEndlessPageIsFramedByItsInk() throws {
        var lines = [##"{"type":"tool","tool":"pen","color":"#000000","width":40}"##,
                     #"{"type":"touch","phase":"began","id":1,"x":5000,"y":500,"device":"mouse","t":0}"#]
        for x in stride(from: 5100, through: 5900, by: 100) {
            lines.append(#"{"type":"touch","phase":"moved","id":1,"x":\#(x),"y":500,"device":"mouse","t":\#(x)}"#)
        }
        lines.append(#"{"type":"touch","phase":"ended","id":1,"x":6000,"y":500,"device":"mouse","t":6000}"#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: t("far.jsonl"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try OekakiBinary.run(["replay", t("far.jsonl"), "-o", t("far.oekaki")]).status, 0)
        let info = try OekakiBinary.run(["info", t("far.oekaki")]).stdout
        try XCTSkipUnless(info.contains("\"pages\":[{\"width\":null"), "replay makes a fixed page here: \(info.prefix(300))")
        let r = try OekakiBinary.run(["thumbnail", t("far.oekaki"), t("far.png"), "--size", "128"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try RGBAImage(png: t("far.png"))
        var ink = 0
        for y in 0..<128 { for x in 0..<128 where image.pixel(x, y)[3] == 255 && image.pixel(x, y)[0] < 80 { ink += 1 } }
        XCTAssertGreaterThan(ink, 12, "the line far from the origin is in the thumbnail (a 1000-unit line, ~21 px at this scale)")
    }

    /// An endless page is framed by its own live ink only: a stroke undone (kept in the file for redo) and the
    /// ink of page 2, both far away, change nothing — the thumbnail is byte for byte that of the first stroke alone.
    func testEndlessPageIgnoresUndoneInkAndOtherPages() throws {
        func line(_ id: Int, from x0: Int, to x1: Int, y: Int) -> [String] {
            [#"{"type":"touch","phase":"began","id":\#(id),"x":\#(x0),"y":\#(y),"device":"mouse","t":0}"#,
             #"{"type":"touch","phase":"moved","id":\#(id),"x":\#((x0 + x1) / 2),"y":\#(y),"device":"mouse","t":50}"#,
             #"{"type":"touch","phase":"ended","id":\#(id),"x":\#(x1),"y":\#(y),"device":"mouse","t":100}"#]
        }
        let pen = ##"{"type":"tool","tool":"pen","color":"#000000","width":20}"##
        let alone = [pen] + line(1, from: 100, to: 700, y: 300)
        let more = alone + line(1, from: 9000, to: 9500, y: 9000) + [#"{"type":"undo"}"#, #"{"type":"page","op":"add"}"#]
            + line(1, from: -8000, to: -7000, y: -5000)
        for (name, lines) in [("alone", alone), ("more", more)] {
            try (lines.joined(separator: "\n") + "\n").write(toFile: t("\(name).jsonl"), atomically: true, encoding: .utf8)
            let r = try OekakiBinary.run(["replay", t("\(name).jsonl"), "-o", t("\(name).oekaki")])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let info = try OekakiBinary.run(["info", t("more.oekaki")]).stdout
        try XCTSkipUnless(info.contains("\"pages\":[{\"width\":null"), "replay makes a fixed page here: \(info.prefix(300))")
        XCTAssertTrue(info.contains("\"strokes\":2,"), "page 1's stroke and page 2's: \(info.prefix(200))")
        for name in ["alone", "more"] {
            XCTAssertEqual(try OekakiBinary.run(["thumbnailer", t("\(name).oekaki"), t("\(name).png"), "--size", "128"]).status, 0)
        }
        let image = try RGBAImage(png: t("more.png"))
        var ink = 0
        for y in 0..<128 { for x in 0..<128 where image.pixel(x, y)[3] == 255 && image.pixel(x, y)[0] < 200 { ink += 1 } }
        // About 40 px long and 1.3 px wide at the default frame's scale; ink 17,000 units apart would shrink it to a few.
        XCTAssertGreaterThan(ink, 40, "the line is drawn at the scale of the default frame")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: t("more.png"))), try Data(contentsOf: URL(fileURLWithPath: t("alone.png"))))
    }

    /// Thumbnails of `input` streamed from its `.oekaki` and loaded from the original (`.pdf`, `.xopp`): both paths.
    private func thumbnails(of input: String, size: Int = 256) throws -> [RGBAImage] {
        let doc = t("copy-\(UUID().uuidString).oekaki")
        XCTAssertEqual(try OekakiBinary.run(["export", input, doc]).status, 0)
        return try [input, doc].map { file in
            let out = t("thumb-\(UUID().uuidString).png")
            let r = try OekakiBinary.run(["thumbnail", file, out, "--size", String(size)])
            XCTAssertEqual(r.status, 0, r.stderr)
            return try RGBAImage(png: out)
        }
    }

    func testPDFPageIsDrawnUnderTheInk() throws {
        // A 612×792 PDF page with a blue bar at 40…240 × 40…70 pt, annotated in a .xopp by a red line down x = 100.
        let paper = t("paper.pdf")
        try Data(TestPDF.pages([(612, 792, "Wombat")])).write(to: URL(fileURLWithPath: paper))
        let xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="612" height="792">\
            <background type="pdf" domain="absolute" filename="\(paper)" pageno="1"/><layer>\
            <stroke tool="pen" color="#ff0000ff" width="12">100 20 100 90</stroke></layer></page></xournal>
            """
        let xopp = t("annotated.xopp")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: xopp))
        for (name, image) in zip(["the PDF itself", ".xopp", "its .oekaki"], try [thumbnails(of: paper)[0]] + thumbnails(of: xopp)) {
            // Scale 256/792: the page is 198 px wide, 29 px from the left.
            let s = 256.0 / 792, left = ((256 - 612 * s) / 2).rounded(.down)
            func at(_ x: Double, _ y: Double) -> [UInt8] { image.pixel(Int(left + x * s), Int(y * s)) }
            let bar = at(200, 55)
            XCTAssertTrue(bar[0] < 80 && bar[1] < 110 && bar[2] > 150 && bar[3] == 255, "\(name): the PDF's blue bar: \(bar)")
            XCTAssertEqual(at(300, 600), [255, 255, 255, 255], "\(name): the PDF page's white")
            XCTAssertEqual(image.pixel(5, 128)[3], 0, "\(name): outside the page")
            if name != "the PDF itself" {
                let ink = at(100, 55)
                XCTAssertTrue(ink[0] > 200 && ink[1] < 60 && ink[2] < 60, "\(name): the red line over the bar: \(ink)")
            }
        }
    }

    func testPicturesAreDrawnInTheirPlaceAmongTheInk() throws {
        // 40×30 left red, right blue, stretched over 20…100 × 10…70 of a 200×100 page; a black line drawn after it
        // across its middle (y = 40) and one before it, hidden under the picture (y = 60).
        let png = t("halves.png")
        XCTAssertEqual(try Shell.run("convert", ["-size", "40x30", "xc:#dc141e", "-fill", "#1e50dc", "-draw", "rectangle 20,0 39,29", png]).status, 0)
        let b64 = try Data(contentsOf: URL(fileURLWithPath: png)).base64EncodedString()
        let xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="200" height="100"><background type="solid" color="#ffffffff" style="plain"/><layer>
            <stroke tool="pen" color="#000000ff" width="6">20 60 100 60</stroke>
            <image left="20" top="10" right="100" bottom="70">\(b64)</image>
            <stroke tool="pen" color="#000000ff" width="6">20 40 100 40</stroke>
            </layer></page></xournal>
            """
        let xopp = t("picture.xopp")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: xopp))
        for image in try thumbnails(of: xopp) {
            // Scale 1.28; the page is 256×128, 64 px from the top.
            func at(_ x: Double, _ y: Double) -> [UInt8] { image.pixel(Int(x * 1.28), Int(64 + y * 1.28)) }
            let red = at(40, 25), blue = at(80, 25), under = at(40, 60), over = at(40, 40), paper = at(150, 50)
            XCTAssertTrue(red[0] > 200 && red[1] < 40 && red[2] < 50, "red half: \(red)")
            XCTAssertTrue(blue[0] < 50 && blue[2] > 200, "blue half: \(blue)")
            XCTAssertTrue(under[0] > 200 && under[1] < 40, "the line drawn before the picture is under it: \(under)")
            XCTAssertTrue(over[0] < 40 && over[1] < 40 && over[2] < 40, "the line drawn after it is over it: \(over)")
            XCTAssertEqual(paper, [255, 255, 255, 255])
        }
    }

    func testBadArgumentsAreUsageErrors() throws {
        let doc = try landscapeDrawing()
        for args in [["thumbnail"], ["thumbnail", doc], ["thumbnail", doc, t("a.png"), "--size"], ["thumbnail", doc, t("a.png"), "--size", "0"],
                     ["thumbnail", doc, t("a.png"), "--size", "99999"], ["thumbnail", doc, t("a.png"), "--size", "big"],
                     ["thumbnail", doc, t("a.png"), "--scale", "2"], ["thumbnail", doc, t("a.png"), t("b.png")]] {
            let r = try OekakiBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("oekaki: thumbnail: "), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: t("a.png")))
        let missing = try OekakiBinary.run(["thumbnail", t("nothing.oekaki"), t("a.png")])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, try OekakiBinary.run(["info", t("nothing.oekaki")]).stderr)
    }

    /// The desktop's thumbnailer entry, run the way a file manager runs it (%i, %o, %s substituted): it names
    /// `oekaki-thumbnailer`, which draws what `oekaki thumbnail` draws, byte for byte, and links no GTK.
    func testThumbnailerEntryRunsTheLeanThumbnailer() throws {
        let doc = try landscapeDrawing()
        let entry = try String(contentsOf: InstallTests.packageRoot.appendingPathComponent("desktop/io.github.oekaki.Oekaki.thumbnailer"), encoding: .utf8)
        XCTAssertTrue(entry.contains("MimeType=application/x-oekaki;"), entry)
        XCTAssertTrue(entry.contains("\nTryExec=oekaki-thumbnailer\n"), entry)
        guard let exec = entry.split(separator: "\n").first(where: { $0.hasPrefix("Exec=") })?.dropFirst(5) else {
            return XCTFail("no Exec line: \(entry)")
        }
        var words = exec.split(separator: " ").map(String.init)
        XCTAssertEqual(words.first, "oekaki-thumbnailer")
        words = ["thumbnailer"] + Array(words.dropFirst()).map { ["%i": doc, "%o": t("from-entry"), "%s": "128"][$0] ?? $0 }
        let r = try OekakiBinary.run(words)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let image = try RGBAImage(png: t("from-entry"))
        XCTAssertEqual([image.width, image.height], [128, 128])
        XCTAssertLessThan(image.pixel(64, 64)[0], 60, "the line crosses the middle: \(image.pixel(64, 64))")
        XCTAssertEqual(try OekakiBinary.run(["thumbnail", doc, t("from-oekaki.png"), "--size", "128"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: t("from-entry"))),
                       try Data(contentsOf: URL(fileURLWithPath: t("from-oekaki.png"))), "the same PNG as oekaki thumbnail")

        // What makes it start fast: neither GTK nor the Swift runtime's shared libraries to load.
        if let thumbnailer = OekakiBinary.thumbnailer, Shell.find("ldd") != nil {
            let ldd = try Shell.run("ldd", [thumbnailer.path])
            XCTAssertEqual(ldd.status, 0, ldd.output)
            XCTAssertFalse(ldd.output.contains("libgtk"), ldd.output)
            XCTAssertFalse(ldd.output.contains("libswiftCore") || ldd.output.contains("libFoundation"), ldd.output)
        }
        // Wrong arguments: the usage, exit 2.
        let usage = try OekakiBinary.run(["thumbnailer", doc])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(usage.stderr, "oekaki-thumbnailer: thumbnail: needs IN and OUT.png (usage: oekaki-thumbnailer IN OUT.png [--size N])\n")
    }
}

/// A PNG decoded to 8-bit RGBA by ImageMagick (the CLI tests do not link the renderer).
struct RGBAImage {
    let width: Int, height: Int
    let bytes: [UInt8]

    init(png path: String) throws {
        let size = try Shell.run("identify", ["-format", "%w %h", path])
        let wh = size.output.split(separator: " ").compactMap { Int($0) }
        guard size.status == 0, wh.count == 2 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        (width, height) = (wh[0], wh[1])
        let raw = NSTemporaryDirectory() + "rgba-\(UUID().uuidString).raw"
        defer { unlink(raw) }
        let r = try Shell.run("convert", [path, "-depth", "8", "rgba:" + raw])
        let data = (try? Data(contentsOf: URL(fileURLWithPath: raw))) ?? Data()
        guard r.status == 0, data.count == width * height * 4 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        bytes = [UInt8](data)
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(bytes[i..<i + 4])
    }
}
