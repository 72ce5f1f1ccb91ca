import CGtk
import InkCore
import Localization

/// The search bar (Ctrl+F), floating at the top right of the canvas: the query, "3 of 17", previous, next and
/// close. Enter goes to the next hit, Shift+Enter to the previous one, Escape closes. It holds the hits the
/// window's search found; the window searches and the canvas marks them.
final class SearchBar {
    let widget = Widgets.box(spacing: 4)
    private(set) var entry: Widget!
    private let count = Widgets.label("")
    /// The hits so far in page order, the current one, and whether the search is still going.
    private(set) var hits: [SearchHit] = []
    private(set) var current: Int?
    private(set) var searching = false

    var onQuery: ((String) -> Void)?
    /// +1: the next hit, −1: the previous one.
    var onStep: ((Int) -> Void)?
    var onClose: (() -> Void)?

    init() {
        entry = Widgets.searchEntry(placeholder: localized("Find in text and PDF")) { [weak self] in self?.onQuery?($0) }
        entry.setSizeRequest(width: 220, height: -1)
        let previous = Widgets.button(icon: "go-up-symbolic", tooltip: localized("Previous hit (Shift+Enter)")) { [weak self] in self?.onStep?(-1) }
        let next = Widgets.button(icon: "go-down-symbolic", tooltip: localized("Next hit (Enter)")) { [weak self] in self?.onStep?(1) }
        let close = Widgets.button(icon: "window-close-symbolic", tooltip: localized("Close the search (Escape)")) { [weak self] in self?.onClose?() }
        count.setSizeRequest(width: 90, height: -1)
        count.addCSSClass("dim-label")
        Widgets.append(widget, entry, count, previous, next, close)
        widget.addCSSClass("toolbar")
        widget.addCSSClass("osd")
        widget.alignTopEnd()
        widget.setMargins(end: 12, top: 12)
        widget.setVisible(false)
        entry.onKeys { [weak self] key in
            guard let self else { return false }
            switch Int32(bitPattern: key.keyval) {
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_ISO_Enter:
                self.onStep?(key.shift ? -1 : 1); return true
            case GDK_KEY_Escape:
                self.onClose?(); return true
            default:
                return false
            }
        }
    }

    var isOpen: Bool { widget.isVisible }

    func open() {
        widget.setVisible(true)
        entry.grabFocus()
        Widgets.selectAllText(entry)
    }

    func close() { widget.setVisible(false) }

    var query: String { entry.text }

    /// A new search started: no hits yet.
    func restart(searching: Bool) {
        hits = []; current = nil; self.searching = searching
        showCount()
    }

    /// More hits, in page order among themselves: they go to their pages' places (a search that began at the
    /// current page finds the earlier pages last), the current hit staying current.
    func add(_ more: [SearchHit]) {
        guard let page = more.first?.page else { return }
        let at = hits.firstIndex { $0.page > page } ?? hits.count
        hits.insert(contentsOf: more, at: at)
        if let c = current, c >= at { current = c + more.count }
        showCount()
    }

    func finish() { searching = false; showCount() }

    /// The same query's hits in the document as edited: the current hit stays current where it is still found
    /// (same page, box and words), else the one now at its place; the count follows.
    func replace(with new: [SearchHit]) {
        let old = current.map { (index: $0, hit: hits[$0]) }
        hits = new
        searching = false
        if let old, !new.isEmpty {
            current = new.firstIndex { $0.page == old.hit.page && $0.item == old.hit.item && $0.text == old.hit.text && $0.kind == old.hit.kind }
                ?? min(old.index, new.count - 1)
        } else {
            current = nil
        }
        showCount()
    }

    /// The first hit from the place in view on, `top` on page `page` (its units): on that page not above `top`, or on
    /// a later page, made current; when there is none, the first of all if `wrapping`. Nil when none was made current.
    func stepToFirst(from page: Int, below top: Double, wrapping: Bool) -> SearchHit? {
        guard let i = hits.firstIndex(where: { $0.page > page || ($0.page == page && $0.bounds.maxY >= top) })
                ?? (wrapping && !hits.isEmpty ? 0 : nil) else { return nil }
        current = i
        showCount()
        return hits[i]
    }

    /// The current hit moved by `delta` (wrapping), or the first when none was current; nil when there are none.
    func step(_ delta: Int) -> SearchHit? {
        guard !hits.isEmpty else { return nil }
        let n = hits.count
        current = current.map { (($0 + delta) % n + n) % n } ?? (delta < 0 ? n - 1 : 0)
        showCount()
        return current.map { hits[$0] }
    }

    private func showCount() {
        let text: String
        if hits.isEmpty {
            text = searching ? localized("Searching…") : query.isEmpty ? "" : localized("No hits")
        } else if let c = current {
            text = localized("{0} of {1}", String(c + 1), String(hits.count)) + (searching ? "…" : "")
        } else {
            text = localizedPlural("%d hit", "%d hits", hits.count) + (searching ? "…" : "")
        }
        Widgets.setLabel(count, text)
    }
}
