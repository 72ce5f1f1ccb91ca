import Foundation
import XCTest
import InkCore
import InkStore
import InkSamples
@testable import InkSync

/// A class on one board: a 3-node JetStream cluster on loopback, the board's log kept on all three, and many
/// clients drawing at once, each given every node's address. Each client runs on its own thread as the app's
/// save queue does: commit a stroke to its file, publish, read the log, and on any failure disconnect and
/// connect again (to whichever node answers).
final class ClusterTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    /// The servers stop when the test ends, however it ends.
    func cluster() throws -> NatsCluster {
        let c = try NatsCluster(directory: tmp.appendingPathComponent("servers"))
        addTeardownBlock { c.stop() }
        try c.start()
        return c
    }

    /// What every client's board acknowledged: (sequence, bytes), from every thread.
    final class Acks: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [(sequence: UInt64, bytes: [UInt8], client: Int, at: Date)] = []
        func add(_ s: UInt64, _ b: [UInt8], client: Int) { lock.lock(); list.append((s, b, client, Date())); lock.unlock() }
        var all: [(sequence: UInt64, bytes: [UInt8], client: Int, at: Date)] { lock.lock(); defer { lock.unlock() }; return list }
    }

    /// One pupil: a replica file and its sync engine, driven by one thread.
    final class Pupil: @unchecked Sendable {
        let sync: BoardSync
        let index: Int
        var drawn = 0
        var reconnects = 0
        /// Not connected yet, or the connection failed: the next step connects first.
        private var offline = true
        private var rng: SeededRandom

        init(_ index: Int, path: String, url: String, acks: Acks) throws {
            self.index = index
            sync = try BoardSync(document: try DocumentFile.create(path: path, drawing: Drawing()), url: try BoardURL(url))
            sync.note = { _ in }
            sync.onAcknowledged = { acks.add($0, $1, client: index) }
            rng = SeededRandom(seed: UInt64(100 + index))
        }

        /// One hand-drawn stroke (pressure ink, 100 samples) committed to the file as the app commits a pen-up.
        func draw() throws {
            let s = SampleInk.stroke(id: sync.replica.document.nextStrokeID, points: 100, pageSize: Drawing.defaultPageSize, rng: &rng)
            try sync.commit([.did(.add([s]))])
            drawn += 1
        }

        /// One board step: publish and read what arrived, or (after a failure) reconnect first.
        func step(waitMs: Int64) {
            do {
                if offline {
                    sync.disconnect()
                    try sync.connect(timeoutMs: 2000)
                    offline = false
                    reconnects += 1
                }
                try sync.push()
                try sync.pull(waitMs: waitMs)
            } catch {
                offline = true
                usleep(100_000)
            }
        }

        /// Until this replica holds everything the board holds and the board everything it drew.
        func settle(within seconds: Double = 60) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                do {
                    if offline || !sync.isConnected { sync.disconnect(); try sync.connect(timeoutMs: 2000); offline = false }
                    try sync.syncOnce(timeoutMs: 10_000)
                    return
                } catch {
                    offline = true
                    if Date() > deadline { throw error }
                    usleep(200_000)
                }
            }
        }

        /// The board as this replica holds it: each stroke's global id, point count and first point (on the
        /// log's 1/20-unit grid), in drawing order.
        var board: [String] {
            sync.replica.drawing.strokes.map { s in
                let id = sync.replica.ledger.globalID(local: s.id).map(\.description) ?? "local \(s.id)"
                let p = s.points.first.map { "\(Int(($0.x * 20).rounded())),\(Int(($0.y * 20).rounded()))" } ?? ""
                return "\(id) \(s.points.count) \(p)"
            }
        }
    }

    func pupils(_ n: Int, _ url: String, acks: Acks) throws -> [Pupil] {
        try (0..<n).map { try Pupil($0, path: tmp.appendingPathComponent("p\($0).oekaki").path, url: url, acks: acks) }
    }

    /// Runs `body` for every pupil on a thread of its own and waits for them all.
    func together(_ ps: [Pupil], _ body: @escaping @Sendable (Pupil) -> Void) {
        let group = DispatchGroup()
        for p in ps {
            group.enter()
            let t = Thread { body(p); group.leave() }
            t.stackSize = 1 << 20
            t.start()
        }
        group.wait()
    }

    func assertConverged(_ ps: [Pupil], file: StaticString = #filePath, line: UInt = #line) {
        let expected = ps.reduce(0) { $0 + $1.drawn }
        let first = ps[0].board
        XCTAssertEqual(first.count, expected, "strokes lost or duplicated", file: file, line: line)
        XCTAssertEqual(Set(first.map { $0.split(separator: " ")[0] }).count, first.count, "a stroke twice", file: file, line: line)
        XCTAssertFalse(first.contains { $0.hasPrefix("local") }, "unpublished strokes", file: file, line: line)
        for p in ps {
            XCTAssertEqual(p.board, first, "pupil \(p.index) differs", file: file, line: line)
            XCTAssertEqual(p.sync.waiting, 0, file: file, line: line)
            XCTAssertEqual(p.sync.document.document.pointCount, ps[0].sync.document.document.pointCount, file: file, line: line)
        }
    }

    /// Every acknowledged message is in the log at the sequence it was acknowledged with, byte for byte.
    func assertKept(_ acks: Acks, in log: [UInt64: [UInt8]], file: StaticString = #filePath, line: UInt = #line) {
        var lost = 0
        for a in acks.all where log[a.sequence] != a.bytes { lost += 1 }
        XCTAssertEqual(lost, 0, "\(lost) of \(acks.all.count) acknowledged entries not in the log as acknowledged", file: file, line: line)
    }

    func testThirtyPupilsDrawAtOnceAndEveryReplicaConverges() throws {
        let cluster = try cluster()
        try cluster.createBoard("class")
        let acks = Acks()
        let ps = try pupils(30, cluster.boardURL("class"), acks: acks)
        for p in ps { p.step(waitMs: 0); XCTAssertTrue(p.sync.isConnected) }
        let strokes = 8
        let start = Date()
        together(ps) { p in
            do {
                for _ in 0..<strokes {
                    try p.draw()
                    // A stroke takes a moment; the board steps meanwhile, as the app's 30 ms ticks do.
                    for _ in 0..<3 { p.step(waitMs: 30) }
                }
            } catch { XCTFail("pupil \(p.index): \(error)") }
        }
        for _ in 0..<2 { for p in ps { try p.settle() } }
        print("30 pupils × \(strokes) strokes converged in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        assertConverged(ps)
        XCTAssertEqual(ps[0].board.count, 30 * strokes)
        XCTAssertGreaterThanOrEqual(acks.all.count, 30 * strokes, "every stroke was acknowledged once")
        XCTAssertEqual(Set(acks.all.map(\.sequence)).count, acks.all.count, "two entries acknowledged at one sequence")
        assertKept(acks, in: try cluster.log(of: "class"))
    }

    func testKillingTheStreamLeaderMidDrawingLosesNothingAcknowledged() throws {
        let cluster = try cluster()
        try cluster.createBoard("lesson")
        let acks = Acks()
        let ps = try pupils(6, cluster.boardURL("lesson"), acks: acks)
        for p in ps { p.step(waitMs: 0); XCTAssertTrue(p.sync.isConnected) }
        let leader = try XCTUnwrap(try cluster.leader(of: "lesson"))
        // kill -9 from the test's thread once a good part of the drawing has been acknowledged; the pupils keep
        // drawing until each has had a stroke acknowledged after the kill (through another node), or 60 s pass.
        let killed = Date.distantFuture
        let state = KillState(killed)
        DispatchQueue.global().async {
            let deadline = Date().addingTimeInterval(60)
            while acks.all.count < 60 && Date() < deadline { usleep(10_000) }
            cluster.servers[leader].kill9()
            state.killed = Date()
        }
        together(ps) { p in
            let deadline = Date().addingTimeInterval(40)
            do {
                while Date() < deadline {
                    try p.draw()
                    for _ in 0..<2 { p.step(waitMs: 30) }
                    let k = state.killed
                    if k != .distantFuture, acks.all.contains(where: { $0.client == p.index && $0.at > k.addingTimeInterval(0.2) }), p.drawn >= 30 { break }
                }
            } catch { XCTFail("pupil \(p.index): \(error)") }
        }
        XCTAssertNotEqual(state.killed, .distantFuture, "the leader was killed")
        XCTAssertGreaterThanOrEqual(acks.all.filter { $0.at < state.killed }.count, 60, "killed mid-drawing")
        let after = Set(acks.all.filter { $0.at > state.killed }.map(\.client))
        XCTAssertEqual(after, Set(ps.map(\.index)), "every pupil's board acknowledged edits after the kill")
        for _ in 0..<2 { for p in ps { try p.settle() } }
        assertConverged(ps)
        XCTAssertGreaterThanOrEqual(ps[0].board.count, 6 * 30)
        let newLeader = try XCTUnwrap(try cluster.leader(of: "lesson"))
        XCTAssertNotEqual(newLeader, leader)
        assertKept(acks, in: try cluster.log(of: "lesson"))
        // A new replica joining now reads the whole log from the two nodes left.
        let late = try Pupil(99, path: tmp.appendingPathComponent("late.oekaki").path, url: cluster.boardURL("lesson"), acks: Acks())
        try late.settle()
        XCTAssertEqual(late.board, ps[0].board)
    }

    func testABoardURLListsEveryServer() throws {
        let u = try BoardURL("nats://ana:se%40cret@10.0.0.1:4222,n2.example:4223,[::1]:4224/class?replicas=3")
        XCTAssertEqual(u.servers.map(\.host), ["10.0.0.1", "n2.example", "[::1]"])
        XCTAssertEqual(u.serverURLs, ["nats://10.0.0.1:4222", "nats://n2.example:4223", "nats://[::1]:4224"])
        XCTAssertEqual(u.user, "ana"); XCTAssertEqual(u.password, "se@cret"); XCTAssertEqual(u.replicas, 3)
        XCTAssertEqual(u.description, "nats://10.0.0.1:4222,n2.example:4223,[::1]:4224/class")
        XCTAssertEqual(try BoardURL(u.description).servers, u.servers)
        XCTAssertEqual(try BoardURL("nats://h:1/b").replicas, 1)
        for bad in ["nats://h:1,/b", "nats://h:1,h2/b", "nats://,h:1/b", "nats://h:1,h:99999/b", "nats://h:1/b?replicas=9"] {
            XCTAssertThrowsError(try BoardURL(bad), bad)
        }
    }

    final class KillState: @unchecked Sendable {
        private let lock = NSLock()
        private var at: Date
        init(_ d: Date) { at = d }
        var killed: Date {
            get { lock.lock(); defer { lock.unlock() }; return at }
            set { lock.lock(); at = newValue; lock.unlock() }
        }
    }
}
