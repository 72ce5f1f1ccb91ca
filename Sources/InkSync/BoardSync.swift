import Foundation
import InkCore
import InkStore

/// Keeps a replica document and a board in step: applies the board's log to the document and publishes what
/// the document holds that the board lacks. One thread owns it (with the document).
///
/// Order on every (re)connect: first catch up from the last applied sequence, then publish the outbox; the
/// next outbox is computed only once the previous batch has come back from the log, so nothing is sent twice.
public final class BoardSync {
    public let url: BoardURL
    public let document: DocumentFile
    public private(set) var replica: BoardReplica
    /// Notes on skipped entries and reconnects, one line each.
    public var note: (String) -> Void = { FileHandle.standardError.write(Data("oekaki sync: \($0)\n".utf8)) }

    private var connection: NatsConnection?
    private var log: NatsConnection.Subscription?
    /// Strokes in progress and who is here: core NATS, outside the log.
    private var live: NatsConnection.Subscription?
    private var presence: NatsConnection.Subscription?
    /// Sequence of the last entry this replica published; no new batch before it has been applied.
    private var awaiting: UInt64 = 0
    /// A publish failed without an answer: the entry may be on the board, so catch up to its end first.
    private var unsure = false
    /// The page map has been stored since this engine started.
    private var pagesStored = false
    /// Rows in the document's outbox table (local changes not yet known to be on the board).
    private var outboxRows = 0
    /// The entry the board's newest snapshot holds it at, as far as this replica knows, and this replica's own
    /// newest entry on the log: the client whose entries carry the log `url.snapshotEvery` past the snapshot
    /// writes the next one (so one of a class does, not thirty).
    public private(set) var snapshotSequence: UInt64 = 0
    private var lastOwnSequence: UInt64 = 0
    /// Files this replica knows the board holds (`BoardFiles`): not asked for again.
    private var filesOnBoard = Set<ContentHash>()
    /// Files entries named that the board did not hold when they arrived (held empty here), and when they were
    /// last asked for.
    private var wantedFiles = Set<ContentHash>()
    private var wantedAskedAt: DispatchTime?
    /// Seconds between two askings for files not there yet (tests shorten it).
    var wantedFilesEvery: Double = 30
    /// The server refused this user the snapshots' stream, where files are kept: no file is put or asked for
    /// again this session (each refused request costs a timeout).
    private var filesRefused = false

    public enum Failure: Error, CustomStringConvertible {
        case unreachable(String), credentials(String), permission(String), document(String), other(String)
        public var description: String {
            switch self {
            case .unreachable(let m), .credentials(let m), .permission(let m), .document(let m), .other(let m): return m
            }
        }
    }

