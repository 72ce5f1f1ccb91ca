/// A document: an ordered list of pages, never empty. Stroke ids and page ids are unique in the whole document
/// and never reused, so an edit names what it touches no matter which page it is on.
public struct Document: Sendable {
    public internal(set) var pages: [Page]
    /// The id the next new stroke gets.
    public private(set) var nextStrokeID: StrokeID = 1
    /// The id the next new page gets.
    public private(set) var nextPageID: PageID = 1
    /// The bytes of every image and PDF the document refers to, once per distinct content. Never pruned while
    /// the document is open: an undo may bring back an item that names a file no page shows any more.
    public var files: [ContentHash: [UInt8]] = [:]

    /// A document of these pages in order; none gives a new drawing (one endless plain page).
    public init(pages: [Page] = []) {
        self.pages = pages.isEmpty ? [Page()] : pages
        for p in self.pages { reserve(p) }
    }

    /// A one-page document holding `drawing`, by default on a fixed page of the drawing's size and paper colour
    /// (what every drawing was before pages).
    public init(drawing: Drawing, format: PageFormat? = nil) {
        let f = format ?? .fixed(drawing.pageSize, Background(paper: drawing.background))
        self.init(pages: [Page(format: f, drawing: drawing)])
    }

    public var strokeCount: Int { pages.reduce(0) { $0 + $1.strokeCount } }
    public var pointCount: Int { pages.reduce(0) { $0 + $1.pointCount } }

    /// Index of the page with this id (a scan: documents hold hundreds of pages, not millions).
    public func index(of id: PageID) -> Int? { pages.firstIndex { $0.id == id } }
    public func page(_ id: PageID) -> Page? { index(of: id).map { pages[$0] } }

    /// Embeds `bytes` (once per distinct content) and returns their name. Bytes of a file a shared board named
    /// before they arrived (held empty meanwhile) take its place.
    @discardableResult
    public mutating func addFile(_ bytes: [UInt8]) -> ContentHash {
        let h = ContentHash(of: bytes)
        if files[h]?.isEmpty != false { files[h] = bytes }
        return h
    }

    /// Every file the pages, and the strokes `extra` (e.g. the history's), refer to.
    public func referencedFiles(including extra: [Stroke] = []) -> Set<ContentHash> {
        var out = Set<ContentHash>()
        for p in pages {
            out.formUnion(p.background.files)
            for s in p.strokes { if let i = s.content.image { out.formUnion(i.files) } }
        }
        for s in extra { if let i = s.content.image { out.formUnion(i.files) } }
        return out
    }

    /// A new stroke id of `source`'s lane, above every id and drawing order the document has seen (its order is
    /// its id, so it draws on top).
    public mutating func makeStrokeID(in source: IDSource = .alone) -> StrokeID {
        let id = source.first(atOrAbove: nextStrokeID)
        reserveStrokeIDs(through: id)
        return id
    }

    /// A new page (or layer) id of `source`'s lane.
    public mutating func makePageID(in source: IDSource = .alone) -> PageID {
        let id = source.first(atOrAbove: nextPageID)
        reservePageIDs(through: id)
        return id
    }

    /// Lets a loader continue numbering after ids it found elsewhere (history may hold removed strokes and pages).
    public mutating func reserveStrokeIDs(through id: StrokeID) { if id >= nextStrokeID { nextStrokeID = id + 1 } }
    public mutating func reservePageIDs(through id: PageID) { if id >= nextPageID { nextPageID = id + 1 } }

    private mutating func reserve(_ p: Page) {
        reservePageIDs(through: p.id)
        // Layer ids come from the page counter.
        for l in p.layers { reservePageIDs(through: l.id) }
        reserveStrokeIDs(through: p.nextStrokeID - 1)
    }

    /// Applies an edit forward: the only code that changes a document for an edit. The editor (perform, undo as
    /// the inverse, redo), the file, a board's replica and the edits followed from a board all call it. It is total: an edit naming a page that is not there, or a place out of range,
    /// changes nothing (a stored history is untrusted), and the last page is never taken away.
    public mutating func apply(_ edit: Edit) {
        switch edit {
        case .add, .remove, .replace, .clear, .transform:
            guard let id = edit.strokePage, let i = index(of: id) else { return }
            for s in edit.added { reserveStrokeIDs(through: s.claimedID) }
            pages[i].apply(edit)
        case .addPage(let p, let at):
            guard index(of: p.id) == nil else { return }
            pages.insert(p, at: min(max(at, 0), pages.count))
            reserve(p)
        case .deletePage(let p, let at):
            guard pages.count > 1 else { return }
            if at >= 0, at < pages.count, pages[at].id == p.id { pages.remove(at: at) } else if let i = index(of: p.id) { pages.remove(at: i) }
        case .movePage(let from, let to):
            guard pages.indices.contains(from), pages.indices.contains(to), from != to else { return }
            pages.insert(pages.remove(at: from), at: to)
        case .setFormat(let changes):
            for c in changes { if let i = index(of: c.page) { pages[i].format = c.to } }
        case .layers(let steps):
            for st in steps {
                guard let i = index(of: st.page) else { continue }
                if case .add(_, let l, _) = st {
                    reservePageIDs(through: l.id)
                    for s in l.drawing.strokes { reserveStrokeIDs(through: s.claimedID) }
                }
                pages[i].apply(st)
            }
        }
    }
}
