import InkCore
import InkPDF
import Localization

/// The page sidebar's wiring: a click shows the page, a drag moves it (one undoable page edit through the
/// session), its menu adds, duplicates or deletes; the outline is read off the GTK thread when a document is shown.
extension MainWindow {
    func wireSidebar() {
        sidebar.pages.onOpen = { [weak self] in self?.session.showPage($0) }
        sidebar.pages.onMove = { [weak self] from, to in
            guard let self else { return }
            self.session.showPage(from)
            self.session.movePage(by: to - from)
        }
        sidebar.pages.onMenu = { [weak self] row, point, area in self?.showPageMenu(row, at: point, over: area) }
        sidebar.outline.onGo = { [weak self] entry in
            guard let self else { return }
            self.session.showPage(entry.page)
            // Its place on the page at the top of the view, even when it was in view lower down.
            if let top = entry.top, top > 0 { self.canvas.reveal(Rect(x: 0, y: top, width: 1, height: 1), onPage: entry.page, at: 24, always: true) }
        }
        loadOutline()
    }

    func toggleSidebar() {
        sidebar.toggle()
        if sidebar.isShown { sidebar.pages.reveal(session.currentPage) }
    }

    /// What the sidebar shows of a session update: the current page's preview drawn again after an edit, the
    /// rows after page changes, the outline of another document.
    func followInSidebar(_ u: SessionUpdate) {
        if u.documentReplaced {
            sidebar.pages.previews.invalidateAll()
            loadOutline()
        } else if u.historyChanged || u.drawingChanged || !u.edit.changes.isEmpty {
            // Undo of another page's edit makes that page current, so the current page is the one that changed.
            if session.document.pages.indices.contains(session.currentPage) {
                sidebar.pages.previews.invalidate(session.page.id)
            }
            // Pages added, deleted or moved: the outline's entries go to where their PDF pages are now.
            if u.pageChanged, let raw = sidebar.outline.pdfOutline {
                sidebar.outline.show(Outline.forDocument(session.document, pdf: raw.file, outline: raw.entries))
            }
        }
        if u.pageChanged || u.documentReplaced { sidebar.outline.follow(page: session.currentPage) }
        guard sidebar.isShown else { return }
        if u.pageChanged || u.documentReplaced { sidebar.pages.reveal(session.currentPage) }
        sidebar.pages.redraw()
    }

    private func showPageMenu(_ row: Int, at point: (x: Double, y: Double), over area: Widget) {
        let box = Widgets.box(horizontal: false, spacing: 2)
        box.setMargins(start: 4, end: 4, top: 4, bottom: 4)
        var close: () -> Void = {}
        func item(_ title: String, _ command: Command) -> Widget {
            Widgets.menuItem(title) { [weak self] in
                close()
                guard let self else { return }
                self.session.showPage(row)
                self.perform(command)
            }
        }
        Widgets.append(box, item(localized("Add page"), .addPage), item(localized("Duplicate page"), .duplicatePage),
                       item(localized("Delete page"), .deletePage))
        close = Popover.show(box, over: area, at: point)
    }

    /// The outline of the PDF the document shows, read in the background (a long outline takes a moment).
    private func loadOutline() {
        let document = session.document
        sidebar.outline.pdfOutline = nil
        guard let hash = Outline.pdf(of: document) else { sidebar.outline.show([]); return }
        backgroundQueue.async { [weak self] in
            let raw = PDFSources.shared.source(hash, in: document.files)?.outline() ?? []
            let handoff = MainLoopHandoff(value: raw)
            onMainLoop {
                guard let self else { return }
                self.sidebar.outline.pdfOutline = (hash, handoff.value)
                self.sidebar.outline.show(Outline.forDocument(self.session.document, pdf: hash, outline: handoff.value))
                self.sidebar.outline.follow(page: self.session.currentPage)
            }
        }
    }
}
