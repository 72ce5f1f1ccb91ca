import InkRender
import Localization
import InkCore

/// Every command a button, a key or a menu can trigger.
enum Command: Equatable {
    case undo, redo, clear
    case open, saveAs, export, newWindow
    case showShortcuts, about
    case zoomIn, zoomOut, zoomFit, zoomReset
    case customColor
    case cancelStroke
    case nextPage, previousPage, firstPage, lastPage
    case addPage, duplicatePage, deletePage, movePageUp, movePageDown
    /// A picture stretched over the page (or every page) under the ink: Xournal++'s image background.
    case pagePicture
    /// The current page's layers (`LayersMenu`); the selection's "Move to layer…" (its menu at this page point).
    case layers
    case moveToLayer(Point)
    case tool(Tool)
    case size(PenSize)
    /// An operation on the selection (arrows move it, Ctrl+A selects all, Delete deletes, …).
    case selection(SelectionOp)
    /// Copy, cut and paste go through the desktop clipboard as well as the editor's.
    case copy, cut, paste
    /// The teaching menu: a guide shown or put away; presentation mode (F5).
    case guide(GuideHandles.Guide)
    case present
    /// Ctrl+F: the search bar; F9: the page sidebar.
    case find, toggleSidebar
    /// The PDF text selection layer on or off.
    case selectPDFText
}

/// The palette of the seed apps plus a few more.
enum Palette {
    static let colors: [(name: String, color: RGBA)] = [
        (localized("Black"), RGBA(r: 0, g: 0, b: 0)),
        (localized("Red"), RGBA(r: 0xe0, g: 0x1b, b: 0x24)),
        (localized("Blue"), RGBA(r: 0x1c, g: 0x71, b: 0xd8)),
        // The highlighter's own yellow, so its default colour shows as a palette choice.
        (localized("Yellow"), RGBA(r: RGBA.highlighterYellow.r, g: RGBA.highlighterYellow.g, b: RGBA.highlighterYellow.b)),
        (localized("Green"), RGBA(r: 0x2e, g: 0xc2, b: 0x7e)),
        (localized("Orange"), RGBA(r: 0xff, g: 0x78, b: 0x00)),
        (localized("Purple"), RGBA(r: 0x91, g: 0x41, b: 0xac)),
        (localized("Brown"), RGBA(r: 0x86, g: 0x5e, b: 0x3c)),
        (localized("White"), RGBA(r: 0xff, g: 0xff, b: 0xff)),
    ]
}

/// The row of tools under the title bar: tools, colours, sizes, zoom.
final class Toolbar {
    /// The row, inside a horizontal scroller: only windows narrower than 1024 px ever need to scroll it,
    /// since the tool names give way to icons when the window is narrow.
    let widget: Widget
    let row: Widget
    private let labels = CollapsibleLabels()
    private var toolButtons: [Tool: Widget] = [:]
    /// The shape the shape button draws (the last one chosen in its menu) and its face.
    private var shapeTool: Tool = .rectangle
    private var shapeFace: Widget?
    private var swatches: [Widget] = []
    private var customFace: Widget?
    private var customColor = RGBA(r: 0x3d, g: 0x38, b: 0x46)
    private var sizeButtons: [PenSize: Widget] = [:]
    /// The pen's fill and line style choices (in the shapes menu: the row has no room for them).
    private var fillButtons: [(fill: UInt8?, button: Widget)] = []
    private var lineButtons: [(line: LineStyle, button: Widget)] = []
    /// The shapes menu, for the layout report of tests.
    private(set) var shapesMenu: Widget?
    let teachingMenu = TeachingMenu()
    private let widthSpin: Widget
    private let zoomLabel: Widget
    /// Set while the toolbar itself updates its controls, so it does not report its own changes back.
    private var syncing = false

    var onCommand: ((Command) -> Void)?
    var onColor: ((RGBA) -> Void)?
    var onWidth: ((Double) -> Void)?
    /// The text font chosen (family, size in page units) and the text colour.
    var onTextFont: ((String, Double) -> Void)?
    var onTextColor: ((RGBA) -> Void)?
    /// The fill (nil: none) and line style of new pen and shape ink, and of the selection.
    var onFill: ((UInt8?) -> Void)?
    var onLine: ((LineStyle) -> Void)?

