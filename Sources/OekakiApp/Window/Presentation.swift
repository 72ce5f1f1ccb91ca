import CGtk
import InkCore
import InkRender
import Localization

/// Presentation mode (F5): the window full screen with no title bar or toolbar, one page at a time fitted to the
/// screen on black, Page Down/Up, the arrows, Space and a click to turn pages, Escape to leave. The pen, the
/// highlighter, the laser and the eraser work as always, from a thin bar at the top that shows while the
/// pointer moves and hides a few seconds after it stops; it also says which page is shown and turns pages.
final class Presentation {
    /// The bar, floating over the top of the canvas (in the window's overlay).
    let bar: Widget
    private(set) var isOn = false
    private var toolButtons: [Tool: Widget] = [:]
    /// "3 / 12" between the previous- and next-page buttons.
    private let pageLabel = Widgets.label("")
    private var hideTimer: UInt32 = 0
    private var before: (transform: ViewTransform, tool: Tool)?
    private var syncing = false
    private weak var window: MainWindow?

    /// How long the bar stays after the pointer stops (ms).
    static let barLinger: UInt32 = 2500

    init(window: MainWindow) {
        self.window = window
        bar = Widgets.box(spacing: 4)
        bar.addCSSClass("osd")
        bar.addCSSClass("toolbar")
        bar.alignTopCenter()
        bar.setMargins(top: 6)
        let tools = Widgets.box(linked: true)
        var first: Widget?
        for (tool, icon, face, tip) in [
            (Tool.pen, "document-edit-symbolic", nil, localized("Pen (P)")),
            (.highlighter, nil, Faces.highlighter, localized("Highlighter (H)")),
            (.laser, nil, Faces.laser, localized("Laser pointer: glows, then fades (K)")),
            (.strokeEraser, "edit-clear-symbolic", nil, localized("Eraser (E)")),
        ] as [(Tool, String?, ((CairoContext, Double, Double) -> Void)?, String)] {
            let b = Widgets.toggle(icon: icon, face: face.map { Widgets.face($0) }, tooltip: tip, group: first) { [weak self] in
                guard let self, !self.syncing else { return }
                self.window?.perform(.tool(tool))
            }
            first = first ?? b
            toolButtons[tool] = b
            Widgets.append(tools, b)
        }
        let pages = Widgets.box(spacing: 2)
        let previous = Widgets.button(icon: "go-previous-symbolic", tooltip: localized("Previous page (Page Up, ←)")) { [weak self] in self?.turn(by: -1) }
        let next = Widgets.button(icon: "go-next-symbolic", tooltip: localized("Next page (Page Down, →, Space)")) { [weak self] in self?.turn(by: 1) }
        pageLabel.setSizeRequest(width: 64, height: -1)
        Widgets.append(pages, previous, pageLabel, next)
        let leave = Widgets.button(icon: "view-restore-symbolic", tooltip: localized("Stop presenting (Esc)")) { [weak self] in self?.stop() }
        Widgets.append(bar, tools, pages, leave)
        bar.setVisible(false)
        window.canvas.widget.onPointerMotion { [weak self] in self?.pointerMoved() }
    }

    /// Starts presenting the current page; the laser is a good first tool for pointing at it.
    func start() {
        guard let w = window, !isOn else { return }
        isOn = true
        before = (w.canvas.transform, w.session.tool)
        w.session.cancelStrokes()
        w.session.teaching.presenting = true
        w.toolbar.widget.setVisible(false)
        w.sidebar.widget.setVisible(false)
        if w.searchBar.isOpen { w.closeSearch() }
        w.window.titlebar?.setVisible(false)
        w.window.fullscreen()
        showTool(w.session.tool)
        showPage()
        showBar()
        w.canvas.widget.grabFocus()
        w.canvas.redraw()
    }

    /// Back to the window as it was, at the zoom it had, showing the page presented last.
    func stop() {
        guard let w = window, isOn else { return }
        isOn = false
        w.session.cancelStrokes()
        w.session.teaching.presenting = false
        w.window.unfullscreen()
        w.toolbar.widget.setVisible(true)
        w.sidebar.widget.setVisible(w.sidebar.isShown)
        w.window.titlebar?.setVisible(true)
        hideBar()
        if let b = before {
            w.canvas.transform = b.transform
            w.canvas.scrollToTop(of: w.session.currentPage)
            w.canvas.onZoom?(b.transform.zoom)
        }
        before = nil
        w.canvas.redraw()
    }

    /// Keys while presenting: pages turn, Escape leaves; other keys (the tools' letters) go on as usual.
    func key(_ key: KeyPress) -> Bool {
        guard isOn, let w = window, !key.control, !key.alt else { return false }
        let k = Int32(bitPattern: key.keyval)
        switch k {
        case GDK_KEY_Page_Down, GDK_KEY_KP_Page_Down, GDK_KEY_Right, GDK_KEY_Down, GDK_KEY_space, GDK_KEY_KP_Right, GDK_KEY_KP_Down:
            turn(by: 1)
        case GDK_KEY_Page_Up, GDK_KEY_KP_Page_Up, GDK_KEY_Left, GDK_KEY_Up, GDK_KEY_BackSpace, GDK_KEY_KP_Left, GDK_KEY_KP_Up:
            turn(by: -1)
        case GDK_KEY_Home: w.session.showPage(0)
        case GDK_KEY_End: w.session.showPage(w.session.document.pages.count - 1)
        case GDK_KEY_Escape: stop()
        case GDK_KEY_F5: break
        case GDK_KEY_k: w.perform(.tool(.laser))
        default: return false
        }
        return true
    }

    private func turn(by step: Int) {
        guard let w = window else { return }
        w.session.showPage(w.session.currentPage + step)
    }

    /// The page shown, in the bar ("3 / 12"), whenever it changes while presenting.
    func showPage() {
        guard isOn, let w = window else { return }
        Widgets.setLabel(pageLabel, "\(w.session.currentPage + 1) / \(w.session.document.pages.count)")
    }

    /// The pointer moved: the bar shows, and hides again once it rests.
    func pointerMoved() {
        guard isOn else { return }
        showBar()
    }

    func showTool(_ tool: Tool) {
        syncing = true
        defer { syncing = false }
        if let b = toolButtons[tool] { Widgets.setActive(b, true) } else { for b in toolButtons.values { Widgets.setActive(b, false) } }
    }

    private func showBar() {
        bar.setVisible(true)
        stopTimer(&hideTimer)
        hideTimer = every(milliseconds: Self.barLinger) { [weak self] in
            self?.hideTimer = 0
            self?.hideBar()
            return false
        }
    }

    private func hideBar() {
        stopTimer(&hideTimer)
        bar.setVisible(false)
    }
}
