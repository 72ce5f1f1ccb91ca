import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// Board snapshots in JetStream, against a real `nats-server -js` on loopback: a new replica starts from the newest
/// snapshot and reads only the log after it; hostile snapshots are refused in one line and the log is read
/// instead; the log before a snapshot stays unless `keep=snapshot` asks otherwise.
final class BoardSnapshotTests: XCTestCase {
    var tmp: URL!
    var server: NatsServer!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sync-snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        server = try NatsServer()
        try server.start()
    }
    override func tearDown() { server?.stop(); server = nil; try? FileManager.default.removeItem(at: tmp) }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// A replica that draws `strokes` lines one by one (committed, published, back from the log), then erases
    /// every third and undoes the last erase, so the board holds hidden strokes too.
    func draw(_ file: String, _ url: String, strokes: Int) throws -> BoardSync {
        let sync = try BoardSync(document: try DocumentFile.create(path: file, drawing: Drawing()), url: try BoardURL(url))
        sync.note = { _ in }
        try sync.connect(timeoutMs: 2000)
        var ids: [StrokeID] = []
        for k in 0..<strokes {
            let id = sync.replica.document.nextStrokeID
            var pts: [InkPoint] = []
            for i in 0..<20 {
                let x = Double(10 + 7 * i), y = Double(5 + 3 * k) + sin(Double(i))
                pts.append(InkPoint(x: x, y: y, pressure: 0.2 + 0.03 * Double(i)))
            }
            try sync.commit([.did(.add([Stroke(id: id, style: StrokeStyle(), points: pts)]))])
            ids.append(id)
            try sync.syncOnce()
        }
        var last: Edit?
        for id in ids where id % 3 == 0 {
            guard let s = sync.replica.drawing.strokes.first(where: { $0.id == id }) else { continue }
            let e = Edit.remove([s])
            try sync.commit([.did(e)])
            last = e
        }
        if let last { try sync.commit([.undid(last)]) }
        try sync.syncOnce()
        return sync
    }

    /// The board as a replica shows it: each stroke's board id and points, in drawing order.
    func board(_ s: BoardSync) -> [String] {
        s.replica.drawing.strokes.map { st in
            "\(s.replica.ledger.globalID(local: st.id).map(\.description) ?? "local") \(st.points.count) \(Int(st.points[0].x * 20)),\(Int(st.points[0].y * 20))"
        }
    }

    func join(_ file: String, _ url: String, notes: inout [String]) throws -> (BoardSync, UInt64?) {
        var lines: [String] = []
        let seeded = BoardSnapshot.seed(path: file, url: try BoardURL(url)) { lines.append($0) }
        notes += lines
        let doc = FileManager.default.fileExists(atPath: file) ? try DocumentFile.open(path: file) : try DocumentFile.create(path: file, drawing: Drawing())
        let s = try BoardSync(document: doc, url: try BoardURL(url))
        s.note = { _ in }
        try s.connect(timeoutMs: 2000)
        try s.syncOnce()
        return (s, seeded)
    }

    func testANewReplicaLoadsTheSnapshotThenOnlyTheLogAfterIt() throws {
        let url = server.url + "/lessons?snapshots=10"
        let a = try draw(path("a.oekaki"), url, strokes: 25)
        XCTAssertGreaterThanOrEqual(a.snapshotSequence, 10, "the writer wrote a snapshot once its entries passed 10")
        let c = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "check")
        let head = try BoardSnapshot.Head(try XCTUnwrap(c.lastMessage(stream: a.url.snapshotStream, subject: a.url.snapshotHeadSubject)))
        XCTAssertEqual(head.sequence, a.snapshotSequence)
        XCTAssertEqual(try c.streamBounds(a.url.stream)?.first, 1, "by default the log before the snapshot stays")
        c.close()

        var notes: [String] = []
        let (b, seeded) = try join(path("b.oekaki"), server.url + "/lessons", notes: &notes)
        XCTAssertEqual(seeded, head.sequence, "the new replica started at the snapshot's entry")
        XCTAssertEqual(notes, [])
        XCTAssertEqual(board(b), board(a))
        XCTAssertEqual(b.replica.ledger.lastSequence, a.replica.ledger.lastSequence)
        XCTAssertNotEqual(b.replica.client, a.replica.client, "the snapshot's client id is not taken over")
        XCTAssertEqual(b.replica.hidden.count, a.replica.hidden.count, "erased strokes the board keeps came with it")

        // Both go on drawing on one board.
        let before = board(a).count
        let id = b.replica.document.nextStrokeID
        try b.commit([.did(.add([Stroke(id: id, style: StrokeStyle(), points: [InkPoint(x: 1, y: 1), InkPoint(x: 50, y: 60)])]))])
        try b.syncOnce(); try a.syncOnce()
        XCTAssertEqual(board(b), board(a))
        XCTAssertEqual(board(a).count, before + 1)

        // The CLI joins the same way and prints its usual line.
        let r = try Oekaki.run(["sync", path("cli.oekaki"), server.url + "/lessons", "--once"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.contains("in step with nats://127.0.0.1:\(server.port)/lessons at entry \(a.replica.ledger.lastSequence), \(board(a).count) strokes"), r.stdout)
    }

    func testHostileSnapshotsAreRefusedInOneLineAndTheLogIsReadInstead() throws {
        let url = server.url + "/hostile?snapshots=0"
        let a = try draw(path("a.oekaki"), url, strokes: 6)
        let u = a.url
        let peer = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "peer")
        defer { peer.close() }
        try peer.addLatestStream(u.snapshotStream, subjects: u.snapshotSubjects, replicas: 1, maxMessageBytes: BoardSnapshot.partBytes + 4096)
        // A real snapshot of another board, to be passed off as this one's.
        let other = try draw(path("o.oekaki"), server.url + "/other?snapshots=0", strokes: 3)
        let otherCopy = path("other-copy.oekaki")
        _ = try other.document.writeCopyWithoutHistory(to: otherCopy) { _ in 0 }
        let otherBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: otherCopy)))
        var rng = SeededRandom(seed: 9)
        let garbage = (0..<5000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var sqliteNotOekaki = Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 4080)
        sqliteNotOekaki[16] = 16
        func head(_ seq: UInt64, _ bytes: [UInt8], parts: Int? = nil, size: Int? = nil) -> [UInt8] {
            BoardSnapshot.Head(sequence: seq, bytes: size ?? bytes.count, parts: parts ?? 1, sha256: ContentHash(of: bytes).hex).encoded
        }
        let last = a.replica.ledger.lastSequence
        let cases: [(name: String, head: [UInt8], part: [UInt8], refusal: String)] = [
            ("random head", garbage.prefix(100).map { $0 }, garbage, "head"),
            ("huge claim", head(last, garbage, parts: 4097, size: 1 << 30), garbage, "more than"),
            ("wrong hash", BoardSnapshot.Head(sequence: last, bytes: garbage.count, parts: 1, sha256: String(repeating: "ab", count: 32)).encoded, garbage, "SHA-256"),
            ("short part", head(last, garbage, size: garbage.count + 10), garbage, "bytes, not"),
            ("beyond the log", head(last + 50, garbage), garbage, "beyond the log"),
            ("random bytes", head(last, garbage), garbage, "not an Oekaki document"),
            ("SQLite, not Oekaki", head(last, sqliteNotOekaki), sqliteNotOekaki, "not an Oekaki document"),
            ("another board", head(other.replica.ledger.lastSequence, otherBytes), otherBytes, "another board"),
        ]
        for (k, c) in cases.enumerated() {
            try peer.publish(u.snapshotPartSubject(0), c.part, headers: [("Nats-Rollup", "sub")])
            try peer.publish(u.snapshotHeadSubject, c.head, headers: [("Nats-Rollup", "sub")])
            let file = path("join\(k).oekaki")
            let r = try Oekaki.run(["sync", file, server.url + "/hostile", "--once"], timeout: 30)
            XCTAssertEqual(r.status, 0, "\(c.name): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(c.name): one line: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("snapshot refused") && r.stderr.contains(c.refusal), "\(c.name): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file + ".snapshot-in"), "\(c.name): nothing left behind")
            // Nothing of the snapshot was applied: the replica is the log's, exactly.
            let joined = try DocumentFile.open(path: file, readOnly: true)
            XCTAssertEqual(joined.document.strokeCount, a.replica.document.strokeCount, c.name)
            XCTAssertEqual(joined.drawing.pointCount, a.replica.drawing.pointCount, c.name)
            joined.close()
        }
    }

    func testKeepSnapshotRemovesTheLogBeforeItAndABehindReplicaFailsClearly() throws {
        // A replica that read the first entries and then stayed away.
        let behind = try draw(path("behind.oekaki"), server.url + "/term?snapshots=0", strokes: 2)
        behind.disconnect()
        let a = try draw(path("a.oekaki"), server.url + "/term?snapshots=10&keep=snapshot", strokes: 24)
        XCTAssertGreaterThanOrEqual(a.snapshotSequence, 10)
        let c = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "check")
        XCTAssertEqual(try c.streamBounds(a.url.stream)?.first, a.snapshotSequence + 1, "the log before the snapshot is gone")
        c.close()

        var notes: [String] = []
        let (b, seeded) = try join(path("b.oekaki"), server.url + "/term", notes: &notes)
        XCTAssertEqual(seeded, a.snapshotSequence)
        XCTAssertEqual(board(b), board(a))

        XCTAssertThrowsError(try behind.connect(timeoutMs: 2000)) { e in
            XCTAssertTrue("\(e)".contains("were removed from its log after a snapshot"), "\(e)")
        }
        behind.document.close()
        let r = try Oekaki.run(["sync", path("behind.oekaki"), server.url + "/term", "--once"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("join the board again into a new file"), r.stderr)
    }
}
