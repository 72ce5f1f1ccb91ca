import CGtk
import Foundation
import InkCore
import InkStore
import InkSync

/// A window's document shared on a board. The sync engine writes the same file as autosave, so it runs on the
/// save queue. Nothing polls: the engine is stepped when the client library says something arrived or the link
/// changed, when a local change is committed, while this user's strokes grow (live traces, every 30 ms at most),
/// every 2 s for presence, and every 2 s while the board cannot be reached. Drawing never waits for the network:
/// the GTK thread only ever hands work to the queue.
final class SharedBoard {
    enum State: Equatable {
        case connecting
        case online
        case offline(waiting: Int)
        case failed(String)
    }

    let url: BoardURL
    private let autosave: Autosave
    /// GTK thread: strokes changed by other people, to show.
    var onApplied: ((BoardCommit) -> Void)?
    /// GTK thread: pictures and PDFs other people's items and pages show came from the board.
    var onFiles: (([ContentHash: [UInt8]]) -> Void)?
    /// GTK thread: connection state for the title bar.
    var onState: ((State) -> Void)?
    /// GTK thread: this user's strokes in progress (sent to the others as they grow).
    var liveSource: (() -> [Stroke])?
    /// GTK thread: this user's laser ink (sent like strokes in progress, never stored).
    var laserSource: (() -> [LaserPointer.Trail])?
    /// GTK thread: the page this user draws on (their live ink and laser are shown on that page only).
    var pageSource: (() -> PageID)?
    /// GTK thread: other people's strokes in progress changed.
    var onLive: (([Stroke]) -> Void)?
    /// GTK thread: other people's laser ink changed (lifted times on `SharedBoard.clockMs`).
    var onLaser: (([LaserPointer.Trail]) -> Void)?
    /// GTK thread: who is on the board (names, this user first).
    var onPeople: (([String]) -> Void)?
    /// GTK thread.
    private var others = LiveStrokes()
    private var sender = LiveSender()
    private var client: UInt64?
    private var people: [UInt64: (name: String, seen: Double)] = [:]
    private let name: String

    // Save queue only.
    private var sync: BoardSync?
    private var online = false
    private var lastAttempt = Date.distantPast
    private var lastState: State?
    private var lastPresence = Date.distantPast

    // GTK thread only.
    private var liveTimer: UInt32 = 0
    private var presenceTimer: UInt32 = 0
    private var retryTimer: UInt32 = 0
    private var expiryTimer: UInt32 = 0
    /// A step is queued on the save queue (any thread): wake-ups coalesce into it.
    private let stepQueued = Flag()

    /// How often this user says "here" and how long someone silent stays in the title bar.
    static let presenceSeconds = 2.0, presenceTimeout = 5.0

