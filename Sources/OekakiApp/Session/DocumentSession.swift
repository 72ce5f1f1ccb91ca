import Foundation
import InkCore
import InkRender
import InkStore
import InkSync
import Localization

/// One window's open document and the one owner of everything that changes it: the `Editor`, the file it is
/// saved to (`Autosave`, the save queue) and the board it is shared on (`SharedBoard`). Input events and commands
/// come in; every call hands a `SessionUpdate` forward to the views that follow the session (the canvas renders
/// it, the window refreshes its title, menus and buttons) and returns it. Changes are queued for the file here,
/// before any view hears of them: persistence never goes through a view.
///
/// Reading is open (the views draw from `document`, `layout`, `liveStrokes`…); changing is only through these calls.
/// Xournal++'s `Control` (src/core/control/Control.cpp, some 2,700 lines) is where a window that owns the document,
/// the tools, the undo stack and the file ends; the window here owns widgets, and the session owns the document.
final class DocumentSession {
    /// The open file and how the window names it.
    private(set) var file: OpenDocument
    private var autosave: Autosave
    private var editor: Editor
    /// The board the document is shared on, if any, and what it says about itself.
    private(set) var board: SharedBoard?
    private(set) var boardState = SharedBoard.State.connecting
    /// Who is on the board, this user first.
    private(set) var boardPeople: [String] = []
    /// Where the pages sit in the canvas's one view space (laid out again when the pages change).
    private(set) var layout: PageLayout
    private var layoutKey: [PageLayoutKey]
    /// Other people's strokes in progress on a shared board (drawn like this user's live strokes), each on the page
    /// it is on here (`LiveStrokes.anyPage`: unknown).
    private var othersLiveEverywhere: [Stroke] = []
    /// Those on the page shown.
    var othersLive: [Stroke] { othersLiveEverywhere.filter { LiveStrokes.isShown($0, on: editor.page.id) } }
    /// A drag of the selection's box or handles in progress (`DocumentSession+Input.swift`).
    var drag: SelectionDrag?
    /// The loop or box a selection tool is drawing, in page units, shown while it is drawn.
    var selectionPath: [Point] = []
    /// Pointers whose press went to the text tool: the rest of their gesture is theirs too.
    var textPointers = Set<PointerID>()
    var lastPress: (time: Double, point: Point)?
    /// Touches palm rejection refused when they began: the rest of their events are dropped too.
    var palmTouches = Set<PointerID>()
    /// The ruler, set square and compass, the laser's clock, presentation mode (`DocumentSession+Teaching.swift`).
    var teaching = TeachingState()

    private var observers: [(SessionUpdate) -> Void] = []
    /// GTK thread: saving started failing or recovered.
    var onSaveStatus: ((Autosave.Status) -> Void)?
    /// GTK thread: the board's state or its people changed.
    var onBoard: (() -> Void)?

    init(_ file: OpenDocument) {
        self.file = file
        autosave = Autosave(file: file.file)
        editor = Editor(document: file.file.document, history: file.file.history)
        layout = PageLayout(document: editor.document, current: editor.currentPage)
        layoutKey = PageLayoutKey.of(editor.document, current: editor.currentPage)
        // The document's pictures, drawable by hash (decoded on first sight, then cached).
        ImagePainter.shared.provide(editor.document.files)
        watchSaving()
    }

    /// `body` hears every update from now on, in the order they happen (the canvas registers first).
    func follow(_ body: @escaping (SessionUpdate) -> Void) { observers.append(body) }

    // MARK: reading

