import Foundation
import InkCore
import InkStore
import InkSync

/// Shared boards over loopback, against a `nats-server -js` of our own (random port, temporary store).
enum SyncBench {
    struct Result {
        /// Publish → applied and stored at another replica, per stroke.
        var apply = Samples()
        /// A new replica joining a board that holds the 1M-point drawing: connect, read the log, store.
        var catchUp1m = Samples()
        /// Ten writers × `strokesEach` concurrently, until every replica holds the same board.
        var tenWriters = Samples()
        var strokesEach = 0
        /// `oekaki sync FILE URL` live on a replica of the 1M-point board, nothing happening: CPU % of a core over 10 s.
        var syncIdleCPU1m = Samples()
        /// One stroke committed at a live replica of the 1M-point board until it is committed in another's file.
        var apply1m = Samples()
        /// 30 clients drawing at once on a 3-node cluster: a stroke's commit until committed in each other replica.
        var class30 = Samples()
        var class30Strokes = 0
        var apply1mPhases = ApplyPhases()
        /// A new replica of the 1M-point board after 100,000 further edits: the snapshot, then the log after it.
        var catchUpHistory = Samples()
        /// Of those, the log entries the new replica read after the snapshot (median of the joins).
        var historyReplayed = Samples()
        /// Seconds each part took (printed as it goes, and in the board section): what bounds the group's time.
        var parts: [(name: String, seconds: Double)] = []
        var notes: [String] = []
    }

    /// Runs one part of the group, saying on stderr how long it took.
    static func part<T>(_ name: String, _ r: inout Result, _ body: () throws -> T) rethrows -> T {
        let t0 = Clock.nanoseconds()
        defer {
            let s = Double(Clock.nanoseconds() - t0) / 1e9
            r.parts.append((name, s))
            FileHandle.standardError.write(Data("oekaki-bench: shared board: \(name): \(String(format: "%.0f", s)) s\n".utf8))
        }
        return try body()
    }

    static func run(_ million: Drawing, folder: String, applyRounds: Int, strokesEach: Int, historyEdits: Int = 100_000) -> Result {
        var r = Result()
        r.strokesEach = strokesEach
        guard let server = serverExecutable else {
            r.notes.append("sync: nats-server not installed (make deps)"); return r
        }
        let dir = folder + "/sync"
        let pid: pid_t, base: String
        do { (pid, base) = try startServer(server, dir: dir) } catch { r.notes.append("sync: \(error)"); return r }
        defer { ChildProcess.stop(pid); try? FileManager.default.removeItem(atPath: dir) }
        do {
            r.apply = try part("apply on an empty board", &r) { try applyLatency(base + "/latency", dir: dir, rounds: applyRounds) }
            // These boards write no snapshots, so the catch-up reads the log and no writer stops for one.
            r.catchUp1m = try part("upload of 1M points and 3 catch-ups", &r) { try catchUp(million, base + "/million?snapshots=0", dir: dir) }
            var phases = ApplyPhases()
            r.apply1m = try part("apply on the 1M-point board", &r) {
                try applyLatency(base + "/million?snapshots=0", dir: dir + "/on1m", rounds: applyRounds, phases: &phases)
            }
            r.apply1mPhases = phases
            r.syncIdleCPU1m = try part("oekaki sync at rest", &r) { try syncIdle(base + "/million?snapshots=0", dir: dir) }
            (r.catchUpHistory, r.historyReplayed) = try part("a term of \(historyEdits) edits and 3 catch-ups", &r) {
                try catchUpHistory(million, base + "/term", dir: dir, edits: historyEdits)
            }
            r.tenWriters = try part("ten writers", &r) { try tenWriters(base + "/ten", dir: dir, strokesEach: strokesEach) }
        } catch { r.notes.append("sync: \(error)") }
        let c = part("a class of 30", &r) { ClassBench.run(folder: folder, seconds: applyRounds >= 300 ? 30 : 15) }
        r.class30 = c.apply; r.class30Strokes = c.strokes; r.notes += c.notes
        return r
    }

    static var serverExecutable: String? {
        Executables.find("nats-server") ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nats-server") ? "/usr/sbin/nats-server" : nil)
    }

