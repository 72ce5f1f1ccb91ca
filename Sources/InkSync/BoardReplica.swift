import InkCore

/// One replica of a board, as pure state: the local document (what the user sees, including edits not yet on the
/// board), strokes and pages known but not shown (so a `restore` can bring them back) and the ledger of what the
/// board holds. No network, no file: the sync engine loads it from a document and stores what `touched` and
/// `pagesTouched` name; the property tests run many of them against a simulated log.
///
/// Convergence: every replica applies the log in sequence order with the rules in `receive`, so the board
/// state is the same everywhere. The local document is that state plus this replica's unpublished edits, and
/// the outbox is exactly the difference between the two (`outbox()`): an edit is its own outbox entry, so it
/// cannot be lost between committing it and queueing it. Every value (a stroke's visibility, place in the
/// drawing order, placement, width and colour; a page's visibility, key in the page order and format) is last
/// writer wins by log order; locally it follows the board unless this replica changed it and has not published
/// that yet (then its change goes out later and wins in turn).
public struct BoardReplica: Sendable {
    public let client: UInt64
    public private(set) var document: Document
    public internal(set) var parked: [PageID: ParkedPage]
    public internal(set) var hidden: [StrokeID: Stroke]
    /// The key each local page has in the board's page order: the board's, unless moved here and not yet published.
    public internal(set) var keys: [PageID: PageKey] = [:]
    /// The key each local layer has among its page's layers, as `keys` for pages (`BoardLayers.swift`).
    public internal(set) var layerKeys: [LayerID: PageKey] = [:]
    public internal(set) var ledger: BoardLedger
    /// Local ids whose stroke, visibility or ledger entry changed since `takeTouched()`: what to store.
    public internal(set) var touched: Set<StrokeID> = []
    /// True when pages were added, deleted, moved, reformatted or confirmed since `takeTouched()`.
    public internal(set) var pagesTouched = false
    /// What `receive` skipped, for the log (hostile or stale entries never stop a replica).
    public internal(set) var notes: [String] = []
    /// Edits the board brought about in `document` since `takeFollowed()`, in order: the file and the editor apply
    /// exactly these with `Document.apply`, so all three documents stay the same.
    public private(set) var followed: [Edit] = []
    /// Local strokes (with their page) whose state may differ from the board's: only these are compared when the
    /// outbox is made, so publishing costs in proportion to the edits, never to the board. Every local edit adds
    /// what it names; `settle()` drops those the board has caught up with.
    public internal(set) var pendingStrokes: [StrokeID: PageID] = [:]
    /// True when a local page edit may not be on the board yet (pages are few: then all of them are compared).
    public internal(set) var pagesPending = false
    /// Within a batch (`BoardBatch.swift`): my strokes back from the board, each waiting for its place in the order.
    var placesWaiting: [(local: StrokeID, page: PageID, order: UInt64)]?

    /// The first page's strokes (a one-page board, and the tests).
    public var drawing: Drawing { document.pages[0].flattened }

    /// Drawing order on a board: an `add` at sequence s draws at s << sequenceShift; the pieces cut from it take
    /// the free slots above (in the order the log confirms them), so they keep the original's place and every
    /// confirmed stroke has its own order, the same on every replica. A front entry gives its k-th stroke the slot
    /// s << sequenceShift | k << slotBits (pieces of it fill that slot); a back entry the same below zero, lower
    /// for later entries. Local strokes not yet on the board get ids (= orders) above all of these, so new ink is
    /// on top until the board places it.
    public static let sequenceShift: UInt64 = 20
    /// Most pages a board keeps (what a document can store).
    public static let maxPages = 10_000
    /// `maxPages`, lower in tests.
    public var pageLimit = BoardReplica.maxPages
    public static let slotBits: UInt64 = 14
    private static let sequenceMask: UInt64 = (1 << sequenceShift) - 1
    private static let slotMask: UInt64 = (1 << slotBits) - 1
    /// Pieces placed so far per slot (recomputed from the ledger on load).
    private var piecesPlaced: [UInt64: UInt64] = [:]
    /// The lane of local ids: `.alone`, or `replicaLane` when an editor on another thread adds to the same document
    /// (the app), numbering in `editorLane`.
    public var ids = IDSource.alone
    public static let editorLane = IDSource(lane: 0, of: 2), replicaLane = IDSource(lane: 1, of: 2)