    var document: Document { editor.document }
    var currentPage: Int { editor.currentPage }
    var page: Page { editor.page }
    var drawing: Drawing { editor.drawing }
    var history: History { editor.history }
    var tool: Tool { editor.tool }
    var style: StrokeStyle { editor.style }
    var styles: [Tool: StrokeStyle] { editor.styles }
    var textColor: RGBA { editor.textColor }
    var liveStrokes: [Stroke] { editor.liveStrokes }
    var isErasing: Bool { editor.isErasing }
    var selection: Set<StrokeID> { editor.selection }
    var selectedStrokes: [Stroke] { editor.selectedStrokes }
    var selectionBounds: Rect? { editor.selectionBounds }
    /// The topmost text box whose text (laid out, half a letter of slack) is at `p`: a click beside a label, in
    /// the rest of its width, starts a new box, as in Xournal++.
    func textBox(at p: Point) -> Stroke? {
        editor.textBox(at: p) { box, q in TextPainter.extent(box).insetBy(-box.size / 2).contains(q) }
    }
    /// The current page's origin in view space: where its input, live strokes and dirty rects go.
    var currentOrigin: Point { layout.origin(ofPage: editor.currentPage) }
    var currentClip: Rect? { layout.frame(ofPage: editor.currentPage) }

    // MARK: the update path

    /// Lays the pages out again if they changed, queues the committed changes for the file, then hands the
    /// update to every view. Every change to the document leaves the session through here.
    @discardableResult
    func publish(_ update: SessionUpdate) -> SessionUpdate {
        var u = update
        if u.edit.pagesChanged || u.documentReplaced {
            let key = PageLayoutKey.of(editor.document, current: editor.currentPage)
            if key != layoutKey || u.documentReplaced {
                u.relaidFrom = (layout, layoutKey.map(\.page))
                layoutKey = key
                layout = PageLayout(document: editor.document, current: editor.currentPage)
            }
            u.pageChanged = true
        }
        if !u.edit.changes.isEmpty {
            // Mid-erase the drawing is ahead of the history, so it is no state to rewrite the file from.
            let state = editor.isErasing ? nil : Autosave.State(document: editor.document, history: editor.history)
            autosave.commit(u.edit.changes, state: state, saved: boardFollows)
            u.historyChanged = true
        }
        for o in observers { o(u) }
        return u
    }

    @discardableResult
    func publish(_ edit: Update, drawingChanged: Bool = false) -> SessionUpdate {
        var u = SessionUpdate(edit)
        u.drawingChanged = drawingChanged
        return publish(u)
    }

    // MARK: the editor, for the input path (`DocumentSession+Input.swift`)

    func handle(_ event: InputEvent) -> Update { editor.handle(event) }
    func goToPage(_ index: Int) -> Update { editor.goToPage(index) }
    /// Shift held: shape tools make squares and circles, lines turn in 15° steps.
    func setConstrained(_ on: Bool) { editor.constrainShapes = on }
    /// Shift held as a selection gesture begins: it adds to the selection.
    func setAddsToSelection(_ on: Bool) { editor.addsToSelection = on }
    var recognizesShapes: Bool { editor.recognizeShapes }
    /// The guides in the coordinates of the page input goes to; the laser's fading ink.
    func setEditorGuides(_ g: Guides) {
        editor.guides = g
        EventRecorder.record(guides: g)
    }
    var laser: LaserPointer { editor.laser }
    func expireLaser(at now: Double) -> Update { editor.expireLaser(at: now) }

    // MARK: commands

    // Strokes in progress keep drawing through undo, redo and clear; only Escape discards them.
    func undo() { publish(editor.undo()) }
    func redo() { publish(editor.redo()) }
    func clear() { publish(editor.clear()) }

    /// Escape: strokes in progress vanish and an eraser gesture is put back; nothing is recorded. With nothing in
    /// progress it clears the selection.
    func cancelStrokes() {
        var u = SessionUpdate()
        if editor.liveStrokes.isEmpty, !editor.isErasing, drag == nil, selectionPath.isEmpty {
            u.merge(runSelection(.none))
        }
        u.merge(cancelDrag())
        let erasing = editor.isErasing
        var c = SessionUpdate(editor.cancelAll())
        c.drawingChanged = erasing
        c.pointersCancelled = true
        u.merge(c)
        publish(u)
    }