    public init(document: DocumentFile, url: BoardURL) throws {
        self.url = url; self.document = document
        let record: BoardRecord?
        do { record = try BoardTables.read(document) } catch { throw Failure.document("\(error)") }
        // The board is known by name: a cluster is reached through any of its servers.
        if let r = record, let known = try? BoardURL(r.url), known.board != url.board {
            throw Failure.document("\(document.path) is a replica of board '\(known.board)', not of '\(url.board)'")
        }
        var ledger = BoardLedger()
        var client = UInt64.random(in: 1...UInt64(Int64.max))
        var hidden: [StrokeID: Stroke] = [:]
        var parked: [PageID: BoardReplica.ParkedPage] = [:]
        if let r = record {
            client = r.client
            ledger.lastSequence = r.lastSequence
            ledger.applied = r.applied
            for p in r.pages {
                guard let key = PageKey(digits: p.key) else { throw Failure.document("\(document.path): a board page has no valid key") }
                ledger[page: BoardPageID(client: p.client, number: p.number)] = .init(local: p.local, visible: p.visible, key: key, format: p.format)
            }
            for p in r.parkedPages { parked[p.id] = .init(Page(id: p.id, format: p.format)) }
            for l in r.layers {
                guard let key = PageKey(digits: l.key) else { throw Failure.document("\(document.path): a board layer has no valid key") }
                ledger[layer: BoardLayerID(client: l.client, number: l.number)] = .init(local: l.local, page: l.page, visible: l.visible, key: key,
                                                                                       look: l.look, everyPage: l.everyPage)
            }
            var strokes: [StrokeID: Stroke] = [:]
            for p in document.document.pages { for s in p.strokes { strokes[s.id] = s } }
            for s in r.hidden { strokes[s.id] = s }
            var visible = Set<StrokeID>()
            for e in r.entries {
                // The page of the stored stroke; the board look as stored (format 8 stored none: the stroke's own).
                let s = strokes[e.local]
                let look = e.look ?? s.map { StrokeLook(of: $0) }
                    ?? StrokeLook(transform: .identity, width: 1, color: .black)
                ledger[BoardStrokeID(client: e.client, number: e.number)] = .init(local: e.local, visible: e.visible, order: e.order,
                                                                                 page: s?.page ?? Page.firstID, look: look, was: e.was, layer: e.layer)
                if e.visible { visible.insert(e.local) }
            }
            for s in r.hidden {
                // On a page deleted here, a stroke the board shows is in that page's drawing; otherwise it is hidden.
                if parked[s.page] != nil && visible.contains(s.id) { parked[s.page]!.page.insert(s) } else { hidden[s.id] = s }
            }
        }
        replica = BoardReplica(client: client, document: document.document, parked: parked, hidden: hidden, ledger: ledger)
        do {
            let o = try document.rows { try BoardTables.outbox($0) }
            outboxRows = o.rows
            for (id, page) in o.strokes { replica.pendingStrokes[id] = page }
            if o.pages { replica.pagesPending = true }
        } catch { throw Failure.document("\(error)") }
        // The one full comparison (the file may have been edited while not linked); from here on each committed
        // change names what it changed, in the outbox, in the change's own transaction.
        replica.settle()
        wantedFiles = Set(document.document.files.filter { $0.value.isEmpty }.keys)
        document.onCommit = { [weak self] change, rows in
            try BoardTables.create(rows)
            try BoardTables.append(change, rows)
            self?.outboxRows += 1
        }
        // Nothing is written before the first entry arrives: a failed first connect leaves the file as it was.
        if record != nil && (!replica.touched.isEmpty || replica.pagesTouched || !replica.followed.isEmpty) { try persist() }
    }

    deinit { unlink() }

    /// Stops writing this board's outbox with the document's commits (the window stops sharing; a later link
    /// compares the file with the board once, in full).
    public func unlink() { document.onCommit = nil }

    // MARK: connecting

    public var isConnected: Bool { connection?.isConnected ?? false }

    /// Called on a client library thread whenever something arrives or the connection changes (set before
    /// `connect`): an owner that waits for events instead of polling steps the engine then.
    public var onActivity: (@Sendable () -> Void)?

    /// Connects (giving up after `timeoutMs`), creates the board if it does not exist and starts reading its log
    /// after the last entry this replica applied.
    public func connect(timeoutMs: Int64 = 5000) throws {
        let c: NatsConnection
        do {
            c = try NatsConnection(urls: url.serverURLs, user: url.user, password: url.password, timeoutMs: timeoutMs, name: "oekaki")
        } catch let f as NatsConnection.Failure {
            throw Self.map(f, url)
        }
        c.activity.set(onActivity)
        do {
            if let bounds = try c.streamBounds(url.stream) {
                // Entries this replica never read were removed (a snapshot was written with keep=snapshot): it
                // cannot catch up from the log.
                if bounds.first > replica.ledger.lastSequence + 1 {
                    c.close()
                    throw Failure.other("board '\(url.board)': entries \(replica.ledger.lastSequence + 1)–\(bounds.first - 1) were removed from its log after a snapshot, "
                        + "so this replica cannot catch up; join the board again into a new file")
                }
            } else {
                try c.addStream(url.stream, subject: url.logSubject, replicas: url.replicas, maxMessageBytes: OperationCodec.maxBytes)
            }
            log = try c.consume(stream: url.stream, subject: url.logSubject, from: replica.ledger.lastSequence + 1, deliverPrefix: url.deliverSubject)
            live = try c.subscribe(url.liveSubject)
            presence = try c.subscribe(url.presenceSubject)
        } catch let f as NatsConnection.Failure {
            throw Self.map(f, url)
        }
        connection = c
        unsure = true
        // Files a snapshot or an earlier session held empty may have come meanwhile.
        askForWantedFiles(c)
    }