    private mutating func makeLocalID() -> StrokeID { document.makeStrokeID(in: ids) }
    mutating func makePageID() -> PageID { document.makePageID(in: ids) }
    private mutating func reserve(through id: StrokeID) { document.reserveStrokeIDs(through: id) }

    public init(client: UInt64, document: Document, parked: [PageID: ParkedPage] = [:], hidden: [StrokeID: Stroke] = [:],
                ledger: BoardLedger = BoardLedger()) {
        self.client = client; self.document = document; self.parked = parked; self.hidden = hidden; self.ledger = ledger
        self.document.reserveStrokeIDs(through: Self.topOrder(ledger.lastSequence))
        for id in parked.keys { self.document.reservePageIDs(through: id) }
        // Every board has its first page: until the board says otherwise it is this document's first page, a new
        // drawing's endless page (so joining a board never sends a format nobody chose).
        if self.ledger[page: .first] == nil {
            self.ledger[page: .first] = .init(local: document.pages[0].id, visible: true, key: .first, format: .endless)
        }
        for (gid, e) in self.ledger.pages {
            keys[e.local] = e.key
            // A page the board knows that this file lost entirely: an empty page, parked.
            if self.document.index(of: e.local) == nil && self.parked[e.local] == nil {
                self.parked[e.local] = ParkedPage(Page(id: e.local, format: e.format))
                notes.append("page \(gid) was missing here; kept empty")
            }
        }
        fixKeys()
        startLayers()
        for e in self.ledger.entries.values where e.order & Self.slotMask != 0 {
            let root = e.order & ~Self.slotMask
            piecesPlaced[root] = max(piecesPlaced[root] ?? 0, e.order & Self.slotMask)
        }
        // Copies made by restyle, front or back while this file was away from the board take over their originals.
        var missing: [Stroke] = [], fresh: [Stroke] = []
        for e in self.ledger.entries.values where e.visible && stroke(e.local, page: e.page) == nil {
            if let s = self.hidden[e.local] { missing.append(s) }
        }
        if !missing.isEmpty {
            for p in self.document.pages { for s in p.strokes where self.ledger.globalID(local: s.id) == nil { fresh.append(s) } }
            adoptCopies(removed: missing, added: fresh)
        }
        // A local undo puts my strokes back with the order they had when the edit was made; the board's order wins.
        for (g, e) in self.ledger.entries where g.client == client && e.local == g.number {
            if let s = stroke(e.local, page: e.page), s.order == s.id, s.order != e.order { place(e.local, page: e.page, order: e.order) }
        }
        // The file may have been edited while not linked to its board (opened without sharing, or before the first
        // share): compared once, in full, here; from now on each edit names what it changed.
        markAllPending()
    }

    private static func topOrder(_ sequence: UInt64) -> UInt64 { sequence << sequenceShift | sequenceMask }

    /// A fresh local stroke id (the simulation's editor; the app's `Editor` numbers in its own lane).
    public mutating func newStrokeID() -> StrokeID { makeLocalID() }
    /// A fresh local page id.
    public mutating func newPageID() -> PageID { makePageID() }

    public mutating func takeTouched() -> Set<StrokeID> { defer { touched = []; pagesTouched = false }; return touched }
    public mutating func takeNotes() -> [String] { defer { notes = [] }; return notes }
    public mutating func takeFollowed() -> [Edit] { defer { followed = [] }; return followed }

    /// The number the next operation of this client gets.
    public var nextOperationNumber: UInt64 { (ledger.applied[client] ?? 0) + 1 }

    // MARK: pages and strokes wherever they are

    /// A local page, shown or parked.
    public func page(_ page: PageID) -> Page? {
        if let i = document.index(of: page) { return document.pages[i] }
        return parked[page]?.page
    }

