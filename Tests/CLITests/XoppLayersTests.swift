import Foundation
import XCTest
import TestSupport

/// Layers through `.xopp`, checked by Xournal++ itself: a notebook of named layers exported by Oekaki is drawn by
/// `xournalpp --create-pdf` with the same ink as our own PNG export, and importing our export again gives the same
/// layer names and counts; every corpus file keeps its layer count per page through import, export and import.
extension XoppInkFidelityTests {
    private func info(_ path: String) throws -> [String: Any] {
        let r = try OekakiBinary.run(["info", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// Per page, "name visible strokes" of each layer bottom to top.
    private func layers(_ j: [String: Any]) -> [[String]] {
        (j["pages"] as? [[String: Any]] ?? []).map { p in
            (p["layers"] as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "?") \($0["visible"] as? Bool ?? true) \($0["strokes"] as? Int ?? -1)" }
        }
    }

    func testLayersSurviveXournalppAndItDrawsTheSameInk() throws {
        func line(_ y: Int, _ x0: Int = 40) -> [String] {
            (0...8).map { k in
                let phase = k == 0 ? "began" : k == 8 ? "ended" : "moved"
                return #"{"type":"touch","phase":"\#(phase)","id":1,"device":"pen","pressure":0.6,"x":\#(x0 + k * 40),"y":\#(y)}"#
            }
        }
        let log = [#"{"type":"canvas","width":595,"height":842}"#, #"{"type":"tool","tool":"pen","width":4}"#] + line(100)
            + [#"{"type":"layer","op":"add","name":"Notes & <sketches>"}"#] + line(200) + line(260, 80)
            + [#"{"type":"layer","op":"add","name":"Answers","allPages":true}"#] + line(400)
            + [#"{"type":"page","op":"add"}"#] + line(150)
            + [#"{"type":"layer","op":"select","index":1}"#] + line(300)
        let logFile = tmp.appendingPathComponent("layers.jsonl")
        try Data((log.joined(separator: "\n") + "\n").utf8).write(to: logFile)
        let doc = tmp.appendingPathComponent("layers.oekaki")
        XCTAssertEqual(try OekakiBinary.run(["replay", logFile.path, "-o", doc.path]).status, 0)
        let ours = tmp.appendingPathComponent("ours.xopp")
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, ours.path]).status, 0)
        let original = layers(try info(doc.path))
        XCTAssertEqual(original, [["Layer 1 true 1", "Notes & <sketches> true 2", "Answers true 1"], ["Layer 1 true 1", "Answers true 1"]])
        XCTAssertEqual(layers(try info(ours.path)), original, "our export read back: the same layers")

        // Xournal++ reads our layers: its PDF of our export has the same ink as our PNGs, page by page.
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        defer { PrivateXvfb.stop(x.process) }
        let pdf = tmp.appendingPathComponent("xpp.pdf")
        try run("/usr/bin/xournalpp", ["--create-pdf=\(pdf.path)", ours.path], env: ["DISPLAY": x.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: pdf.path), "Xournal++ wrote no PDF")
        try run("/usr/bin/pdftoppm", ["-r", "288", "-png", pdf.path, tmp.appendingPathComponent("xpp").path])
        XCTAssertEqual(try OekakiBinary.run(["export", doc.path, tmp.appendingPathComponent("ours-%d.png").path, "--scale", "4"]).status, 0)
        for k in 1...2 {
            let their = tmp.appendingPathComponent("xpp-\(k).png").path
            guard FileManager.default.fileExists(atPath: their) else { XCTFail("pdftoppm wrote no page \(k)"); continue }
            let (w, h) = try sizeOf(their)
            let o = overlap(try coverage(tmp.appendingPathComponent("ours-\(k).png").path, w, h), try coverage(their, w, h))
            print("xopp layers page \(k) overlap \(String(format: "%.3f", o))")
            XCTAssertGreaterThanOrEqual(o, 0.85, "page \(k): Xournal++'s ink of our layers and ours overlap only \(o)")
        }
    }

    func testCorpusLayerCountsSurviveARoundTrip() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.corpus.path), "corpus not present")
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".xopp") }.sorted()
        for name in names {
            let src = Self.corpus.appendingPathComponent(name).path
            let before = layers(try info(src))
            let out = tmp.appendingPathComponent(name)
            let r = try OekakiBinary.run(["export", src, out.path])
            XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
            let after = layers(try info(out.path))
            XCTAssertEqual(after.map(\.count), before.map(\.count), "\(name): layers per page")
            XCTAssertEqual(after, before, "\(name): names and items per layer")
        }
    }
}