    public func disconnect() { log = nil; live = nil; presence = nil; connection?.close(); connection = nil }

    // MARK: outside the log

    /// Sends a stroke in progress (`LiveStroke`) to everyone on the board; lost if nobody is listening.
    public func publishLive(_ m: LiveStroke) { connection?.publishCore(url.liveSubject, m.encoded()) }

    /// Other people's strokes in progress that have arrived (never waits).
    public func takeLive() -> [LiveStroke] {
        drain(live).compactMap { LiveStroke($0) }.filter { $0.id.client != replica.client }
    }

    /// Says who is here (about once a second): "client name".
    public func publishPresence(name: String) {
        connection?.publishCore(url.presenceSubject, Array("\(String(replica.client, radix: 16)) \(name.prefix(64))".utf8))
    }

    /// Presence messages that arrived: client and name.
    public func takePresence() -> [(client: UInt64, name: String)] {
        drain(presence).compactMap { bytes in
            let text = String(decoding: bytes.prefix(100), as: UTF8.self)
            let parts = text.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let c = UInt64(parts[0], radix: 16) else { return nil }
            return (c, String(parts[1]))
        }
    }

    private func drain(_ s: NatsConnection.Subscription?) -> [[UInt8]] {
        guard let c = connection, let s else { return [] }
        var out: [[UInt8]] = []
        for _ in 0..<min(c.pending(s), 1000) {
            guard let m = try? c.next(s, timeoutMs: 0) else { break }
            out.append(m.data)
        }
        return out
    }

    private static func map(_ f: NatsConnection.Failure, _ url: BoardURL) -> Failure {
        switch f.kind {
        case .unreachable: return .unreachable("\(url.authority): \(f.description)")
        case .credentials: return .credentials("\(url.authority): \(f.description)")
        case .permission: return .permission("no permission for board '\(url.board)' on \(url.authority)")
        default: return .other("\(url): \(f.description)")
        }
    }

    // MARK: the log → the document

    /// Applies the entries that have arrived, waiting up to `waitMs` for the first. Returns how many were applied.
    @discardableResult
    public func pull(waitMs: Int64) throws -> Int {
        guard let c = connection, let log else { return 0 }
        var n = 0
        var wait = waitMs
        // My strokes coming back wait and move to the board's place in one edit once all of my published entries
        // are back (`BoardBatch.swift`): an upload arrives over many pulls.
        replica.startBatch()
        do {
            while let m = try c.next(log, timeoutMs: wait) {
                wait = 0
                guard m.sequence > replica.ledger.lastSequence else { continue }
                do {
                    switch try OperationCodec.decodeMessage(m.data) {
                    case .operation(let op):
                        if op.client == replica.client { lastOwnSequence = m.sequence }
                        replica.receive(op, sequence: m.sequence)
                    case .part(let p):
                        if p.client == replica.client { lastOwnSequence = m.sequence }
                        replica.receive(p, sequence: m.sequence)
                    }
                } catch {
                    replica.skip(sequence: m.sequence, because: "\(error)")
                }
                n += 1
                if m.pending == 0 || n >= 5000 { break }
            }
        } catch let f as NatsConnection.Failure { replica.endBatch(); throw Self.map(f, url) }
        if replica.ledger.lastSequence >= awaiting { replica.endBatch() }
        if n > 0 || !replica.followed.isEmpty { try persist() }
        if n > 0 { askForWantedFiles(c) }
        return n
    }