    public func stroke(_ id: StrokeID, page: PageID) -> Stroke? { self.page(page)?.stroke(id) }

    /// Applies a local stroke edit: to the document through `Document.apply` when its page is shown, else to
    /// the parked page.
    private mutating func applyLocal(_ edit: Edit, page: PageID) {
        if document.index(of: page) != nil { document.apply(edit) } else { parked[page]?.page.apply(edit) }
    }

    /// Shows a stroke the board has (new, restored, moved in the drawing order or restyled): an edit followed,
    /// applied with `Document.apply` and kept for the file and the editor; on a parked page, into that page.
    mutating func show(_ s: Stroke) {
        if let i = document.index(of: s.page) {
            let e: Edit = document.pages[i].stroke(s.id).map { .replace(removed: [$0], added: [s]) } ?? .add([s])
            follow(e)
            // Its layer is gone here: it went to the top layer, which the board hears of (`BoardLayers.swift`).
            if document.pages[i].stroke(s.id)?.layer != s.layer { pendingStrokes[s.id] = s.page }
        } else {
            parked[s.page]?.page.insert(s)
        }
    }

    /// Takes a stroke out of the drawing (or its parked page); returns it.
    @discardableResult
    private mutating func unshow(_ id: StrokeID, page: PageID) -> Stroke? {
        if let i = document.index(of: page) {
            guard let s = document.pages[i].stroke(id) else { return nil }
            follow(.remove([s]))
            return s
        }
        return parked[page]?.page.remove(id)
    }

    /// An edit the board brought about: applied to the document as every edit is, and kept (`takeFollowed`) so the
    /// file and the editor apply exactly the same edits in the same order.
    mutating func follow(_ e: Edit) {
        document.apply(e)
        followed.append(e)
    }

    /// A page's format, shown or parked.
    public func format(of page: PageID) -> PageFormat? { document.page(page)?.format ?? parked[page]?.format }

    /// The global id a local page has or will have when published.
    public func boardPageID(_ local: PageID) -> BoardPageID {
        ledger.globalPageID(local: local) ?? BoardPageID(client: client, number: local)
    }

    /// The local page the board's page `id` is here (nil: not here yet, or deleted for good).
    public func localPageID(_ id: BoardPageID) -> PageID? { ledger[page: id]?.local }

    // MARK: local edits (the app's and the simulation's path; the CLI's edits are already in the file)

