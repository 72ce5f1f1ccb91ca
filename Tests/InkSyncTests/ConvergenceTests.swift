import XCTest
import InkCore
@testable import InkSync

/// N simulated replicas edit concurrently (draw, erase, area-cut, clear, undo), publish their outboxes to one
/// simulated log at random moments, receive it late and in bursts, sometimes twice; in the end every replica
/// (and a new one that only reads the log) holds the same strokes in the same order. No server involved.
final class ConvergenceTests: XCTestCase {
    /// One simulated user: a replica, its own undo stack, how far it has read the log, and its last published entry.
    struct User {
        var replica: BoardReplica
        var undo: [Edit] = []
        var read = 0
        var awaiting = -1
    }

    func testRandomConcurrentEditsConverge() throws {
        for seed in 1...40 as ClosedRange<UInt64> {
            try runSimulation(seed: seed, users: 2 + Int(seed % 4), steps: 400)
        }
    }

    func runSimulation(seed: UInt64, users count: Int, steps: Int) throws {
        var rng = SeededRandom(seed: seed)
        var log: [BoardOperation] = []
        var users = (0..<count).map { User(replica: BoardReplica(client: 1000 + UInt64($0), drawing: Drawing())) }
        var kinds = [String: Int]()

        func receive(_ u: inout User, upTo end: Int) {
            while u.read < end { u.replica.receive(log[u.read], sequence: UInt64(u.read + 1)); u.read += 1 }
        }
        func publish(_ u: inout User, rng: inout SeededRandom) {
            // Like the engine: nothing new goes out while an earlier batch has not come back from the log.
            guard u.read > u.awaiting else { return }
            let ops = u.replica.operations(u.replica.outbox(chunk: 3))
            for op in ops {
                log.append(op)
                if case .replace = op.change { kinds["replace", default: 0] += 1 }
                // A retry past JetStream's de-duplication window: the same operation twice on the log.
                if rng.unit() < 0.05 { log.append(op) }
            }
            if !ops.isEmpty { u.awaiting = log.count - 1 }
        }

        for _ in 0..<steps {
            let i = Int(rng.next() % UInt64(count))
            var u = users[i]
            let visible = u.replica.drawing.strokes
            switch rng.next() % 100 {
            case 0..<30:
                let id = u.replica.newStrokeID()
                let x = rng.range(0, 500), y = rng.range(0, 500)
                let points = (0..<6).map { k in InkPoint(x: x + Double(k) * 3, y: y + rng.range(-2, 2), pressure: 0.5) }
                let e = Edit.add([Stroke(id: id, style: StrokeStyle(color: RGBA(r: UInt8(i * 40), g: 0, b: 0)), points: points)])
                u.replica.perform(e); u.undo.append(e); kinds["add", default: 0] += 1
            case 30..<40 where !visible.isEmpty:
                let s = visible[Int(rng.next() % UInt64(visible.count))]
                let e = Edit.remove([s])
                u.replica.perform(e); u.undo.append(e); kinds["erase", default: 0] += 1
            case 40..<50 where !visible.isEmpty:
                let s = visible[Int(rng.next() % UInt64(visible.count))]
                guard s.points.count >= 2 else { break }
                let half = s.points.count / 2
                let a = Stroke(id: u.replica.newStrokeID(), style: s.style, points: Array(s.points[..<half]), order: s.order)
                let b = Stroke(id: u.replica.newStrokeID(), style: s.style, points: Array(s.points[half...]), order: s.order)
                let e = Edit.replace(removed: [s], added: [a, b].filter { !$0.points.isEmpty })
                u.replica.perform(e); u.undo.append(e); kinds["cut", default: 0] += 1
            case 50..<51 where !visible.isEmpty:
                let e = Edit.clear(visible)
                u.replica.perform(e); u.undo.append(e); kinds["clear", default: 0] += 1
            case 51..<61:
                if let e = u.undo.popLast() { u.replica.perform(e.inverse); kinds["undo", default: 0] += 1 }
            case 61..<80:
                publish(&u, rng: &rng)
            default:
                receive(&u, upTo: min(log.count, u.read + Int(rng.next() % 8)))
            }
            users[i] = u
        }

        // Everyone comes online: read everything, publish, until nobody has anything left to send.
        for _ in 0..<10 {
            for i in users.indices { receive(&users[i], upTo: log.count); publish(&users[i], rng: &rng) }
        }
        for i in users.indices { receive(&users[i], upTo: log.count) }
        var fresh = BoardReplica(client: 9999, drawing: Drawing())
        for (k, op) in log.enumerated() { fresh.receive(op, sequence: UInt64(k + 1)) }

        let expected = Self.board(fresh.replica)
        XCTAssertFalse(log.isEmpty)
        for (i, u) in users.enumerated() {
            XCTAssertTrue(u.replica.outbox().isEmpty, "seed \(seed): user \(i) still has changes to send")
            XCTAssertEqual(Self.board(u.replica), expected, "seed \(seed): user \(i) differs from the log (\(kinds))")
        }
    }

    /// The visible strokes in drawing order, by global id: what `oekaki info` would show, independent of local ids.
    static func board(_ r: BoardReplica) -> [String] {
        r.drawing.strokes.map { s in
            let g = r.ledger.globalID(local: s.id).map(\.description) ?? "unpublished \(s.id)"
            return "\(g) \(s.points.count) \(s.style.color)"
        }
    }
}

private extension BoardReplica { var replica: BoardReplica { self } }