    /// The fill choices: Xournal++'s fill is an alpha, these are its usual steps.
    static let fills: [(fill: UInt8?, name: String)] = [
        (nil, localized("No fill")), (64, localized("Light fill")), (128, localized("Medium fill")), (255, localized("Solid fill")),
    ]
    static let lines: [(line: LineStyle, name: String)] = [
        (.solid, localized("Solid line")), (.dash, localized("Dashed line")), (.dashDot, localized("Dash-dot line")), (.dot, localized("Dotted line")),
    ]

    init() {
        row = Widgets.box(spacing: 4)
        row.addCSSClass("toolbar")
        widget = Widgets.scrolledSideways(row)
        widthSpin = Widgets.spin(0.5...200, step: 0.5)
        zoomLabel = Widgets.label("100 %")
        zoomLabel.addCSSClass("zoom-label")

        let tools = Widgets.box(linked: true)
        let toolSpecs: [(Tool, String?, String, String)] = [
            (.pen, "document-edit-symbolic", localized("Pen"), localized("Pen (P)")),
            (.highlighter, nil, localized("Highlighter"), localized("Highlighter: translucent marker (H)")),
            (.strokeEraser, "edit-clear-symbolic", localized("Eraser"), localized("Stroke eraser: removes whole strokes it touches (E)")),
            (.areaEraser, "edit-cut-symbolic", localized("Area eraser"), localized("Area eraser: cuts out only what it covers (A)")),
            (.laser, nil, localized("Laser"), localized("Laser pointer: glows, then fades; never kept (K)")),
        ]
        var first: Widget?
        for (tool, icon, label, tip) in toolSpecs {
            let face = icon == nil ? Widgets.face(tool == .laser ? Faces.laser : Faces.highlighter) : nil
            let b = Widgets.toggle(icon: icon, face: face, label: label, tooltip: tip, group: first, collapsible: labels) { [weak self] in
                guard let self, !self.syncing else { return }
                self.onCommand?(.tool(tool))
            }
            first = first ?? b
            toolButtons[tool] = b
            Widgets.append(tools, b)
        }
        // Shapes: one tool button showing the chosen shape, and a menu beside it to choose another.
        let face = Widgets.face { [weak self] cr, w, h in Faces.shape(self?.shapeTool ?? .rectangle)(cr, w, h) }
        shapeFace = face
        let shapeButton = Widgets.toggle(face: face, tooltip: localized("Shapes: drag from corner to corner; Shift makes squares and circles and turns lines in 15° steps. Or hold the pen still at the end of any stroke to snap it to a shape."),
                                         group: first, collapsible: labels) { [weak self] in
            guard let self, !self.syncing else { return }
            self.onCommand?(.tool(self.shapeTool))
        }
        // The selection tools share the button (the row has no room for more): it shows the last one chosen.
        for t in [Tool.line, .arrow, .rectangle, .ellipse, .lasso, .selectRect, .text] { toolButtons[t] = shapeButton }
        Widgets.append(tools, shapeButton)
        let list = Widgets.box(horizontal: false, spacing: 2)
        let menu = Widgets.menuButton(tooltip: localized("Choose a shape, the lasso or box to select ink, the pen's fill and line style, or text and its font and colour"),
                                      focusable: false, content: list)
        for (t, name, key) in [(Tool.line, localized("Line"), "L"), (.arrow, localized("Arrow"), "W"), (.rectangle, localized("Rectangle"), "R"), (.ellipse, localized("Ellipse"), "O"),
                               (.lasso, localized("Lasso select"), "S"), (.selectRect, localized("Box select"), "B"), (.text, localized("Text"), "T")] {
            let item = Widgets.button(icon: nil, label: "\(name)   \(key)", tooltip: "\(name) (\(key))") { [weak self] in
                menu.popdownMenu()
                self?.onCommand?(.tool(t))
            }
            item.addCSSClass("flat")
            Widgets.append(list, item)
        }
        // Text boxes' font and colour, GTK's own choosers (the row has no room for more buttons).
        let font = Widgets.fontButton("Sans 16", tooltip: localized("Text font and size")) { [weak self] face, size in
            self?.onTextFont?(face, size > 0 ? size : 16)
        }
        let color = Widgets.colorButton(tooltip: localized("Text colour")) { [weak self] in self?.onTextColor?($0) }
        Widgets.append(list, Widgets.separatorAcross(), fillAndLineRows(), Widgets.separatorAcross(), font, color)
        shapesMenu = menu
        Widgets.append(tools, menu)


        let colors = Widgets.box(spacing: 1)
        var firstSwatch: Widget?
        for (i, entry) in Palette.colors.enumerated() {
            let s = Widgets.drawnToggle(size: 18, tooltip: entry.name, group: firstSwatch, paint: Faces.swatch(entry.color)) { [weak self] in
                guard let self, !self.syncing else { return }
                self.onColor?(entry.color)
            }
            firstSwatch = firstSwatch ?? s.button
            swatches.append(s.button)
            Widgets.append(colors, s.button)
        }
        let custom = Widgets.drawnToggle(size: 18, tooltip: localized("Custom colour…"), group: firstSwatch, paint: { [weak self] cr, w, h in
            Faces.swatch(self?.customColor ?? .black)(cr, w, h)
            // A small plus marks the chooser.
            cr.setSource(red: 1, green: 1, blue: 1)
            cr.setLineWidth(2)
            cr.move(to: w / 2 - 4, h / 2); cr.line(to: w / 2 + 4, h / 2)
            cr.move(to: w / 2, h / 2 - 4); cr.line(to: w / 2, h / 2 + 4)
            cr.stroke()
        }) { }
        // The custom swatch opens the chooser on every click, not only when it becomes active.
        custom.button.onClicked { [weak self] in
            guard let self, !self.syncing else { return }
            self.onCommand?(.customColor)
        }
        customFace = custom.face
        swatches.append(custom.button)
        Widgets.append(colors, custom.button)

        let sizes = Widgets.box(linked: true)
        var firstSize: Widget?
        for (size, dot, name, key) in [(PenSize.fine, 4.0, localized("Fine"), "1"), (.medium, 8.0, localized("Medium"), "2"), (.bold, 14.0, localized("Bold"), "3")] {
            let b = Widgets.drawnToggle(size: 20, tooltip: "\(name) (\(key))", group: firstSize, paint: Faces.dot(diameter: dot)) { [weak self] in
                guard let self, !self.syncing else { return }
                self.onCommand?(.size(size))
            }
            firstSize = firstSize ?? b.button
            sizeButtons[size] = b.button
            Widgets.append(sizes, b.button)
        }
        widthSpin.setDigits(1, widthChars: 3)
        widthSpin.setTooltip(localized("Width in page units"))
        widthSpin.onValueChanged { [weak self] in
            guard let self, !self.syncing else { return }
            self.onWidth?(self.widthSpin.number)
        }

        let spacer = Widgets.box()
        spacer.expandAcross()

        // The middle button shows the zoom and resets it to 100 %.
        let reset = Widgets.button(icon: nil, tooltip: localized("Zoom to 100 %")) { [weak self] in self?.onCommand?(.zoomReset) }
        reset.setButtonChild(zoomLabel)
        let zoom = Widgets.box(linked: true)
        Widgets.append(zoom,
            Widgets.button(icon: "zoom-out-symbolic", tooltip: localized("Zoom out (Ctrl+−)")) { [weak self] in self?.onCommand?(.zoomOut) },
            reset,
            Widgets.button(icon: "zoom-in-symbolic", tooltip: localized("Zoom in (Ctrl++)")) { [weak self] in self?.onCommand?(.zoomIn) },
            Widgets.button(icon: "zoom-fit-best-symbolic", tooltip: localized("Fit the page in the window (Ctrl+0)")) { [weak self] in self?.onCommand?(.zoomFit) })

        teachingMenu.onCommand = { [weak self] in self?.onCommand?($0) }
        Widgets.append(row, tools, teachingMenu.widget, Widgets.separator(), colors, Widgets.separator(), sizes, widthSpin, spacer, zoom)
    }

