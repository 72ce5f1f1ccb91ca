import XCTest
@testable import InkCore

/// Matching as a reader expects (case, accents, widths, Japanese, line ends), where hits are, and the outline
/// placed on a document's pages.
final class TextSearchTests: XCTestCase {
    func found(_ query: String, in text: String) -> [String] {
        TextMatcher(query).matches(in: text).map { m in
            let s = Array(text.unicodeScalars)
            return String(String.UnicodeScalarView(s[m.scalars]))
        }
    }

    func testCaseAccentsAndWidthAreIgnored() {
        XCTAssertEqual(found("wombat", in: "A WOMBAT and a Wombat."), ["WOMBAT", "Wombat"])
        XCTAssertEqual(found("cafe", in: "Le Café, le CAFÉ"), ["Café", "CAFÉ"])
        XCTAssertEqual(found("café", in: "cafe"), ["cafe"])
        XCTAssertEqual(found("strasse", in: "Die Straße"), ["Straße"])
        XCTAssertEqual(found("ΣΟΦΟΣ", in: "σοφος"), ["σοφος"])
        XCTAssertEqual(found("ＡＢＣ１２", in: "abc12"), ["abc12"])
        XCTAssertEqual(found("abc", in: "ＡＢＣ"), ["ＡＢＣ"])
        // A decomposed é (e + U+0301) is one character: the hit covers both scalars.
        XCTAssertEqual(found("cafe", in: "cafe\u{301}!"), ["cafe\u{301}"])
    }

    func testJapanese() {
        XCTAssertEqual(found("日本語", in: "これは日本語のテストです"), ["日本語"])
        // Half-width katakana, voiced marks included, find full-width.
        XCTAssertEqual(found("ｶﾞｲﾄﾞ", in: "旅行ガイドブック"), ["ガイド"])
        XCTAssertEqual(found("ガイド", in: "ｶﾞｲﾄﾞです"), ["ｶﾞｲﾄﾞ"])
        // Voicing is meaning: か is not が, and が is not か.
        XCTAssertEqual(found("か", in: "がぎぐ"), [])
        XCTAssertEqual(found("が", in: "かきく"), [])
        // The ideographic space is a space.
        XCTAssertEqual(found("東京 タワー", in: "東京　タワー"), ["東京　タワー"])
    }

    func testLineEndsAndSpaces() {
        XCTAssertEqual(found("second wombat", in: "the second\nwombat"), ["second\nwombat"])
        XCTAssertEqual(found("  wombat  ", in: "a wombat"), ["wombat"])
        XCTAssertTrue(TextMatcher("  \n ").isEmpty)
        XCTAssertEqual(found("x", in: ""), [])
    }

    func testSnippetHasFortyCharactersEitherSide() {
        let text = String(repeating: "a", count: 60) + " needle " + String(repeating: "b", count: 60)
        let m = TextMatcher("NEEDLE").matches(in: text)
        XCTAssertEqual(m.count, 1)
        XCTAssertEqual(m[0].snippet, String(repeating: "a", count: 39) + " needle " + String(repeating: "b", count: 39))
        XCTAssertEqual(TextMatcher("x").matches(in: "a\n\n  x").first?.snippet, "a x")
    }

    func testMatchesDoNotOverlap() {
        XCTAssertEqual(found("aa", in: "aaaaa").count, 2)
    }

    func testPDFHitsAreBoxedAndStretchedOntoThePage() {
        // "ab cd" with a 10-point box per character on a 100×100 PDF page shown on a 200×100 page.
        let text = "ab\ncd"
        let boxes = (0..<5).map { i in Rect(x: Double(i) * 10, y: 20, width: 10, height: 12) }
        let pdf = PDFPageText(text: text, boxes: boxes, size: Size(width: 100, height: 100))
        let ref = PDFPageRef(file: ContentHash(of: [1, 2, 3]), index: 0)
        let page1 = Page(id: 1, format: .fixed(Size(width: 200, height: 100), Background(pdf: ref)))
        let box = Stroke(id: 7, content: .text(TextBox(text: "Notes: B C D")), frame: Rect(x: 10, y: 50, width: 80, height: 20), page: 2)
        let page2 = Page(id: 2, format: .fixed(Size(width: 100, height: 100)), drawing: Drawing(strokes: [box]))
        let doc = Document(pages: [page1, page2])
        let hits = DocumentSearch.hits(in: doc, matcher: TextMatcher("B C"), textRects: { _, _ in [] }) { $0 == ref ? pdf : nil }
        XCTAssertEqual(hits.count, 2)
        XCTAssertEqual(hits[0].page, 0)
        XCTAssertEqual(hits[0].kind, .pdf)
        XCTAssertEqual(hits[0].text, "ab cd")
        // Characters 1 ("b") and 3 ("c"), the line end left out, x doubled.
        XCTAssertEqual(hits[0].bounds, Rect(minX: 20, minY: 20, maxX: 80, maxY: 32))
        XCTAssertEqual(hits[1].page, 1)
        XCTAssertEqual(hits[1].kind, .text)
        XCTAssertEqual(hits[1].item, 7)
        XCTAssertEqual(hits[1].bounds, Rect(x: 10, y: 50, width: 80, height: 20))
        XCTAssertEqual(DocumentSearch.hits(in: doc, matcher: TextMatcher("zebra"), textRects: { _, _ in [] }) { _ in pdf }, [])
    }

