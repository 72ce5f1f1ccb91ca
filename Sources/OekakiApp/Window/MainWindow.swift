import Dispatch
import Foundation
import InkCore
import InkRender
import Localization

/// One window showing one document: title bar with file commands, the tool row, banners and the canvas.
/// The window talks to its `DocumentSession` (commands in, `SessionUpdate`s back); the canvas only renders.
final class MainWindow {
    let window: Widget
    let session: DocumentSession
    let canvas: CanvasView
    let toolbar = Toolbar()
    /// Presentation mode (F5), its keys and its bar (`Presentation.swift`).
    lazy var presentation = Presentation(window: self)
    let pageMenu = PageMenu()
    /// The open file and how the window names it.
    var document: OpenDocument { session.file }
    var preferences = Preferences.load()

    let titleLabel = Widgets.label("")
    let subtitleLabel = Widgets.label("")
    private var undoButton: Widget!
    private var redoButton: Widget!
    var recoverButton: Widget!
    let recoverList = Widgets.box(horizontal: false, spacing: 2)
    var recoverEntries: [String: Widget] = [:]
    let banner: Banner
    let recoveryBanner: Banner
    var retryTimer: UInt32 = 0
    /// The user chose to close although some changes could not be written.
    var closeConfirmed = false
    private var touchModeButtons: [TouchMode: Widget] = [:]
    /// The Open menu's list of recent drawings, refilled each time the menu opens.
    let recentList = Widgets.box(horizontal: false, spacing: 2)
    /// Pending save of the window's size (it changes many times during one resize).
    private var sizeSaveTimer: UInt32 = 0
    private var syncingTouchMode = false
    /// Opening and exporting files, off the GTK thread.
    let backgroundQueue = DispatchQueue(label: "oekaki.files", qos: .userInitiated)
    /// The field a text box is typed in, over the canvas (`MainWindow+Text.swift`).
    let textField = TextBoxEditor()
    /// Font family and size (page units) of new text boxes.
    var textFont = (face: "Sans", size: 16.0)
    /// Ctrl+F (`MainWindow+Search.swift`): the bar, the search running, the PDF text read so far.
    let searchBar = SearchBar()
    var searchRun: SearchRun?
    var searchRefreshTimer: UInt32 = 0
    let pdfTexts = PDFTexts()
    /// F9 (`MainWindow+Sidebar.swift`): page previews and the outline.
    lazy var sidebar = PageSidebar(session: session)
    /// "Select PDF text": a layer over the canvas while on (`PDFTextSelector.swift`).
    lazy var pdfText = PDFTextSelector(canvas: canvas)
    /// The layers menu while it is open (`MainWindow+Layers.swift`).
    var layersMenu: LayersMenu?

    init(application: Application, document: OpenDocument) {
        session = DocumentSession(document)
        canvas = CanvasView(session: session)
        banner = Banner()
        recoveryBanner = Banner()
        window = Widgets.applicationWindow(application, size: (preferences.windowWidth, preferences.windowHeight), maximized: preferences.maximized)
        window.setTitlebar(makeHeaderBar())

        // Banners float over the top of the canvas, so showing one never moves the ink under the pen.
        let banners = Widgets.box(horizontal: false)
        banners.alignTop()
        Widgets.append(banners, recoveryBanner.widget, banner.widget)
        let overlay = Widgets.overlay(canvas.widget, layers: [canvas.liveInk.widget, canvas.eraserRing.widget, canvas.laserInk.widget, textField.widget, banners, presentation.bar, pdfText.widget, searchBar.widget])
        let content = Widgets.box(horizontal: false)
        let main = Widgets.box()
        overlay.setHExpand(true)
        Widgets.append(main, sidebar.widget, overlay)
        Widgets.append(content, toolbar.widget, main)
        window.setWindowChild(content)

        wire()
        wireSearch()
        wireSidebar()
        pdfText.onCopy = { [weak self] text in
            guard let self else { return }
            SystemClipboard.put([("text/plain;charset=utf-8", Array(text.utf8))], for: self.canvas.widget)
        }
        pdfText.onProblem = { [weak self] in self?.banner.show(.warning, $0, action: nil, autoHide: true) }
        canvas.touchMode = preferences.touchMode
        session.setRecognizeShapes(preferences.recognizeShapes)
        session.setSelectionRule(preferences.selectWhollyInside ? .whollyInside : .halfInside)
        session.setKeepLineWidths(preferences.keepLineWidths)
        applyPen(preferences)
        session.setLayerScope(preferences.layerScope)
        // Before any selection exists, so this restyles nothing: it only sets what new ink looks like.
        session.setFill(preferences.penFill)
        session.setLine(preferences.penLine)
        for (tool, ink) in preferences.inks { session.setInk(tool, color: ink.color, width: ink.width) }
        showDocument()
        showTool()
        showPage()
        toolbar.show(zoom: canvas.transform.zoom)
        updateHistoryButtons()
    }

