import Dispatch
import Foundation
import InkCore
import InkStore

/// Commits every change to the open document on a serial background queue, in order, one at a time.
/// A change that cannot be written (disk full, read-only file) stays queued and is retried, so the
/// drawing goes on in memory and nothing is skipped; the window is told so it can say what is wrong.
final class Autosave: @unchecked Sendable {
    /// What the window shows about saving.
    enum Status: Equatable {
        case saved
        case failing(String)
    }

    let path: String
    private let queue = DispatchQueue(label: "oekaki.autosave", qos: .userInitiated)
    // Only touched on `queue`.
    private var file: DocumentFile?
    private var pending: [Change] = []
    private var lastStatus = Status.saved
    /// Called on the GTK thread when saving starts failing or recovers.
    var onStatus: ((Status) -> Void)?

    init(file: DocumentFile) {
        self.path = file.path
        self.file = file
    }

    /// Queues changes for the file; returns at once.
    func commit(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        let batch = MainLoopHandoff(value: changes)
        queue.async {
            self.pending += batch.value
            self.flush()
        }
    }

    /// Waits (at most `timeout` seconds) until every change queued so far has been tried, so a finished
    /// stroke is in the file before the next one begins. Normally this returns at once: commits take
    /// milliseconds and a person takes longer to start the next stroke. A hanging disk never freezes input.
    func waitForQueued(timeout: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + timeout)
    }

    /// Tries the queued changes again (after a failure).
    func retry() {
        queue.async { self.flush() }
    }

    /// Tries to write everything now and waits; returns how many changes are still not in the file.
    func flushNow() -> Int {
        queue.sync {
            flush()
            return pending.count
        }
    }

    /// Waits for every queued change, then closes the file. Returns what could not be saved.
    @discardableResult
    func close() -> [Change] {
        queue.sync {
            flush()
            file?.close()
            file = nil
            return pending
        }
    }

    private func flush() {
        guard let file else { return }
        while let next = pending.first {
            do {
                try file.commit([next])
                pending.removeFirst()
            } catch {
                report(.failing("\(error)"))
                return
            }
        }
        report(.saved)
    }

    private func report(_ status: Status) {
        guard status != lastStatus else { return }
        lastStatus = status
        let s = MainLoopHandoff(value: status)
        onMainLoop { [weak self] in self?.onStatus?(s.value) }
    }
}