    func testHitsOnAPageComeInReadingOrder() {
        // The PDF's two lines "cat one" (y 20) and "cat two" (y 60); text boxes added in an order unlike their
        // places: one below everything, one on the PDF's first line to its right, one between the lines, and
        // one above all (its two hits on one line).
        let text = "cat one\ncat two"
        let boxes = (0..<15).map { i in Rect(x: Double(i % 8) * 10, y: i < 8 ? 20 : 60, width: 10, height: 12) }
        let pdf = PDFPageText(text: text, boxes: boxes, size: Size(width: 300, height: 200))
        let ref = PDFPageRef(file: ContentHash(of: [4]), index: 0)
        func box(_ id: StrokeID, _ text: String, x: Double, y: Double) -> Stroke {
            Stroke(id: id, content: .text(TextBox(text: text)), frame: Rect(x: x, y: y, width: 90, height: 14), page: 1)
        }
        let items = [box(1, "cat below", x: 10, y: 150), box(2, "cat right", x: 200, y: 19),
                     box(3, "cat between", x: 0, y: 40), box(4, "cat cat", x: 5, y: 2)]
        let doc = Document(pages: [Page(id: 1, format: .fixed(Size(width: 300, height: 200), Background(pdf: ref)), drawing: Drawing(strokes: items))])
        let hits = DocumentSearch.hits(in: doc, matcher: TextMatcher("CAT"), textRects: { _, r in
            [Rect(x: Double(r.lowerBound) * 6, y: 0, width: 18, height: 14)]
        }) { _ in pdf }
        XCTAssertEqual(hits.map(\.text), ["cat cat", "cat cat", "cat one cat two", "cat right", "cat between", "cat one cat two", "cat below"])
        XCTAssertEqual(hits.map(\.kind), [.text, .text, .pdf, .text, .text, .pdf, .text])
        XCTAssertEqual(hits.map(\.bounds.minX), [5, 29, 0, 200, 0, 0, 10])
    }

    func testTextBoxHitsCoverTheirCharactersWhereTheItemIsShown() {
        // The box drawn at (10, 50), moved 100 to the right; its layout puts the matched characters on two lines.
        let box = Stroke(id: 7, content: .text(TextBox(text: "Notes: B C D")), frame: Rect(x: 10, y: 50, width: 80, height: 40),
                         page: 1, transform: .translation(100, 0))
        let doc = Document(pages: [Page(id: 1, format: .fixed(Size(width: 300, height: 100)), drawing: Drawing(strokes: [box]))])
        var asked: [Range<Int>] = []
        let hits = DocumentSearch.hits(in: doc, matcher: TextMatcher("b c"), textRects: { b, r in
            asked.append(r)
            XCTAssertEqual(b.text, "Notes: B C D")
            return [Rect(minX: 40, minY: 0, maxX: 50, maxY: 12), Rect(minX: 0, minY: 12, maxX: 8, maxY: 24)]
        }) { _ in nil }
        XCTAssertEqual(asked, [7..<10], "the scalars of \"B C\"")
        XCTAssertEqual(hits.map(\.bounds), [Rect(minX: 110, minY: 50, maxX: 160, maxY: 74)])
        // A hit the layout cannot place covers the whole box.
        let unplaced = DocumentSearch.hits(in: doc, matcher: TextMatcher("notes"), textRects: { _, _ in [] }) { _ in nil }
        XCTAssertEqual(unplaced.map(\.bounds), [Rect(x: 110, y: 50, width: 80, height: 40)])
    }

    func testOutlineGoesToThePagesShowingItsPDFPages() {
        let hash = ContentHash(of: [9])
        func page(_ id: PageID, _ k: Int) -> Page { Page(id: id, format: .fixed(Size(width: 10, height: 10), Background(pdf: PDFPageRef(file: hash, index: k)))) }
        // PDF pages 0, 2, 1 in that order; PDF page 3 deleted.
        let doc = Document(pages: [page(1, 0), page(2, 2), page(3, 1)])
        let outline = [OutlineEntry(title: "One", page: 0, children: [OutlineEntry(title: "Two", page: 1)]),
                       OutlineEntry(title: "Gone", page: 3, children: [OutlineEntry(title: "Three", page: 2)])]
        XCTAssertEqual(Outline.pdf(of: doc), hash)
        XCTAssertEqual(Outline.forDocument(doc, pdf: hash, outline: outline),
                       [OutlineEntry(title: "One", page: 0, children: [OutlineEntry(title: "Two", page: 2)]),
                        OutlineEntry(title: "Three", page: 1)])
    }