    func present() {
        window.present()
        canvas.widget.grabFocus()
        // Once the window is up, the width field must not show the selection it got on the way.
        every(milliseconds: 100) { [weak self] in
            self?.toolbar.clearFieldSelection()
            return false
        }
        insertImageFromEnvironment()
    }

    // MARK: layout

    private func makeHeaderBar() -> Widget {
        let start = Widgets.box(linked: true)
        Widgets.append(start,
            Widgets.button(icon: "document-open-symbolic", label: localized("Open"), tooltip: localized("Open a drawing or import a .xopp (Ctrl+O)")) { [weak self] in self?.perform(.open) },
            makeOpenMenu(),
            Widgets.button(icon: "document-save-as-symbolic", label: localized("Save As"), tooltip: localized("Save under a new name (Ctrl+S)")) { [weak self] in self?.perform(.saveAs) },
            Widgets.button(icon: "document-send-symbolic", label: localized("Export"), tooltip: localized("Export as PNG, SVG, PDF or Xournal++ .xopp (Ctrl+E)")) { [weak self] in self?.perform(.export) })
        let navigation = Widgets.box(linked: true)
        Widgets.append(navigation,
            Widgets.button(icon: "sidebar-show-symbolic", tooltip: localized("Page previews and outline (F9)")) { [weak self] in self?.perform(.toggleSidebar) },
            Widgets.button(icon: "edit-find-symbolic", tooltip: localized("Find in text boxes and PDF text (Ctrl+F)")) { [weak self] in self?.perform(.find) },
            Widgets.button(icon: "insert-text-symbolic", tooltip: localized("Select PDF text to copy or highlight it (again or Escape: back to drawing)")) { [weak self] in self?.perform(.selectPDFText) })

        recoverButton = Widgets.menuButton(label: localized("Recover"), tooltip: localized("Drawings from earlier sessions that were never saved under a name"),
                                           content: recoverList)
        recoverButton.setVisible(false)

        let titles = Widgets.box(horizontal: false)
        titles.alignMiddle()
        titleLabel.addCSSClass("title")
        subtitleLabel.addCSSClass("subtitle")
        subtitleLabel.addCSSClass("dim-label")
        subtitleLabel.ellipsizeMiddle()
        titleLabel.ellipsizeMiddle()
        Widgets.append(titles, titleLabel, subtitleLabel)

        let edit = Widgets.box(linked: true)
        undoButton = Widgets.button(icon: "edit-undo-symbolic", tooltip: localized("Undo (Ctrl+Z)")) { [weak self] in self?.perform(.undo) }
        redoButton = Widgets.button(icon: "edit-redo-symbolic", tooltip: localized("Redo (Ctrl+Shift+Z or Ctrl+Y)")) { [weak self] in self?.perform(.redo) }
        Widgets.append(edit, undoButton, redoButton)
        let clear = Widgets.button(icon: "edit-clear-all-symbolic", label: localized("Clear"), tooltip: localized("Clear the page (Undo brings it back)")) { [weak self] in self?.perform(.clear) }
        // Packed from the right edge inwards; "Page 3 of 12" and the page commands beside the other commands that
        // change the document.
        return Widgets.headerBar(start: [start, navigation, recoverButton], title: titles,
                                 end: [makePreferencesButton(), clear, pageMenu.widget, edit])
    }

