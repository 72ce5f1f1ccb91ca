import Foundation
import XCTest

/// `oekaki sync FILE URL [--once]` against a real `nats-server -js` on loopback: the command-line contract.
final class SyncCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sync-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// An event log of `strokes` pen lines in `color`, then the given extra lines (erasers, undo, clear).
    static func log(color: String, y: Int, strokes: Int, extra: [String] = []) -> String {
        var lines = [#"{"type":"canvas","width":800,"height":600}"#, #"{"type":"tool","tool":"pen","color":"\#(color)","width":3}"#]
        for k in 0..<strokes {
            let yy = y + 10 * k
            lines.append(#"{"type":"touch","phase":"began","id":1,"x":10,"y":\#(yy),"t":0}"#)
            lines.append(#"{"type":"touch","phase":"moved","id":1,"x":100,"y":\#(yy + 3),"t":8}"#)
            lines.append(#"{"type":"touch","phase":"ended","id":1,"x":200,"y":\#(yy),"t":16}"#)
        }
        return (lines + extra).joined(separator: "\n") + "\n"
    }

    func replay(_ log: String, to file: String) throws {
        let l = path(UUID().uuidString + ".jsonl")
        try log.write(toFile: l, atomically: true, encoding: .utf8)
        let r = try Oekaki.run(["replay", l, "-o", file])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testThreeReplicasEndIdenticalAfterTwoRoundsOfSyncOnce() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let board = server.url + "/class"
        // A cuts one of its lines with the area eraser; C erases one of its own and undoes nothing.
        let cut = [#"{"type":"tool","tool":"area-eraser","width":20}"#,
                   #"{"type":"touch","phase":"began","id":2,"x":60,"y":0,"t":30}"#,
                   #"{"type":"touch","phase":"ended","id":2,"x":60,"y":40,"t":40}"#]
        let erase = [#"{"type":"tool","tool":"stroke-eraser","width":8}"#,
                     #"{"type":"touch","phase":"began","id":2,"x":150,"y":300,"t":30}"#,
                     #"{"type":"touch","phase":"ended","id":2,"x":150,"y":301,"t":40}"#]
        try replay(Self.log(color: "#ff0000", y: 10, strokes: 3, extra: cut), to: path("a.oekaki"))
        try replay(Self.log(color: "#00ff00", y: 200, strokes: 4), to: path("b.oekaki"))
        try replay(Self.log(color: "#0000ff", y: 300, strokes: 2, extra: erase), to: path("c.oekaki"))
        // D starts from nothing: the file is created.
        for _ in 0..<2 {
            for f in ["a", "b", "c", "d"] {
                let r = try Oekaki.run(["sync", path(f + ".oekaki"), board, "--once"])
                XCTAssertEqual(r.status, 0, r.stderr)
            }
        }
        // The board carries strokes, not page formats (yet): D, created by sync, keeps a new drawing's endless page
        // while A–C have their logs' 800 × 600, so the page list is left out of the comparison.
        let infos = try ["a", "b", "c", "d"].map {
            try Oekaki.run(["info", path($0 + ".oekaki")]).stdout.replacingOccurrences(of: #","pages":\[[^\]]*\]"#, with: "", options: .regularExpression)
        }
        XCTAssertEqual(Set(infos).count, 1, infos.joined(separator: "\n"))
        // A's 3 lines, each cut in two → 6 pieces; B's 4; C's 2 minus the erased one. A's pieces come first.
        let json = try JSONSerialization.jsonObject(with: Data(infos[0].utf8)) as? [String: Any]
        XCTAssertEqual(json?["strokes"] as? Int, 6 + 4 + 1, infos[0])
        let colors = (json?["items"] as? [[String: Any]])?.compactMap { $0["color"] as? String }
        XCTAssertEqual(colors?.first, "#ff0000ff")
    }

    func testBadInputIsOneLineAndExitOne() throws {
        // Nothing listens on this port.
        let closed = NatsServer.freePort()
        let start = Date()
        let r1 = try Oekaki.run(["sync", path("x.oekaki"), "nats://127.0.0.1:\(closed)/b", "--once"])
        XCTAssertEqual(r1.status, 1); XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertTrue(r1.stderr.contains("no NATS server answered"), r1.stderr)
        for bad in ["http://127.0.0.1:4222/b", "nats://127.0.0.1/b", "nats://127.0.0.1:4222/", "nats://127.0.0.1:4222/a.b", "nats://:4222/b"] {
            let r = try Oekaki.run(["sync", path("x.oekaki"), bad, "--once"])
            XCTAssertEqual(r.status, 1, bad)
            XCTAssertTrue(r.stderr.contains("is not a board URL"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        try "not a drawing".write(toFile: path("t.txt"), atomically: true, encoding: .utf8)
        let r2 = try Oekaki.run(["sync", path("t.txt"), "nats://127.0.0.1:\(closed)/b", "--once"])
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stderr.contains("not an Oekaki document"), r2.stderr)
        XCTAssertEqual(r2.stderr.split(separator: "\n").count, 1, r2.stderr)
    }
}
