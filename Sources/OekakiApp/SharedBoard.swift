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
    /// GTK thread: strokes changed by other people, to show.
    var onApplied: ((BoardCommit) -> Void)?
    /// GTK thread: connection state for the title bar.
    var onState: ((State) -> Void)?

    // Save queue only.
    private var sync: BoardSync?
    private var online = false
    private var lastAttempt = Date.distantPast
    private var lastState: State?

    // GTK thread only.
    private var timer: UInt32 = 0
    private var tickQueued = false

    init(url: BoardURL, autosave: Autosave, numbers: StrokeNumbers) {
        self.url = url; self.autosave = autosave; self.numbers = numbers
    }

    func start() {
        let url = self.url, numbers = self.numbers
        autosave.withFile { [weak self] file in
            guard let self else { return }
            do {
                let s = try BoardSync(document: file, url: url)
                s.numbers = numbers
                s.note = { FileHandle.standardError.write(Data("oekaki: board \(url.board): \($0)\n".utf8)) }
                s.onApplied = { [weak self] c in
                    let batch = MainLoopHandoff(value: c)
                    onMainLoop { self?.onApplied?(batch.value) }
                }
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
                self.autosave.withFile { [weak self] _ in
                    self?.step()
                    onMainLoop { self?.tickQueued = false }
                }
            }
            return true
        }
    }

    func stop() {
        if timer != 0 { g_source_remove(timer); timer = 0 }
        autosave.withFile { [weak self] _ in
            self?.sync?.disconnect()
            self?.autosave.onCommitted = nil
        }
    }

    /// On the save queue: reconnect when due, apply what arrived, publish what waits.
    private func step() {
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
