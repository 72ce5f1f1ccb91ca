import InkCore

/// Ctrl+F: the search bar's query searched off the GTK thread (`SearchRun`), hits streaming into the bar and onto
/// the canvas; Enter and Shift+Enter go from hit to hit, each shown on its page.
extension MainWindow {
    func wireSearch() {
        searchBar.onQuery = { [weak self] in self?.search($0) }
        searchBar.onStep = { [weak self] in self?.stepSearch($0) }
        searchBar.onClose = { [weak self] in self?.closeSearch() }
    }

    func openSearch() { searchBar.open() }

    func closeSearch() {
        stopTimer(&searchRefreshTimer)
        searchRun?.cancel()
        searchRun = nil
        searchBar.close()
        canvas.searchHits = []
        canvas.currentSearchHit = nil
        canvas.widget.grabFocus()
    }

    /// Searches the document as it is now; hits come in page by page.
    func search(_ query: String) {
        stopTimer(&searchRefreshTimer)
        searchRun?.cancel()
        let matcher = TextMatcher(query)
        searchBar.restart(searching: !matcher.isEmpty)
        canvas.searchHits = []
        canvas.currentSearchHit = nil
        guard !matcher.isEmpty else { searchRun = nil; return }
        // From the place in view: the first hit shown is the next one from the top of the view on, as a browser finds
        // from where it is scrolled (Xournal++ from its current page). Hits above it come last, after the wrap.
        let start = session.currentPage, top = canvas.visiblePageRect.minY
        let showFirst = { [weak self] (wrapping: Bool) in
            guard let self, self.searchBar.current == nil,
                  let hit = self.searchBar.stepToFirst(from: start, below: top, wrapping: wrapping) else { return }
            self.canvas.currentSearchHit = self.searchBar.current
            self.canvas.reveal(hit)
        }
        searchRun = SearchRun(session.document, from: start, matcher: matcher, texts: pdfTexts, queue: backgroundQueue, found: { [weak self] hits in
            guard let self else { return }
            self.searchBar.add(hits)
            self.canvas.searchHits = self.searchBar.hits
            // Hits of earlier pages come after the wrap and go before the current one.
            self.canvas.currentSearchHit = self.searchBar.current
            // Shown as soon as it is found, as a browser does.
            showFirst(false)
        }, done: { [weak self] in
            self?.searchBar.finish()
            // Nothing from the place in view on: the first of all.
            showFirst(true)
        })
    }

    /// Hits follow the document: an edit (here, an undo, or others' on a board) searches the same query again,
    /// 150 ms after the last one so an eraser's strokes or a burst of board edits search once. The view stays where
    /// it is; the hits and the count change in place.
    func followInSearch(_ u: SessionUpdate) {
        guard searchBar.isOpen, !TextMatcher(searchBar.query).isEmpty else { return }
        guard u.documentReplaced || u.drawingChanged || u.layersChanged || u.edit.pagesChanged || !u.edit.changes.isEmpty else { return }
        stopTimer(&searchRefreshTimer)
        searchRefreshTimer = every(milliseconds: 150) { [weak self] in
            self?.searchRefreshTimer = 0
            self?.refreshSearch()
            return false
        }
    }

    private func refreshSearch() {
        let matcher = TextMatcher(searchBar.query)
        guard searchBar.isOpen, !matcher.isEmpty else { return }
        searchRun?.cancel()
        final class Found { var hits: [SearchHit] = [] }
        let found = Found()
        searchRun = SearchRun(session.document, matcher: matcher, texts: pdfTexts, queue: backgroundQueue, found: { found.hits += $0 },
                              done: { [weak self] in
            guard let self else { return }
            self.searchBar.replace(with: found.hits)
            self.canvas.searchHits = self.searchBar.hits
            self.canvas.currentSearchHit = self.searchBar.current
        })
    }

    func stepSearch(_ delta: Int) {
        guard let hit = searchBar.step(delta) else { return }
        canvas.currentSearchHit = searchBar.current
        canvas.reveal(hit)
    }
}