    private func makePreferencesButton() -> Widget {
        let box = Widgets.box(horizontal: false, spacing: 6)
        box.setMargins(6)
        let button = Widgets.menuButton(icon: "open-menu-symbolic", tooltip: localized("Preferences"), content: box)
        var touchModes: [Widget] = []
        for (mode, label) in [(TouchMode.draw, localized("Draw with fingers (each finger draws)")),
                              (.navigate, localized("Fingers navigate (two fingers pan and pinch; the pen draws)"))] {
            let b = Widgets.check(label, group: touchModes.first) { [weak self] on in
                guard let self, !self.syncingTouchMode, on else { return }
                self.preferences.touchMode = mode
                self.preferences.touchModeChosen = true
                Preferences.update { $0.touchMode = mode; $0.touchModeChosen = true }
                self.canvas.touchMode = mode
            }
            touchModeButtons[mode] = b
            touchModes.append(b)
        }
        showTouchMode(preferences.touchMode)
        let recognize = Widgets.check(localized("Always recognize shapes (without holding the pen still)"), active: preferences.recognizeShapes) { [weak self] on in
            guard let self else { return }
            self.preferences.recognizeShapes = on
            Preferences.update { $0.recognizeShapes = on }
            self.session.setRecognizeShapes(on)
        }
        let wholly = Widgets.check(localized("The lasso and box take only strokes wholly inside"), active: preferences.selectWhollyInside) { [weak self] on in
            guard let self else { return }
            self.preferences.selectWhollyInside = on
            Preferences.update { $0.selectWhollyInside = on }
            self.session.setSelectionRule(on ? .whollyInside : .halfInside)
        }
        let keepWidths = Widgets.check(localized("Keep line widths when resizing a selection"), active: preferences.keepLineWidths) { [weak self] on in
            guard let self else { return }
            self.preferences.keepLineWidths = on
            Preferences.update { $0.keepLineWidths = on }
            self.session.setKeepLineWidths(on)
        }
        let hint = Widgets.label(localized("Mouse: left button draws, middle button or Space+drag pans,\nwheel scrolls, Ctrl+wheel zooms."))
        hint.addCSSClass("dim-label")
        hint.alignStart()
        let shortcuts = Widgets.menuItem(localized("Keyboard Shortcuts"), accelerator: "Ctrl+?", tooltip: localized("Every key the app answers to")) { [weak self] in
            button.popdownMenu(); self?.perform(.showShortcuts)
        }
        let pen = Widgets.menuItem(localized("Pen…"), tooltip: localized("Pressure curve, palm rejection, stabilizer, stylus buttons")) { [weak self] in
            button.popdownMenu()
            guard let self else { return }
            PenPreferences.show(parent: self.window) { [weak self] p in self?.applyPen(p) }
        }
        let about = Widgets.menuItem(localized("About Oekaki"), tooltip: localized("Version, licence and website")) { [weak self] in
            button.popdownMenu(); self?.perform(.about)
        }
        // Xournal++ erases and selects on the current layer only; GIMP-like "every visible layer" is the other choice.
        let everyLayer = Widgets.check(localized("Erasers and selection reach every visible layer (not only the current one)"),
                                       active: preferences.layerScope == .visible) { [weak self] on in
            guard let self else { return }
            let scope: LayerScope = on ? .visible : .current
            self.preferences.layerScope = scope
            Preferences.update { $0.layerScope = scope }
            self.session.setLayerScope(scope)
        }
        Widgets.append(box, Widgets.heading(localized("Fingers on a touchscreen")), touchModes[0], touchModes[1],
                       Widgets.heading(localized("Shapes")), recognize, Widgets.heading(localized("Selecting")), wholly, keepWidths, everyLayer,
                       Widgets.separatorAcross(), hint, Widgets.separatorAcross(), pen, shortcuts, about)
        reportLayout(whenShownBy: button)
        return button
    }