    /// Applies a local edit: removed strokes are kept hidden, deleted pages parked, for a later restore.
    public mutating func perform(_ edit: Edit) {
        placeWaiting()
        switch edit {
        case .add, .remove, .replace, .clear:
            guard let page = edit.strokePage, let d = self.page(page) else { return }
            let gone: [Stroke]
            if case .clear = edit { gone = d.strokes } else { gone = edit.removed.compactMap { d.stroke($0.id) } }
            for s in edit.added { reserve(through: s.id) }
            applyLocal(edit, page: page)
            for s in gone { hidden[s.id] = s; touched.insert(s.id); pendingStrokes[s.id] = page }
            for s in edit.added { pendingStrokes[s.id] = page }
            for s in edit.added {
                hidden[s.id] = nil; touched.insert(s.id)
                // Back in the drawing at the board's place if the board knows it.
                if let g = ledger.globalID(local: s.id), let e = ledger[g], e.order != s.order { place(s.id, page: page, order: e.order) }
            }
            // A copy the board erased meanwhile (kept hidden here) still hands its id back: an undone restyle of a
            // stroke someone erased since brings that stroke back with its id, not as a new stroke under an id the
            // board already has (its add was ignored, and the replica never settled: seed 15816).
            let goneOrHidden = gone + edit.removed.filter { d.stroke($0.id) == nil }.compactMap { hidden[$0.id] }
            adoptCopies(removed: goneOrHidden, added: edit.added)
        case .transform(let t):
            applyLocal(edit, page: t.page)
            touched.formUnion(t.ids)
            for id in t.ids { pendingStrokes[id] = t.page }
        case .addPage(let p, _):
            guard document.index(of: p.id) == nil else { return }
            // The page comes back as the edit holds it, and an undo takes back only this replica's own edit: ink the
            // board put on the page while it was deleted here stays on it (it was erased on the board, and then left
            // out of every list here: found by seed 1690).
            let kept = Set(p.strokes.map(\.id))
            let meanwhile = parked.removeValue(forKey: p.id)?.page.strokes ?? []
            document.apply(edit)
            for s in p.strokes { hidden[s.id] = nil; touched.insert(s.id); pendingStrokes[s.id] = p.id }
            let others = meanwhile.filter { !kept.contains($0.id) }
            if !others.isEmpty { follow(.add(others)) }
            for s in meanwhile { touched.insert(s.id); pendingStrokes[s.id] = p.id }
            fixKeys(); fitLayerKeys(p)
            pagesTouched = true; pagesPending = true
        case .deletePage(let p, _):
            guard let i = document.index(of: p.id), document.pages.count > 1 else { return }
            let page = document.pages[i]
            document.apply(edit)
            parked[p.id] = ParkedPage(page)
            pagesTouched = true; pagesPending = true
        case .layers(let steps):
            // Layers go out as layer entries (`BoardLayers.swift`), the items they take away or bring back as strokes.
            // Others' items on a layer taken away here go to the top layer (`Page.strays`); the board hears of it.
            let strays = steps.flatMap { st in self.page(st.page)?.strays(of: st) ?? [] }
            document.apply(edit)
            for s in strays { touched.insert(s.id); pendingStrokes[s.id] = s.page }
            for s in edit.removed { hidden[s.id] = s; touched.insert(s.id); pendingStrokes[s.id] = s.page }
            for s in edit.added { hidden[s.id] = nil; touched.insert(s.id); pendingStrokes[s.id] = s.page }
            performLayers(steps)
        case .movePage:
            document.apply(edit)
            fixKeys()
            pagesTouched = true; pagesPending = true
        case .setFormat(let changes):
            document.apply(edit)
            for c in changes where parked[c.page] != nil { parked[c.page]!.format = c.to }
            pagesTouched = true; pagesPending = true
        }
    }

    /// Restyle, front and back replace strokes by copies (same points, new ids): a copy of a stroke the board
    /// knows takes over its global id, so the board gets a change of look or order instead of a new stroke.
    private mutating func adoptCopies(removed: [Stroke], added: [Stroke]) {
        guard !removed.isEmpty, !added.isEmpty else { return }
        var candidates: [Int: [Stroke]] = [:]
        for a in added where ledger.globalID(local: a.id) == nil { candidates[a.drawnPoints.count, default: []].append(a) }
        for r in removed {
            func same(_ a: Stroke) -> Bool { a.page == r.page && a.shape == r.shape && a.content == r.content && a.drawnPoints == r.drawnPoints }
            // Among look-alikes, my own stroke of that id first (an undo bringing back the very stroke; found by seed 6704).
            guard let g = ledger.globalID(local: r.id), var e = ledger[g], var list = candidates[r.drawnPoints.count],
                  let k = list.firstIndex(where: { g.client == client && $0.id == g.number && same($0) }) ?? list.firstIndex(where: same) else { continue }
            let copy = list.remove(at: k)
            candidates[r.drawnPoints.count] = list
            e.local = copy.id
            ledger[g] = e
            hidden[r.id] = nil
            touched.insert(r.id); touched.insert(copy.id)
            pendingStrokes[r.id] = r.page; pendingStrokes[copy.id] = copy.page
        }
    }

    // MARK: the log

    /// Applies the log entry at `sequence`. Entries must come in sequence order; an old sequence or an operation
    /// number already applied for its client (a duplicate) is skipped.
    public mutating func receive(_ op: BoardOperation, sequence: UInt64) {
        guard sequence > ledger.lastSequence else { return }
        // Only my strokes coming back wait for their place; anything else sees the drawing as it is.
        if case .add = op.change, op.client == client {} else { placeWaiting() }
        ledger.lastSequence = sequence
        reserve(through: Self.topOrder(sequence))
        apply(op, sequence: sequence)
    }