    init(url: BoardURL, autosave: Autosave) {
        self.url = url; self.autosave = autosave
        name = url.user ?? ProcessInfo.processInfo.environment["USER"] ?? "someone"
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    /// The clock other people's laser ink fades on, in ms.
    static var clockMs: Double { now * 1000 }

    /// GTK thread: the deltas of this user's strokes in progress (and laser ink) since the last tick, and the ends.
    private func liveMessages() -> [LiveStroke] {
        guard let client, let strokes = liveSource?() else { return [] }
        return sender.messages(client: client, strokes: strokes, laser: laserSource?() ?? [])
    }

    /// GTK thread: what the save queue brought back from one step (others' live ink with the local page it is on).
    private func received(_ live: [(LiveStroke, PageID?)], _ here: [(client: UInt64, name: String)]) {
        let now = Self.now
        var changed = others.expire(at: now)
        for (m, page) in live { others.receive(m, at: now, page: page); changed = true }
        if changed { onLive?(others.shown); onLaser?(others.laserTrails) }
        // Someone's trace that stops without an end fades after `LiveStrokes.timeout`: looked at only while any shows.
        if !others.isEmpty && expiryTimer == 0 {
            expiryTimer = every(milliseconds: 500) { [weak self] in
                guard let self else { return false }
                if self.others.expire(at: Self.now) { self.onLive?(self.others.shown); self.onLaser?(self.others.laserTrails) }
                if self.others.isEmpty { self.expiryTimer = 0; return false }
                return true
            }
        }
        let before = Set(people.keys)
        for p in here { people[p.client] = (p.name, now) }
        people = people.filter { now - $0.value.seen < Self.presenceTimeout }
        if Set(people.keys) != before || !here.isEmpty && people.count != before.count {
            onPeople?([name] + people.filter { $0.key != client }.values.map(\.name).sorted())
        }
    }

    func start() {
        let url = self.url
        autosave.withFile { [weak self] file in
            guard let self else { return }
            do {
                let s = try BoardSync(document: file, url: url)
                // The editor numbers in the other lane on the GTK thread (`DocumentSession.share`).
                s.ids = BoardReplica.replicaLane
                s.note = { FileHandle.standardError.write(Data("oekaki: board \(url.board): \($0)\n".utf8)) }
                s.onActivity = { [weak self] in self?.wake() }
                s.onApplied = { [weak self] c in
                    let batch = MainLoopHandoff(value: c)
                    onMainLoop {
                        guard let self else { return }
                        // The finished stroke replaces its live trace.
                        for e in batch.value.entries { self.others.forget(BoardStrokeID(client: e.client, number: e.number)) }
                        self.onLive?(self.others.shown)
                        self.onApplied?(batch.value)
                    }
                }
                s.onFiles = { [weak self] files in
                    let arrived = MainLoopHandoff(value: files)
                    onMainLoop { self?.onFiles?(arrived.value) }
                }
                let client = s.replica.client
                onMainLoop { [weak self] in self?.client = client }
                self.sync = s
                self.stepNow()
            } catch {
                self.report(.failed("\(error)"))
            }
        }
        presenceTimer = every(milliseconds: UInt32(Self.presenceSeconds * 1000)) { [weak self] in
            guard let self else { return false }
            self.received([], [])
            self.wake()
            return true
        }
    }

    /// GTK thread: this user's strokes in progress changed; their new points go out within 30 ms, and the timer
    /// stops once nothing more is drawn.
    func liveChanged() {
        guard liveTimer == 0, client != nil else { return }
        liveTimer = every(milliseconds: 30) { [weak self] in
            guard let self else { return false }
            let messages = self.liveMessages()
            if messages.isEmpty { self.liveTimer = 0; return false }
            let outgoing = MainLoopHandoff(value: (messages, self.pageSource?()))
            self.autosave.withFile { [weak self] _ in
                guard let self, self.online, let s = self.sync else { return }
                // The board's name for the page, which only the replica (on this queue) knows.
                let page = outgoing.value.1.map { s.replica.boardPageID($0) }
                for var m in outgoing.value.0 { m.page = page; s.publishLive(m) }
            }
            return true
        }
    }

    func stop() {
        stopTimer(&liveTimer); stopTimer(&presenceTimer); stopTimer(&retryTimer); stopTimer(&expiryTimer)
        autosave.withFile { [weak self] _ in
            self?.sync?.onActivity = nil
            self?.sync?.disconnect()
            // Changes committed after this are no longer this board's: the replica stops following the file.
            self?.sync = nil
        }
    }

    /// On the save queue, once the session's local change is in the file (its outbox row went in with it, in the
    /// same transaction): the replica follows it and it is published now, not on a timer.
    func committed(_ change: Change) {
        sync?.didCommit([change])
        wake()
    }

    /// Any thread: something may be waiting (an arrival, a commit, presence, a retry); one step is queued however
    /// many ring before it runs.
    private func wake() {
        guard stepQueued.raise() else { return }
        autosave.withFile { [weak self] _ in
            guard let self else { return }
            // Lowered before the step: what arrives while it runs queues the next one.
            self.stepQueued.lower()
            self.stepNow()
        }
    }

    /// On the save queue: one step, and what it brought for the GTK thread.
    private func stepNow() {
        step()
        // Ink on a board page not here yet is not shown (anywhere would be the wrong place); ink that names no page
        // (an older sender) shows on every page.
        let live: [(LiveStroke, PageID?)] = (sync?.takeLive() ?? []).compactMap { m in
            guard let page = m.page else { return (m, nil) }
            return sync?.replica.localPageID(page).map { (m, $0) }
        }
        let here = sync?.takePresence() ?? []
        guard !live.isEmpty || !here.isEmpty else { return }
        let back = MainLoopHandoff(value: (live, here))
        onMainLoop { [weak self] in self?.received(back.value.0, back.value.1) }
    }

    /// On the save queue: reconnect when due, apply what arrived, publish what waits.
    private func step() {
        guard let s = sync else { return }
        if !online {
            guard Date().timeIntervalSince(lastAttempt) > 1.5 else { return report(.offline(waiting: s.waiting)) }
            lastAttempt = Date()
            do {
                try s.connect(timeoutMs: 1500)
                online = true
            } catch BoardSync.Failure.credentials(let m) {
                return report(.failed(m))
            } catch BoardSync.Failure.permission(let m) {
                return report(.failed(m))
            } catch {
                return report(.offline(waiting: s.waiting))
            }
        }
        do {
            // The client library notices a lost server at once (the log would only tell after heartbeats).
            guard s.isConnected else { throw BoardSync.Failure.unreachable("disconnected") }
            if Date().timeIntervalSince(lastPresence) >= Self.presenceSeconds * 0.9 { s.publishPresence(name: name); lastPresence = Date() }
            try s.pull(waitMs: 0)
            try s.push()
            report(.online)
        } catch {
            s.disconnect()
            online = false
            report(.offline(waiting: s.waiting))
        }
    }

    private func report(_ state: State) {
        guard state != lastState else { return }
        lastState = state
        let s = MainLoopHandoff(value: state)
        onMainLoop { [weak self] in
            guard let self else { return }
            // Only while the board cannot be reached does a timer retry.
            if case .offline = s.value {
                if self.retryTimer == 0 { self.retryTimer = every(milliseconds: 2000) { [weak self] in self?.wake(); return self != nil } }
            } else {
                stopTimer(&self.retryTimer)
            }
            self.onState?(s.value)
        }
    }
}

/// A flag raised from any thread; `raise` says whether this call raised it.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var up = false
    func raise() -> Bool { lock.lock(); defer { lock.unlock() }; if up { return false }; up = true; return true }
    func lower() { lock.lock(); up = false; lock.unlock() }
}