    /// The pen's preferences, to the session (curve, stabilizer, palm rejection) and the canvas (stylus buttons).
    func applyPen(_ p: Preferences) {
        preferences.pressureCurve = p.pressureCurve; preferences.stabilizer = p.stabilizer
        preferences.palmRejection = p.palmRejection; preferences.palmDelay = p.palmDelay
        session.setPenFeel(curve: p.pressureCurve, stabilizer: p.stabilizer, palmRejection: p.palmRejection, delay: p.palmDelay)
        canvas.stylus = StylusButtons(eraserEnd: p.eraserEnd, first: p.firstButton, second: p.secondButton)
    }

    /// Test support: a menu's items are in the layout report once it is open.
    func reportLayout(whenShownBy menu: Widget) {
        guard let observer = Instruments.observer, observer.watchesLayout else { return }
        menu.onMenuShown { [weak self] in
            every(milliseconds: 300) { [weak self] in
                if let self { observer.laidOut(self.window) }
                return false
            }
        }
    }

    private func showTouchMode(_ mode: TouchMode) {
        syncingTouchMode = true
        defer { syncingTouchMode = false }
        touchModeButtons[mode]?.isChecked = true
    }

    private func wire() {
        // With a pen around, resting fingers should not draw: unless the user chose otherwise, they navigate.
        canvas.onPenSeen = { [weak self] in
            guard let self, !self.preferences.touchModeChosen, self.canvas.touchMode == .draw else { return }
            self.canvas.touchMode = .navigate
            self.showTouchMode(.navigate)
        }
        toolbar.onCommand = { [weak self] in self?.perform($0) }
        toolbar.onColor = { [weak self] in self?.setColor($0) }
        toolbar.onTextFont = { [weak self] face, size in self?.setTextFont(face, size) }
        toolbar.onTextColor = { [weak self] c in self?.setTextColor(c) }
        toolbar.onFill = { [weak self] fill in
            self?.session.setFill(fill)
            self?.preferences.penFill = fill
            Preferences.update { $0.penFill = fill }
        }
        toolbar.onLine = { [weak self] line in
            self?.session.setLine(line)
            self?.preferences.penLine = line
            Preferences.update { $0.penLine = line }
        }
        if let m = toolbar.shapesMenu { reportLayout(whenShownBy: m) }
        toolbar.onWidth = { [weak self] w in
            guard let self, w.isFinite, w > 0 else { return }
            self.session.setWidth(w)
            self.keepInk()
        }
        // The session's updates, after the canvas has shown them: the window's own widgets follow.
        session.follow { [weak self] u in self?.follow(u) }
        session.onSaveStatus = { [weak self] in self?.showSaving($0) }
        session.onBoard = { [weak self] in self?.showBoard() }
        canvas.onZoom = { [weak self] in self?.toolbar.show(zoom: $0) }
        pageMenu.onCommand = { [weak self] in self?.perform($0) }
        pageMenu.onSize = { [weak self] size, all in self?.session.setPageSize(size, allPages: all) }
        pageMenu.onBackground = { [weak self] style, all in self?.session.setPageStyle(style, allPages: all) }
        reportLayout(whenShownBy: pageMenu.widget)
        // The canvas spans the window: its width decides whether the tool names fit beside their icons.
        canvas.widget.onResize { [weak self] width, _ in
            // After this layout pass, not inside it.
            onMainLoop {
                guard let self else { return }
                self.toolbar.fit(width: width)
                if let observer = Instruments.observer, observer.watchesLayout {
                    every(milliseconds: 150) { [weak self] in
                        if let self { observer.laidOut(self.window) }
                        return false
                    }
                }
            }
        }

        window.onUnhandledKeys(pressed: { [weak self] key in
            guard let self else { return false }
            if self.presentation.key(key) { return true }
            if Shortcuts.isSpace(key) { self.canvas.spaceHeld = true; return true }
            guard let c = Shortcuts.command(for: key) else { return false }
            // Arrows, Delete and the like act on a selection; without one they keep their usual meaning.
            if case .selection(let op) = c, op != .all, self.session.selectedStrokes.isEmpty { return false }
            if c == .copy || c == .cut, self.session.selectedStrokes.isEmpty { return false }
            self.perform(c)
            return true
        }, released: { [weak self] key in
            if Shortcuts.isSpace(key) { self?.canvas.spaceHeld = false }
        })
        // Space released while another window had the focus never reaches us: forget it on focus loss.
        window.onFocusLeave { [weak self] in self?.canvas.spaceHeld = false }

        // A drawing dropped anywhere on the window opens in it; PNG and JPEG files are inserted as pictures.
        window.onFilesDropped { [weak self] paths, at in
            guard let self else { return false }
            let images = paths.filter(Self.isImage)
            if !images.isEmpty {
                // Centred where it was dropped, when that is over the canvas (the drop target is the window).
                let spot = self.window.point(at, over: self.canvas.widget).map { Point(x: $0.x, y: $0.y) }
                for path in images { self.insertImage(file: path, atView: spot) }
                return true
            }
            guard let path = paths.first(where: Self.opens) else { return false }
            self.open(path)
            return true
        }

        // The size and maximized state are kept for the next window, saved shortly after they stop changing
        // (so a window that is killed still remembers).
        for property in ["default-width", "default-height", "maximized"] {
            window.onPropertyChange(property) { [weak self] in self?.scheduleSizeSave() }
        }

        window.onCloseRequest { [weak self] in
            guard let self else { return false }
            if self.closeConfirmed { return false }
            let unsaved = self.session.flushNow()
            guard unsaved > 0 else {
                self.closeDocument()
                return false
            }
            self.askBeforeClosing(unsaved)
            return true
        }
    }

