import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// The board under faults, with real servers on loopback: killed mid-burst, paused (a partition), users without
/// permission, and hostile entries on the log. (A cluster losing its stream leader: `ClusterTests`.)
final class BoardFaultTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sync-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    /// One user: a replica document and its sync engine. `offline` after a failure, as the app would back off.
    final class Client {
        let sync: BoardSync
        var offline = false
        var drawn: [StrokeID] = []
        let color: RGBA
        init(_ path: String, _ url: String, color: RGBA) throws {
            let doc = try DocumentFile.create(path: path, drawing: Drawing())
            sync = try BoardSync(document: doc, url: try BoardURL(url))
            sync.note = { _ in }
            self.color = color
        }

        /// Draws one line (committed to the file at once, like the app), then tries the network if online.
        func draw(_ k: Int) throws {
            let id = sync.replica.document.nextStrokeID
            let points = (0..<5).map { InkPoint(x: Double(10 + 30 * $0), y: Double(k * 4 % 1000), pressure: 0.5) }
            try sync.commit([.did(.add([Stroke(id: id, style: StrokeStyle(color: color), points: points)]))])
            drawn.append(id)
            guard !offline else { return }
            do { try sync.push(); try sync.pull(waitMs: 0) } catch { offline = true }
        }

        /// Reconnects (the server may still be starting) and syncs.
        func reconnectAndSync(within seconds: Double = 20) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                do {
                    sync.disconnect()
                    try sync.connect(timeoutMs: 2000)
                    try sync.syncOnce(timeoutMs: 5000)
                    offline = false
                    return
                } catch {
                    if Date() > deadline { throw error }
                    usleep(200_000)
                }
            }
        }

        /// The board as this replica draws it: global ids in drawing order.
        var board: [String] {
            sync.replica.drawing.strokes.map { s in sync.replica.ledger.globalID(local: s.id).map(\.description) ?? "local \(s.id)" }
        }
    }

    func clients(_ n: Int, _ url: String) throws -> [Client] {
        try (0..<n).map { try Client(tmp.appendingPathComponent("c\($0).oekaki").path, url, color: RGBA(r: UInt8(60 * $0), g: 0, b: 0)) }
    }

    /// All replicas identical, every stroke anyone drew on them exactly once.
    func assertConverged(_ cs: [Client], file: StaticString = #filePath, line: UInt = #line) {
        let expected = cs.reduce(0) { $0 + $1.drawn.count }
        for c in cs {
            XCTAssertEqual(c.board, cs[0].board, file: file, line: line)
            XCTAssertEqual(c.board.count, expected, "strokes lost or duplicated", file: file, line: line)
            XCTAssertEqual(Set(c.board).count, c.board.count, "a stroke twice", file: file, line: line)
            XCTAssertFalse(c.board.contains { $0.hasPrefix("local") }, "unpublished strokes", file: file, line: line)
            XCTAssertEqual(c.sync.waiting, 0, file: file, line: line)
        }
    }

    func testServerKilledMidBurstLosesNothingAndDuplicatesNothing() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let cs = try clients(3, server.url + "/burst")
        for c in cs { try c.sync.connect(timeoutMs: 1000) }
        // kill -9 from another thread while the three are publishing: 120 lines each, the kill lands after ~40.
        let go = DispatchSemaphore(value: 0), killed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { go.wait(); server.kill9(); killed.signal() }
        for k in 0..<120 {
            if k == 40 { go.signal() }
            for c in cs { try c.draw(k) }
        }
        killed.wait()
        XCTAssertTrue(cs.allSatisfy(\.offline), "the kill was noticed")
        // Back on the same store: everything acknowledged is still there; the outboxes go up now.
        try server.start()
        for _ in 0..<2 { for c in cs { try c.reconnectAndSync() } }
        assertConverged(cs)
        XCTAssertEqual(cs[0].board.count, 3 * 120)
    }

    func testPausedServerPartitionThenConverge() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let cs = try clients(2, server.url + "/pause")
        for c in cs { try c.sync.connect(timeoutMs: 1000) }
        for k in 0..<10 { for c in cs { try c.draw(k) } }
        server.pause()
        // Both keep drawing (and erasing) while the server does not answer.
        for k in 10..<40 { for c in cs { try c.draw(k) } }
        let victim = cs[1].sync.replica.drawing.strokes[0]
        try cs[1].sync.commit([.did(.remove([victim]))])
        server.resume()
        for _ in 0..<2 { for c in cs { try c.reconnectAndSync() } }
        let all = cs[0].board
        XCTAssertEqual(cs[1].board, all)
        XCTAssertEqual(all.count, 2 * 40 - 1)
    }

    func testUserWithoutPermissionCanNeitherReadNorWriteTheBoard() throws {
        let accounts = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/sharing/accounts.conf"), encoding: .utf8)
        XCTAssertFalse(accounts.contains("\"$JS.>\"") || accounts.contains("\"$JS.API.>\""), "clients never get the admin API")
        let server = try NatsServer(extra: accounts)
        defer { server.stop() }
        try server.start()
        let host = "127.0.0.1:\(server.port)"
        // alice draws on "art"; dora's permissions cover only "notes".
        let alice = try Client(tmp.appendingPathComponent("alice.oekaki").path, "nats://alice:alice-secret@\(host)/art", color: .black)
        try alice.reconnectAndSync()
        try alice.draw(1); try alice.sync.syncOnce()

        let r = try Oekaki.run(["sync", tmp.appendingPathComponent("dora.oekaki").path, "nats://dora:dora-secret@\(host)/art", "--once"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no permission for board 'art'"), r.stderr)
        let wrong = try Oekaki.run(["sync", tmp.appendingPathComponent("x.oekaki").path, "nats://alice:nope@\(host)/art", "--once"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("refused the user name or password"), wrong.stderr)

        // Straight at the subjects, past the app: dora's publish is dropped and her subscription gets nothing.
        let dora = try NatsConnection(url: server.url, user: "dora", password: "dora-secret", timeoutMs: 1000, name: "dora")
        let peek = try dora.subscribe("oekaki.board.art.>")
        let forged = try OperationCodec.encode(BoardOperation(client: 7, number: 1, change: .remove([BoardStrokeID(client: alice.sync.replica.client, number: alice.drawn[0])])))
        dora.publishCore("oekaki.board.art.log", forged)
        dora.flush()
        try alice.draw(2); try alice.sync.syncOnce()
        XCTAssertNil(try? dora.next(peek, timeoutMs: 300))
        XCTAssertEqual(alice.sync.replica.drawing.strokes.count, 2, "dora's remove never reached the board")
        let check = try Client(tmp.appendingPathComponent("check.oekaki").path, "nats://alice:alice-secret@\(host)/art", color: .black)
        try check.reconnectAndSync()
        XCTAssertEqual(check.board, alice.board)
    }

    func testHostileEntriesAreSkippedWithANote() throws {
        let server = try NatsServer(extra: "max_payload: 16MB")
        defer { server.stop() }
        try server.start()
        let url = try BoardURL(server.url + "/hostile")
        let peer = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "peer")
        try peer.addStream(url.stream, subject: url.logSubject, replicas: 1, maxMessageBytes: 12 << 20)
        var good = try OperationCodec.encode(BoardOperation(client: 5, number: 1, change: .add(BoardStroke(
            id: BoardStrokeID(client: 5, number: 1), style: StrokeStyle(), points: [InkPoint(x: 1, y: 1), InkPoint(x: 9, y: 9)]))))
        var nanWidth = good
        for i in 0..<8 { nanWidth[3 + 1 + 1 + 1 + 2 + 1 + 1 + 1 + 4 + i] = withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { $0[i] } }
        var unknownKind = good; unknownKind[3] = 77
        var rng = SeededRandom(seed: 3)
        let garbage = (0..<300).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let huge = [UInt8](repeating: 0x4F, count: 9 << 20)   // over the reader's 8 MiB limit
        for (k, bytes) in [nanWidth, unknownKind, garbage, huge, []].enumerated() {
            _ = try peer.publish(url.logSubject, bytes, messageID: "bad-\(k)")
        }
        _ = try peer.publish(url.logSubject, good, messageID: "good")
        good[good.count - 1] ^= 0xff   // a corrupt point blob
        _ = try peer.publish(url.logSubject, good, messageID: "corrupt")
        peer.close()

        let file = tmp.appendingPathComponent("h.oekaki").path
        let start = Date()
        let r = try Oekaki.run(["sync", file, url.description, "--once"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        XCTAssertTrue(r.stderr.contains("unknown operation kind 77"), r.stderr)
        XCTAssertTrue(r.stderr.contains("over the 8388608-byte limit"), r.stderr)
        XCTAssertTrue(r.stderr.contains("width"), r.stderr)
        let info = try Oekaki.run(["info", file])
        let summary = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(summary?["strokes"] as? Int, 1, info.stdout)
        XCTAssertEqual(summary?["points"] as? Int, 2, info.stdout)
    }
}
