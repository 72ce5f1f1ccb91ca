import CGtk
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
    var textFont = (family: "Sans", size: 16.0)
    /// Ctrl+F (`MainWindow+Search.swift`): the bar, the search running, the PDF text read so far.
    let searchBar = SearchBar()
    var searchRun: SearchRun?
    let pdfTexts = PDFTexts()
    /// F9 (`MainWindow+Sidebar.swift`): page previews and the outline.
    lazy var sidebar = PageSidebar(session: session)
    /// "Select PDF text": a layer over the canvas while on (`PDFTextSelector.swift`).
    lazy var pdfText = PDFTextSelector(canvas: canvas)
    /// The layers menu while it is open (`MainWindow+Layers.swift`).
    var layersMenu: LayersMenu?

    init(application: UnsafeMutablePointer<GtkApplication>, document: OpenDocument) {
        session = DocumentSession(document)
        canvas = CanvasView(session: session)
        banner = Banner()
        recoveryBanner = Banner()
        window = gtk_application_window_new(application)
        gtk_window_set_default_size(typed(window, as: GtkWindow.self), Int32(preferences.windowWidth), Int32(preferences.windowHeight))
        if preferences.maximized { gtk_window_maximize(typed(window, as: GtkWindow.self)) }
        gtk_window_set_titlebar(typed(window, as: GtkWindow.self), makeHeaderBar())

        // Banners float over the top of the canvas, so showing one never moves the ink under the pen.
        let banners = Widgets.box(horizontal: false)
        gtk_widget_set_valign(banners, GTK_ALIGN_START)
        Widgets.append(banners, recoveryBanner.widget, banner.widget)
        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(OpaquePointer(overlay), canvas.widget)
        gtk_overlay_add_overlay(OpaquePointer(overlay), textField.widget)
        gtk_overlay_add_overlay(OpaquePointer(overlay), banners)
        gtk_overlay_add_overlay(OpaquePointer(overlay), presentation.bar)
        gtk_overlay_add_overlay(OpaquePointer(overlay), pdfText.widget)
        gtk_overlay_add_overlay(OpaquePointer(overlay), searchBar.widget)
        let content = Widgets.box(horizontal: false)
        let main = Widgets.box()
        overlay.setHExpand(true)
        Widgets.append(main, sidebar.widget, overlay)
        Widgets.append(content, toolbar.widget, main)
        gtk_window_set_child(typed(window, as: GtkWindow.self), content)

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
        showDocument()
        showTool()
        showPage()
        toolbar.show(zoom: canvas.transform.zoom)
        updateHistoryButtons()
    }

    func present() {
        gtk_window_present(typed(window, as: GtkWindow.self))
        gtk_widget_grab_focus(canvas.widget)
        // Once the window is up, the width field must not show the selection it got on the way.
        every(milliseconds: 100) { [weak self] in
            self?.toolbar.clearFieldSelection()
            return false
        }
        insertImageFromEnvironment()
    }

    // MARK: layout

    private func makeHeaderBar() -> Widget {
        let bar = gtk_header_bar_new()!
        let header = OpaquePointer(bar)
        let start = Widgets.box(linked: true)
        Widgets.append(start,
            Widgets.button(icon: "document-open-symbolic", label: localized("Open"), tooltip: localized("Open a drawing or import a .xopp (Ctrl+O)")) { [weak self] in self?.perform(.open) },
            makeOpenMenu(),
            Widgets.button(icon: "document-save-as-symbolic", label: localized("Save As"), tooltip: localized("Save under a new name (Ctrl+S)")) { [weak self] in self?.perform(.saveAs) },
            Widgets.button(icon: "document-send-symbolic", label: localized("Export"), tooltip: localized("Export as PNG, SVG, PDF or Xournal++ .xopp (Ctrl+E)")) { [weak self] in self?.perform(.export) })
        gtk_header_bar_pack_start(header, start)
        let navigation = Widgets.box(linked: true)
        Widgets.append(navigation,
            Widgets.button(icon: "sidebar-show-symbolic", tooltip: localized("Page previews and outline (F9)")) { [weak self] in self?.perform(.toggleSidebar) },
            Widgets.button(icon: "edit-find-symbolic", tooltip: localized("Find in text boxes and PDF text (Ctrl+F)")) { [weak self] in self?.perform(.find) },
            Widgets.button(icon: "insert-text-symbolic", tooltip: localized("Select PDF text to copy or highlight it (again or Escape: back to drawing)")) { [weak self] in self?.perform(.selectPDFText) })
        gtk_header_bar_pack_start(header, navigation)

        recoverButton = gtk_menu_button_new()
        gtk_menu_button_set_label(OpaquePointer(recoverButton), localized("Recover"))
        gtk_widget_set_tooltip_text(recoverButton, localized("Drawings from earlier sessions that were never saved under a name"))
        let recoverPopover = gtk_popover_new()!
        gtk_popover_set_child(typed(recoverPopover, as: GtkPopover.self), recoverList)
        gtk_menu_button_set_popover(OpaquePointer(recoverButton), recoverPopover)
        gtk_widget_set_visible(recoverButton, 0)
        gtk_header_bar_pack_start(header, recoverButton)

        let titles = Widgets.box(horizontal: false)
        gtk_widget_set_valign(titles, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(titleLabel, "title")
        gtk_widget_add_css_class(subtitleLabel, "subtitle")
        gtk_widget_add_css_class(subtitleLabel, "dim-label")
        gtk_label_set_ellipsize(OpaquePointer(subtitleLabel), PANGO_ELLIPSIZE_MIDDLE)
        gtk_label_set_ellipsize(OpaquePointer(titleLabel), PANGO_ELLIPSIZE_MIDDLE)
        Widgets.append(titles, titleLabel, subtitleLabel)
        gtk_header_bar_set_title_widget(header, titles)

        // Packed from the right edge inwards.
        gtk_header_bar_pack_end(header, makePreferencesButton())
        let edit = Widgets.box(linked: true)
        undoButton = Widgets.button(icon: "edit-undo-symbolic", tooltip: localized("Undo (Ctrl+Z)")) { [weak self] in self?.perform(.undo) }
        redoButton = Widgets.button(icon: "edit-redo-symbolic", tooltip: localized("Redo (Ctrl+Shift+Z or Ctrl+Y)")) { [weak self] in self?.perform(.redo) }
        Widgets.append(edit, undoButton, redoButton)
        let clear = Widgets.button(icon: "edit-clear-all-symbolic", label: localized("Clear"), tooltip: localized("Clear the page (Undo brings it back)")) { [weak self] in self?.perform(.clear) }
        gtk_header_bar_pack_end(header, clear)
        // "Page 3 of 12" and the page commands, beside the other commands that change the document.
        gtk_header_bar_pack_end(header, pageMenu.widget)
        gtk_header_bar_pack_end(header, edit)
        return bar
    }

    private func makePreferencesButton() -> Widget {
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(OpaquePointer(button), "open-menu-symbolic")
        gtk_widget_set_tooltip_text(button, localized("Preferences"))
        let box = Widgets.box(horizontal: false, spacing: 6)
        gtk_widget_set_margin_start(box, 6); gtk_widget_set_margin_end(box, 6)
        gtk_widget_set_margin_top(box, 6); gtk_widget_set_margin_bottom(box, 6)
        let heading = Widgets.label(localized("Fingers on a touchscreen"))
        gtk_widget_set_halign(heading, GTK_ALIGN_START)
        gtk_widget_add_css_class(heading, "heading")
        let drawWith = gtk_check_button_new_with_label(localized("Draw with fingers (each finger draws)"))!
        let navigate = gtk_check_button_new_with_label(localized("Fingers navigate (two fingers pan and pinch; the pen draws)"))!
        gtk_check_button_set_group(typed(navigate, as: GtkCheckButton.self), typed(drawWith, as: GtkCheckButton.self))
        touchModeButtons = [.draw: drawWith, .navigate: navigate]
        showTouchMode(preferences.touchMode)
        for (b, mode) in [(drawWith, TouchMode.draw), (navigate, TouchMode.navigate)] {
            connect(gobject(b), "toggled") { [weak self] in
                guard let self, !self.syncingTouchMode, gtk_check_button_get_active(typed(b, as: GtkCheckButton.self)) != 0 else { return }
                self.preferences.touchMode = mode
                self.preferences.touchModeChosen = true
                Preferences.update { $0.touchMode = mode; $0.touchModeChosen = true }
                self.canvas.touchMode = mode
            }
        }
        let shapesHeading = Widgets.label(localized("Shapes"))
        gtk_widget_set_halign(shapesHeading, GTK_ALIGN_START)
        gtk_widget_add_css_class(shapesHeading, "heading")
        let recognize = gtk_check_button_new_with_label(localized("Always recognize shapes (without holding the pen still)"))!
        gtk_check_button_set_active(typed(recognize, as: GtkCheckButton.self), preferences.recognizeShapes ? 1 : 0)
        connect(gobject(recognize), "toggled") { [weak self] in
            guard let self else { return }
            let on = gtk_check_button_get_active(typed(recognize, as: GtkCheckButton.self)) != 0
            self.preferences.recognizeShapes = on
            Preferences.update { $0.recognizeShapes = on }
            self.session.setRecognizeShapes(on)
        }
        let selectingHeading = Widgets.label(localized("Selecting"))
        gtk_widget_set_halign(selectingHeading, GTK_ALIGN_START)
        gtk_widget_add_css_class(selectingHeading, "heading")
        let wholly = gtk_check_button_new_with_label(localized("The lasso and box take only strokes wholly inside"))!
        gtk_check_button_set_active(typed(wholly, as: GtkCheckButton.self), preferences.selectWhollyInside ? 1 : 0)
        connect(gobject(wholly), "toggled") { [weak self] in
            guard let self else { return }
            let on = gtk_check_button_get_active(typed(wholly, as: GtkCheckButton.self)) != 0
            self.preferences.selectWhollyInside = on
            Preferences.update { $0.selectWhollyInside = on }
            self.session.setSelectionRule(on ? .whollyInside : .halfInside)
        }
        let keepWidths = gtk_check_button_new_with_label(localized("Keep line widths when resizing a selection"))!
        gtk_check_button_set_active(typed(keepWidths, as: GtkCheckButton.self), preferences.keepLineWidths ? 1 : 0)
        connect(gobject(keepWidths), "toggled") { [weak self] in
            guard let self else { return }
            let on = gtk_check_button_get_active(typed(keepWidths, as: GtkCheckButton.self)) != 0
            self.preferences.keepLineWidths = on
            Preferences.update { $0.keepLineWidths = on }
            self.session.setKeepLineWidths(on)
        }
        let hint = Widgets.label(localized("Mouse: left button draws, middle button or Space+drag pans,\nwheel scrolls, Ctrl+wheel zooms."))
        gtk_widget_add_css_class(hint, "dim-label")
        gtk_widget_set_halign(hint, GTK_ALIGN_START)
        let popover = gtk_popover_new()!
        let shortcuts = Widgets.menuItem(localized("Keyboard Shortcuts"), accelerator: "Ctrl+?", tooltip: localized("Every key the app answers to")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.perform(.showShortcuts)
        }
        let pen = Widgets.menuItem(localized("Pen…"), tooltip: localized("Pressure curve, palm rejection, stabilizer, stylus buttons")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self))
            guard let self else { return }
            PenPreferences.show(parent: self.window) { [weak self] p in self?.applyPen(p) }
        }
        let about = Widgets.menuItem(localized("About Oekaki"), tooltip: localized("Version, licence and website")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.perform(.about)
        }
        // Xournal++ erases and selects on the current layer only; GIMP-like "every visible layer" is the other choice.
        let everyLayer = gtk_check_button_new_with_label(localized("Erasers and selection reach every visible layer (not only the current one)"))!
        gtk_check_button_set_active(typed(everyLayer, as: GtkCheckButton.self), preferences.layerScope == .visible ? 1 : 0)
        connect(gobject(everyLayer), "toggled") { [weak self] in
            guard let self else { return }
            let scope: LayerScope = gtk_check_button_get_active(typed(everyLayer, as: GtkCheckButton.self)) != 0 ? .visible : .current
            self.preferences.layerScope = scope
            Preferences.update { $0.layerScope = scope }
            self.session.setLayerScope(scope)
        }
        Widgets.append(box, heading, drawWith, navigate, shapesHeading, recognize, selectingHeading, wholly, keepWidths, everyLayer, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), hint,
                       gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), pen, shortcuts, about)
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), box)
        gtk_menu_button_set_popover(OpaquePointer(button), popover)
        reportLayout(whenShown: popover)
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
    func reportLayout(whenShown popover: Widget) {
        guard let observer = Instruments.observer, observer.watchesLayout else { return }
        connect(gobject(popover), "show") { [weak self] in
            every(milliseconds: 300) { [weak self] in
                if let self { observer.laidOut(self.window) }
                return false
            }
        }
    }

    private func showTouchMode(_ mode: TouchMode) {
        syncingTouchMode = true
        defer { syncingTouchMode = false }
        if let b = touchModeButtons[mode] { gtk_check_button_set_active(typed(b, as: GtkCheckButton.self), 1) }
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
        toolbar.onTextFont = { [weak self] family, size in self?.setTextFont(family, size) }
        toolbar.onTextColor = { [weak self] c in self?.setTextColor(c) }
        toolbar.onFill = { [weak self] in self?.session.setFill($0) }
        toolbar.onLine = { [weak self] in self?.session.setLine($0) }
        if let p = toolbar.shapesPopover { reportLayout(whenShown: p) }
        toolbar.onWidth = { [weak self] w in
            guard let self, w.isFinite, w > 0 else { return }
            self.session.setWidth(w)
        }
        // The session's updates, after the canvas has shown them: the window's own widgets follow.
        session.follow { [weak self] u in self?.follow(u) }
        session.onSaveStatus = { [weak self] in self?.showSaving($0) }
        session.onBoard = { [weak self] in self?.showBoard() }
        canvas.onZoom = { [weak self] in self?.toolbar.show(zoom: $0) }
        pageMenu.onCommand = { [weak self] in self?.perform($0) }
        pageMenu.onSize = { [weak self] size, all in self?.session.setPageSize(size, allPages: all) }
        pageMenu.onBackground = { [weak self] style, all in self?.session.setPageStyle(style, allPages: all) }
        if let p = pageMenu.popoverWidget { reportLayout(whenShown: p) }
        // The canvas spans the window: its width decides whether the tool names fit beside their icons.
        connectResize(gobject(canvas.widget)) { [weak self] width, _ in
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

        let keys = gtk_event_controller_key_new()!
        connectKeys(keys, pressed: { [weak self] key in
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
        gtk_widget_add_controller(window, keys)
        // Space released while another window had the focus never reaches us: forget it on focus loss.
        let focus = gtk_event_controller_focus_new()!
        connect(gobject(focus), "leave") { [weak self] in self?.canvas.spaceHeld = false }
        gtk_widget_add_controller(window, focus)

        // A drawing dropped anywhere on the window opens in it; PNG and JPEG files are inserted as pictures.
        let drop = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        connectFileDrop(drop) { [weak self] (paths: [String], at: (x: Double, y: Double)) in
            guard let self else { return false }
            let images = paths.filter(Self.isImage)
            if !images.isEmpty {
                // Centred where it was dropped, when that is over the canvas (the drop target is the window).
                var cx = 0.0, cy = 0.0
                let onCanvas = gtk_widget_translate_coordinates(self.window, self.canvas.widget, at.x, at.y, &cx, &cy) != 0
                    && gtk_widget_contains(self.canvas.widget, cx, cy) != 0
                for path in images { self.insertImage(file: path, atView: onCanvas ? Point(x: cx, y: cy) : nil) }
                return true
            }
            guard let path = paths.first(where: Self.opens) else { return false }
            self.open(path)
            return true
        }
        gtk_widget_add_controller(window, drop)

        // The size and maximized state are kept for the next window, saved shortly after they stop changing
        // (so a window that is killed still remembers).
        for property in ["default-width", "default-height", "maximized"] {
            connectNotify(gobject(window), property: property) { [weak self] in self?.scheduleSizeSave() }
        }

        connectStop(gobject(window), "close-request") { [weak self] in
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
        case .moveToLayer(let p): showMoveToLayerMenu(at: p)
        case .tool(let t): session.setTool(t)
        case .guide(let g): session.toggleGuide(g, view: canvas.transform)
        case .present: presentation.start()
        case .find: openSearch()
        case .selectPDFText: pdfText.setOn(!pdfText.isOn)
        case .toggleSidebar: toggleSidebar()
        case .size(let s): session.setSize(s)
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
        if sizeSaveTimer != 0 { g_source_remove(sizeSaveTimer) }
        sizeSaveTimer = every(milliseconds: 400) { [weak self] in
            guard let self else { return false }
            self.sizeSaveTimer = 0
            let w = typed(self.window, as: GtkWindow.self)
            let maximized = gtk_window_is_maximized(w) != 0
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(w, &width, &height)
            Preferences.update { p in
                p.maximized = maximized
                // A maximized window's size is the screen's: keep the size to restore to.
                if !maximized, width >= 200, height >= 200 { p.windowWidth = Int(width); p.windowHeight = Int(height) }
            }
            return false
        }
    }

    /// Open ▸ menu: a new window and the recently used drawings.
    private func makeOpenMenu() -> Widget {
        let button = gtk_menu_button_new()!
        gtk_widget_set_tooltip_text(button, localized("New window and recent drawings"))
        gtk_widget_set_focusable(button, 0)
        let popover = gtk_popover_new()!
        let box = Widgets.box(horizontal: false, spacing: 2)
        for set in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { set(box, 6) }
        let new = Widgets.menuItem(localized("New Window"), accelerator: "Ctrl+N", tooltip: localized("A new drawing in its own window")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.perform(.newWindow)
        }
        let heading = Widgets.label(localized("Recent"))
        gtk_widget_set_halign(heading, GTK_ALIGN_START)
        gtk_widget_add_css_class(heading, "heading")
        let share = Widgets.menuItem(localized("Share…"), tooltip: localized("Put this drawing on a board others can join")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.askForBoard(joining: false)
        }
        let join = Widgets.menuItem(localized("Join Board…"), tooltip: localized("Open a shared board in a new window")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.askForBoard(joining: true)
        }
        let insertImage = Widgets.menuItem(localized("Insert Image…"), tooltip: localized("A PNG or JPEG picture on the page (or drop the file on the window, or paste it)")) { [weak self] in
            gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.chooseImageToInsert()
        }
        Widgets.append(box, new, insertImage, share, join, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), heading, recentList)
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), box)
        gtk_menu_button_set_popover(OpaquePointer(button), popover)
        connect(gobject(popover), "show") { [weak self] in self?.fillRecentList(popover) }
        reportLayout(whenShown: popover)
        return button
    }

    private func fillRecentList(_ popover: Widget) {
        while let child = gtk_widget_get_first_child(recentList) { gtk_box_remove(typed(recentList, as: GtkBox.self), child) }
        let paths = RecentFiles.list()
        if paths.isEmpty {
            let none = Widgets.label(localized("No recent drawings"))
            gtk_widget_add_css_class(none, "dim-label")
            Widgets.append(recentList, none)
        }
        for path in paths {
            let item = Widgets.menuItem((path as NSString).lastPathComponent) { [weak self] in
                gtk_popover_popdown(typed(popover, as: GtkPopover.self)); self?.open(path)
            }
            gtk_widget_set_tooltip_text(item, abbreviated(path))
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
    }

    /// What the window shows of a session update (the canvas has shown it already).
    private func follow(_ u: SessionUpdate) {
        if u.documentReplaced || u.pageChanged { showPage() }
        followInSidebar(u)
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
    }

    func showTool() {
        toolbar.show(tool: session.tool, style: session.style, pen: session.styles[.pen] ?? StrokeStyle(tool: .pen))
        toolbar.teachingMenu.show(session.teaching.guides)
        presentation.showTool(session.tool)
    }

    func updateHistoryButtons() {
        gtk_widget_set_sensitive(undoButton, session.history.canUndo ? 1 : 0)
        gtk_widget_set_sensitive(redoButton, session.history.canRedo ? 1 : 0)
    }
}
