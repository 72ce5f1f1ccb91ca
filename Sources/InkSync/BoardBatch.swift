import InkCore

/// A batch of log entries. My own strokes coming back from the board move from their local place in the drawing
/// order to the board's; moved one at a time, each shifts the page's strokes, so uploading a big drawing (100,000
/// strokes, which come back over many reads of the log) would cost the square of its size. Within a batch they
/// wait and move in one edit, one merge per page, which the file and the editor apply the same way
/// (`Document.apply`). Only my own `add` entries wait: any other entry, a local edit and the outbox's comparison
/// first put them in place, so every rule sees the drawing as it is. While they wait, the file keeps their old
/// order beside the board's in its ledger; a replica restarted meanwhile puts them in place when it loads.
extension BoardReplica {
    /// True when my strokes wait for their place (`endBatch` puts them there).
    public var placesAreWaiting: Bool { placesWaiting?.isEmpty == false }

    /// From here until `endBatch`, my returning strokes wait for their place.
    public mutating func startBatch() {
        if placesWaiting == nil { placesWaiting = [] }
    }

    /// Puts the waiting strokes in place and ends the batch.
    public mutating func endBatch() {
        placeWaiting()
        placesWaiting = nil
    }

    /// Moves the waiting strokes to the board's order: one followed edit per page (or into its parked page).
    mutating func placeWaiting() {
        guard let w = placesWaiting, !w.isEmpty else { return }
        placesWaiting = []
        var pages: [PageID] = []
        var moves: [PageID: (removed: [Stroke], added: [Stroke])] = [:]
        for x in w {
            guard let s = stroke(x.local, page: x.page), s.order != x.order else { continue }
            let moved = withOrder(s, x.order)
            if moves[x.page] == nil { pages.append(x.page) }
            moves[x.page, default: ([], [])].removed.append(s)
            moves[x.page, default: ([], [])].added.append(moved)
            touched.insert(x.local)
        }
        for page in pages {
            guard let m = moves[page] else { continue }
            guard let i = document.index(of: page) else {
                for s in m.added { parked[page]?.page.insert(s) }
                continue
            }
            follow(.replace(removed: m.removed, added: m.added))
            // Its layer is gone here: it went to the top layer, which the board hears of (`BoardLayers.swift`).
            for s in m.added where document.pages[i].stroke(s.id)?.layer != s.layer { pendingStrokes[s.id] = page }
        }
    }
}