    /// The files entries named before the board held them, asked for again (at most every `wantedFilesEvery`
    /// seconds, and only when entries arrive: nothing at rest). Those that arrived take their empty places, and
    /// the window gets them.
    private func askForWantedFiles(_ c: NatsConnection) {
        guard !wantedFiles.isEmpty, !filesRefused else { return }
        if let at = wantedAskedAt, Double(DispatchTime.now().uptimeNanoseconds - at.uptimeNanoseconds) < wantedFilesEvery * 1e9 { return }
        wantedAskedAt = .now()
        var arrived: [ContentHash: [UInt8]] = [:]
        for h in wantedFiles where !filesRefused {
            do { if let bytes = try BoardFiles.take(h, url: url, connection: c) { arrived[h] = bytes } } catch { fileRequestFailed(error) }
        }
        guard !arrived.isEmpty else { return }
        do {
            let filled = try document.fillFiles(arrived)
            wantedFiles.subtract(arrived.keys)
            if !filled.isEmpty { onFiles?(filled) }
        } catch {
            note("files from the board not stored: \(error)")
        }
    }

    private func fileRequestFailed(_ error: Error) {
        note("\(error)")
        if let f = error as? NatsConnection.Failure, f.kind == .permission { filesRefused = true }
    }

    /// Takes the files `c` names that this replica does not hold from the board before it is committed; those
    /// the board does not hold (yet) are held empty, so the batch still applies (their items show nothing until
    /// the bytes arrive). Returns the files that arrived.
    private func takeFiles(for c: BoardCommit) -> [ContentHash: [UInt8]] {
        let missing = BoardFiles.named(by: c).filter { document.document.files[$0] == nil }
        guard !missing.isEmpty else { return [:] }
        var arrived: [ContentHash: [UInt8]] = [:]
        for h in missing.sorted(by: { $0.hex < $1.hex }) {
            var bytes: [UInt8]?
            if let connection, !filesRefused {
                do { bytes = try BoardFiles.take(h, url: url, connection: connection) } catch { fileRequestFailed(error) }
            }
            if let bytes {
                arrived[h] = bytes
                filesOnBoard.insert(h)
            } else {
                wantedFiles.insert(h)
            }
            document.addFiles([h: bytes ?? []])
        }
        if arrived.count < missing.count { note("\(missing.count - arrived.count) files the board names are not on it yet; their items show once they arrive") }
        return arrived
    }

    /// Stores what the last entries changed, in one transaction with the new log position: the edits the board
    /// made (the file applies them with `Document.apply`, as the replica did), the strokes and pages kept out of
    /// the drawing, and the board's state.
    private func persist() throws {
        for line in replica.takeNotes() { note(line) }
        // The page map goes into the file with the first batch too: a later move here must not make another page
        // the board's first.
        let pagesTouched = replica.pagesTouched || !pagesStored
        pagesStored = true
        let touched = replica.takeTouched()
        let edits = replica.takeFollowed()
        let l = replica.ledger
        // Before the first part of a large entry still incomplete: after a restart the parts are read again.
        var c = BoardCommit(client: replica.client, url: url.description, lastSequence: replica.resumeSequence, applied: l.applied, edits: edits)
        var shownPage = Set<PageID>()
        for p in replica.document.pages { shownPage.insert(p.id) }
        for id in touched.sorted() {
            guard let g = l.globalID(local: id), let e = l[g] else { c.unmapped.append(id); continue }
            // Out of the drawing (hidden, or on a page deleted here): kept as the board has it, for a restore.
            if !shownPage.contains(e.page), let s = replica.stroke(id, page: e.page) {
                c.hidden.append(s)
            } else if replica.stroke(id, page: e.page) == nil, let s = replica.hidden[id] {
                c.hidden.append(s)
            }
            c.entries.append(.init(local: id, client: g.client, number: g.number, visible: e.visible, order: e.order, look: e.look, was: e.was,
                                   layer: e.layer == e.page ? nil : e.layer))
        }
        if pagesTouched {
            c.parkedPages = replica.parked.map { (id: $0.key, format: $0.value.format) }.sorted { $0.id < $1.id }
            c.pageEntries = l.pages.map { g, e in
                BoardRecord.PageEntry(local: e.local, client: g.client, number: g.number, visible: e.visible, key: e.key.digits, format: e.format)
            }
            c.layerEntries = l.layers.map { g, e in
                BoardRecord.LayerEntry(local: e.local, client: g.client, number: g.number, page: e.page, visible: e.visible, key: e.key.digits,
                                       look: e.look, everyPage: e.everyPage)
            }
        }
        let arrived = takeFiles(for: c)
        do { try BoardTables.commit(c, to: document) } catch { throw Failure.document("\(error)") }
        if !arrived.isEmpty { onFiles?(arrived) }
        if !touched.isEmpty || pagesTouched || !edits.isEmpty { onApplied?(c) }
    }