    // MARK: commands

    func perform(_ command: Command) {
        // Any command but a colour ends the typing of a text box first (Escape only that).
        if textField.session != nil {
            switch command {
            case .customColor: break
            case .cancelStroke: finishText(); return
            default: finishText()
            }
        }
        switch command {
        case .undo: session.undo()
        case .redo: session.redo()
        case .clear: session.clear()
        case .cancelStroke:
            if pdfText.isOn { pdfText.setOn(false) }
            session.cancelStrokes()
        case .zoomIn: canvas.zoom(by: 1.25)
        case .zoomOut: canvas.zoom(by: 0.8)
        case .zoomFit: canvas.zoomToFit()
        case .zoomReset: canvas.resetZoom()
        case .nextPage: session.showPage(session.currentPage + 1)
        case .previousPage: session.showPage(session.currentPage - 1)
        case .firstPage: session.showPage(0)
        case .lastPage: session.showPage(session.document.pages.count - 1)
        case .addPage: session.addPage()
        case .duplicatePage: session.duplicatePage()
        case .deletePage: session.deletePage()
        case .movePageUp: session.movePage(by: -1)
        case .movePageDown: session.movePage(by: 1)
        case .layers: showLayersMenu()
        case .pagePicture: choosePagePicture()
        case .moveToLayer(let p): showMoveToLayerMenu(at: p)
        case .tool(let t): session.setTool(t)
        case .guide(let g): session.toggleGuide(g, view: canvas.transform)
        case .present: presentation.start()
        case .find: openSearch()
        case .selectPDFText: pdfText.setOn(!pdfText.isOn)
        case .toggleSidebar: toggleSidebar()
        case .size(let s): session.setSize(s); keepInk()
        case .customColor:
            FileDialogs.chooseColor(parent: window, initial: session.style.color) { [weak self] in self?.setColor($0) }
            showTool()
        case .newWindow:
            OekakiApplication.newWindow(from: self)
        case .showShortcuts:
            ShortcutsWindow.show(parent: window)
        case .about:
            AboutDialog.show(parent: window)
        case .open:
            FileDialogs.choose(.open, parent: window, folder: dialogFolder) { [weak self] path in self?.open(path) }
        case .saveAs:
            let suggested = document.isUntitled ? "Drawing.oekaki" : document.name
            FileDialogs.choose(.saveAs, parent: window, folder: dialogFolder, suggestedName: suggested) { [weak self] path in self?.saveAs(path) }
        case .selection(let op):
            if let problem = session.selectionCommand(op) { banner.show(.warning, problem, action: nil, autoHide: true) }
            grabSelection()
        case .copy, .cut:
            let strokes = session.selectedStrokes
            guard !strokes.isEmpty else { return }
            session.selectionCommand(command == .cut ? .cut : .copy)
            SystemClipboard.put(ClipboardOffers.offers(for: strokes), for: canvas.widget)
        case .paste:
            // Ink copied in another Oekaki process: read it (asynchronously), then paste it as vectors.
            if SystemClipboard.foreignOffer(SystemClipboard.inkType, for: canvas.widget) {
                SystemClipboard.readInk(for: canvas.widget) { [weak self] bytes in
                    guard let self else { return }
                    guard let bytes, let strokes = ClipboardInk.strokes(fromEventLog: bytes) else {
                        self.banner.show(.warning, localized("The ink on the clipboard could not be read."), action: nil, autoHide: true)
                        return
                    }
                    self.session.takeClipboard(strokes)
                    if let problem = self.session.selectionCommand(.paste(at: nil)) { self.banner.show(.warning, problem, action: nil, autoHide: true) }
                    self.grabSelection()
                }
                return
            }
            // A picture copied in another app (a screenshot): it becomes an image item.
            if SystemClipboard.foreignOffer("image/png", for: canvas.widget) {
                pasteForeignImage()
                return
            }
            if let problem = session.selectionCommand(.paste(at: nil)) { banner.show(.warning, problem, action: nil, autoHide: true) }
            grabSelection()
        case .export:
            let stem = (document.name as NSString).deletingPathExtension
            FileDialogs.choose(.export, parent: window, folder: dialogFolder, suggestedName: stem + ".png") { [weak self] path in self?.export(to: path) }
        }
    }

