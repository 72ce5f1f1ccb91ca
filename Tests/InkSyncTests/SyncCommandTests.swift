import Foundation
import XCTest
import InkCore
import InkStore

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
        // Pages and their formats too: D, created by sync, takes the board's 800 × 600 first page.
        let infos = try ["a", "b", "c", "d"].map { try Oekaki.run(["info", path($0 + ".oekaki")]).stdout }
        XCTAssertEqual(Set(infos).count, 1, infos.joined(separator: "\n"))
        // A's 3 lines, each cut in two → 6 pieces; B's 4; C's 2 minus the erased one. A's pieces come first.
        let json = try JSONSerialization.jsonObject(with: Data(infos[0].utf8)) as? [String: Any]
        XCTAssertEqual(json?["strokes"] as? Int, 6 + 4 + 1, infos[0])
        let colors = (json?["items"] as? [[String: Any]])?.compactMap { $0["color"] as? String }
        XCTAssertEqual(colors?.first, "#ff0000ff")
    }

    /// Opens a replica file as the app would, does `body`'s edits and commits them: a user working offline.
    func edit(_ name: String, _ body: (Editor) throws -> [Update]) throws {
        let doc = try DocumentFile.open(path: path(name + ".oekaki"))
        defer { doc.close() }
        let editor = Editor(document: doc.document, history: doc.history)
        for u in try body(editor) { try doc.commit(u.changes) }
    }

    func info(_ name: String) throws -> [String: Any] {
        let r = try Oekaki.run(["info", path(name + ".oekaki")])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    func testEveryPageAndEverySelectionEditReachesEveryReplica() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let board = server.url + "/notebook"
        // A: three pages (the third deleted again before sharing: it never reaches the board); its second page's
        // ink moved and recoloured with a selection. B: two pages. D: nothing yet.
        let page2 = [#"{"type":"page","op":"add","width":595,"height":842,"background":"ruled"}"#,
                     ##"{"type":"tool","tool":"pen","color":"#0000ff","width":2}"##,
                     #"{"type":"touch","phase":"began","id":1,"x":50,"y":50,"t":0}"#,
                     #"{"type":"touch","phase":"moved","id":1,"x":90,"y":60,"t":8}"#,
                     #"{"type":"touch","phase":"ended","id":1,"x":150,"y":50,"t":16}"#,
                     #"{"type":"selection","op":"all"}"#,
                     #"{"type":"selection","op":"translate","dx":10,"dy":300}"#,
                     ##"{"type":"selection","op":"style","color":"#ff8800"}"##,
                     #"{"type":"selection","op":"none"}"#,
                     #"{"type":"page","op":"add"}"#,
                     #"{"type":"touch","phase":"began","id":1,"x":5,"y":5,"t":30}"#,
                     #"{"type":"touch","phase":"ended","id":1,"x":50,"y":5,"t":40}"#,
                     #"{"type":"page","op":"delete"}"#]
        try replay(Self.log(color: "#ff0000", y: 10, strokes: 2, extra: page2), to: path("a.oekaki"))
        try replay(Self.log(color: "#00ff00", y: 200, strokes: 1, extra: [#"{"type":"page","op":"add","background":"graph"}"#,
            #"{"type":"touch","phase":"began","id":1,"x":5,"y":5,"t":30}"#, #"{"type":"touch","phase":"ended","id":1,"x":50,"y":5,"t":40}"#]),
                   to: path("b.oekaki"))
        func syncAll() throws {
            for _ in 0..<2 {
                for f in ["a", "b", "d"] {
                    let r = try Oekaki.run(["sync", path(f + ".oekaki"), board, "--once"])
                    XCTAssertEqual(r.status, 0, r.stderr)
                }
            }
            let infos = try ["a", "b", "d"].map { try Oekaki.run(["info", path($0 + ".oekaki")]).stdout }
            XCTAssertEqual(Set(infos).count, 1, infos.joined(separator: "\n"))
        }
        try syncAll()
        var d = try info("d")
        // The first pages are one page; A's second and B's second follow it; A's deleted third is not there.
        var pages = d["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.map { $0["strokes"] as? Int }, [3, 1, 1], "\(d)")
        XCTAssertEqual(Set(pages.dropFirst().map { $0["background"] as? String }), ["ruled", "graph"], "\(d)")
        let moved = (d["items"] as? [[String: Any]])?.first { $0["color"] as? String == "#ff8800ff" }
        XCTAssertEqual((moved?["bounds"] as? [Double])?.first, 60, "A's moved stroke is moved on D: \(d)")

        // Offline at once: A moves the first page's ink right by 100 and moves that page below the next; B recolours
        // the same ink and gives the first page dotted paper. Each part of each change survives on every replica.
        try edit("a") { e in
            [try e.apply(.all), try e.apply(.translate(dx: 100, dy: 0)), e.movePage(by: 1)]
        }
        try edit("b") { e in
            [try e.apply(.all), try e.apply(.style(color: RGBA(r: 0x12, g: 0x34, b: 0x56), keepsAlpha: false, width: nil)),
             e.setBackground(Background(style: .dotted))]
        }
        try syncAll()
        d = try info("d")
        pages = d["pages"] as? [[String: Any]] ?? []
        XCTAssertEqual(pages.count, 3, "\(d)")
        XCTAssertEqual(pages[1]["background"] as? String, "dotted", "the first page, moved down, with B's paper: \(d)")
        XCTAssertEqual(pages[1]["strokes"] as? Int, 3, "\(d)")
        let first = (d["items"] as? [[String: Any]] ?? []).filter { $0["page"] as? Int == 2 }
        XCTAssertEqual(first.map { $0["color"] as? String }, Array(repeating: "#123456ff", count: 3), "B's colour: \(d)")
        XCTAssertEqual(first.compactMap { ($0["bounds"] as? [Double])?.first }.min(), 110, "A's move: \(d)")
        XCTAssertEqual(d["strokes"] as? Int, 5, "a restyle is no new stroke: \(d)")
    }

    /// A stroke larger than a NATS message (1 MB by default) goes out in parts and arrives whole.
    func testAStrokeLargerThanAMessageArrives() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let board = server.url + "/big"
        let points = (0..<400_000).map { (i: Int) -> InkPoint in InkPoint(x: Double((i * 7919) % 1000), y: Double((i * 104_729) % 997), pressure: 1) }
        let doc = try DocumentFile.create(path: path("a.oekaki"), drawing: Drawing(strokes: [Stroke(id: 1, style: StrokeStyle(), points: points)]))
        doc.close()
        for f in ["a", "b", "a", "b"] {
            let r = try Oekaki.run(["sync", path(f + ".oekaki"), board, "--once"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertFalse(r.stderr.contains("not published"), r.stderr)
        }
        let b = try info("b")
        XCTAssertEqual((b["items"] as? [[String: Any]])?.map { $0["points"] as? Int }, [400_000], "\(b["strokes"] ?? "")")
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