    /// A new empty page after the current one, or a copy of it; it becomes current and shows its top.
    func addPage() { pageCommand(scroll: true) { $0.addPage() } }
    func duplicatePage() { pageCommand(scroll: true) { $0.duplicatePage() } }
    func deletePage() { pageCommand { $0.deletePage() } }
    func movePage(by delta: Int) { pageCommand { $0.movePage(by: delta) } }
    /// The current page's size (nil: endless), or every page's.
    func setPageSize(_ size: Size?, allPages: Bool) { pageCommand { $0.setSize(size, allPages: allPages) } }
    /// The current page's ruling, or every page's: its paper colour stays, and its line colour where it is not
    /// the old ruling's default (blue ruled lines become silver squares or black staves; dark paper's lines stay).
    func setPageStyle(_ style: Background.Style, allPages: Bool) {
        pageCommand { e in e.setBackground(e.page.background.restyled(style), allPages: allPages) }
    }

    /// A picture stretched over the current page (or every page) under the ink, its ruling and paper kept; a paper
    /// style chosen later takes it away. One undoable edit.
    func setPagePicture(_ bytes: [UInt8], allPages: Bool) {
        let hash = editor.addFile(bytes)
        ImagePainter.shared.provide(hash: hash, bytes: bytes)
        pageCommand { e in
            var b = e.page.background
            b.picture = hash
            return e.setBackground(b, allPages: allPages)
        }
    }

    /// Page commands: strokes in progress would land on the wrong page, so they end as Escape ends them.
    /// `scroll`: show the top of the page left current (a page just added).
    private func pageCommand(scroll: Bool = false, _ run: (Editor) -> Update) {
        if !editor.liveStrokes.isEmpty { cancelStrokes() }
        var u = SessionUpdate(run(editor))
        u.scrollToCurrentPage = scroll
        u.pageChanged = true
        publish(u)
    }

    /// Makes page `index` current and shows its top (Ctrl+Page Up/Down, Home/End).
    func showPage(_ index: Int) {
        if !editor.liveStrokes.isEmpty { cancelStrokes() }
        var u = SessionUpdate(editor.goToPage(min(max(index, 0), editor.document.pages.count - 1)))
        u.scrollToCurrentPage = true
        u.pageChanged = true
        publish(u)
    }

    /// Makes page `index` current where the view is (a search hit or an outline entry: the view scrolls only as far
    /// as it must to show the place).
    func makeCurrent(_ index: Int) {
        if !editor.liveStrokes.isEmpty { cancelStrokes() }
        var u = SessionUpdate(editor.goToPage(min(max(index, 0), editor.document.pages.count - 1)))
        u.pageChanged = true
        publish(u)
    }

    /// The view scrolled a stack of pages: the page under its centre (a view-space point) becomes current — not
    /// while a pointer is drawing, and never an endless page (that would switch the whole view to it).
    func viewCentred(on centre: Point) {
        guard !layout.isCanvas, editor.liveStrokes.isEmpty, !editor.isErasing else { return }
        let i = layout.nearestPage(to: centre)
        guard i != editor.currentPage, editor.document.pages.indices.contains(i), !editor.document.pages[i].isEndless else { return }
        _ = editor.goToPage(i)
        // The same stack, another current page: nothing is laid out again.
        layoutKey = PageLayoutKey.of(editor.document, current: editor.currentPage)
        var u = SessionUpdate()
        u.pageChanged = true
        u.selectionChanged = true
        publish(u)
    }

    func setTool(_ t: Tool) {
        // Drawing again: the selection (and its handles) go away.
        var u = SessionUpdate()
        if !t.isSelection, !editor.selection.isEmpty { u.merge(runSelection(.none)) }
        // A stroke in progress keeps its tool (the editor picks it at pointer-down).
        editor.tool = t
        u.toolChanged = true
        publish(u)
    }

    func setWidth(_ w: Double) {
        editor.style.width = w
        var u = SessionUpdate()
        u.toolChanged = true
        publish(u)
    }

