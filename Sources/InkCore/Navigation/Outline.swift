/// A PDF's outline (its bookmarks, a table of contents) as a tree: each entry a title and the page it goes to.
public struct OutlineEntry: Equatable, Sendable {
    public var title: String
    /// 0-based page: of the PDF as the reader gives it, of the document once `Outline.forDocument` placed it.
    public var page: Int
    /// Where on that page it goes (page units from the top), when the PDF says.
    public var top: Double?
    public var children: [OutlineEntry]

    public init(title: String, page: Int, top: Double? = nil, children: [OutlineEntry] = []) {
        self.title = title; self.page = page; self.top = top; self.children = children
    }

    /// Entries in the tree, this one included.
    public var count: Int { 1 + children.reduce(0) { $0 + $1.count } }
}

public enum Outline {
    /// The embedded PDF the document shows first, whose outline is the document's.
    public static func pdf(of document: Document) -> ContentHash? {
        document.pages.lazy.compactMap(\.background.pdf?.file).first
    }

    /// The outline of `pdf` (entries naming its pages) turned into one naming the document's pages: each entry goes
    /// to the first page showing its PDF page (pages may have been moved, deleted or added since the import).
    /// An entry whose PDF page no page shows is left out, its children taking its place.
    public static func forDocument(_ document: Document, pdf: ContentHash, outline: [OutlineEntry]) -> [OutlineEntry] {
        var pageOf: [Int: Int] = [:]
        for (k, p) in document.pages.enumerated() {
            if let ref = p.background.pdf, ref.file == pdf, pageOf[ref.index] == nil { pageOf[ref.index] = k }
        }
        func place(_ entries: [OutlineEntry]) -> [OutlineEntry] {
            entries.flatMap { e -> [OutlineEntry] in
                let children = place(e.children)
                guard let k = pageOf[e.page] else { return children }
                return [OutlineEntry(title: e.title, page: k, top: e.top, children: children)]
            }
        }
        return place(outline)
    }

    /// The section page `page` is in, as a running head names it: of the entries going to `page` or before, the
    /// one that starts last (its page, then its place on it, then the later in the outline); its index in the
    /// outline's reading order (depth first, as the sidebar lists it), nil before the first entry's page.
    public static func section(onPage page: Int, in entries: [OutlineEntry]) -> Int? {
        var best: (index: Int, page: Int, top: Double)?
        var index = 0
        func visit(_ entries: [OutlineEntry]) {
            for e in entries {
                let top = e.top ?? 0
                if e.page <= page, best.map({ (e.page, top) >= ($0.page, $0.top) }) ?? true { best = (index, e.page, top) }
                index += 1
                visit(e.children)
            }
        }
        visit(entries)
        return best?.index
    }
}
