import Foundation
import Commands
import Localization
import InkCore
import InkPDF
import InkRender
import InkStore

/// `oekaki search FILE QUERY`: where QUERY occurs in a `.oekaki`, `.xopp` or PDF, as one JSON array in page order:
/// `[{"page":K,"kind":"pdf"|"text","text":"…","bounds":[x0,y0,x1,y1]},…]`, `[]` when nowhere. PDF pages' text
/// comes from poppler with a box per character, a text box's from Pango's layout as it is drawn (`TextPainter`);
/// the matching is `TextMatcher`'s (case, accents, widths).
enum SearchCommand {
    static let usage = Usage("oekaki search FILE QUERY", localized("print where QUERY occurs (text boxes, PDF text) as JSON"))

    static func run(_ args: [String]) throws {
        let a = try Arguments(args, command: "search", options: [])
        let files = try a.files(2, missing: localized("search: missing FILE or QUERY"))
        let matcher = TextMatcher(files[1])
        guard !matcher.isEmpty else { throw CommandFailure.usage(localized("search: QUERY is empty")) }
        let loaded = try DocumentArguments.load(files[0], page: nil)
        let document = loaded.document
        let pdfs = PDFSources()
        let hits = DocumentSearch.hits(in: document, matcher: matcher, textRects: TextPainter.rects) { ref in
            pdfs.source(ref.file, in: document.files)?.textLayout(page: ref.index)
        }
        print(json(hits))
    }

    static func json(_ hits: [SearchHit]) -> String {
        guard !hits.isEmpty else { return "[]" }
        return "[\n" + hits.map { h in
            "{\"page\":\(h.page + 1),\"kind\":\(JSONText.string(h.kind.rawValue)),\"text\":\(JSONText.string(h.text)),\"bounds\":\(JSONText.rect(thousandths(h.bounds)))}"
        }.joined(separator: ",\n") + "\n]"
    }

    /// Rounded outwards to a thousandth of a point, so the box still covers the words and prints short
    /// (PDF text boxes are sums of glyph advances: 390.40608460000004).
    static func thousandths(_ r: Rect) -> Rect {
        Rect(minX: (r.minX * 1000).rounded(.down) / 1000, minY: (r.minY * 1000).rounded(.down) / 1000,
             maxX: (r.maxX * 1000).rounded(.up) / 1000, maxY: (r.maxY * 1000).rounded(.up) / 1000)
    }
}
