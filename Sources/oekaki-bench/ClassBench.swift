import Foundation
import InkCore
import InkStore
import InkSync
import InkSamples

/// A class on one board: a 3-node JetStream cluster on 127.0.0.1 (the board's log on all three), 30 replicas in
/// this process, each on a thread of its own drawing as a hand does: a pressure stroke of 100 samples takes
/// 0.8 s (8 ms a sample), then a pause of 0.2–1 s, while its board steps (reads the log, publishes). For every
/// stroke, the time from its commit at the author until each of the 29 others has committed it to its file.
/// All 30 share this machine's cores, where each would have its own machine: the figure includes that contention.
enum ClassBench {
    struct Result {
        var apply = Samples()
        var strokes = 0
        var notes: [String] = []
    }

    static let clients = 30

    static func run(folder: String, seconds: Double) -> Result {
        var r = Result()
        guard let server = SyncBench.serverExecutable else { r.notes.append("class: nats-server not installed (make deps)"); return r }
        let dir = folder + "/class"
        try? FileManager.default.removeItem(atPath: dir)
        var pids: [pid_t] = []
        defer { for p in pids { ChildProcess.stop(p) }; try? FileManager.default.removeItem(atPath: dir) }
        do {
            // Route ports picked at random (the client ports the servers choose themselves); a clash fails the start.
            let routes = (0..<3).map { _ in Int.random(in: 30_000...59_999) }
            var urls: [String] = []
            for i in 0..<3 {
                let node = dir + "/n\(i)"
                try FileManager.default.createDirectory(atPath: node + "/ports", withIntermediateDirectories: true)
                try """
                server_name: n\(i)
                host: 127.0.0.1
                port: -1
                jetstream { store_dir: "\(node)/store" }
                cluster { name: oekaki-bench, listen: 127.0.0.1:\(routes[i]), routes: [\(routes.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", "))] }
                """.write(toFile: node + "/n.conf", atomically: true, encoding: .utf8)
                pids.append(try ChildProcess.start(server, ["-c", node + "/n.conf", "--ports_file_dir", node + "/ports"], environment: [:], log: node + "/server.log"))
                guard let u = SyncBench.waitForPort(node + "/ports") else { throw BoardSync.Failure.other("class: nats-server n\(i) did not start") }
                urls.append(String(u.dropFirst("nats://".count)))
            }
            let url = "nats://\(urls.joined(separator: ","))/class30?replicas=3&snapshots=0"
            r = try measure(url, dir: dir, seconds: seconds)
        } catch { r.notes.append("class: \(error)") }
        return r
    }

    /// When each stroke was committed by its author, and what the others measured.
    private final class Board: @unchecked Sendable {
        private let lock = NSLock()
        private var committed: [BoardStrokeID: UInt64] = [:]
        private(set) var latencies: [Double] = []
        var failure: String?
        func commit(_ id: BoardStrokeID, at t: UInt64) { lock.lock(); committed[id] = t; lock.unlock() }
        func arrived(_ ids: [BoardStrokeID], at t: UInt64) {
            lock.lock()
            for id in ids { if let t0 = committed[id] { latencies.append(Double(t - t0) / 1e6) } }
            lock.unlock()
        }
        func fail(_ s: String) { lock.lock(); if failure == nil { failure = s }; lock.unlock() }
        var strokes: Int { lock.lock(); defer { lock.unlock() }; return committed.count }
    }

    private static func measure(_ url: String, dir: String, seconds: Double) throws -> Result {
        // The cluster elects its JetStream leader a few seconds after it starts; the first replica creates the board.
        var first: BoardSync?
        let deadline = Date().addingTimeInterval(30)
        while first == nil {
            do { first = try SyncBench.replica(dir + "/p0.oekaki", url) } catch {
                try? FileManager.default.removeItem(atPath: dir + "/p0.oekaki")
                if Date() > deadline { throw error }
                usleep(250_000)
            }
        }
        var replicas = [first!]
        for i in 1..<clients { replicas.append(try SyncBench.replica(dir + "/p\(i).oekaki", url)) }
        for s in replicas { s.note = { _ in } }
        let board = Board()
        let warmUp = Clock.nanoseconds() + 2_000_000_000
        for s in replicas {
            let me = s.replica.client
            s.onApplied = { c in
                let now = Clock.nanoseconds()
                guard now > warmUp else { return }
                board.arrived(c.entries.filter { $0.client != me && $0.visible }.map { BoardStrokeID(client: $0.client, number: $0.number) }, at: now)
            }
        }
        let end = Clock.nanoseconds() + UInt64(seconds * 1e9)
        let group = DispatchGroup()
        for (i, s) in replicas.enumerated() {
            group.enter()
            let t = Thread {
                defer { group.leave() }
                var rng = SeededRandom(seed: UInt64(7 + i))
                // Pupils start at different moments, as a class does.
                var due = Clock.nanoseconds() + UInt64(rng.range(0, 1.5) * 1e9)
                do {
                    while Clock.nanoseconds() < end {
                        if Clock.nanoseconds() >= due {
                            let stroke = SampleInk.stroke(id: s.replica.document.nextStrokeID, points: 100, pageSize: Drawing.defaultPageSize, rng: &rng)
                            let t0 = Clock.nanoseconds()
                            if t0 > warmUp { board.commit(BoardStrokeID(client: s.replica.client, number: stroke.id), at: t0) }
                            try s.commit([.did(.add([stroke]))])
                            try s.push()
                            due = Clock.nanoseconds() + UInt64((0.8 + rng.range(0.2, 1.0)) * 1e9)
                        }
                        try s.pull(waitMs: 5)
                        try s.push()
                    }
                    // Everything drawn reaches everyone before the figure is taken.
                    try s.syncOnce(timeoutMs: 60_000)
                } catch { board.fail("\(error)") }
            }
            t.stackSize = 1 << 20
            t.start()
        }
        group.wait()
        if let f = board.failure { throw BoardSync.Failure.other("class: \(f)") }
        for s in replicas { try s.syncOnce(timeoutMs: 60_000) }
        let counts = Set(replicas.map { $0.document.document.strokeCount })
        var r = Result()
        if counts.count != 1 { r.notes.append("class: replicas differ after the lesson (\(counts.sorted()) strokes)") }
        r.apply = Samples(board.latencies)
        r.strokes = board.strokes
        for s in replicas { s.disconnect(); s.document.close() }
        return r
    }
}