    /// Applies a part of a large entry at `sequence`; the entry itself when this part completes it (at this
    /// part's place). Parts wait in memory: until the entry is whole, `resumeSequence` stays before its first part,
    /// so a replica stopped meanwhile reads the parts again (the entries between are duplicates by then).
    public mutating func receive(_ part: OperationPart, sequence: UInt64) {
        guard sequence > ledger.lastSequence else { return }
        placeWaiting()
        ledger.lastSequence = sequence
        reserve(through: Self.topOrder(sequence))
        let key = BoardStrokeID(client: part.client, number: part.number)
        guard part.number > (ledger.applied[part.client] ?? 0) else { notes.append("entry \(sequence): part of operation \(key), which is applied, skipped"); return }
        // A part 0 starts the entry afresh (its author published it again after a crash).
        if part.index == 0 || pending[key]?.count != part.count { pending[key] = PendingParts(first: sequence, count: part.count) }
        pending[key]!.parts[part.index] = part.bytes
        pendingBytes = pending.values.reduce(0) { $0 + $1.bytes }
        while pendingBytes > Self.maxPendingBytes, let oldest = pending.min(by: { $0.value.first < $1.value.first }) {
            pending[oldest.key] = nil
            pendingBytes -= oldest.value.bytes
            notes.append("parts of operation \(oldest.key) dropped: too many unfinished entries")
        }
        guard let p = pending[key], p.parts.count == p.count else { return }
        pending[key] = nil
        pendingBytes -= p.bytes
        let whole = (0..<p.count).flatMap { p.parts[$0] ?? [] }
        do {
            let op = try OperationCodec.decode(whole)
            guard op.client == part.client, op.number == part.number else { throw OperationCodec.Failure("its parts name another operation") }
            apply(op, sequence: sequence)
        } catch {
            notes.append("entry \(sequence) skipped: operation \(key) in \(p.count) parts: \(error)")
        }
    }

    /// Where to read the log from after a restart: before the first part of an entry not yet whole.
    public var resumeSequence: UInt64 {
        pending.values.map { $0.first - 1 }.min().map { min($0, ledger.lastSequence) } ?? ledger.lastSequence
    }

    private struct PendingParts: Sendable {
        var first: UInt64
        var count: Int
        var parts: [Int: [UInt8]] = [:]
        var bytes: Int { parts.values.reduce(0) { $0 + $1.count } }
        init(first: UInt64, count: Int) { self.first = first; self.count = count }
    }
    private var pending: [BoardStrokeID: PendingParts] = [:]
    private var pendingBytes = 0
    /// Unfinished large entries kept at most (hostile peers could start many).
    static let maxPendingBytes = 4 * OperationCodec.maxBytes

