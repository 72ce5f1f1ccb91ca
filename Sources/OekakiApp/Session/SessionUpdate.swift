import InkCore

/// What one call into a `DocumentSession` changed, handed forward to whoever shows it: the canvas repaints, the
/// window refreshes its title, menus and buttons. Nothing that receives it calls back into the session to find
/// out more than it says. Rnote's engine hands its UI `WidgetFlags` (`rnote-engine/src/widgetflags.rs`: redraw,
/// refresh the UI, store modified, …); this is the richer form: the editor's own `Update` (what to repaint, what
/// was committed) plus what else moved.
struct SessionUpdate {
    /// The editor's: the current page's dirty rect, whether the pages changed, the changes it committed (the
    /// session has queued them for the file already).
    var edit = Update()
    /// The drawing changed outside the history: an eraser mid-gesture, other people's edits on a board.
    var drawingChanged = false
    /// The pages were laid out again (`DocumentSession.layout`): the layout before and its pages in order, so the
    /// view can keep the page now current still on screen.
    var relaidFrom: (layout: PageLayout, pages: [PageID])?
    /// Show the top of the current page (a page command or a jump made it current).
    var scrollToCurrentPage = false
    /// The current page or the page count changed.
    var pageChanged = false
    var selectionChanged = false
    /// The tool or its style changed (the toolbar, the eraser outline).
    var toolChanged = false
    /// Undo or redo became possible or impossible (the history moved).
    var historyChanged = false
    /// Another document is shown (open, Save As, recovery): everything cached is stale, the view starts afresh.
    var documentReplaced = false
    /// Other people's strokes in progress on the board changed.
    var othersLiveChanged = false
    /// Strokes in progress were dropped (Escape, a page command): the input forgets its pointers until lifted.
    var pointersCancelled = false
    /// A click with the text tool (or a double-click on a text box): place or open a box at this page point.
    var textTap: Point?
    /// A long press on the selection: its menu opens at this page point.
    var contextMenu: Point?
    /// A selection drag started, moved or ended, or the lasso or box being drawn grew.
    var gestureChanged = false
    /// Areas of the current page to repaint besides `edit.dirty` (a selection's old and new place).
    var repaint: [Rect] = []
    /// Layers were added, deleted, moved, shown, hidden or renamed, or items moved between them (here or by others
    /// on a board), or another layer became current: whole pages look different and the layers menu refreshes.
    var layersChanged = false
    /// Pictures or PDFs that items or pages show arrived (from a shared board): whole pages look different.
    var filesArrived = false
    /// The laser's ink (this user's or others') moved, grew or faded.
    var laserChanged = false

    /// Only the laser's ink changed.
    static var laser: SessionUpdate {
        var u = SessionUpdate()
        u.laserChanged = true
        return u
    }

    /// Nothing but what is drawn in the canvas's patches changed: the ink being drawn, the laser. The canvas's last
    /// picture still holds.
    var keepsTheCanvas: Bool {
        edit.changes.isEmpty && !edit.pagesChanged && !drawingChanged && !layersChanged && !filesArrived && repaint.isEmpty
            && !gestureChanged && !scrollToCurrentPage && relaidFrom == nil && !pointersCancelled
            && !selectionChanged && !toolChanged && !pageChanged && !documentReplaced
    }

    init(_ edit: Update = Update()) {
        self.edit = edit
        pageChanged = edit.pagesChanged
        historyChanged = !edit.changes.isEmpty
        layersChanged = edit.changes.contains { c in
            switch c { case .did(let e), .undid(let e), .redid(let e): return e.changesLayers }
        }
    }

    mutating func merge(_ o: SessionUpdate) {
        edit.merge(o.edit)
        drawingChanged = drawingChanged || o.drawingChanged
        layersChanged = layersChanged || o.layersChanged
        filesArrived = filesArrived || o.filesArrived
        laserChanged = laserChanged || o.laserChanged
        // The oldest layout is the one the view still shows.
        if relaidFrom == nil { relaidFrom = o.relaidFrom }
        scrollToCurrentPage = scrollToCurrentPage || o.scrollToCurrentPage
        pageChanged = pageChanged || o.pageChanged
        selectionChanged = selectionChanged || o.selectionChanged
        toolChanged = toolChanged || o.toolChanged
        historyChanged = historyChanged || o.historyChanged
        documentReplaced = documentReplaced || o.documentReplaced
        othersLiveChanged = othersLiveChanged || o.othersLiveChanged
        pointersCancelled = pointersCancelled || o.pointersCancelled
        textTap = o.textTap ?? textTap
        contextMenu = o.contextMenu ?? contextMenu
        gestureChanged = gestureChanged || o.gestureChanged
        repaint += o.repaint
    }
}

/// What a page layout depends on: each page's id and format, and which page an endless view shows.
struct PageLayoutKey: Hashable {
    var page: PageID
    var format: PageFormat
    var canvas: Bool

    static func of(_ document: Document, current: Int) -> [PageLayoutKey] {
        let canvas = document.pages[current].isEndless
        return document.pages.enumerated().map { i, p in
            PageLayoutKey(page: p.id, format: p.format, canvas: canvas && i == current)
        }
    }
}
