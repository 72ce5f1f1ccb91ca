import InkCore
import InkRender
import Localization

/// The toolbar's page button: shows "page 3 of 12" and opens the page commands (add, duplicate, delete,
/// move), the size presets and the paper chooser, whose swatches are drawn by the canvas's own renderer.
final class PageMenu {
    let widget: Widget
    private let allPages: Widget
    private let customWidth: Widget
    private let customHeight: Widget
    private var swatches: [Widget] = []
    /// The current page's paper: the swatches preview each style in its colours and spacing.
    private var paper = Background.plain

    var onCommand: ((Command) -> Void)?
    /// A size was chosen (nil: endless); `allPages` says for which pages.
    var onSize: ((Size?, Bool) -> Void)?
    var onBackground: ((Background.Style, Bool) -> Void)?

    init() {
        let box = Widgets.box(horizontal: false, spacing: 4)
        widget = Widgets.menuButton(label: PageMenu.title(0, 1),
                                    tooltip: localized("Pages: add, delete, move, size and paper (Ctrl+Page Up/Down moves between pages)"),
                                    focusable: false, content: box)
        allPages = Widgets.check(localized("Apply size and paper to all pages")) { _ in }
        allPages.setTooltip(localized("Size and paper change every page, not only this one"))
        customWidth = Widgets.spin(10...10_000, step: 1, value: 595)
        customHeight = Widgets.spin(10...10_000, step: 1, value: 842)

        box.setMargins(6)
        func item(_ title: String, _ key: String?, _ tip: String, _ c: Command) -> Widget {
            Widgets.menuItem(title, accelerator: key, tooltip: tip) { [weak self] in self?.close(); self?.onCommand?(c) }
        }
        Widgets.append(box,
            item(localized("Layers…"), "Ctrl+L", localized("The layers of this page: add, rename, hide, move, delete, choose the one to draw on"), .layers),
            Widgets.separatorAcross(),
            item(localized("Add page"), nil, localized("Add a page after this one (same size and paper)"), .addPage),
            item(localized("Duplicate page"), nil, localized("Add a copy of this page and its ink after it"), .duplicatePage),
            item(localized("Delete page"), nil, localized("Delete this page and its ink (Undo brings it back)"), .deletePage),
            item(localized("Move page up"), nil, localized("Move this page before the previous one"), .movePageUp),
            item(localized("Move page down"), nil, localized("Move this page after the next one"), .movePageDown),
            Widgets.separatorAcross())

        let sizeHeading = Widgets.heading(localized("Size"))
        let sizes = Widgets.box(linked: true)
        let presets: [(String, Size?)] = PagePreset.allCases.map { ($0 == .widescreen ? "16:9" : $0 == .letter ? localized("Letter") : $0.name.uppercased(), $0.size) } + [(localized("Endless"), nil)]
        for (name, size) in presets {
            let tip = size.map { localized("{0}: {1} × {2} pt", name, Int($0.width.rounded()), Int($0.height.rounded())) } ?? localized("Endless: no edges, grows with the ink")
            Widgets.append(sizes, Widgets.button(icon: nil, label: name, tooltip: tip) { [weak self] in
                guard let self else { return }
                self.onSize?(size, self.isAllPages)
            })
        }
        let custom = Widgets.box(spacing: 4)
        customWidth.setTooltip(localized("Custom width in pt"))
        customHeight.setTooltip(localized("Custom height in pt"))
        Widgets.append(custom, customWidth, Widgets.label("×"), customHeight,
                       Widgets.button(icon: nil, label: localized("Set"), tooltip: localized("Use this custom size")) { [weak self] in
                           guard let self else { return }
                           let s = Size(width: self.customWidth.number, height: self.customHeight.number)
                           self.onSize?(s, self.isAllPages)
                       })

        let paperHeading = Widgets.heading(localized("Paper"))
        let styles = Widgets.box(spacing: 4)
        for style in Background.Style.allCases {
            let face = Widgets.drawn(size: 44) { [weak self] cr, w, h in self?.paintSwatch(style, cr, width: Int(w), height: Int(h)) }
            let b = Widgets.button(icon: nil, tooltip: Self.paperName(style)) { [weak self] in
                guard let self else { return }
                self.onBackground?(style, self.isAllPages)
            }
            b.setButtonChild(face)
            swatches.append(face)
            Widgets.append(styles, b)
        }
        let picture = item(localized("Picture…"), nil,
                           localized("Stretch a PNG or JPEG over the page, under the ink (a paper style takes it away again)"), .pagePicture)
        Widgets.append(box, sizeHeading, sizes, custom, paperHeading, styles, picture, allPages)
    }

    var isAllPages: Bool { allPages.isChecked }

    private func close() { widget.popdownMenu() }

    static func title(_ index: Int, _ count: Int) -> String { localized("Page {0} of {1}", index + 1, count) }

    static func paperName(_ style: Background.Style) -> String {
        switch style {
        case .plain: return localized("Plain paper")
        case .ruled: return localized("Ruled paper")
        case .lined: return localized("Lined paper (with a margin)")
        case .graph: return localized("Graph paper")
        case .dotted: return localized("Dotted paper")
        case .isograph: return localized("Isometric paper")
        case .isodotted: return localized("Isometric dotted paper")
        case .staves: return localized("Music staves")
        }
    }

    /// Shows which page is current, and previews the paper styles in its colours.
    func show(page index: Int, of count: Int, paper: Background, size: Size?) {
        widget.setMenuLabel(Self.title(index, count))
        if paper != self.paper {
            self.paper = paper
            for s in swatches { s.queueDraw() }
        }
        if let size {
            customWidth.number = size.width.rounded()
            customHeight.number = size.height.rounded()
        }
    }

    /// A patch of endless paper in `style`, drawn by the screen cache like the canvas (two units per pixel).
    private func paintSwatch(_ style: Background.Style, _ cr: CairoContext, width: Int, height: Int) {
        let bg = paper.restyled(style)
        let t = ViewTransform(zoom: 0.5, offset: Point(0, 0), deviceScale: 1)
        guard let cache = try? ScreenCache(viewSize: Size(width: Double(width), height: Double(height)), transform: t) else { return }
        cache.render(Scene(sheets: [Sheet(drawing: Drawing(), paperArea: nil, paper: bg.paper, background: bg, endless: true)]))
        cache.draw(into: cr)
    }
}