    private mutating func apply(_ op: BoardOperation, sequence: UInt64) {
        guard op.number > (ledger.applied[op.client] ?? 0) else { notes.append("entry \(sequence): duplicate of operation \(op.messageID), skipped"); return }
        ledger.applied[op.client] = op.number
        let own = op.client == client
        // My own entry coming back: locally it was taken as done, so whatever it names may differ from the board
        // now (a cut of a stroke someone else restored meanwhile, say): compared again at the next outbox.
        if own { defer { markPending(op.change) } }
        switch op.change {
        case .add(let s):
            addConfirmed(s, order: sequence << Self.sequenceShift, own: own)
        case .remove(let ids):
            for id in ids { setVisible(id, false, own: own) }
        case .restore(let ids):
            for id in ids { setVisible(id, true, own: own) }
        case .replace(let removed, let added):
            // Per original: the cut applies only while the original is still visible.
            var cut: [BoardStrokeID: UInt64] = [:]
            for id in removed { if let e = ledger[id], e.visible { cut[id] = e.order } }
            for id in cut.keys { setVisible(id, false, own: own) }
            for s in added {
                if let p = s.place, let order = cut[p] {
                    let root = order & ~Self.slotMask
                    let n = min((piecesPlaced[root] ?? 0) + 1, Self.slotMask)
                    piecesPlaced[root] = n
                    // A piece stays on its original's layer.
                    addConfirmed(s, order: root | n, own: own, layer: ledger[p].flatMap { $0.page == ledger[page: s.page]?.local ? $0.layer : nil })
                } else if own, s.id.client == client, ledger[s.id] == nil, let page = ledger[page: s.page]?.local {
                    // My piece of a stroke that was gone when my cut reached the board: it does not exist.
                    if unshow(s.id.number, page: page) != nil { touched.insert(s.id.number) }
                }
            }
        case .look(let changes):
            for c in changes { setLook(c, own: own) }
        case .front(let ids), .back(let ids):
            let front: Bool
            if case .front = op.change { front = true } else { front = false }
            for (k, id) in ids.prefix(OperationCodec.maxReordered).enumerated() {
                let slot = UInt64(k) << Self.slotBits
                let order = front ? sequence << Self.sequenceShift | slot
                                  : UInt64(bitPattern: -Int64(bitPattern: (sequence + 1) << Self.sequenceShift) + Int64(slot))
                setOrder(id, order, front: front, own: own)
            }
        case .reorder(let orders):
            for (id, order) in orders.sorted(by: { $0.key < $1.key }) {
                // Only back to the stroke's previous order: a value of its own, so no two strokes share one.
                guard let e = ledger[id], e.was == order else { notes.append("reorder of \(id) to an order it never had, ignored"); continue }
                setOrder(id, order, front: nil, own: own)
            }
        case .addPage(let p):
            addPage(p, own: own)
        case .deletePages(let ids):
            for id in ids { setPageVisible(id, false, own: own) }
        case .restorePages(let ids):
            for id in ids { setPageVisible(id, true, own: own) }
        case .movePages(let moves):
            for (id, key) in moves.sorted(by: { $0.key < $1.key }) {
                guard var e = ledger[page: id] else { continue }
                let old = e.key
                e.key = key
                ledger[page: id] = e
                pagesTouched = true
                if !own, keys[e.local] == old { keys[e.local] = key }
            }
            arrange()
        case .addLayer, .deleteLayers, .restoreLayers, .moveLayers, .lookLayers, .moveItems:
            receiveLayers(op.change, own: own)
        case .formatPages(let formats):
            for (id, f) in formats.sorted(by: { $0.key < $1.key }) {
                guard var e = ledger[page: id] else { continue }
                let old = e.format
                e.format = f
                ledger[page: id] = e
                pagesTouched = true
                guard !own, format(of: e.local) == old else { continue }
                if let p = document.page(e.local) {
                    follow(.setFormat([Edit.FormatChange(page: e.local, from: p.format, to: f)]))
                } else {
                    parked[e.local]?.format = f
                }
            }
        }
    }

    /// An entry that could not be read (hostile or from a newer version): it counts as applied, so the replica
    /// moves on instead of stalling on it.
    public mutating func skip(sequence: UInt64, because reason: String) {
        guard sequence > ledger.lastSequence else { return }
        placeWaiting()
        ledger.lastSequence = sequence
        reserve(through: Self.topOrder(sequence))
        notes.append("entry \(sequence) skipped: \(reason)")
    }

    private mutating func addConfirmed(_ s: BoardStroke, order: UInt64, own: Bool, layer: LayerID? = nil) {
        guard ledger[s.id] == nil else { notes.append("add of \(s.id), which exists, ignored"); return }
        guard let page = ledger[page: s.page]?.local else { notes.append("add of \(s.id) on page \(s.page), which does not exist, ignored"); return }
        let look = StrokeLook(transform: s.transform, width: s.style.width, color: s.style.color)
        // A layer the board does not know (or another page's): the page's first layer (a missing one: the top one).
        let layer = layer ?? s.layer.flatMap { l in ledger[layer: l].flatMap { $0.page == page ? $0.local : nil } } ?? page
        if own && s.id.client == client {
            // My stroke: it is already here (or was erased here since, an edit still to publish).
            let local = s.id.number
            if let other = ledger.globalID(local: local), other != s.id {
                // The copy took over another stroke while its own add was on its way (a restyle, front or back
                // redone meanwhile): this add is a stroke no one sees here, which the next outbox erases on the board.
                let unseen = makeLocalID()
                ledger[s.id] = .init(local: unseen, visible: true, order: order, page: page, look: look, layer: layer)
                hidden[unseen] = s.stroke(local: unseen, page: page, order: order, layer: layer)
                pendingStrokes[unseen] = page
                touched.insert(unseen)
                return
            }
            ledger[s.id] = .init(local: local, visible: true, order: order, page: page, look: look, layer: layer)
            if stroke(local, page: page) != nil {
                if placesWaiting != nil { placesWaiting?.append((local, page, order)) } else { place(local, page: page, order: order) }
            } else if hidden[local] == nil {
                hidden[local] = s.stroke(local: local, page: page, order: order, layer: layer)
            }
            touched.insert(local)
            return
        }
        let local = makeLocalID()
        ledger[s.id] = .init(local: local, visible: true, order: order, page: page, look: look, layer: layer)
        show(s.stroke(local: local, page: page, order: order, layer: layer))
        touched.insert(local)
    }