    /// A `nats-server -js` on 127.0.0.1, a port of its own choosing, its store in `dir`: its pid and URL.
    static func startServer(_ server: String, dir: String) throws -> (pid_t, String) {
        try? FileManager.default.removeItem(atPath: dir)
        try? FileManager.default.createDirectory(atPath: dir + "/ports", withIntermediateDirectories: true)
        let pid = try ChildProcess.start(server, ["-js", "-a", "127.0.0.1", "-p", "-1", "-sd", dir + "/store", "--ports_file_dir", dir + "/ports"],
                                         environment: [:], log: dir + "/server.log")
        guard let base = waitForPort(dir + "/ports") else { ChildProcess.stop(pid); throw BoardSync.Failure.other("nats-server did not start") }
        return (pid, base)
    }

    static func waitForPort(_ dir: String) -> String? {
        for _ in 0..<500 {
            if let name = try? FileManager.default.contentsOfDirectory(atPath: dir).first(where: { $0.hasSuffix(".ports") }),
               let text = try? String(contentsOfFile: dir + "/" + name, encoding: .utf8),
               let start = text.range(of: "nats://"), let end = text[start.upperBound...].firstIndex(of: "\"") {
                return String(text[start.lowerBound..<end])
            }
            usleep(10_000)
        }
        return nil
    }

    static func replica(_ path: String, _ url: String, drawing: Drawing = Drawing()) throws -> BoardSync {
        let sync = try BoardSync(document: try DocumentFile.create(path: path, drawing: drawing), url: try BoardURL(url))
        try sync.connect(timeoutMs: 5000)
        return sync
    }

    private static func line(_ id: StrokeID, _ k: Int, points: Int = 50) -> Stroke {
        Stroke(id: id, style: StrokeStyle(), points: (0..<points).map { InkPoint(x: Double($0 * 4), y: Double(k % 500) + sin(Double($0) / 5) * 10) })
    }

    /// A commits a stroke to its file and publishes it (timer starts before the commit); B waits for it and stores it.
    /// Where an apply's time goes: A's commit (one fsync'd transaction), A's publish until JetStream acknowledges
    /// it, and B receiving, decoding and committing it (another fsync'd transaction).
    struct ApplyPhases { var commit = Samples(), publish = Samples(), arrive = Samples() }

    static func applyLatency(_ url: String, dir: String, rounds: Int) throws -> Samples {
        var phases = ApplyPhases()
        return try applyLatency(url, dir: dir, rounds: rounds, phases: &phases)
    }

    static func applyLatency(_ url: String, dir: String, rounds: Int, phases: inout ApplyPhases) throws -> Samples {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = try replica(dir + "/a.oekaki", url), b = try replica(dir + "/b.oekaki", url)
        // Both hold the board first (nothing, or the 1M-point drawing).
        try a.syncOnce(timeoutMs: 60_000); try b.syncOnce(timeoutMs: 60_000)
        var s = Samples()
        for k in 0..<(rounds + 10) {
            let t0 = Clock.nanoseconds()
            try a.commit([.did(.add([line(a.replica.document.nextStrokeID, k)]))])
            let t1 = Clock.nanoseconds()
            try a.push()
            let t2 = Clock.nanoseconds()
            let before = b.replica.ledger.lastSequence
            while b.replica.ledger.lastSequence == before { try b.pull(waitMs: 1000) }
            let t3 = Clock.nanoseconds()
            if k >= 10 {
                s.add(Double(t3 - t0) / 1e6)
                phases.commit.add(Double(t1 - t0) / 1e6); phases.publish.add(Double(t2 - t1) / 1e6); phases.arrive.add(Double(t3 - t2) / 1e6)
            }
            try a.pull(waitMs: 1000)   // A's own echo, so its next batch may go out
        }
        return s
    }