    /// Sets what `tool` draws with, whichever tool is in hand (the colour and width kept from the last run).
    func setInk(_ tool: Tool, color: RGBA?, width: Double?) {
        var style = editor.styles[tool] ?? StrokeStyle(tool: tool)
        if let color { style.color = color }
        if let width { style.width = width }
        editor.styles[tool] = style
        var u = SessionUpdate()
        u.toolChanged = true
        publish(u)
    }

    func setSize(_ s: PenSize) { setWidth(s.width(for: editor.tool)) }

    /// The colour of the current tool (the highlighter keeps its translucency whatever colour is picked), or of new
    /// text with the text tool.
    func setColor(_ color: RGBA) {
        if editor.tool == .text { return setTextColor(color) }
        var c = color
        if editor.tool == .highlighter { c.a = RGBA.highlighterYellow.a }
        editor.style.color = c
        var u = SessionUpdate()
        u.toolChanged = true
        publish(u)
    }

    /// The fill and line style of new pen and shape ink (shapes draw in the pen's style); a selection is restyled
    /// with the choice too, as one undoable edit. `fill` nil: not filled.
    func setFill(_ fill: UInt8?) {
        editor.styles[.pen, default: StrokeStyle(tool: .pen)].fill = fill
        restyleSelection(.style(color: nil, keepsAlpha: false, width: nil, fill: fill.map(Int.init) ?? -1))
    }

    func setLine(_ line: LineStyle) {
        editor.styles[.pen, default: StrokeStyle(tool: .pen)].line = line
        restyleSelection(.style(color: nil, keepsAlpha: false, width: nil, line: line))
    }

    private func restyleSelection(_ op: SelectionOp) {
        var u = SessionUpdate()
        if !editor.selection.isEmpty { u.merge(runSelection(op)) }
        u.toolChanged = true
        publish(u)
    }

    func setTextColor(_ color: RGBA) {
        editor.textColor = color
        var u = SessionUpdate()
        u.toolChanged = true
        publish(u)
    }

    /// The preferences that change how the editor reads input.
    func setRecognizeShapes(_ on: Bool) { editor.recognizeShapes = on }
    func setSelectionRule(_ rule: SelectionRule) { editor.selectionRule = rule }
    func setKeepLineWidths(_ on: Bool) { editor.keepLineWidths = on }
    /// The pen's feel from the preferences: curve, stabilizer, palm rejection (on, delay in ms).
    func setPenFeel(curve: PressureCurve, stabilizer: Stabilizer.Level, palmRejection: Bool, delay: Double) {
        editor.pressureCurve = curve
        editor.stabilizer = stabilizer
        editor.palmRejection.enabled = palmRejection
        editor.palmRejection.delay = delay
        if EventRecorder.isOn { EventRecorder.setPenFeel(curve: curve, stabilizer: stabilizer) }
    }

    func proximity(near: Bool, time: Double) {
        if EventRecorder.isOn, editor.palmRejection.enabled { EventRecorder.record(proximity: near, time: time) }
        let u = editor.proximity(near: near, at: time)
        // A palm taken back as the pen arrived is repainted and its removal saved.
        if u.dirty != nil || !u.changes.isEmpty { publish(u, drawingChanged: true) }
    }

    func touchMayNavigate(at time: Double) -> Bool { editor.touchMayNavigate(at: time) }

    // MARK: text

    /// A typed box becomes a new text box, or the box's new text (emptied: no box at all), on its page.
    func finishText(page: PageID, id: StrokeID?, box: TextBox, origin: Point) {
        guard editor.page.id == page || editor.document.index(of: page) != nil else { return }
        if editor.page.id != page, let i = editor.document.index(of: page) { showPage(i) }
        let height = TextPainter.measure(box).height
        publish(id.map { editor.changeText($0, to: box, height: height) } ?? editor.addText(box, at: origin, height: height))
    }

    // MARK: selection and clipboard

