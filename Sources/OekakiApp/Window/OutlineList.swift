import InkCore
import Localization

/// The sidebar's outline tab: the PDF's bookmarks as an indented tree, each a button going to its page; the
/// section the current page is in is marked (and scrolled into view), as a PDF reader marks it.
final class OutlineList {
    /// More entries than this are not listed (a list of buttons; PDFs with a longer outline are rare).
    static let maxShown = 2_000

    let widget: Widget
    private let list = Widgets.box(horizontal: false, spacing: 0)
    var onGo: ((OutlineEntry) -> Void)?
    /// The PDF's own outline (its pages), placed again on the document's pages when they move.
    var pdfOutline: (file: ContentHash, entries: [OutlineEntry])?
    /// The entries shown and their rows, in reading order; the marked one.
    private var entries: [OutlineEntry] = []
    private var rows: [Widget] = []
    private var marked: Int?

    init() {
        widget = Widgets.scrolled(list)
        widget.expand()
        show([])
        // Pages turned while the outline was hidden: its marked row comes into view when it shows.
        widget.onShown { [weak self] in
            guard let self, let m = self.marked else { return }
            self.widget.scrollToShow(self.rows[m])
        }
    }

    /// Shows `entries` (pages of the document), or a line saying there is no outline.
    func show(_ entries: [OutlineEntry]) {
        while let child = list.firstChild { list.removeChild(child) }
        self.entries = entries
        rows = []
        marked = nil
        guard !entries.isEmpty else {
            let none = Widgets.label(localized("This document has no outline."))
            none.addCSSClass("dim-label")
            none.setMargins(start: 12, end: 12, top: 12)
            Widgets.append(list, none)
            return
        }
        var shown = 0
        func add(_ entries: [OutlineEntry], depth: Int) {
            for e in entries {
                guard shown < Self.maxShown else { return }
                shown += 1
                let label = Widgets.ellipsized(e.title)
                label.setHExpand(true)
                let number = Widgets.label(String(e.page + 1))
                number.addCSSClass("dim-label")
                let row = Widgets.box(spacing: 6)
                Widgets.append(row, label, number)
                let index = rows.count
                let item = Widgets.flatButton(row, tooltip: e.title) { [weak self] in
                    self?.onGo?(e)
                    self?.mark(index)
                }
                item.setMargins(start: 4 + 14 * min(depth, 8))
                Widgets.append(list, item)
                rows.append(item)
                add(e.children, depth: depth + 1)
            }
        }
        add(entries, depth: 0)
    }

    /// Marks the section page `page` is in (`Outline.section`).
    func follow(page: Int) {
        mark(Outline.section(onPage: page, in: entries))
    }

    /// Marks row `index` (a click marks the entry clicked, even where another starts on the same page).
    private func mark(_ index: Int?) {
        let index = index.flatMap { rows.indices.contains($0) ? $0 : nil }
        guard index != marked else { return }
        if let m = marked { rows[m].removeCSSClass("current-section") }
        marked = index
        guard let m = index else { return }
        rows[m].addCSSClass("current-section")
        widget.scrollToShow(rows[m])
    }
}
