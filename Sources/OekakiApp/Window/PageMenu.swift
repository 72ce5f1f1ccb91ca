import CGtk
import InkCore
import InkRender
import Localization

/// The toolbar's page button: shows "page 3 of 12" and opens the page commands (add, duplicate, delete,
/// move), the size presets and the paper chooser, whose swatches are drawn by the canvas's own renderer.
final class PageMenu {
    let widget: Widget
    private let popover: Widget
    private let allPages: Widget
    private let customWidth: OpaquePointer
    private let customHeight: OpaquePointer
    private var swatches: [Widget] = []
    /// The current page's paper: the swatches preview each style in its colours and spacing.
    private var paper = Background.plain

    var onCommand: ((Command) -> Void)?
    /// A size was chosen (nil: endless); `allPages` says for which pages.
    var onSize: ((Size?, Bool) -> Void)?
    var onBackground: ((Background.Style, Bool) -> Void)?

    init() {
        widget = gtk_menu_button_new()!
        gtk_widget_set_focusable(widget, 0)
        gtk_widget_set_tooltip_text(widget, localized("Pages: add, delete, move, size and paper (Ctrl+Page Up/Down moves between pages)"))
        gtk_menu_button_set_label(OpaquePointer(widget), PageMenu.title(0, 1))
        popover = gtk_popover_new()!
        allPages = gtk_check_button_new_with_label(localized("Apply size and paper to all pages"))!
        gtk_widget_set_tooltip_text(allPages, localized("Size and paper change every page, not only this one"))
        customWidth = OpaquePointer(gtk_spin_button_new_with_range(10, 10_000, 1)!)
        customHeight = OpaquePointer(gtk_spin_button_new_with_range(10, 10_000, 1)!)

        let box = Widgets.box(horizontal: false, spacing: 4)
        gtk_widget_set_margin_start(box, 6); gtk_widget_set_margin_end(box, 6)
        gtk_widget_set_margin_top(box, 6); gtk_widget_set_margin_bottom(box, 6)
        func item(_ title: String, _ key: String?, _ tip: String, _ c: Command) -> Widget {
            Widgets.menuItem(title, accelerator: key, tooltip: tip) { [weak self] in self?.close(); self?.onCommand?(c) }
        }
        Widgets.append(box,
            item(localized("Layers…"), "Ctrl+L", localized("The layers of this page: add, rename, hide, move, delete, choose the one to draw on"), .layers),
            gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!,
            item(localized("Add page"), nil, localized("Add a page after this one (same size and paper)"), .addPage),
            item(localized("Duplicate page"), nil, localized("Add a copy of this page and its ink after it"), .duplicatePage),
            item(localized("Delete page"), nil, localized("Delete this page and its ink (Undo brings it back)"), .deletePage),
            item(localized("Move page up"), nil, localized("Move this page before the previous one"), .movePageUp),
            item(localized("Move page down"), nil, localized("Move this page after the next one"), .movePageDown),
            gtk_separator_new(GTK_ORIENTATION_HORIZONTAL)!)

        let sizeHeading = Self.heading(localized("Size"))
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
        gtk_spin_button_set_value(customWidth, 595)
        gtk_spin_button_set_value(customHeight, 842)
        gtk_widget_set_tooltip_text(asWidget(customWidth), localized("Custom width in pt"))
        gtk_widget_set_tooltip_text(asWidget(customHeight), localized("Custom height in pt"))
        Widgets.append(custom, asWidget(customWidth), Widgets.label("×"), asWidget(customHeight),
                       Widgets.button(icon: nil, label: localized("Set"), tooltip: localized("Use this custom size")) { [weak self] in
                           guard let self else { return }
                           let s = Size(width: gtk_spin_button_get_value(self.customWidth), height: gtk_spin_button_get_value(self.customHeight))
                           self.onSize?(s, self.isAllPages)
                       })

        let paperHeading = Self.heading(localized("Paper"))
        let styles = Widgets.box(spacing: 4)
        for style in Background.Style.allCases {
            let face = gtk_drawing_area_new()!
            gtk_drawing_area_set_content_width(typed(face, as: GtkDrawingArea.self), 44)
            gtk_drawing_area_set_content_height(typed(face, as: GtkDrawingArea.self), 44)
            setDrawFunction(face) { [weak self] cr, w, h in self?.paintSwatch(style, cr, width: Int(w), height: Int(h)) }
            let b = Widgets.button(icon: nil, tooltip: Self.paperName(style)) { [weak self] in
                guard let self else { return }
                self.onBackground?(style, self.isAllPages)
            }
            gtk_button_set_child(typed(b, as: GtkButton.self), face)
            swatches.append(face)
            Widgets.append(styles, b)
        }
        Widgets.append(box, sizeHeading, sizes, custom, paperHeading, styles, allPages)
        gtk_popover_set_child(typed(popover, as: GtkPopover.self), box)
        gtk_menu_button_set_popover(OpaquePointer(widget), popover)
    }

    private var isAllPages: Bool { gtk_check_button_get_active(typed(allPages, as: GtkCheckButton.self)) != 0 }

    private func close() { gtk_popover_popdown(typed(popover, as: GtkPopover.self)) }

    static func title(_ index: Int, _ count: Int) -> String { localized("Page {0} of {1}", index + 1, count) }

    static func paperName(_ style: Background.Style) -> String {
        switch style {
        case .plain: return localized("Plain paper")
        case .ruled: return localized("Ruled paper")
        case .lined: return localized("Lined paper (with a margin)")
        case .graph: return localized("Graph paper")
        case .dotted: return localized("Dotted paper")
        }
    }

    /// Shows which page is current, and previews the paper styles in its colours.
    func show(page index: Int, of count: Int, paper: Background, size: Size?) {
        gtk_menu_button_set_label(OpaquePointer(widget), Self.title(index, count))
        if paper != self.paper {
            self.paper = paper
            for s in swatches { gtk_widget_queue_draw(s) }
        }
        if let size {
            gtk_spin_button_set_value(customWidth, size.width.rounded())
            gtk_spin_button_set_value(customHeight, size.height.rounded())
        }
    }

    var popoverWidget: Widget { popover }

    /// A patch of endless paper in `style`, drawn by the screen cache like the canvas (two units per pixel).
    private func paintSwatch(_ style: Background.Style, _ cr: CairoContext, width: Int, height: Int) {
        let bg = Background(style: style, paper: paper.paper, line: paper.line,
                            spacing: style == paper.style ? paper.spacing : nil)
        let t = ViewTransform(zoom: 0.5, offset: Point(0, 0), deviceScale: 1)
        guard let cache = try? ScreenCache(viewSize: Size(width: Double(width), height: Double(height)), transform: t) else { return }
        cache.render(Scene(sheets: [Sheet(drawing: Drawing(), paperArea: nil, paper: bg.paper, background: bg, endless: true)]))
        cache.draw(into: cr)
    }

    private static func heading(_ text: String) -> Widget {
        let l = Widgets.label(text)
        gtk_widget_set_halign(l, GTK_ALIGN_START)
        gtk_widget_add_css_class(l, "heading")
        return l
    }
}
