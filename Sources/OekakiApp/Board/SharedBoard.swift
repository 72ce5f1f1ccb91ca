import CGtk
import Foundation
import InkCore
import InkStore
import InkSync

/// A window's document shared on a board. The sync engine writes the same file as autosave, so it runs on the
/// save queue; every 30 ms the GTK thread asks it to apply what arrived and publish what is waiting. Drawing
/// never waits for the network: the GTK thread only ever hands work to the queue.
final class SharedBoard {
    enum State: Equatable {
        case connecting
        case online
        case offline(waiting: Int)
        case failed(String)
    }

    let url: BoardURL
    private let autosave: Autosave
    private let numbers: StrokeNumbers
    private let pageNumbers: StrokeNumbers
    /// GTK thread: strokes changed by other people, to show.
    var onApplied: ((BoardCommit) -> Void)?
    /// GTK thread: connection state for the title bar.
    var onState: ((State) -> Void)?
    /// GTK thread: this user's strokes in progress (sent to the others as they grow).
    var liveSource: (() -> [Stroke])?
    /// GTK thread: other people's strokes in progress changed.
    var onLive: (([Stroke]) -> Void)?
    /// GTK thread: who is on the board (names, this user first).
    var onPeople: (([String]) -> Void)?
    /// GTK thread.
    private var others = LiveStrokes()
    private var sent: [StrokeID: Int] = [:]
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
    private var timer: UInt32 = 0
    private var tickQueued = false

    init(url: BoardURL, autosave: Autosave, numbers: StrokeNumbers, pageNumbers: StrokeNumbers) {
        self.url = url; self.autosave = autosave; self.numbers = numbers; self.pageNumbers = pageNumbers
        name = url.user ?? ProcessInfo.processInfo.environment["USER"] ?? "someone"
    }

    private static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// GTK thread: the deltas of this user's strokes in progress since the last tick, and the ends.
    private func liveMessages() -> [LiveStroke] {
        guard let client, let strokes = liveSource?() else { return [] }
        var out: [LiveStroke] = []
        var still: [StrokeID: Int] = [:]
        for s in strokes where s.style.tool == .pen || s.style.tool == .highlighter {
            let done = sent[s.id] ?? 0
            still[s.id] = s.points.count
            if s.points.count > done {
                out.append(LiveStroke(id: BoardStrokeID(client: client, number: s.id), style: s.style, points: Array(s.points[done...]), ended: false))
            }
        }
        for id in sent.keys where still[id] == nil {
            out.append(LiveStroke(id: BoardStrokeID(client: client, number: id), style: StrokeStyle(), points: [], ended: true))
        }
        sent = still
        return out
    }

    /// GTK thread: what the save queue brought back from one step.
    private func received(_ live: [LiveStroke], _ here: [(client: UInt64, name: String)]) {
        let now = Self.now
        var changed = others.expire(at: now)
        for m in live { others.receive(m, at: now); changed = true }
        if changed { onLive?(others.shown) }
        let before = Set(people.keys)
        for p in here { people[p.client] = (p.name, now) }
        people = people.filter { now - $0.value.seen < 3 }
        if Set(people.keys) != before || !here.isEmpty && people.count != before.count {
            onPeople?([name] + people.filter { $0.key != client }.values.map(\.name).sorted())
        }
    }

    func start() {
        let url = self.url, numbers = self.numbers, pageNumbers = self.pageNumbers
        autosave.withFile { [weak self] file in
            guard let self else { return }
            do {
                let s = try BoardSync(document: file, url: url)
                s.numbers = numbers
                s.pageNumbers = pageNumbers
                s.note = { FileHandle.standardError.write(Data("oekaki: board \(url.board): \($0)\n".utf8)) }
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
                let client = s.replica.client
                onMainLoop { [weak self] in self?.client = client }
                self.autosave.onCommitted = { [weak s] change in s?.didCommit([change]) }
                self.sync = s
                self.step()
            } catch {
                self.report(.failed("\(error)"))
            }
        }
        timer = every(milliseconds: 30) { [weak self] in
            guard let self else { return false }
            if !self.tickQueued {
                self.tickQueued = true
                let outgoing = MainLoopHandoff(value: self.liveMessages())
                self.autosave.withFile { [weak self] _ in
                    guard let self else { return }
                    self.step(sending: outgoing.value)
                    let live = self.sync?.takeLive() ?? [], here = self.sync?.takePresence() ?? []
                    let back = MainLoopHandoff(value: (live, here))
                    onMainLoop { [weak self] in
                        self?.tickQueued = false
                        self?.received(back.value.0, back.value.1)
                    }
                }
            }
            return true
        }
    }

    func stop() {
        stopTimer(&timer)
        autosave.withFile { [weak self] _ in
            self?.sync?.disconnect()
            self?.autosave.onCommitted = nil
        }
    }

    /// On the save queue: reconnect when due, apply what arrived, publish what waits.
    private func step(sending live: [LiveStroke] = []) {
        guard let s = sync else { return }
        if !online {
            guard Date().timeIntervalSince(lastAttempt) > 2 else { return report(.offline(waiting: s.waiting)) }
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
            for m in live { s.publishLive(m) }
            if Date().timeIntervalSince(lastPresence) >= 1 { s.publishPresence(name: name); lastPresence = Date() }
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
        onMainLoop { [weak self] in self?.onState?(s.value) }
    }
}
