import Foundation
import XCTest

/// `oekaki replay LOG [-o OUT]` run as a real subprocess on logs kept in Fixtures/.
final class ReplayCommandTests: XCTestCase {
    private func replay(_ args: [String], in dir: URL? = nil, stdin: Data? = nil) throws -> OekakiBinary.Result {
        try OekakiBinary.run(["replay"] + args, in: dir, stdin: stdin)
    }

    /// Replays a fixture by its bare name from the fixtures directory; expects success and one line of JSON.
    private func summary(_ fixture: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try replay([fixture], in: Fixtures.directory)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
        XCTAssertTrue(r.stdout.hasSuffix("\n"), file: file, line: line)
        XCTAssertEqual(r.stdout.filter { $0 == "\n" }.count, 1, "one line", file: file, line: line)
        return String(r.stdout.dropLast())
    }

    private func failure(_ fixture: String) throws -> OekakiBinary.Result {
        try replay([fixture], in: Fixtures.directory)
    }

    func testThreeInterleavedFingers() throws {
        XCTAssertEqual(try summary("three-fingers.jsonl"), ##"{"strokes":3,"points":12,"texts":0,"images":0,"bounds":[10,10,40,32],"items":[{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":4,"bounds":[10,10,40,12],"page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":4,"bounds":[10,20,40,22],"page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":4,"bounds":[10,30,40,32],"page":1,"layer":1}],"pages":[{"width":null,"height":null,"background":"plain","strokes":3,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":3}]}],"selected":0}"##)
    }

    func testTapIsAOnePointStroke() throws {
        XCTAssertEqual(try summary("tap.jsonl"), ##"{"strokes":1,"points":1,"texts":0,"images":0,"bounds":[100.5,200.25,100.5,200.25],"items":[{"kind":"stroke","tool":"pen","color":"#1e90ffff","width":8,"points":1,"bounds":[100.5,200.25,100.5,200.25],"page":1,"layer":1}],"pages":[{"width":null,"height":null,"background":"plain","strokes":1,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":1}]}],"selected":0}"##)
    }

    func testCancelledTouchLeavesNothingAndUnknownIdsAreIgnored() throws {
        XCTAssertEqual(try summary("cancel.jsonl"), ##"{"strokes":1,"points":2,"texts":0,"images":0,"bounds":[10,100,20,100],"items":[{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":2,"bounds":[10,100,20,100],"page":1,"layer":1}],"pages":[{"width":null,"height":null,"background":"plain","strokes":1,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":1}]}],"selected":0}"##)
    }

    func testUndoRedoClear() throws {
        // Three lines; undo, undo, redo; clear; undo; a new line empties redo, so the last redo does nothing.
        XCTAssertEqual(try summary("undo-redo.jsonl"), ##"{"strokes":3,"points":6,"texts":0,"images":0,"bounds":[0,0,10,30],"items":[{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":2,"bounds":[0,0,10,0],"page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":2,"bounds":[0,10,10,10],"page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#000000ff","width":3,"points":2,"bounds":[0,30,10,30],"page":1,"layer":1}],"pages":[{"width":800,"height":600,"background":"plain","strokes":3,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":3}]}],"selected":0}"##)
    }

    func testStrokeEraserUsesTheInkNotTheBoundingBox() throws {
        // The last eraser tap is inside the bottom line's bounding box but outside its ink: that line stays.
        XCTAssertEqual(try summary("stroke-eraser.jsonl"), ##"{"strokes":1,"points":2,"texts":0,"images":0,"bounds":[0,100,100,100],"items":[{"kind":"stroke","tool":"pen","color":"#000000ff","width":4,"points":2,"bounds":[0,100,100,100],"page":1,"layer":1}],"pages":[{"width":null,"height":null,"background":"plain","strokes":1,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":1}]}],"selected":0}"##)
    }

    func testAreaEraserCutsTheLineInTwo() throws {
        XCTAssertEqual(try summary("area-eraser.jsonl"), ##"{"strokes":2,"points":6,"texts":0,"images":0,"bounds":[0,0,100,0],"items":[{"kind":"stroke","tool":"highlighter","color":"#ff000080","width":10,"points":3,"bounds":[0,0,40,0],"page":1,"layer":1},{"kind":"stroke","tool":"highlighter","color":"#ff000080","width":10,"points":3,"bounds":[60,0,100,0],"page":1,"layer":1}],"pages":[{"width":null,"height":null,"background":"plain","strokes":2,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":2}]}],"selected":0}"##)
    }

    func testMalformedLinesExitOneWithFileAndLine() throws {
        let cases: [(String, String)] = [
            ("bad-phase.jsonl", #"bad-phase.jsonl:3: unknown phase "sideways""#),
            ("not-json.jsonl", "not-json.jsonl:2: not JSON: expected a key in quotes at column 34"),
            ("bad-colour.jsonl", ##"bad-colour.jsonl:1: bad colour "#12345G" (expected #RRGGBB or #RRGGBBAA)"##),
            ("missing-number.jsonl", #"missing-number.jsonl:4: missing "x""#),
            ("non-finite.jsonl", #"non-finite.jsonl:1: "x" is not a finite number"#),
            ("unknown-type.jsonl", #"unknown-type.jsonl:1: unknown type "teleport""#),
            ("bad-scale.jsonl", #"bad-scale.jsonl:3: "sx" is 0 (a scale must not flatten the selection)"#),
        ]
        for (fixture, message) in cases {
            let r = try failure(fixture)
            XCTAssertEqual(r.status, 1, fixture)
            XCTAssertEqual(r.stderr, "oekaki: \(message)\n", fixture)
            XCTAssertEqual(r.stdout, "", "no summary for a bad log: \(fixture)")
        }
    }

    func testMessageUsesThePathAsGiven() throws {
        let path = Fixtures.path("bad-phase.jsonl")
        let r = try replay([path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "oekaki: \(path):3: unknown phase \"sideways\"\n")
    }

    func testMissingOrUnreadableFileExitsOne() throws {
        var r = try replay(["no-such-log.jsonl"], in: Fixtures.directory)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "oekaki: no-such-log.jsonl: no such file\n")
        r = try replay([Fixtures.directory.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("oekaki: \(Fixtures.directory.path): is a directory"), r.stderr)
        XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line")
    }

    func testUsageErrorsExitTwoWithTheUsageInOneLine() throws {
        for args in [[], ["-x", "three-fingers.jsonl"], ["three-fingers.jsonl", "extra.jsonl"], ["three-fingers.jsonl", "-o"]] {
            let r = try replay(args, in: Fixtures.directory)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertTrue(r.stderr.hasPrefix("oekaki: replay: "), r.stderr)
            XCTAssertTrue(r.stderr.hasSuffix(" (usage: oekaki replay LOG [-o OUT.oekaki])\n"), r.stderr)
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line")
            XCTAssertEqual(r.stdout, "")
        }
    }

    func testReadsStandardInput() throws {
        let log = try Data(contentsOf: Fixtures.directory.appendingPathComponent("three-fingers.jsonl"))
        let r = try replay(["-"], stdin: log)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try summary("three-fingers.jsonl") + "\n")
    }

    func testLargeGeneratedLogWithEverything() throws {
        // 30 strokes of 500 samples from 3 fingers, then erasing, undo and redo: checks streaming across chunks.
        var text = #"{"type":"canvas","width":4000,"height":3000}"# + "\n"
        for s in 0..<10 {
            for k in 0..<500 {
                for f in 0..<3 {
                    let phase = k == 0 ? "began" : (k == 499 ? "ended" : "moved")
                    text += #"{"type":"touch","phase":"\#(phase)","id":\#(f),"x":\#(k * 4),"y":\#(s * 90 + f * 30),"t":\#(k * 8),"extra":[1,{"a":"b"}]}"# + "\n"
                }
            }
        }
        text += #"{"type":"tool","tool":"stroke-eraser","width":10}"# + "\n"
        text += #"{"type":"touch","phase":"began","id":7,"x":1000,"y":0}"# + "\n"
        text += #"{"type":"touch","phase":"ended","id":7,"x":1000,"y":30}"# + "\n"
        text += #"{"type":"undo"}"# + "\n" + #"{"type":"redo"}"# + "\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(text.utf8).write(to: dir.appendingPathComponent("big.jsonl"))
        let r = try replay(["big.jsonl"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["strokes"] as? Int, 28, "two strokes erased")
        XCTAssertEqual(obj["points"] as? Int, 28 * 500)
        let items = try XCTUnwrap(obj["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 28)
        XCTAssertTrue(items.allSatisfy { ($0["points"] as? Int) == 500 })
    }

    func testWritesADocumentWithDashO() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.oekaki").path
        let r = try replay([Fixtures.path("three-fingers.jsonl"), "-o", out])
        if r.stderr.contains("not implemented") { throw XCTSkip("the document store is not implemented yet") }
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, try summary("three-fingers.jsonl") + "\n")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 0)
        // An unwritable destination is bad input: exit 1, one line naming it.
        let bad = dir.appendingPathComponent("no/such/dir/out.oekaki").path
        let f = try replay([Fixtures.path("three-fingers.jsonl"), "-o", bad])
        XCTAssertEqual(f.status, 1)
        XCTAssertTrue(f.stderr.hasPrefix("oekaki: \(bad): "), f.stderr)
        XCTAssertEqual(f.stderr.filter { $0 == "\n" }.count, 1)
    }
}