    // MARK: the document → the log

    /// Shared with an editor on another thread, so both number strokes (and pages) from one sequence.
    public var ids: IDSource {
        get { replica.ids }
        set { replica.ids = newValue }
    }

    /// Called after each batch of board entries is in the document, with what changed in the drawing.
    public var onApplied: ((BoardCommit) -> Void)?
    /// Called with the bytes of files that came from the board (before the batch naming them, or later for
    /// files that were not there yet): the window draws them.
    public var onFiles: (([ContentHash: [UInt8]]) -> Void)?
    /// Each message the board acknowledged, with its sequence (tests check that none is lost).
    var onAcknowledged: ((_ sequence: UInt64, _ bytes: [UInt8]) -> Void)?

    /// Local edits someone else already committed to the document (the app's save queue; the outbox rows went
    /// in with them): the replica follows.
    public func didCommit(_ changes: [Change]) {
        for c in changes {
            switch c {
            case .did(let e), .redid(let e): replica.perform(e)
            case .undid(let e): replica.perform(e.inverse)
            }
        }
        // A stroke of mine back at the board's place in the drawing order: the file follows.
        if !replica.followed.isEmpty { try? persist() }
    }

    /// Commits local edits (undo and redo included) to the document; each is its own outbox entry, so an edit
    /// on the board is as durable as one that is not shared.
    public func commit(_ changes: [Change]) throws {
        do { try document.commit(changes) } catch { throw Failure.document("\(error)") }
        didCommit(changes)
    }

    /// Changes waiting to be published: the outbox's rows (or, after the full comparison at start, the strokes
    /// that differ from the board). Never a comparison: the title bar asks on every tick while offline.
    public var waiting: Int {
        replica.isSettled ? 0 : max(outboxRows, 1)
    }

    /// Publishes the outbox unless an earlier batch has not come back yet. Returns how many entries went out.
    @discardableResult
    public func push() throws -> Int {
        guard let c = connection else { return 0 }
        if unsure {
            do { awaiting = max(awaiting, try c.streamLastSequence(url.stream) ?? 0) } catch let f as NatsConnection.Failure { throw Self.map(f, url) }
            unsure = false
        }
        guard replica.ledger.lastSequence >= awaiting else { return 0 }
        if replica.placesAreWaiting {
            replica.endBatch()
            try persist()
        }
        // Nothing pending: nothing is looked at (a tick at rest costs the same on any board).
        replica.settle()
        if replica.isSettled {
            if outboxRows > 0 {
                do { try document.rows { try $0.run("DELETE FROM board_outbox") } } catch { throw Failure.document("\(error)") }
                outboxRows = 0
            }
            writeSnapshotIfDue(c)
            return 0
        }
        var sent = 0
        for op in replica.operations(replica.outbox()) {
            let messages: [(id: String, bytes: [UInt8])]
            do { messages = try OperationCodec.messages(op) } catch { note("not published: \(error)"); continue }
            do {
                try putFiles(BoardFiles.named(by: op.change), c)
                for m in messages {
                    let ack = try c.publish(url.logSubject, m.bytes, messageID: m.id)
                    awaiting = max(awaiting, ack.sequence)
                    if !ack.duplicate { onAcknowledged?(ack.sequence, m.bytes) }
                }
                sent += 1
            } catch let f as NatsConnection.Failure {
                if f.kind == .tooLarge { note("not published (too large for the server): \(op.messageID)"); continue }
                unsure = true
                throw Self.map(f, url)
            }
        }
        return sent
    }

