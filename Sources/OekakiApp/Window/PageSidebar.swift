import InkCore
import Localization

/// The sidebar (F9): two tabs, the page previews and the PDF's outline. Hidden until asked for; the window wires
/// what a click, a drag or a menu item does (`MainWindow+Sidebar.swift`).
final class PageSidebar {
    static let width = 190

    let widget = Widgets.box(horizontal: false, spacing: 4)
    let pages: PagePreviewList
    let outline = OutlineList()
    /// The user's choice; presenting hides the sidebar without changing it.
    private(set) var isShown = false

    init(session: DocumentSession) {
        pages = PagePreviewList(session: session)
        let tabs = Widgets.stack([(name: "pages", title: localized("Pages"), tip: localized("Every page: a click goes there, a drag moves it, a right-click adds or deletes"), child: pages.widget),
                                  (name: "outline", title: localized("Outline"), tip: localized("The PDF's bookmarks: a click goes to the place"), child: outline.widget)])
        tabs.switcher.setMargins(start: 6, end: 6, top: 6)
        tabs.stack.expand()
        Widgets.append(widget, tabs.switcher, tabs.stack)
        widget.setSizeRequest(width: Self.width, height: -1)
        // The previews expand to fill the sidebar, not the window.
        widget.setHExpand(false)
        widget.addCSSClass("sidebar")
        widget.setVisible(false)
    }

    func toggle() {
        isShown.toggle()
        widget.setVisible(isShown)
    }
}
