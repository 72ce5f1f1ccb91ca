import Foundation
import XCTest

/// Layers on the command line: `layer` lines of an event log replayed by `oekaki replay`, the summary's `layers`
/// and each item's `layer`, malformed lines as `FILE:LINE: what is wrong` with exit 1, and a `.oekaki` written by
/// `replay -o` whose layers, and their undo, `info` reads back after reopening.
final class LayersCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    private func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    private func write(_ lines: [String], _ name: String = "log.jsonl") throws -> String {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    private func layers(_ j: [String: Any]) -> [[String]] {
        (j["pages"] as? [[String: Any]] ?? []).map { p in
            (p["layers"] as? [[String: Any]] ?? []).map { l in
                "\(l["name"] as? String ?? "?") \((l["visible"] as? Bool ?? true) ? "shown" : "hidden") \(l["strokes"] as? Int ?? -1)"
            }
        }
    }

    private func itemLayers(_ j: [String: Any]) -> [String] {
        (j["items"] as? [[String: Any]] ?? []).map { "\($0["page"] as? Int ?? 0):\($0["layer"] as? Int ?? 0)" }
    }

    static func line(_ id: Int, y: Int) -> [String] {
        [#"{"type":"touch","phase":"began","id":\#(id),"x":0,"y":\#(y)}"#, #"{"type":"touch","phase":"ended","id":\#(id),"x":80,"y":\#(y)}"#]
    }

    /// The issue's worksheet: ink, a "Notes" layer above it, an "Answers" layer on every page, hidden by name.
    static let worksheet: [String] = line(1, y: 10) + [
        #"{"type":"layer","op":"add","name":"Notes"}"#,
    ] + line(1, y: 20) + [
        #"{"type":"layer","op":"add","name":"Answers","allPages":true}"#,
    ] + line(1, y: 30) + [
        #"{"type":"page","op":"add"}"#,
    ] + line(1, y: 40) + [
        #"{"type":"layer","op":"select","index":1}"#,
    ] + line(1, y: 50) + [
        #"{"type":"layer","op":"hide","name":"Answers"}"#,
        #"{"type":"layer","op":"rename","index":1,"name":"Ink"}"#,
        #"{"type":"page","op":"goto","index":1}"#,
        #"{"type":"layer","op":"up","index":1}"#,
    ]

    func testReplaySummaryListsLayersBottomToTopAndEachItemsLayer() throws {
        let r = try OekakiBinary.run(["replay", try write(Self.worksheet)])
        XCTAssertEqual(r.status, 0, r.stderr)
        let j = try json(r.stdout)
        XCTAssertEqual(layers(j), [["Notes shown 1", "Layer 1 shown 1", "Answers hidden 1"], ["Ink shown 1", "Answers hidden 1"]])
        XCTAssertEqual(itemLayers(j), ["1:1", "1:2", "1:3", "2:1", "2:2"], "items layer by layer from the bottom")
    }

    func testAnOekakiFileKeepsLayersAndInfoReadsThemBack() throws {
        let out = path("worksheet.oekaki")
        let r = try OekakiBinary.run(["replay", try write(Self.worksheet), "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try OekakiBinary.run(["info", out])
        XCTAssertEqual(info.status, 0, info.stderr)
        let j = try json(info.stdout)
        XCTAssertEqual(layers(j), [["Notes shown 1", "Layer 1 shown 1", "Answers hidden 1"], ["Ink shown 1", "Answers hidden 1"]])
        XCTAssertEqual(itemLayers(j), ["1:1", "1:2", "1:3", "2:1", "2:2"])
        let page2 = try OekakiBinary.run(["info", out, "--page", "2"])
        XCTAssertEqual(page2.status, 0, page2.stderr)
        XCTAssertEqual(itemLayers(try json(page2.stdout)), ["0:1", "0:2"], "one page's items name their layer too")
    }

    func testDeletingTheOnlyLayerLeavesOneEmptyLayer() throws {
        let r = try OekakiBinary.run(["replay", try write(Self.line(1, y: 10) + [#"{"type":"layer","op":"delete","index":1}"#])])
        XCTAssertEqual(r.status, 0, r.stderr)
        let j = try json(r.stdout)
        XCTAssertEqual(layers(j), [["Layer 1 shown 0"]])
        XCTAssertEqual(j["strokes"] as? Int, 0)
    }

    /// `move` takes the selection to this page's layer K, which becomes current (new ink goes there); undo puts the
    /// items back.
    func testMoveTakesTheSelectionToALayer() throws {
        let lines = Self.line(1, y: 10) + Self.line(1, y: 20) + [
            #"{"type":"layer","op":"add","name":"Answers"}"#,
            #"{"type":"layer","op":"select","index":1}"#,
            #"{"type":"selection","op":"all"}"#,
            #"{"type":"layer","op":"move","index":2}"#,
        ] + Self.line(1, y: 30)
        let r = try OekakiBinary.run(["replay", try write(lines)])
        XCTAssertEqual(r.status, 0, r.stderr)
        let j = try json(r.stdout)
        XCTAssertEqual(layers(j), [["Layer 1 shown 0", "Answers shown 3"]])
        XCTAssertEqual(itemLayers(j), ["1:2", "1:2", "1:2"])

        let undone = try OekakiBinary.run(["replay", try write(lines + [#"{"type":"undo"}"#, #"{"type":"undo"}"#], "undo.jsonl")])
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(layers(try json(undone.stdout)), [["Layer 1 shown 2", "Answers shown 0"]])
    }

    func testMalformedLayerLinesNameFileAndLine() throws {
        let cases: [(String, String)] = [
            (#"{"type":"layer","op":"hide"}"#, #"missing "index" or "name""#),
            (#"{"type":"layer","op":"select","index":0}"#, #""index" 0 is not a layer number (1 or more, from the bottom)"#),
            (#"{"type":"layer","op":"twirl","index":1}"#, #"unknown layer op "twirl" (add, select, hide, show, delete, up, down, rename or move)"#),
            (#"{"type":"layer","op":"delete","index":4}"#, "page 1 has no layer 4 (it has 1)"),
            (#"{"type":"layer","op":"rename","index":1}"#, #"missing "name""#),
            (#"{"type":"layer","op":"move"}"#, #"missing "index""#),
            (#"{"type":"layer","op":"move","index":2}"#, "page 1 has no layer 2 (it has 1)"),
        ]
        for (bad, message) in cases {
            let log = try write(Self.line(1, y: 10) + [bad], "bad.jsonl")
            let r = try OekakiBinary.run(["replay", log])
            XCTAssertEqual(r.status, 1, bad)
            XCTAssertEqual(r.stdout, "", bad)
            XCTAssertEqual(r.stderr, "oekaki: \(log):3: \(message)\n", bad)
        }
    }
}