    private mutating func markPending(_ c: BoardOperation.Change) {
        var ids: [BoardStrokeID] = []
        switch c {
        case .add(let s): ids = [s.id]
        case .remove(let x), .restore(let x), .front(let x), .back(let x): ids = x
        case .replace(let r, let a): ids = r + a.map(\.id)
        case .look(let l): ids = l.map(\.id)
        case .reorder(let o): ids = Array(o.keys)
        case .moveItems(let m): ids = Array(m.keys)
        case .addPage, .deletePages, .restorePages, .movePages, .formatPages, .addLayer, .deleteLayers, .restoreLayers, .moveLayers, .lookLayers: pagesPending = true
        }
        for id in ids { if let e = ledger[id] { pendingStrokes[e.local] = e.page } }
    }

    /// Last writer wins: the log's later entry decides. Locally, a stroke follows the board unless this replica
    /// has its own unpublished change to it (then that change is published later and wins in turn).
    private mutating func setVisible(_ id: BoardStrokeID, _ visible: Bool, own: Bool) {
        guard var e = ledger[id] else { return }
        let before = e.visible
        e.visible = visible
        ledger[id] = e
        touched.insert(e.local)
        guard !own, before != visible else { return }
        let here = stroke(e.local, page: e.page) != nil
        guard here == before else { return }
        if visible {
            if let s = hidden.removeValue(forKey: e.local) {
                show(withOrder(s, e.order))
                pendingStrokes[e.local] = e.page   // a look of mine on it goes out now
            }
        } else if let s = unshow(e.local, page: e.page) {
            hidden[e.local] = s
        }
    }

    /// Each part of a stroke's look is its own last-writer-wins value.
    private mutating func setLook(_ c: LookChange, own: Bool) {
        guard var e = ledger[c.id] else { return }
        let old = e.look
        var new = old
        if let t = c.transform { new.transform = t }
        if let w = c.width { new.width = w }
        if let color = c.color { new.color = color }
        e.look = new
        ledger[c.id] = e
        touched.insert(e.local)
        guard !own else { return }
        let shown = stroke(e.local, page: e.page)
        guard let s = shown ?? hidden[e.local] else { return }
        var here = StrokeLook(of: s)
        if here.transform == old.transform { here.transform = new.transform }
        if here.width == old.width { here.width = new.width }
        if here.color == old.color { here.color = new.color }
        guard here != StrokeLook(of: s) else { return }
        let changed = here.applied(to: s)
        if shown != nil { show(changed) } else { hidden[e.local] = changed }
    }