    /// Runs a selection command (copy and cut take the selection onto the app's clipboard, paste puts copies of
    /// it down); nil when done, else why it was refused (beyond the page limits: nothing changed).
    @discardableResult
    func selectionCommand(_ op: SelectionOp) -> String? {
        do {
            publish(try runSelectionThrowing(op))
            return nil
        } catch {
            return "\(error)"
        }
    }

    func runSelection(_ op: SelectionOp) -> SessionUpdate { (try? runSelectionThrowing(op)) ?? SessionUpdate() }

    private func runSelectionThrowing(_ op: SelectionOp) throws -> SessionUpdate {
        let before = editor.selectionBounds
        if let taken = editor.clipped(by: op) {
            Clipboard.strokes = taken
            // The pictures' bytes travel with them, so a paste into another window's document can store them.
            let files = editor.document.files
            Clipboard.files = Dictionary(uniqueKeysWithValues: Set(taken.flatMap { $0.content.image?.files ?? [] }).compactMap { h in files[h].map { (h, $0) } })
        }
        if case .paste = op {
            for bytes in Clipboard.files.values { ImagePainter.shared.provide(hash: editor.addFile(bytes), bytes: bytes) }
        }
        var u = SessionUpdate(try editor.apply(op, pasting: Clipboard.strokes))
        u.repaint = [before, editor.selectionBounds].compactMap { $0 }
        u.selectionChanged = true
        return u
    }

    /// A finished drag of a single text box's handles: it re-wraps to the new width (its glyphs keep their size).
    func rewrapText(under map: AffineMap) -> Bool {
        guard let r = editor.rewrap(under: map) else { return false }
        let before = editor.selectionBounds
        var u = SessionUpdate(editor.changeText(r.id, to: r.box, height: TextPainter.measure(r.box).height, origin: r.origin))
        u.repaint = [before, editor.selectionBounds].compactMap { $0 }
        u.selectionChanged = true
        publish(u)
        return true
    }