    /// The section a page is in: the entry starting last on it or before it, in the sidebar's reading order.
    func testTheSectionOfAPageIsTheLastToStartByThen() {
        // 0 Preface (p. 0), 1 Chapter 1 (p. 2), 2 1.1 (p. 2, lower), 3 1.2 (p. 4), 4 Chapter 2 (p. 4, top 0),
        // 5 Index (p. 9); the outline lists an appendix out of page order: 6 Appendix (p. 7).
        let outline = [OutlineEntry(title: "Preface", page: 0),
                       OutlineEntry(title: "Chapter 1", page: 2, top: 50, children: [
                           OutlineEntry(title: "1.1", page: 2, top: 400), OutlineEntry(title: "1.2", page: 4, top: 300)]),
                       OutlineEntry(title: "Chapter 2", page: 4, top: 0),
                       OutlineEntry(title: "Index", page: 9),
                       OutlineEntry(title: "Appendix", page: 7)]
        let sections = (0..<11).map { Outline.section(onPage: $0, in: outline) }
        XCTAssertEqual(sections, [0, 0, 2, 2, 3, 3, 3, 6, 6, 5, 5])
        XCTAssertNil(Outline.section(onPage: 0, in: [OutlineEntry(title: "Late", page: 3)]), "before the first entry")
        XCTAssertNil(Outline.section(onPage: 5, in: []))
        // Two entries at the same place: the later in the outline (a chapter's first section under its title).
        XCTAssertEqual(Outline.section(onPage: 1, in: [OutlineEntry(title: "Part", page: 1, children: [OutlineEntry(title: "Chapter", page: 1)])]), 1)
    }
}

/// Selecting a PDF page's text as a viewer does, and highlighting it with strokes covering exactly its lines.
final class PDFTextSelectionTests: XCTestCase {
    /// "ab cd" on a line at y 10…20 and "ef gh" on the next at y 30…40, 10 points a character.
    let page: PDFPageText = {
        let text = "ab cd\nef gh"
        let boxes = text.unicodeScalars.enumerated().map { i, _ -> Rect in
            i < 6 ? Rect(x: Double(i) * 10, y: 10, width: 10, height: 10) : Rect(x: Double(i - 6) * 10, y: 30, width: 10, height: 10)
        }
        return PDFPageText(text: text, boxes: boxes, size: Size(width: 100, height: 100))
    }()

    func testADragSelectsInReadingOrder() throws {
        let sel = try XCTUnwrap(PDFTextSelection(from: Point(15, 15), to: Point(25, 35), in: page))
        XCTAssertEqual(sel.text(in: page), "b cd\nef ")
        // Backwards is the same selection.
        XCTAssertEqual(PDFTextSelection(from: Point(25, 35), to: Point(15, 15), in: page), sel)
        // Beside a line (right of its end) picks that line's last character, not the next line's.
        XCTAssertEqual(PDFTextSelection(from: Point(0, 12), to: Point(90, 18), in: page)?.text(in: page), "ab cd")
        XCTAssertNil(PDFTextSelection(from: Point(0, 0), to: Point(1, 1), in: PDFPageText(text: "", boxes: [], size: Size(width: 1, height: 1))))
    }

    func testHighlightCoversExactlyTheSelectedLines() throws {
        let sel = try XCTUnwrap(PDFTextSelection(from: Point(15, 15), to: Point(25, 35), in: page))
        XCTAssertEqual(sel.lineBoxes(in: page), [Rect(minX: 10, minY: 10, maxX: 50, maxY: 20), Rect(minX: 0, minY: 30, maxX: 20, maxY: 40)])
        // On a page twice as wide as the PDF page.
        let strokes = sel.highlight(in: page, frame: Rect(x: 0, y: 0, width: 200, height: 100), firstID: 10, pageID: 3)
        XCTAssertEqual(strokes.count, 2)
        XCTAssertEqual(strokes.map(\.id), [10, 11])
        XCTAssertEqual(strokes.map(\.page), [3, 3])
        for s in strokes {
            XCTAssertEqual(s.style.tool, .highlighter)
            XCTAssertEqual(s.style.cap, .butt, "no round ends past the line")
            XCTAssertEqual(s.style.trace, .polyline)
            XCTAssertEqual(s.style.width, 10)
        }
        XCTAssertEqual(strokes[0].points.map { [$0.x, $0.y] }, [[20, 15], [100, 15]])
        XCTAssertEqual(strokes[1].points.map { [$0.x, $0.y] }, [[0, 35], [40, 35]])
    }
}