    /// `front` nil: a reorder (back to the previous order).
    private mutating func setOrder(_ id: BoardStrokeID, _ order: UInt64, front: Bool?, own: Bool) {
        guard var e = ledger[id] else { return }
        let old = e.order
        e.order = order
        e.was = old
        ledger[id] = e
        touched.insert(e.local)
        let mine: Int64? = (stroke(e.local, page: e.page) ?? hidden[e.local])?.drawKey
        guard let mine else { return }
        // Mine: the board confirms a move I made, unless I moved the stroke the other way since. Theirs: follow
        // unless I moved it myself.
        let follows: Bool
        switch (own, front) {
        case (false, _): follows = mine == Int64(bitPattern: old)
        case (true, true?): follows = mine > Int64(bitPattern: old)
        case (true, false?): follows = mine < Int64(bitPattern: old)
        case (true, nil): follows = mine == Int64(bitPattern: order)
        }
        guard follows else { return }
        if stroke(e.local, page: e.page) != nil { place(e.local, page: e.page, order: order) } else if let s = hidden[e.local] { hidden[e.local] = withOrder(s, order) }
    }

    func withOrder(_ s: Stroke, _ order: UInt64) -> Stroke { var s = s; s.order = order; return s }

    private mutating func place(_ local: StrokeID, page: PageID, order: UInt64) {
        guard let s = stroke(local, page: page), s.order != order else { return }
        let moved = withOrder(s, order)
        show(moved)
        touched.insert(local)
    }

    private mutating func addPage(_ p: BoardPage, own: Bool) {
        guard ledger[page: p.id] == nil else { notes.append("add of page \(p.id), which exists, ignored"); return }
        // Past what a document can hold (a hostile flood): the same count on every replica, so all ignore it.
        guard ledger.pages.count < pageLimit else { notes.append("add of page \(p.id) ignored: the board has \(pageLimit) pages"); return }
        pagesTouched = true
        if own && p.id.client == client {
            // My page: already here (or deleted here since, an edit still to publish).
            let local = p.id.number
            ledger[page: p.id] = .init(local: local, visible: true, key: p.key, format: p.format)
            ownLayer(of: p.id, local: local)
            if document.index(of: local) == nil && parked[local] == nil { parked[local] = ParkedPage(Page(id: local, format: p.format)) }
            if keys[local] == nil { keys[local] = p.key }
            return
        }
        let local = makePageID()
        ledger[page: p.id] = .init(local: local, visible: true, key: p.key, format: p.format)
        ownLayer(of: p.id, local: local)
        keys[local] = p.key
        // In key order at once (the other pages are in order already).
        let pages = document.pages
        var lo = 0, hi = pages.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (keys[pages[mid].id] ?? .first, boardPageID(pages[mid].id)) < (p.key, p.id) { lo = mid + 1 } else { hi = mid }
        }
        follow(.addPage(Page(id: local, format: p.format), at: lo))
    }

    private mutating func setPageVisible(_ id: BoardPageID, _ visible: Bool, own: Bool) {
        guard var e = ledger[page: id] else { return }
        // A board always has a page: a delete of its last one is not applied (on every replica alike).
        if !visible, e.visible, !ledger.pages.contains(where: { $0.key != id && $0.value.visible }) {
            notes.append("delete of page \(id), the board's last, ignored")
            return
        }
        let before = e.visible
        e.visible = visible
        ledger[page: id] = e
        pagesTouched = true
        guard !own, before != visible else { return }
        let here = document.index(of: e.local) != nil
        guard here == before else { return }
        if visible {
            guard let p = parked.removeValue(forKey: e.local) else { return }
            // Back at the board's place: a move made here before the board deleted the page went with the delete
            // (its key, kept, put the page elsewhere here and nowhere in the outbox: found by seed 3187).
            keys[e.local] = e.key
            follow(.addPage(Page(id: e.local, format: p.format, layers: p.page.layers), at: document.pages.count))
            touched.formUnion(p.page.strokes.map(\.id))
            // Ink drawn here on the page while the board had it deleted was left out of the outbox (a stroke on a
            // page the board hides is no difference to publish): shown again, it is compared again.
            for s in p.page.strokes { pendingStrokes[s.id] = e.local }
            arrange()
        } else if let i = document.index(of: e.local) {
            // A document always has a page: the last one stays, and going out again it brings the page back.
            guard document.pages.count > 1 else { notes.append("page \(id) is the last page here; kept"); return }
            let p = document.pages[i]
            parked[e.local] = ParkedPage(p)
            touched.formUnion(p.strokes.map(\.id))
            follow(.deletePage(p, at: i))
        }
    }
}
