import Foundation
import XCTest
import TestSupport

/// Every page of the shared corpus, backgrounds included, against Xournal++'s own rendering: the corpus file (text,
/// fills and dash patterns taken out, as `testImportedInkMatchesXournalpp` does, backgrounds kept) is rendered by
/// Xournal++ page by page and by `oekaki export … %d`, and each pair must put the same ink and the same lines in the
/// same places. A second pass keeps only the backgrounds, so a wrong graph cannot hide behind good ink, and has
/// Xournal++ render the `.xopp` Oekaki exports, so what we write is what Xournal++ shows.
extension XoppInkFidelityTests {
    /// A corpus file with what Oekaki cannot draw yet taken out; `keepInk` false leaves only the pages and backgrounds
    /// (nil when they are all plain).
    func comparableCopy(_ name: String, keepInk: Bool) throws -> URL? {
        let src = Self.corpus.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: src.path) else { return nil }
        let xml = tmp.appendingPathComponent("\(name)-\(keepInk).xml")
        if (try? Data(contentsOf: src).prefix(2)) == Data([0x50, 0x4B]) {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else { return nil }
            try run("/usr/bin/unzip", ["-p", src.path, "content.xml"], stdout: xml)
        } else {
            try run("/usr/bin/gzip", ["-dc", src.path], stdout: xml)
        }
        var text = try String(contentsOf: xml, encoding: .utf8)
        text = text.replacingOccurrences(of: "<text[^>]*>[^<]*</text>", with: "", options: .regularExpression)
        for attr in ["fill", "style"] {
            text = text.replacingOccurrences(of: "(<stroke[^>]*?) \(attr)=\"[^\"]*\"", with: "$1", options: .regularExpression)
        }
        if !keepInk {
            // Blank paper has nothing to compare (and each render takes seconds).
            guard text.range(of: "<background[^>]*style=\"(ruled|lined|graph|dotted)\"", options: .regularExpression) != nil else { return nil }
            text = text.replacingOccurrences(of: "<stroke[^>]*>[^<]*</stroke>", with: "", options: .regularExpression)
        }
        try Data(text.utf8).write(to: xml)
        XCTAssertEqual(try run("/usr/bin/gzip", ["-n", "-f", xml.path]), 0)
        let out = tmp.appendingPathComponent("\(name)-\(keepInk).xopp")
        try FileManager.default.moveItem(at: URL(fileURLWithPath: xml.path + ".gz"), to: out)
        return out
    }

    func testEveryCorpusPageMatchesXournalppWithItsBackground() throws {
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        let display = x.display
        defer { PrivateXvfb.stop(x.process) }
        var compared = 0, graphPages = 0
        for name in ["README-Eraser-and-padded-box.xopp", "Setsquare_annotations.xopp", "strokes.xopp", "width_recovery.xopp"] {
            for keepInk in [true, false] {
                guard let doc = try comparableCopy(name, keepInk: keepInk) else { continue }
                let stem = "\(name)-\(keepInk)"
                let theirs = tmp.appendingPathComponent(stem + "-xpp.png")
                // 4 pixels a unit: a 0.5-unit line is 2 pixels, so antialiasing (where two good renderers may differ by half a
                // pixel) weighs little.
                // The backgrounds pass has Xournal++ render the .xopp we write: our export's pages and backgrounds must
                // come out in Xournal++ as we draw them.
                var input = doc
                if !keepInk {
                    input = tmp.appendingPathComponent(stem + "-ours.xopp")
                    XCTAssertEqual(try OekakiBinary.run(["export", doc.path, input.path]).status, 0, name)
                }
                try run("/usr/bin/xournalpp", ["--export-png-dpi=288", "--create-img=\(theirs.path)", input.path],
                        env: ["DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
                let r = try OekakiBinary.run(["export", doc.path, tmp.appendingPathComponent(stem + "-ours-%d.png").path, "--scale", "4"])
                XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
                let info = try OekakiBinary.run(["info", doc.path])
                let pages = (try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])?["pages"] as? [[String: Any]] ?? []
                XCTAssertFalse(pages.isEmpty, name)
                for (k, page) in pages.enumerated() {
                    // Xournal++ names one page NAME.png, several NAME-1.png, NAME-2.png, …
                    let their = pages.count == 1 ? theirs.path : theirs.path.replacingOccurrences(of: ".png", with: "-\(k + 1).png")
                    guard FileManager.default.fileExists(atPath: their) else { XCTFail("\(name): Xournal++ wrote no page \(k + 1)"); continue }
                    let ours = tmp.appendingPathComponent(stem + "-ours-\(k + 1).png").path
                    let (w, h) = try sizeOf(their)
                    let o = overlap(try coverage(ours, w, h), try coverage(their, w, h))
                    let what = keepInk ? "ink and background" : "background"
                    print("xopp page \(name) \(k + 1) (\(page["background"] as? String ?? "?")) \(what) overlap \(String(format: "%.3f", o))")
                    XCTAssertGreaterThanOrEqual(o, 0.85, "\(name) page \(k + 1), \(what): ours and Xournal++'s overlap only \(o)")
                    if page["background"] as? String == "graph" { graphPages += 1 }
                    compared += 1
                }
            }
        }
        try XCTSkipIf(compared == 0, "Xournal++ could not run here")
        XCTAssertGreaterThanOrEqual(graphPages, 2, "the graph page was compared with and without ink")
    }

    /// Isometric graph, isometric dots and music staves, as Xournal++ lays them out on a page, at 4 pixels a unit,
    /// and again after our `.xopp` export (what we write, Xournal++ draws the same).
    func testIsometricPaperAndStavesMatchXournalpp() throws {
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        defer { PrivateXvfb.stop(x.process) }
        var compared = 0
        for style in ["isograph", "isodotted", "staves"] {
            let xml = """
            <?xml version="1.0" standalone="no"?>
            <xournal creator="Xournal++ 1.1.3" fileversion="4">
            <page width="300" height="260"><background type="solid" color="#ffffffff" style="\(style)"/><layer/></page></xournal>
            """
            let plain = tmp.appendingPathComponent("\(style).xml"), doc = tmp.appendingPathComponent("\(style).xopp")
            try Data(xml.utf8).write(to: plain)
            try run("/usr/bin/gzip", ["-n", "-c", plain.path], stdout: doc)
            let info = try OekakiBinary.run(["info", doc.path])
            XCTAssertTrue(info.stderr.isEmpty, "\(style) is not approximated: \(info.stderr)")
            let written = tmp.appendingPathComponent("\(style)-ours.xopp")
            XCTAssertEqual(try OekakiBinary.run(["export", doc.path, written.path]).status, 0)
            for (input, pass) in [(doc, "read"), (written, "written")] {
                let theirs = tmp.appendingPathComponent("\(style)-\(pass)-xpp.png"), ours = tmp.appendingPathComponent("\(style)-\(pass)-ours.png")
                try run("/usr/bin/xournalpp", ["--export-png-dpi=288", "--create-img=\(theirs.path)", input.path],
                        env: ["DISPLAY": x.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
                guard FileManager.default.fileExists(atPath: theirs.path) else { continue }
                XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path, "--scale", "4"]).status, 0)
                let (w, h) = try sizeOf(theirs.path)
                let a = try coverage(ours.path, w, h), b = try coverage(theirs.path, w, h)
                let o = overlap(a, b)
                print("xopp paper \(style) (\(pass)) overlap \(String(format: "%.3f", o))")
                XCTAssertGreaterThan(b.reduce(0) { $0 + Int($1) }, w * h / 100, "\(style): Xournal++ printed the pattern")
                XCTAssertGreaterThanOrEqual(o, 0.85, "\(style) (\(pass)): ours and Xournal++'s overlap only \(o)")
                compared += 1
            }
        }
        try XCTSkipIf(compared == 0, "Xournal++ could not run here")
    }
}