    /// A replica of the board caught up and closed, then `oekaki sync FILE URL` on it: after 3 s to settle (connect,
    /// the one full comparison), its CPU over 10 s of nothing happening, as % of one core.
    static func syncIdle(_ url: String, dir: String) throws -> Samples {
        let path = dir + "/idle.oekaki"
        let r = try replica(path, url)
        try r.syncOnce(timeoutMs: 60_000)
        r.disconnect(); r.document.close()
        let cli = (ChildProcess.ownExecutable as NSString).deletingLastPathComponent + "/oekaki"
        let pid = try ChildProcess.start(cli, ["sync", path, url], environment: [:], log: dir + "/idle.log")
        defer { ChildProcess.stop(pid) }
        usleep(3_000_000)
        var s = Samples()
        guard let a = ChildProcess.cpuMs(of: pid) else { throw BoardSync.Failure.other("oekaki sync exited (see \(dir)/idle.log)") }
        usleep(10_000_000)
        guard let b = ChildProcess.cpuMs(of: pid) else { throw BoardSync.Failure.other("oekaki sync exited (see \(dir)/idle.log)") }
        s.add((b - a) / 10_000 * 100)
        return s
    }

    /// One replica uploads the drawing; a new one joins: connect, catch up from the start of the log, store.
    static func catchUp(_ drawing: Drawing, _ url: String, dir: String) throws -> Samples {
        let up = try replica(dir + "/up.oekaki", url, drawing: drawing)
        try up.syncOnce(timeoutMs: 60_000)
        up.disconnect(); up.document.close()
        var s = Samples()
        for k in 0..<3 {
            let t0 = Clock.nanoseconds()
            let join = try replica(dir + "/join\(k).oekaki", url)
            try join.syncOnce(timeoutMs: 60_000)
            s.add(Double(Clock.nanoseconds() - t0) / 1e6)
            guard join.document.drawing.pointCount == drawing.pointCount else {
                throw BoardSync.Failure.other("catch-up: \(join.document.drawing.pointCount) of \(drawing.pointCount) points")
            }
            join.disconnect(); join.document.close()
        }
        return s
    }