    /// Puts highlighter strokes over selected PDF text on page `index` (made current where the view is): one
    /// undoable edit, nothing left selected. Nil when done, else why not.
    func highlight(_ strokes: [Stroke], onPage index: Int) -> String? {
        guard let b = Rect.union(of: strokes.compactMap(\.bounds)) else { return nil }
        makeCurrent(index)
        do {
            var u = SessionUpdate(try editor.paste(strokes, at: Point(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)))
            // Not left selected (as a paste is): the reader goes on reading and highlighting, and the text tool
            // over the canvas would not let the frame's handles be used anyway.
            _ = try? editor.apply(.none)
            u.repaint = [b]
            u.selectionChanged = true
            publish(u)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Adds a picture as an image item fitted into `visible` (the part of the current page in view, page units),
    /// centred on `centre` when given, selected: one undoable edit. Nil when done, else why not.
    func insertImage(_ bytes: [UInt8], header: ImageHeader, visible: Rect, centre: Point?) -> String? {
        let hash = editor.addFile(bytes)
        ImagePainter.shared.provide(hash: hash, bytes: bytes)
        var visible = visible
        if let s = editor.page.format.size, let onPage = visible.intersection(Rect(x: 0, y: 0, width: s.width, height: s.height)) { visible = onPage }
        let frame = ImagePlacement.frame(pixelWidth: header.width, pixelHeight: header.height, visible: visible, centre: centre)
        let item = Stroke(id: 0, content: .image(ImageBox(file: hash, pixelWidth: header.width, pixelHeight: header.height)),
                          frame: frame, page: editor.page.id)
        // Placed as a paste places copies: one undoable, selected edit; the user's own clipboard stays.
        let before = editor.selectionBounds
        do {
            var u = SessionUpdate(try editor.paste([item], at: Point(x: (frame.minX + frame.maxX) / 2, y: (frame.minY + frame.maxY) / 2)))
            u.repaint = [before, editor.selectionBounds].compactMap { $0 }
            u.selectionChanged = true
            publish(u)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Ink another Oekaki process put on the desktop clipboard becomes the app's clipboard.
    func takeClipboard(_ strokes: [Stroke]) {
        Clipboard.strokes = strokes
        Clipboard.files = [:]
    }

    // MARK: the file

    /// Shows another file: the tool, styles and preferences stay, the rest is the new document's. `keepEditor`:
    /// the same drawing and history went on under a new name (Save As).
    func replace(with next: OpenDocument, keepEditor: Bool = false) {
        close()
        file = next
        autosave = Autosave(file: next.file)
        watchSaving()
        var u = SessionUpdate()
        if !keepEditor {
            let e = Editor(document: next.file.document, history: next.file.history)
            e.tool = editor.tool
            e.styles = editor.styles
            e.textColor = editor.textColor
            e.recognizeShapes = editor.recognizeShapes
            e.selectionRule = editor.selectionRule
            e.keepLineWidths = editor.keepLineWidths
            editor = e
            ImagePainter.shared.provide(e.document.files)
            drag = nil
            selectionPath = []
            textPointers = []
            othersLiveEverywhere = []
            teaching.othersLaser = []
            u.documentReplaced = true
            u.pointersCancelled = true
        }
        u.pageChanged = true
        u.historyChanged = true
        publish(u)
    }

    /// Writes the drawing and its history to a new file (Save As) and goes on there; throws when it cannot.
    func saveCopy(to path: String) throws -> OpenDocument {
        cancelStrokes()
        return try Documents.saveCopy(of: editor.document, history: editor.history, to: path)
    }

    /// Tries to write everything now and waits; returns how many changes are still not in the file.
    func flushNow() -> Int { autosave.flushNow() }

    /// After a failure: the queued changes are tried again.
    func retrySaving() { autosave.retry() }

    /// Stops the board, flushes the file and forgets an untitled drawing that never got any ink.
    func close() {
        leaveBoard()
        let unsaved = autosave.close()
        if file.isUntitled, unsaved.isEmpty, editor.document.pages.count == 1, editor.drawing.strokes.isEmpty,
           !editor.history.canUndo, !editor.history.canRedo {
            Documents.remove(file.path)
        }
    }

    private func watchSaving() {
        autosave.onStatus = { [weak self, weak autosave] status in
            guard let self, let autosave, autosave === self.autosave else { return }
            self.onSaveStatus?(status)
        }
        autosave.onRewritten = { [weak self, weak autosave] in
            guard let self, let autosave, autosave === self.autosave else { return }
            self.leaveBoardAfterRewrite()
        }
    }

    /// The file was written anew after a save error: it no longer holds the board's replica (the link would write
    /// to the closed old file), so the window leaves the board and says so; joining again gets the board back.
    private func leaveBoardAfterRewrite() {
        guard board != nil else { return }
        leaveBoard()
        boardState = .failed(localized("After a save error the file was written anew and this window left the board: join it again to go on sharing"))
        onBoard?()
    }

    /// Stops sharing: the board's link ends and the editor numbers new strokes and pages alone again.
    private func leaveBoard() {
        board?.stop(); board = nil
        editor.ids = .alone
    }

    /// A pointer goes down: earlier strokes are made durable first (normally at once; never longer than 0.25 s).
    func strokeBegins() { autosave.waitForQueued(timeout: 0.25) }

    // MARK: layers

    /// The layers of the current page as the window's layers menu drives them. Each change is one undoable edit from
    /// the editor, published like any other (stored, shared on a board); choosing the current layer is not an edit. A
    /// notebook layer (added "on every page") is renamed, hidden, shown, moved and deleted by its name, on every page
    /// at once.
    ///
    /// The current page's layers, bottom first, and the one input goes to.
    var layers: [Layer] { editor.page.layers }
    var currentLayer: Int { editor.currentLayer }
    var layerScope: LayerScope { editor.layerScope }

    func addLayer(allPages: Bool) { layerCommand { $0.addLayer(allPages: allPages) } }
    func renameLayer(_ index: Int, to name: String) { layerCommand { try $0.renameLayer(self.target(index), to: name) } }
    func setLayerVisible(_ index: Int, _ visible: Bool) { layerCommand { try $0.setLayerVisible(self.target(index), visible) } }
    func deleteLayer(_ index: Int) { layerCommand { try $0.deleteLayer(self.target(index)) } }
    func moveLayer(_ index: Int, by delta: Int) { layerCommand { try $0.moveLayer(self.target(index), by: delta) } }
    /// The selection goes to layer `index`, which becomes current.
    func moveSelection(toLayer index: Int) { layerCommand { try $0.moveSelection(toLayer: index) } }

    func selectLayer(_ index: Int) {
        editor.selectLayer(index)
        var u = SessionUpdate()
        u.layersChanged = true
        u.selectionChanged = true
        publish(u)
    }

    /// Erasers and selection reach the current layer only, or every visible one.
    func setLayerScope(_ scope: LayerScope) { editor.layerScope = scope }

    /// A notebook layer by its name (every page's), any other by its place on this page.
    private func target(_ index: Int) -> LayerTarget {
        let l = layers.indices.contains(index) ? layers[index] : nil
        return l.map { $0.everyPage ? .name($0.name) : .index(index) } ?? .index(index)
    }

    /// Strokes in progress end first (they would land on a layer that moved or went); a command that cannot be
    /// done (no such layer: the menu was stale) changes nothing.
    private func layerCommand(_ run: (Editor) throws -> Update) {
        if !editor.liveStrokes.isEmpty { cancelStrokes() }
        guard let done = try? run(editor) else { return }
        var u = SessionUpdate(done)
        u.layersChanged = true
        u.selectionChanged = true
        publish(u)
    }

    // MARK: the board

    /// Shares the document on `url`: what it holds goes up, what the board holds comes down. The editor and the
    /// board's replica number new strokes and pages on two threads, so each in its own lane of ids.
    func share(_ url: BoardURL) {
        board?.stop()
        editor.ids = BoardReplica.editorLane
        let b = SharedBoard(url: url, autosave: autosave)
        b.onApplied = { [weak self] c in self?.follow(c.edits) }
        b.onFiles = { [weak self] files in self?.filesArrived(files) }
        b.onState = { [weak self] state in self?.boardState = state; self?.onBoard?() }
        b.liveSource = { [weak self] in self?.editor.liveStrokes ?? [] }
        b.laserSource = { [weak self] in self?.editor.laser.trails ?? [] }
        b.pageSource = { [weak self] in self?.editor.page.id ?? Page.firstID }
        b.onLive = { [weak self] strokes in self?.showOthersLive(strokes) }
        b.onLaser = { [weak self] trails in self?.showOthersLaser(trails) }
        b.onPeople = { [weak self] names in self?.boardPeople = names; self?.onBoard?() }
        board = b
        boardState = .connecting
        onBoard?()
        b.start()
    }

    /// The board link hears each local change once it is in the file; Autosave only hands it on.
    private var boardFollows: Autosave.Saved? {
        board.map { b in { [weak b] change in b?.committed(change) } }
    }

    /// What other people changed on the board, as the edits the replica and the file applied: shown at once,
    /// outside this user's history.
    private func follow(_ edits: [Edit]) {
        var u = SessionUpdate(editor.follow(edits))
        u.drawingChanged = true
        u.layersChanged = edits.contains { $0.changesLayers }
        u.historyChanged = true
        publish(u)
    }

    /// Pictures and PDFs that items and pages from the board show, arrived: drawn from now on.
    private func filesArrived(_ files: [ContentHash: [UInt8]]) {
        for bytes in files.values { editor.addFile(bytes) }
        ImagePainter.shared.provide(files)
        var u = SessionUpdate()
        u.drawingChanged = true
        u.filesArrived = true
        publish(u)
    }

    private func showOthersLive(_ strokes: [Stroke]) {
        guard strokes != othersLiveEverywhere else { return }
        othersLiveEverywhere = strokes
        var u = SessionUpdate()
        u.othersLiveChanged = true
        publish(u)
    }
}