    /// Ctrl+A, a paste or a duplicate made a selection while a drawing tool is chosen: the lasso takes over, so
    /// the selection's handles answer the pointer.
    func grabSelection() {
        guard !session.selection.isEmpty, !session.tool.isSelection else { return }
        perform(.tool(.lasso))
    }

    /// Files a drop opens (by name; the loader then checks the content): drawings, and a PDF to write on (not in
    /// the recent list, which other apps fill with every PDF they show).
    static func opens(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        return RecentFiles.extensions.contains(ext) || ext == "pdf"
    }

    private func scheduleSizeSave() {
        stopTimer(&sizeSaveTimer)
        sizeSaveTimer = every(milliseconds: 400) { [weak self] in
            guard let self else { return false }
            self.sizeSaveTimer = 0
            let maximized = self.window.isMaximized
            let (width, height) = self.window.defaultSize
            Preferences.update { p in
                p.maximized = maximized
                // A maximized window's size is the screen's: keep the size to restore to.
                if !maximized, width >= 200, height >= 200 { p.windowWidth = width; p.windowHeight = height }
            }
            return false
        }
    }

    /// Open ▸ menu: a new window and the recently used drawings.
    private func makeOpenMenu() -> Widget {
        let box = Widgets.box(horizontal: false, spacing: 2)
        box.setMargins(6)
        let button = Widgets.menuButton(tooltip: localized("New window and recent drawings"), focusable: false, content: box)
        let new = Widgets.menuItem(localized("New Window"), accelerator: "Ctrl+N", tooltip: localized("A new drawing in its own window")) { [weak self] in
            button.popdownMenu(); self?.perform(.newWindow)
        }
        let share = Widgets.menuItem(localized("Share…"), tooltip: localized("Put this drawing on a board others can join")) { [weak self] in
            button.popdownMenu(); self?.askForBoard(joining: false)
        }
        let join = Widgets.menuItem(localized("Join Board…"), tooltip: localized("Open a shared board in a new window")) { [weak self] in
            button.popdownMenu(); self?.askForBoard(joining: true)
        }
        let insertImage = Widgets.menuItem(localized("Insert Image…"), tooltip: localized("A PNG or JPEG picture on the page (or drop the file on the window, or paste it)")) { [weak self] in
            button.popdownMenu(); self?.chooseImageToInsert()
        }
        Widgets.append(box, new, insertImage, share, join, Widgets.separatorAcross(), Widgets.heading(localized("Recent")), recentList)
        button.onMenuShown { [weak self] in self?.fillRecentList(closing: button) }
        reportLayout(whenShownBy: button)
        return button
    }

