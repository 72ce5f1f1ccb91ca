import Foundation
import XCTest

/// `oekaki export IN OUT`: argument checks, the interchange round trips, and that every OUT format is written.
final class ExportCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func t(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func summary(_ file: String) throws -> [String: Any] {
        let r = try OekakiBinary.run(["info", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Same strokes, styles and point counts; bounds within the .oekaki quantization (1/20 unit) plus xopp's 4 decimals.
    func assertSameDrawing(_ a: [String: Any], _ b: [String: Any], tolerance: Double = 0.03, line: UInt = #line) {
        XCTAssertEqual(a["strokes"] as? Int, b["strokes"] as? Int, line: line)
        XCTAssertEqual(a["points"] as? Int, b["points"] as? Int, line: line)
        let ia = a["items"] as? [[String: Any]] ?? [], ib = b["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(ia.count, ib.count, line: line)
        for (x, y) in zip(ia, ib) {
            XCTAssertEqual(x["tool"] as? String, y["tool"] as? String, line: line)
            XCTAssertEqual(x["color"] as? String, y["color"] as? String, line: line)
            XCTAssertEqual(x["width"] as? Double ?? -1, y["width"] as? Double ?? -2, accuracy: 1e-6, line: line)
            XCTAssertEqual(x["points"] as? Int, y["points"] as? Int, line: line)
            let bx = x["bounds"] as? [Double] ?? [], by = y["bounds"] as? [Double] ?? []
            XCTAssertEqual(bx.count, 4, line: line)
            for (u, v) in zip(bx, by) { XCTAssertEqual(u, v, accuracy: tolerance, line: line) }
        }
    }

    func testOekakiToXoppToOekakiWithinQuantization() throws {
        let a = t("a.oekaki"), x = t("a.xopp"), b = t("b.oekaki")
        // selection.jsonl moves, restyles and reorders strokes: the .xopp bakes each stroke's transform.
        for log in ["three-fingers.jsonl", "area-eraser.jsonl", "tap.jsonl", "undo-redo.jsonl", "selection.jsonl"] {
            XCTAssertEqual(try OekakiBinary.run(["replay", Fixtures.path(log), "-o", a]).status, 0)
            XCTAssertEqual(try OekakiBinary.run(["export", a, x]).status, 0)
            XCTAssertEqual(try OekakiBinary.run(["export", x, b]).status, 0)
            let sa = try summary(a), sx = try summary(x), sb = try summary(b)
            assertSameDrawing(sa, sx)
            assertSameDrawing(sa, sb)
            XCTAssertEqual(sx["format"] as? String, "xopp")
            XCTAssertEqual(sb["format"] as? String, "oekaki")
        }
    }

    /// A moved stroke is exported where it was moved to (PNG pixels read with ImageMagick; the .xopp round trip above).
    func testExportsShowMovedStrokesWhereTheyWereMoved() throws {
        guard let convert = ["/usr/bin/convert", "/usr/local/bin/convert"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("ImageMagick's convert is needed")
        }
        let log = t("move.jsonl")
        try """
        {"type":"canvas","width":200,"height":200}
        {"type":"tool","tool":"pen","color":"#000000","width":6}
        {"type":"touch","phase":"began","id":1,"x":20,"y":20}
        {"type":"touch","phase":"ended","id":1,"x":180,"y":20}
        {"type":"selection","op":"all"}
        {"type":"selection","op":"translate","dx":0,"dy":130}

        """.write(toFile: log, atomically: true, encoding: .utf8)
        let doc = t("move.oekaki"), png = t("move.png")
        XCTAssertEqual(try OekakiBinary.run(["replay", log, "-o", doc]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", doc, png]).status, 0)
        func pixel(_ x: Int, _ y: Int) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: convert)
            p.arguments = [png, "-format", "%[fx:int(255*p{\(x),\(y)}.intensity)]", "info:"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let d = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return String(decoding: d, as: UTF8.self)
        }
        XCTAssertEqual(try pixel(100, 150), "0", "ink where the stroke was moved to")
        XCTAssertEqual(try pixel(100, 20), "255", "paper where it was drawn")
    }

    /// A real Xournal++ file → .oekaki → .xopp → .oekaki keeps every stroke.
    func testCorpusThroughBothFormats() throws {
        let src = InfoCommandTests.corpus.appendingPathComponent("strokes.xopp").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: src), "corpus not present")
        XCTAssertEqual(try OekakiBinary.run(["export", src, t("s.oekaki")]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", t("s.oekaki"), t("s.xopp")]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", t("s.xopp"), t("s2.oekaki")]).status, 0)
        assertSameDrawing(try summary(src), try summary(t("s.oekaki")))
        assertSameDrawing(try summary(t("s.oekaki")), try summary(t("s2.oekaki")))
    }

    func testEveryOutputFormatIsWritten() throws {
        let a = t("a.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["replay", Fixtures.path("three-fingers.jsonl"), "-o", a]).status, 0)
        let magic: [String: [UInt8]] = ["png": [0x89, 0x50, 0x4E, 0x47], "svg": Array("<".utf8), "pdf": Array("%PDF".utf8),
                                        "oekaki": Array("SQLite format 3".utf8), "xopp": [0x1F, 0x8B]]
        for (ext, m) in magic {
            let out = t("out.\(ext)")
            let r = try OekakiBinary.run(["export", a, out])
            XCTAssertEqual(r.status, 0, "\(ext): \(r.stderr)")
            let head = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data()).prefix(m.count)
            if ext == "svg" {
                XCTAssertTrue(String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: out))) ?? Data(), as: UTF8.self).contains("<svg"), ext)
            } else {
                XCTAssertEqual(Array(head), m, ext)
            }
        }
        XCTAssertEqual(try OekakiBinary.run(["export", a, t("big.png"), "--scale", "2", "--transparent"]).status, 0)
    }

    func testUsageErrorsExitTwo() throws {
        let a = t("a.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["replay", Fixtures.path("tap.jsonl"), "-o", a]).status, 0)
        let cases: [[String]] = [
            ["export"], ["export", a], ["export", a, t("o.png"), t("extra.png")],
            ["export", a, t("o.png"), "--bogus"], ["export", a, t("o.bmp")], ["export", a, t("noext")],
            ["export", a, t("o.png"), "--scale"], ["export", a, t("o.png"), "--scale", "abc"],
            ["export", a, t("o.png"), "--scale", "0"], ["export", a, t("o.png"), "--scale", "-1"],
            ["export", a, t("o.png"), "--scale", "nan"], ["export", a, t("o.png"), "--scale", "inf"],
            ["export", a, t("o.png"), "--page", "zero"], ["export", a, t("o.xopp"), "--transparent"],
            ["export", a, t("o.svg"), "--scale", "2"],
        ]
        for args in cases {
            let r = try OekakiBinary.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("oekaki: "), r.stderr)
        }
    }

    func testInputErrorsExitOne() throws {
        let r = try OekakiBinary.run(["export", t("missing.oekaki"), t("o.png")])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "oekaki: \(t("missing.oekaki")): no such file\n")
        let a = t("a.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["replay", Fixtures.path("tap.jsonl"), "-o", a]).status, 0)
        let noDir = try OekakiBinary.run(["export", a, t("no/such/dir/o.xopp")])
        XCTAssertEqual(noDir.status, 1, noDir.stderr)
        let noDir2 = try OekakiBinary.run(["export", a, t("no/such/dir/o.oekaki")])
        XCTAssertEqual(noDir2.status, 1, noDir2.stderr)
        XCTAssertEqual(noDir2.stderr.filter { $0 == "\n" }.count, 1, noDir2.stderr)
    }
}