    /// "Fill" and "Line": a row of toggles each, for the pen and the shapes (which draw in the pen's style).
    private func fillAndLineRows() -> Widget {
        let grid = Widgets.box(horizontal: false, spacing: 4)
        func row(_ title: String, _ buttons: [Widget]) -> Widget {
            let r = Widgets.box(spacing: 6)
            let label = Widgets.label(title)
            label.expandAcross()
            label.alignTextStart()
            let linked = Widgets.box(linked: true)
            for b in buttons { Widgets.append(linked, b) }
            Widgets.append(r, label, linked)
            return r
        }
        fillButtons = choices(Self.fills.map { ($0.fill, $0.name) }, face: Faces.fill) { [weak self] in self?.onFill?($0) }
            .map { (fill: $0.0, button: $0.1) }
        lineButtons = choices(Self.lines.map { ($0.line, $0.name) }, face: Faces.line) { [weak self] in self?.onLine?($0) }
            .map { (line: $0.0, button: $0.1) }
        Widgets.append(grid, row(localized("Fill"), fillButtons.map(\.button)), row(localized("Line style"), lineButtons.map(\.button)))
        return grid
    }

    /// One linked group of drawn toggles, one per choice; a click reports its choice unless the toolbar is only
    /// showing the current style (`syncing`).
    private func choices<T>(_ items: [(T, String)], face: (T) -> (CairoContext, Double, Double) -> Void,
                            choose: @escaping (T) -> Void) -> [(T, Widget)] {
        var first: Widget?
        return items.map { value, name in
            let b = Widgets.drawnToggle(size: 18, tooltip: name, group: first, paint: face(value)) { [weak self] in
                guard let self, !self.syncing else { return }
                choose(value)
            }.button
            first = first ?? b
            return (value, b)
        }
    }