    private func fillRecentList(closing menu: Widget) {
        while let child = recentList.firstChild { recentList.removeChild(child) }
        let paths = RecentFiles.list()
        if paths.isEmpty {
            let none = Widgets.label(localized("No recent drawings"))
            none.addCSSClass("dim-label")
            Widgets.append(recentList, none)
        }
        for path in paths {
            let item = Widgets.menuItem((path as NSString).lastPathComponent) { [weak self] in
                menu.popdownMenu(); self?.open(path)
            }
            item.setTooltip(Documents.abbreviated(path))
            Widgets.append(recentList, item)
        }
    }

    /// Dialogs start next to the open drawing, or in the home folder for an untitled one.
    var dialogFolder: String {
        document.isUntitled ? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
            : (document.path as NSString).deletingLastPathComponent
    }

    private func setColor(_ color: RGBA) {
        if session.tool == .text { return setTextColor(color) }
        session.setColor(color)
        keepInk()
    }

    /// Keeps the colour and width of the tool in hand for the next run.
    private func keepInk() {
        let tool = session.tool.isShape ? Tool.pen : session.tool
        guard Preferences.keptInks.contains(tool), let style = session.styles[tool] else { return }
        let ink = Preferences.Ink(color: tool.isEraser ? nil : style.color, width: style.width)
        preferences.inks[tool] = ink
        Preferences.update { $0.inks[tool] = ink }
    }

    /// What the window shows of a session update (the canvas has shown it already).
    private func follow(_ u: SessionUpdate) {
        if u.documentReplaced || u.pageChanged { showPage() }
        followInSidebar(u)
        followInSearch(u)
        if u.documentReplaced || u.pageChanged || u.layersChanged || u.historyChanged { refreshLayersMenu() }
        if u.historyChanged || u.documentReplaced { updateHistoryButtons() }
        if u.toolChanged { canvas.toolChanged(); showTool() }
        if let p = u.textTap { textTap(at: p) }
        if let p = u.contextMenu { showSelectionMenu(at: p) }
    }

    /// "Page 3 of 12" and the paper previews follow the current page.
    func showPage() {
        let page = session.page
        pageMenu.show(page: session.currentPage, of: session.document.pages.count, paper: page.background, size: page.size)
        presentation.showPage()
    }

    func showTool() {
        toolbar.show(tool: session.tool, style: session.style, pen: session.styles[.pen] ?? StrokeStyle(tool: .pen))
        toolbar.teachingMenu.show(session.teaching.guides)
        presentation.showTool(session.tool)
    }

    func updateHistoryButtons() {
        undoButton.setSensitive(session.history.canUndo)
        redoButton.setSensitive(session.history.canRedo)
    }
}
