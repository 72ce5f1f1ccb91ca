import Dispatch
import Foundation
import InkCore
import InkStore

/// Commits every change to the open document on a serial background queue, in order, one at a time.
/// A change that cannot be written for now (disk full, read-only file) stays queued and is retried, so the
/// drawing goes on in memory and nothing is skipped; the window is told so it can say what is wrong.
/// A change the store can never accept (`StoreError.isPermanent`) is not retried: the whole file is rewritten
/// from the editor's state instead, and later changes go to the new file.
final class Autosave: @unchecked Sendable {
    /// What the window shows about saving.
    enum Status: Equatable {
        case saved
        case failing(String)
        /// The store refuses the drawing itself (retrying cannot help); saving resumes with the next change.
        case refused(String)
    }

    /// The editor's document and history right after a batch of changes: what a rewrite writes.
    struct State {
        let document: Document
        let history: History
    }

    let path: String
    private let queue = DispatchQueue(label: "oekaki.autosave", qos: .userInitiated)
    // Only touched on `queue`.
    private var file: DocumentFile?
    private var isClosed = false
    /// Queued changes, each with its number in the order they were handed over and what hears once it is in the file.
    private var pending: [(number: Int, change: Change, saved: Saved?)] = []
    private var handed = 0
    /// The newest editor state and the number of the last change it includes.
    private var latest: (state: State, through: Int)?
    /// A permanent failure: the file must be rewritten from a state that includes this change.
    private var rewriteNeededThrough: Int?
    private var lastStatus = Status.saved
    /// Called on the GTK thread when saving starts failing or recovers.
    var onStatus: ((Status) -> Void)?
    /// Called on the GTK thread once the file has been rewritten (a new file at the same path: whatever held the
    /// old one, such as a board's replica, holds a closed file now).
    var onRewritten: (() -> Void)?
    /// Called on the save queue with a change once it is in the file.
    typealias Saved = (Change) -> Void

    init(file: DocumentFile) {
        self.path = file.path
        self.file = file
    }

    /// Queues changes for the file; returns at once. `state` is the editor's drawing and history after them
    /// (nil when they do not match, e.g. mid-erase), used only if the file must be rewritten. `saved` hears each
    /// change on the save queue right after its transaction, before the next change is tried (never for one that
    /// did not go in): what the caller keeps in step with the file follows it there.
    func commit(_ changes: [Change], state: State?, saved: Saved? = nil) {
        guard !changes.isEmpty else { return }
        let batch = MainLoopHandoff(value: (changes, state)), hears = MainLoopHandoff(value: saved)
        queue.async {
            for c in batch.value.0 {
                self.handed += 1
                self.pending.append((self.handed, c, hears.value))
            }
            if let s = batch.value.1 { self.latest = (s, self.handed) }
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

    /// Runs `body` on the save queue with the open file, after the changes queued before it.
    func withFile(_ body: @escaping (DocumentFile) -> Void) {
        queue.async {
            guard !self.isClosed, let file = self.file else { return }
            body(file)
        }
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
            isClosed = true
            return pending.map(\.change)
        }
    }

    private func flush() {
        guard !isClosed else { return }
        if let needed = rewriteNeededThrough {
            // Retrying the refused change is pointless; only a newer editor state that includes it can help.
            guard let latest, latest.through >= needed else { return }
            do {
                try rewrite(from: latest.state)
                pending.removeAll { $0.number <= latest.through }
                rewriteNeededThrough = nil
            } catch {
                return fail(error, at: needed)
            }
        }
        guard let file else { return }
        // Images and PDFs the changes may name: their bytes travel with the editor's state, not the change.
        if let latest { file.addFiles(latest.state.document.files) }
        while let next = pending.first {
            do {
                try file.commit([next.change])
                pending.removeFirst()
                next.saved?(next.change)
            } catch {
                return fail(error, at: next.number)
            }
        }
        report(.saved)
    }

    private func fail(_ error: Error, at number: Int) {
        if let e = error as? StoreError, e.isPermanent {
            let firstTime = rewriteNeededThrough == nil
            rewriteNeededThrough = max(rewriteNeededThrough ?? number, number)
            // A state that already includes the refused change may be in hand: rewrite from it at once.
            if firstTime, let latest, latest.through >= number { return flush() }
            report(.refused("\(e)"))
        } else {
            report(.failing("\(error)"))
        }
    }

    /// Replaces the file with one holding `state`: the old one is closed first, as it holds the writer lock.
    private func rewrite(from state: State) throws {
        file?.close()
        file = nil
        file = try DocumentFile.create(path: path, document: state.document, history: state.history)
        onMainLoop { [weak self] in self?.onRewritten?() }
    }

    private func report(_ status: Status) {
        guard status != lastStatus else { return }
        lastStatus = status
        let s = MainLoopHandoff(value: status)
        onMainLoop { [weak self] in self?.onStatus?(s.value) }
    }
}
