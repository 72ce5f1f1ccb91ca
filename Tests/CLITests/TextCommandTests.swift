import Foundation
import XCTest

/// Text through the command line: a Xournal++ file's text comes in (`info` lists it), round-trips through
/// `.oekaki` and `.xopp`, and exports as real text (PDF, read back with pdftotext) and SVG `<text>`.
final class TextCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("text-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    private func gzip(_ xml: String, to name: String) throws -> String {
        let plain = tmp.appendingPathComponent(name + ".xml")
        try Data(xml.utf8).write(to: plain)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        p.arguments = ["-n", "-c", plain.path]
        let out = tmp.appendingPathComponent(name)
        FileManager.default.createFile(atPath: out.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        try p.run(); p.waitUntilExit()
        return out.path
    }

    private func run(_ args: [String]) throws -> OekakiBinary.Result {
        let r = try OekakiBinary.run(args)
        XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        return r
    }

    private func json(_ s: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any] ?? [:]
    }

    func testTextComesInRoundTripsAndExportsAsText() throws {
        let xopp = try gzip("""
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <page width="595" height="842"><background type="solid" color="#ffffffff" style="plain"/><layer>
        <stroke tool="pen" color="#000000ff" width="2">10 10 100 100</stroke>
        <text font="DejaVu Serif" size="20" x="50" y="300" color="#aa0000ff" ts="0" fn="">Wombat notes
        二行目</text>
        </layer></page>
        <page width="595" height="842"><background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="12" x="10" y="10" color="#000000ff">second page</text></layer></page>
        </xournal>
        """, to: "in.xopp")
        let info = try json(run(["info", xopp]).stdout)
        XCTAssertEqual(info["strokes"] as? Int, 1)
        XCTAssertEqual(info["texts"] as? Int, 2)
        XCTAssertEqual(info["images"] as? Int, 0)
        let items = info["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.map { $0["kind"] as? String }, ["stroke", "text", "text"])
        XCTAssertEqual(items[1]["text"] as? String, "Wombat notes\n二行目")
        XCTAssertEqual(items[1]["font"] as? String, "DejaVu Serif")
        XCTAssertEqual(items[1]["size"] as? Double, 20)
        XCTAssertEqual(items[1]["color"] as? String, "#aa0000ff")
        XCTAssertEqual((items[1]["bounds"] as? [Double])?.prefix(2), [50, 300])
        XCTAssertEqual((info["pages"] as? [[String: Any]])?.map { $0["texts"] as? Int }, [1, 1])

        // .oekaki and back to .xopp: the same items.
        let doc = tmp.appendingPathComponent("t.oekaki").path, back = tmp.appendingPathComponent("back.xopp").path
        _ = try run(["export", xopp, doc])
        _ = try run(["export", doc, back])
        for file in [doc, back] {
            let again = try json(run(["info", file]).stdout)
            let its = again["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(its.map { $0["kind"] as? String }, ["stroke", "text", "text"], file)
            XCTAssertEqual(its[1]["text"] as? String, "Wombat notes\n二行目", file)
            XCTAssertEqual(its[1]["font"] as? String, "DejaVu Serif", file)
            XCTAssertEqual(its[1]["size"] as? Double, 20, file)
            XCTAssertEqual(its[1]["color"] as? String, "#aa0000ff", file)
            XCTAssertEqual((its[1]["bounds"] as? [Double])?.prefix(2), [50, 300], file)
        }

        // PDF: real text; SVG: <text> naming the font; PNG: the glyphs.
        let pdf = tmp.appendingPathComponent("t.pdf").path
        _ = try run(["export", doc, pdf])
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext") {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
            p.arguments = [pdf, pdf + ".txt"]
            try p.run(); p.waitUntilExit()
            let text = try String(contentsOfFile: pdf + ".txt", encoding: .utf8)
            XCTAssertTrue(text.contains("Wombat notes") && text.contains("二行目") && text.contains("second page"), text)
        }
        let svg = tmp.appendingPathComponent("t.svg").path
        _ = try run(["export", doc, svg, "--page", "1"])
        let s = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(s.contains("font-family=\"DejaVu Serif\"") && s.contains(">Wombat notes</tspan>"), s)
    }
}