    /// A term of lessons on the 1M-point board: one replica makes `edits` further edits as a teacher would (new
    /// strokes, moves of a few strokes, erases, undos, page backgrounds and new pages), each committed to its file
    /// and published as the app does, writing snapshots as it goes (the default: every 5,000 entries). Then new
    /// replicas join: the newest snapshot, then the log after it. The writer's file lives in /dev/shm when there
    /// is one (its fsyncs are not what is measured); the joiners' on disk.
    static func catchUpHistory(_ drawing: Drawing, _ url: String, dir: String, edits: Int) throws -> (Samples, Samples) {
        let shm = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/oekaki-bench-\(getpid())" : dir + "/shm"
        try? FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: shm) }
        let up = try replica(shm + "/teacher.oekaki", url, drawing: drawing)
        try up.syncOnce(timeoutMs: 120_000)
        var rng = SeededRandom(seed: 25)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }
        var ids = drawing.strokes.map(\.id)
        var done: [Edit] = []
        var background = Background.Style.plain
        for k in 0..<edits {
            let page = up.replica.document.pages[0]
            let layer = page.layers[0].drawing
            let roll = pick(100)
            var change: Change?
            if roll < 40 || ids.count < 10 {
                // A word or a line of a lesson.
                var s = Stroke(id: up.replica.document.nextStrokeID, style: StrokeStyle(), points: [])
                let x = Double(pick(1800)) + 50, y = Double(pick(2800)) + 50
                for i in 0..<30 { s.append(InkPoint(x: x + Double(i) * 2.5, y: y + sin(Double(i + k) / 3) * 6, pressure: 0.35 + Double(i % 7) * 0.05)) }
                change = .did(.add([s]))
            } else if roll < 60 {
                let chosen = (0..<(1 + pick(5))).compactMap { _ in layer.stroke(ids[pick(ids.count)]) }
                let unique = Array(Dictionary(chosen.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }).values)
                if !unique.isEmpty {
                    change = .did(.transform(StrokeTransform(page: page.id, ids: unique.map(\.id), before: unique.map(Placement.init(of:)),
                                                             matrix: .translation(Double(pick(41)) - 20, Double(pick(41)) - 20))))
                }
            } else if roll < 75 {
                if let s = layer.stroke(ids[pick(ids.count)]) { change = .did(.remove([s])) }
            } else if roll < 90 {
                if let e = done.popLast() { change = .undid(e) }
            } else if roll < 99 {
                let next: Background.Style = background == .plain ? .ruled : .plain
                change = .did(.setFormat([Edit.FormatChange(page: page.id, from: page.format, to: PageFormat(size: page.format.size, background: Background(style: next)))]))
                background = next
            } else {
                let docPages = up.replica.document.pages
                change = .did(.addPage(Page(id: up.replica.document.nextPageID, format: .fixed(Size(width: 595, height: 842))), at: docPages.count))
            }
            guard let c = change else { continue }
            try up.commit([c])
            switch c {
            case .did(let e):
                done.append(e)
                if case .add(let added) = e { ids += added.map(\.id) }
            case .undid, .redid: break
            }
            if k % 50 == 49 { try up.pull(waitMs: 0); try up.push() }
        }
        try up.syncOnce(timeoutMs: 120_000)
        let expected = (points: up.document.drawing.pointCount, pages: up.document.document.pages.count, entries: up.replica.ledger.lastSequence)
        up.disconnect(); up.document.close()
        var s = Samples(), replayed = Samples()
        for k in 0..<3 {
            let path = dir + "/term\(k).oekaki"
            let t0 = Clock.nanoseconds()
            let seeded = BoardSnapshot.seed(path: path, url: try BoardURL(url)) { FileHandle.standardError.write(Data("oekaki-bench: \($0)\n".utf8)) }
            let doc = FileManager.default.fileExists(atPath: path) ? try DocumentFile.open(path: path) : try DocumentFile.create(path: path, drawing: Drawing())
            let join = try BoardSync(document: doc, url: try BoardURL(url))
            try join.connect(timeoutMs: 5000)
            try join.syncOnce(timeoutMs: 120_000)
            s.add(Double(Clock.nanoseconds() - t0) / 1e9)
            replayed.add(Double(expected.entries - (seeded ?? 0)))
            guard join.document.drawing.pointCount == expected.points, join.document.document.pages.count == expected.pages else {
                throw BoardSync.Failure.other("catch-up after a term: \(join.document.drawing.pointCount) of \(expected.points) points, "
                    + "\(join.document.document.pages.count) of \(expected.pages) pages")
            }
            join.disconnect(); join.document.close()
        }
        return (s, replayed)
    }

    /// Ten threads, each a replica committing `strokesEach` strokes one by one (as the app does) and publishing
    /// every 50; then every replica syncs until all hold the same board.
    static func tenWriters(_ url: String, dir: String, strokesEach: Int) throws -> Samples {
        let writers = try (0..<10).map { try replica(dir + "/w\($0).oekaki", url) }
        let t0 = Clock.nanoseconds()
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: writers.count) { i in
            let w = writers[i]
            do {
                for k in 0..<strokesEach {
                    try w.commit([.did(.add([line(w.replica.document.nextStrokeID, k * 10 + i, points: 20)]))])
                    if k % 50 == 49 { try w.pull(waitMs: 0); try w.push() }
                }
                try w.syncOnce(timeoutMs: 60_000)
            } catch { failures.add("\(error)") }
        }
        for w in writers { try w.syncOnce(timeoutMs: 60_000) }
        let ms = Double(Clock.nanoseconds() - t0) / 1e6
        if let f = failures.first { throw BoardSync.Failure.other("ten writers: \(f)") }
        let expected = writers[0].document.drawing.strokes.count
        // The writer holds its own strokes as drawn, the others as the log carries them (1/20 unit): compare on that grid.
        func board(_ w: BoardSync) -> [[Int]] {
            w.document.drawing.strokes.map { s in [s.points.count] + s.points.prefix(3).flatMap { [Int(($0.x * 20).rounded()), Int(($0.y * 20).rounded())] } }
        }
        guard expected == 10 * strokesEach, writers.allSatisfy({ board($0) == board(writers[0]) }) else {
            throw BoardSync.Failure.other("ten writers: replicas differ (\(writers.map { $0.document.drawing.strokes.count }))")
        }
        for w in writers { w.disconnect(); w.document.close() }
        return Samples([ms])
    }

    private final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ s: String) { lock.lock(); list.append(s); lock.unlock() }
        var first: String? { lock.lock(); defer { lock.unlock() }; return list.first }
    }
}