    /// Puts the files an entry names on the board before the entry goes out (a file the board holds is not sent
    /// again). A file this replica does not hold either (one still awaited), one too large, or one a user without
    /// permission for the snapshots' stream cannot put is left out with a note: the entry still goes out, and its
    /// item shows nothing elsewhere until someone puts the file there.
    private func putFiles(_ hashes: [ContentHash], _ c: NatsConnection) throws {
        for h in hashes where !filesOnBoard.contains(h) && !filesRefused {
            guard let bytes = document.document.files[h], !bytes.isEmpty else { continue }
            do {
                if try !BoardFiles.isOnBoard(h, url: url, connection: c) { try BoardFiles.put(h, bytes, url: url, connection: c) }
                filesOnBoard.insert(h)
            } catch let r as BoardSnapshot.Refused {
                note("\(r)")
                filesOnBoard.insert(h)
            } catch let f as NatsConnection.Failure where f.kind == .permission || f.kind == .tooLarge {
                // A user without the snapshots' subjects (SHARING.md) still publishes; the file stays here.
                note("file \(h.hex.prefix(12))… not put on the board: \(f.description)")
                filesOnBoard.insert(h)
                if f.kind == .permission { filesRefused = true }
            }
        }
    }

    /// Writes the board's snapshot when this replica's own entries carried the log `url.snapshotEvery` entries
    /// past the newest one, and it holds exactly the board (called when nothing waits to be published and its
    /// own entries are back). A failure is a note: the log still holds everything.
    private func writeSnapshotIfDue(_ c: NatsConnection) {
        let every = UInt64(url.snapshotEvery)
        guard every > 0, !unsure, lastOwnSequence >= snapshotSequence + every, replica.resumeSequence == replica.ledger.lastSequence else { return }
        // Someone may have written one meanwhile.
        snapshotSequence = max(snapshotSequence, BoardSnapshot.newest(c, url))
        guard lastOwnSequence >= snapshotSequence + every else { return }
        do {
            snapshotSequence = try BoardSnapshot.write(document, url: url, connection: c, scratch: document.path + ".snapshot-out")
        } catch {
            note("snapshot not written: \(error)")
            // Not again before another `every` entries of ours.
            snapshotSequence = replica.ledger.lastSequence
        }
    }

    /// Catches up with the board, publishes the outbox and waits until the board has it back: afterwards this
    /// replica holds everything the board held when it started, and the board everything this replica held.
    public func syncOnce(timeoutMs: Int64 = 10_000) throws {
        guard let c = connection else { throw Failure.unreachable("\(url): not connected") }
        let target: UInt64
        do { target = try c.streamLastSequence(url.stream) ?? 0 } catch let f as NatsConnection.Failure { throw Self.map(f, url) }
        // Our own batch still on its way back counts as part of the board.
        try catchUp(to: max(target, awaiting), timeoutMs: timeoutMs)
        unsure = false
        // Normally one round; a cut whose original was erased meanwhile can leave a little more to send.
        for _ in 0..<5 {
            let sent = try push()
            try catchUp(to: awaiting, timeoutMs: timeoutMs)
            if sent == 0 { break }
        }
    }

    private func catchUp(to target: UInt64, timeoutMs: Int64) throws {
        var idle = DispatchTime.now()
        while replica.ledger.lastSequence < target {
            if try pull(waitMs: 200) > 0 { idle = .now() }
            if DispatchTime.now().uptimeNanoseconds - idle.uptimeNanoseconds > UInt64(timeoutMs) * 1_000_000 {
                throw Failure.unreachable("\(url): the board stopped delivering its log at entry \(replica.ledger.lastSequence) of \(target)")
            }
        }
    }
}