    /// Shows the current tool, colour and width, and the pen's fill and line style.
    func show(tool: Tool, style: StrokeStyle, pen: StrokeStyle) {
        syncing = true
        defer { syncing = false }
        for (fill, b) in fillButtons where fill == pen.fill { Widgets.setActive(b, true) }
        for (line, b) in lineButtons where line == pen.line { Widgets.setActive(b, true) }
        if tool.isShape || tool.isSelection || tool == .text, tool != shapeTool {
            shapeTool = tool
            shapeFace?.queueDraw()
        }
        if let b = toolButtons[tool] { Widgets.setActive(b, true) }
        let opaqueColor = RGBA(r: style.color.r, g: style.color.g, b: style.color.b)
        if let i = Palette.colors.firstIndex(where: { $0.color == opaqueColor }) {
            Widgets.setActive(swatches[i], true)
        } else if let custom = swatches.last {
            customColor = opaqueColor
            customFace?.queueDraw()
            Widgets.setActive(custom, true)
        }
        let preset = PenSize.allCases.first { $0.width(for: tool) == style.width }
        for (size, b) in sizeButtons { Widgets.setActive(b, size == preset) }
        widthSpin.number = style.width
        // No leftover selection highlight in the field while the canvas has the keyboard.
        Widgets.selectNoText(widthSpin)
        let colorable = !tool.isEraser
        for s in swatches { s.setSensitive(colorable) }
    }

    /// Drops the selection GTK gives the width field when it takes the focus on its own (as the window maps).
    func clearFieldSelection() {
        Widgets.selectNoText(widthSpin)
    }

    /// Fits the row into a window `width` logical pixels wide: tool names show only if everything fits with them.
    func fit(width: Int32) {
        labels.fit(row, into: width)
    }

    func show(zoom: Double) {
        Widgets.setLabel(zoomLabel, "\(Int((zoom * 100).rounded())) %")
    }
}
