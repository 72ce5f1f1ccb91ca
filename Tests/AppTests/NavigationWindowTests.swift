import Foundation
import InkCore
import InkSamples
import InkStore
import XCTest
import TestSupport

/// Finding one's way in the real window under its own Xvfb: Ctrl+F marks every hit of a PDF's text on its page
/// and Enter / Shift+Enter move the current one; F9's page sidebar marks the current page, goes to a page
/// clicked, and moves a page dragged (stored, and undone by Ctrl+Z); PDF text selected, copied and highlighted.
final class NavigationWindowTests: WindowTestCase {
    /// Three 400×200 pages; page k has the sample's blue band and says "Numbat page k" at y ≈ 105…124.
    func writePaper() throws -> (pdf: URL, document: String) {
        let pdf = home.appendingPathComponent("paper.pdf")
        try Data(SamplePDF.make(pageCount: 3, size: Size(width: 400, height: 200)) { "Numbat page \($0 + 1)" }).write(to: pdf)
        return (pdf, home.appendingPathComponent("paper.oekaki").path)
    }

    func waitForPDF() throws {
        _ = try waitFor(seconds: 10) { s in self.paperCorner(s).map { s.isSampleBand($0.x + 140, $0.y + 55) } ?? false }
    }

    func testSearchMarksEveryHitAndSteps() throws {
        let paper = try writePaper()
        try launch(paper.pdf.path, title: "paper.oekaki")
        try waitForPDF()
        key("ctrl+f")
        usleep(300_000)
        xdotool(["type", "--delay", "40", "NUMBAT"])
        // The entry searches once typing pauses.
        usleep(700_000)
        // Three hits, one on each page, the first current (outlined); all three marked.
        let found = try waitFor(seconds: 5) { $0.hitOutline() != nil && $0.hitFills() >= 3 }
        let first = try XCTUnwrap(found.hitOutline(), "the current hit is outlined")
        XCTAssertGreaterThanOrEqual(found.hitFills(), 3, "every hit is marked")
        // Enter: the next hit, on page 2 (a page and a gap further down); Shift+Enter back.
        key("Return")
        let second = try waitFor { ($0.hitOutline()?.y ?? first.y) > first.y + 150 }
        let y2 = try XCTUnwrap(second.hitOutline()).y
        XCTAssertEqual(Double(y2 - first.y), 200 + PageLayout.gap, accuracy: 4, "the next hit is on page 2")
        key("shift+Return")
        let back = try waitFor { abs(($0.hitOutline()?.y ?? 0) - first.y) <= 2 }
        XCTAssertEqual(try XCTUnwrap(back.hitOutline()).y, first.y, accuracy: 2, "Shift+Enter goes back to the first")
        // Past the last hit, Enter wraps to the first.
        for _ in 0..<3 { key("Return"); usleep(200_000) }
        let wrapped = try waitFor { abs(($0.hitOutline()?.y ?? 0) - first.y) <= 2 }
        XCTAssertEqual(try XCTUnwrap(wrapped.hitOutline()).y, first.y, accuracy: 2, "three steps from the first come back to it")
        // Escape closes the bar and the marks go.
        key("Escape")
        let closed = try waitFor { $0.hitOutline() == nil && $0.hitFills() == 0 }
        XCTAssertNil(closed.hitOutline())
        XCTAssertEqual(closed.hitFills(), 0, "no marks once the search is closed")
    }

    /// A search begins where the user reads: on page 3 (End shows it at the top), the first hit shown is page 3's;
    /// the next wraps to page 1. Pages differ only in their number, so the words right of the hit say which page
    /// is shown.
    func testSearchBeginsAtThePageInView() throws {
        let paper = try writePaper()
        try launch(paper.pdf.path, title: "paper.oekaki")
        try waitForPDF()
        key("End")
        let atEnd = try waitFor { s in self.paperCorner(s).map { s.isSampleBand($0.x + 140, $0.y + 55) && $0.y < 150 } ?? false }
        let found = try searchShowingAHit("numbat")
        let hit = try XCTUnwrap(found.hitOutline(), "the current hit is outlined in view")
        // "page 3" right of "Numbat".
        func differences(_ a: Screenshot, _ b: Screenshot) -> Int {
            var n = 0
            for y in (hit.y - 10)..<(hit.y + 10) {
                for x in (hit.x + 50)..<(hit.x + 160) where a.pixel(x, y) != b.pixel(x, y) { n += 1 }
            }
            return n
        }
        XCTAssertEqual(differences(atEnd, found), 0, "page 3 is still shown: its hit came first")
        let wrapped = try nextHit { differences(found, $0) > 20 }
        XCTAssertGreaterThan(differences(found, wrapped), 20, "the next hit shows another page (page 1)")
        quit()
    }

    /// Ctrl+F and `query` typed: the screen once a hit is outlined.
    func searchShowingAHit(_ query: String) throws -> Screenshot {
        key("ctrl+f")
        usleep(300_000)
        xdotool(["type", "--delay", "40", query])
        return try waitFor(seconds: 5) { $0.hitOutline() != nil }
    }

    /// Enter: the screen once the next hit is outlined and `shown` holds.
    func nextHit(until shown: (Screenshot) -> Bool) throws -> Screenshot {
        key("Return")
        return try waitFor { $0.hitOutline() != nil && shown($0) }
    }

    /// And from the place in view on that page: scrolled to the bottom of a tall page, the hit there comes first (the
    /// view stays); the one at the page's top, above the view, comes after the wrap (the view moves up to it).
    func testSearchBeginsAtThePlaceInViewOnThePage() throws {
        let file = home.appendingPathComponent("tall.oekaki").path
        let above = Stroke(id: 1, content: .text(TextBox(text: "Numbat above", size: 20)), frame: Rect(x: 40, y: 40, width: 300, height: 30))
        let below = Stroke(id: 2, content: .text(TextBox(text: "Numbat below", size: 20)), frame: Rect(x: 40, y: 1500, width: 300, height: 30))
        let page = Page(id: Page.firstID, format: .fixed(Size(width: 400, height: 1600)), drawing: Drawing(strokes: [above, below]))
        try DocumentFile.create(path: file, document: Document(pages: [page])).close()
        try launch(file, title: "tall.oekaki")
        let left = try XCTUnwrap(paperCorner(try waitForPage())).x
        // Wheel down until the page's bottom edge is in view (the lower box with it, the upper one far above).
        xdotool(["mousemove", String(left + 200), "500"])
        func bottomEdge(_ s: Screenshot) -> Int? {
            // Well inside the window (its own border at its bottom is light too).
            (300..<680).first { s.isPaper(left + 370, $0) && s.isDesk(left + 370, $0 + 1) }
        }
        var scrolled = try screenshot()
        for _ in 0..<60 where bottomEdge(scrolled) == nil {
            xdotool(["click", "5"])
            usleep(150_000)
            scrolled = try screenshot()
        }
        XCTAssertNotNil(bottomEdge(scrolled), "scrolled to the page's bottom")
        // A column of the page right of the boxes, below the search bar: where the page ends shows where the view is.
        func moved(_ a: Screenshot, _ b: Screenshot) -> Int {
            (160..<700).filter { a.pixel(left + 370, $0) != b.pixel(left + 370, $0) }.count
        }
        let found = try searchShowingAHit("numbat")
        XCTAssertNotNil(found.hitOutline(), "the hit in view is outlined")
        XCTAssertEqual(moved(scrolled, found), 0, "the first hit shown is the one in view: the view stays")
        let wrapped = try nextHit { moved(scrolled, $0) > 0 }
        XCTAssertGreaterThan(moved(scrolled, wrapped), 0, "the next one, at the page's top, is above: the view moves")
        quit()
    }

    /// With the bar open, the hits follow edits: undoing the text box that held one takes its mark away and the
    /// other stays current; redo brings it back. The view does not jump.
    func testSearchHitsFollowEdits() throws {
        let file = home.appendingPathComponent("notes.oekaki").path
        let first = Stroke(id: 1, content: .text(TextBox(text: "Numbat notes", size: 20)), frame: Rect(x: 40, y: 40, width: 300, height: 30))
        let second = Stroke(id: 2, content: .text(TextBox(text: "A numbat again", size: 20)), frame: Rect(x: 40, y: 180, width: 300, height: 30))
        let page = Page(id: Page.firstID, format: .fixed(Size(width: 400, height: 300)), drawing: Drawing(strokes: [first, second]))
        // The second box is the last edit in the history, as if just typed.
        try DocumentFile.create(path: file, document: Document(pages: [page]), history: History(undo: [Edit.add([second])])).close()
        let report = home.appendingPathComponent("layout.txt")
        try launch(arguments: [file], title: "notes.oekaki", environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        let corner = try XCTUnwrap(paperCorner(try waitForPage()))
        key("ctrl+f")
        usleep(300_000)
        xdotool(["type", "--delay", "40", "numbat"])
        func marks(_ s: Screenshot, _ y: Int) -> Int { s.hitMarkPixels(x: (corner.x + 30)..<(corner.x + 360), y: (corner.y + y - 8)..<(corner.y + y + 40)) }
        let found = try waitFor(seconds: 5) { marks($0, 40) > 100 && marks($0, 180) > 100 }
        XCTAssertGreaterThan(marks(found, 40), 100, "the first box's hit is marked")
        XCTAssertGreaterThan(marks(found, 180), 100, "the second box's hit is marked")
        try clickControl(startingWith: "Undo", report: report)
        let undone = try waitFor(seconds: 5) { marks($0, 180) == 0 }
        XCTAssertEqual(marks(undone, 180), 0, "the undone box's hit is gone")
        XCTAssertGreaterThan(marks(undone, 40), 100, "the other hit stays")
        XCTAssertEqual(paperCorner(undone)?.y, corner.y, "the view stays")
        try clickControl(startingWith: "Redo", report: report)
        let redone = try waitFor(seconds: 5) { marks($0, 180) > 100 }
        XCTAssertGreaterThan(marks(redone, 180), 100, "redo brings the hit back")
        quit()
    }

    func testSidebarGoesToAPageAndMovesOne() throws {
        let paper = try writePaper()
        try launch(paper.pdf.path, title: "paper.oekaki")
        try waitForPDF()
        key("F9")
        // The current page (1) is framed in blue in the sidebar.
        let shown = try waitFor(seconds: 5) { $0.currentPageFrame() != nil }
        let row0 = try XCTUnwrap(shown.currentPageFrame(), "the sidebar marks the current page")
        XCTAssertLessThan(row0.x, 300, "the sidebar is at the window's left")
        let step = 176
        // A click on the third preview makes page 3 current.
        xdotool(["mousemove", String(row0.x), String(row0.y + 2 * step), "click", "1"])
        let clicked = try waitFor { abs(($0.currentPageFrame()?.y ?? 0) - (row0.y + 2 * step)) <= 3 }
        XCTAssertEqual(try XCTUnwrap(clicked.currentPageFrame()).y, row0.y + 2 * step, accuracy: 3, "page 3 is current")
        // Page 1 dragged below page 3: the order becomes 2, 3, 1.
        drag([(row0.x, row0.y), (row0.x, row0.y + 40), (row0.x, row0.y + 200), (row0.x, row0.y + 380), (row0.x, row0.y + 2 * step + 90)])
        usleep(800_000)
        quit()
        XCTAssertEqual(try pdfPages(paper.document), [1, 2, 0], "page 1 moved to the end")
        // One undoable edit: Ctrl+Z after reopening puts it back.
        try launch(paper.document, title: "paper.oekaki")
        key("ctrl+z")
        usleep(800_000)
        quit()
        XCTAssertEqual(try pdfPages(paper.document), [0, 1, 2], "undo moved it back")
    }

    /// A page dragged to the sidebar's bottom edge and held there scrolls the list, so it can be dropped past the
    /// rows in view: page 1 of 12 dropped at the end.
    func testSidebarScrollsWhileAPageIsHeldAtItsEdge() throws {
        let pdf = home.appendingPathComponent("long.pdf")
        try Data(SamplePDF.make(pageCount: 12, size: Size(width: 400, height: 200)) { "Numbat page \($0 + 1)" }).write(to: pdf)
        let document = home.appendingPathComponent("long.oekaki").path
        try launch(pdf.path, title: "long.oekaki")
        try waitForPDF()
        key("F9")
        let shown = try waitFor(seconds: 5) { $0.currentPageFrame() != nil }
        let row0 = try XCTUnwrap(shown.currentPageFrame(), "the sidebar marks the current page")
        // Down past the window's bottom (the drag keeps the pointer), held there, then dropped.
        let bottom = Self.screen.height - 4
        xdotool(["mousemove", String(row0.x), String(row0.y), "mousedown", "1"])
        for y in stride(from: row0.y + 20, through: bottom, by: 60) { xdotool(["mousemove", String(row0.x), String(y)]); usleep(30_000) }
        xdotool(["mousemove", String(row0.x), String(bottom)])
        usleep(4_000_000)
        xdotool(["mouseup", "1"])
        usleep(800_000)
        quit()
        XCTAssertEqual(try pdfPages(document), Array(1..<12) + [0], "page 1 dropped after page 12, out of view when the drag began")
        // The list's scrollbar was set up and scrolled outside GTK's snapshot of the window (inside it, GTK warns
        // that its slider has no allocation).
        let log = (try? String(contentsOf: appLog, encoding: .utf8)) ?? ""
        XCTAssertFalse(log.contains("without a current allocation"), "GTK warned:\n\(appLogTail())")
    }

    /// The outline tab lists the PDF's bookmarks; a click on one goes to its page, and to its place there: the
    /// place starts at the top of the view, as in a PDF reader, even when it was already in view lower down.
    func testOutlineGoesToThePlaceOfABookmark() throws {
        let pdf = home.appendingPathComponent("book.pdf")
        let outline = [OutlineEntry(title: "Page three", page: 2, children: [OutlineEntry(title: "The band of page three", page: 2, top: SamplePDF.band.minY)]),
                       OutlineEntry(title: "Page five", page: 4)]
        try Data(SamplePDF.make(pageCount: 5, size: Size(width: 400, height: 600), text: { "Numbat page \($0 + 1)" }, outline: outline)).write(to: pdf)
        let report = home.appendingPathComponent("layout.txt")
        try launch(arguments: [pdf.path], title: "book.oekaki", environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        try waitForPDF()
        key("F9")
        try clickControl(startingWith: "The PDF's bookmarks", report: report)
        // The sidebar hidden and shown again: the window reports the outline's rows.
        key("F9")
        usleep(400_000)
        key("F9")
        usleep(400_000)
        /// The top row and the height of the topmost blue band right of the sidebar.
        func band(_ s: Screenshot) -> (top: Int, height: Int)? {
            let rows = (0..<s.height).filter { y in stride(from: 260, to: s.width, by: 2).filter { s.isSampleBand($0, y) }.count >= 40 }
            guard let top = rows.first else { return nil }
            return (top, rows.prefix { $0 - top < 100 }.count)
        }
        try clickControl(startingWith: "Page three", report: report)
        let atPage = try waitFor { band($0) != nil }
        let pageBand = try XCTUnwrap(band(atPage), "page 3's band is in view")
        try clickControl(startingWith: "The band of page three", report: report)
        usleep(500_000)
        let atPlace = try waitFor { band($0).map { $0.top != pageBand.top } ?? false }
        let placeBand = try XCTUnwrap(band(atPlace))
        // Pixels per point from the band's height (30 points); the page's top sat 12 points below the view's top.
        let scale = Double(pageBand.height) / SamplePDF.band.height
        let viewTop = Double(pageBand.top) - (PageLayout.gap / 2 + SamplePDF.band.minY) * scale
        XCTAssertEqual(Double(placeBand.top), viewTop + 24, accuracy: 3, "the bookmark's place is at the top of the view")

        // The section the current page is in is marked in the outline: the entry clicked, then as pages turn, the
        // entry that starts last on the page or before it; none before the first.
        let rows = try ["Page three", "The band of page three", "Page five"].map { try waitForReportedControl(startingWith: $0) }
        func marked(_ s: Screenshot) -> [Bool] { rows.map { s.tint(x: $0[0]..<($0[0] + $0[2]), y: $0[1]..<($0[1] + $0[3])) > 12 } }
        XCTAssertEqual(marked(atPlace), [false, true, false], "the bookmark clicked")
        key("Home")
        XCTAssertEqual(marked(try waitFor { marked($0) == [false, false, false] }), [false, false, false], "page 1: before the first bookmark")
        key("End")
        XCTAssertEqual(marked(try waitFor { marked($0) == [false, false, true] }), [false, false, true], "page 5")
        key("ctrl+Page_Up")
        XCTAssertEqual(marked(try waitFor { marked($0) == [false, true, false] }), [false, true, false], "page 4: the last to start by then, on page 3")
        quit()
    }

    /// Pages turned while the outline is hidden: when it shows, the section of the page in view is marked and
    /// scrolled into view (40 bookmarks are taller than the sidebar).
    func testTheMarkedSectionComesIntoViewWhenTheOutlineShows() throws {
        let pdf = home.appendingPathComponent("long.pdf")
        let outline = (0..<40).map { OutlineEntry(title: "Section \($0 + 1)", page: $0) }
        try Data(SamplePDF.make(pageCount: 40, size: Size(width: 400, height: 200), text: { "Numbat page \($0 + 1)" }, outline: outline)).write(to: pdf)
        let report = home.appendingPathComponent("layout.txt")
        try launch(arguments: [pdf.path], title: "long.oekaki", environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        try waitForPDF()
        key("End")
        usleep(500_000)
        key("F9")
        try clickControl(startingWith: "The PDF's bookmarks", report: report)
        usleep(500_000)
        // Hidden and shown again, so the window reports the outline's rows where they are now.
        key("F9")
        usleep(400_000)
        key("F9")
        usleep(600_000)
        let row = try waitForReportedControl(startingWith: "Section 40")
        let shot = try screenshot()
        XCTAssertLessThanOrEqual(row[1] + row[3], shot.height, "the last section's row is in view")
        XCTAssertGreaterThan(shot.tint(x: row[0]..<(row[0] + row[2]), y: row[1]..<(row[1] + row[3])), 12, "and marked")
        quit()
    }

    func testSelectPDFTextCopyAndHighlight() throws {
        let paper = try writePaper()
        let report = home.appendingPathComponent("layout.txt")
        try launch(arguments: [paper.pdf.path], title: "paper.oekaki", environment: ["OEKAKI_LAYOUT_REPORT": report.path])
        try waitForPDF()
        let page = try XCTUnwrap(paperCorner(try screenshot()))
        try clickControl(startingWith: "Select PDF text", report: report)
        // Across "Numbat page 1" (x 40…≈160, y ≈ 105…124 on the page).
        let from = (page.x + 38, page.y + 112), to = (page.x + 185, page.y + 114)
        func select() {
            xdotool(["mousemove", "\(from.0)", "\(from.1)", "mousedown", "1"])
            for k in 1...6 { xdotool(["mousemove", "\(from.0 + (to.0 - from.0) * k / 6)", "\(to.1)"]) }
            xdotool(["mouseup", "1"])
            usleep(500_000)
        }
        select()
        // The menu under the pointer: Copy, then Highlight.
        xdotool(["mousemove", "\(to.0)", "\(to.1 + 43)", "click", "1"])
        usleep(400_000)
        if let xclip = AppWindowTests.tool("xclip") {
            let copied = try run(URL(fileURLWithPath: xclip), ["-o", "-selection", "clipboard"], stderr: false).output
            XCTAssertEqual(copied, "Numbat page 1", "Copy puts the selected text on the clipboard")
        }
        select()
        xdotool(["mousemove", "\(to.0)", "\(to.1 + 79)", "click", "1"])
        let lit = try waitFor { $0.yellowPixels(x: (page.x + 40)..<(page.x + 160), y: (page.y + 100)..<(page.y + 128)) > 500 }
        XCTAssertGreaterThan(lit.yellowPixels(x: (page.x + 40)..<(page.x + 160), y: (page.y + 100)..<(page.y + 128)), 500, "the line is highlighted")
        XCTAssertEqual(lit.yellowPixels(x: (page.x + 40)..<(page.x + 160), y: (page.y + 132)..<(page.y + 160)), 0, "only the line")
        XCTAssertEqual(lit.selectionFramePixels(x: page.x..<(page.x + 400), y: (page.y + 60)..<(page.y + 170)), 0, "the highlight is not left selected")
        usleep(700_000)
        quit()
        let stored = try DocumentFile.open(path: paper.document, readOnly: true)
        let strokes = stored.document.pages[0].strokes
        stored.close()
        XCTAssertEqual(strokes.count, 1, "one highlighter stroke over the one line")
        XCTAssertEqual(strokes.first?.style.tool, .highlighter)
        if let b = strokes.first?.bounds {
            XCTAssertEqual(b.minX, 40, accuracy: 3); XCTAssertGreaterThan(b.maxX, 160); XCTAssertLessThan(b.maxX, 190)
            XCTAssertGreaterThan(b.minY, 98); XCTAssertLessThan(b.maxY, 130)
        }
    }

    private func clickControl(startingWith prefix: String, report: URL) throws {
        let deadline = Date().addingTimeInterval(5)
        repeat {
            if let text = try? String(contentsOf: report, encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.split(separator: " ", maxSplits: 5).last?.hasPrefix(prefix) == true }) {
                let f = line.split(separator: " ").dropFirst().prefix(4).compactMap { Int($0) }
                if f.count == 4 {
                    xdotool(["mousemove", "\(f[0] + f[2] / 2)", "\(f[1] + f[3] / 2)", "click", "1"])
                    usleep(300_000)
                    return
                }
            }
            usleep(100_000)
        } while Date() < deadline
        XCTFail("no control \"\(prefix)…\" in the layout report")
        throw XCTSkip("no control")
    }

    func pdfPages(_ path: String) throws -> [Int?] {
        let stored = try DocumentFile.open(path: path, readOnly: true)
        defer { stored.close() }
        return stored.document.pages.map { $0.background.pdf?.index }
    }
}

extension Screenshot {
    func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        guard x >= 0, y >= 0, x < width, y < height, i + 2 < rgb.count else { return (255, 255, 255) }
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    /// `SamplePDF`'s blue band (0x20, 0x40, 0xc0).
    func isSampleBand(_ x: Int, _ y: Int) -> Bool {
        let c = pixel(x, y)
        return abs(c.r - 0x20) < 24 && abs(c.g - 0x40) < 24 && abs(c.b - 0xc0) < 24
    }

    /// The current hit's outline (orange, 217·77·0): the centre of its pixels, nil when none is shown.
    func hitOutline() -> (x: Int, y: Int)? {
        centre { c in abs(c.r - 217) < 20 && abs(c.g - 77) < 25 && c.b < 30 }
    }

    /// Pixels of hit marks on white paper (the current one's fill and the others'), in hundreds.
    func hitFills() -> Int {
        var n = 0
        for y in stride(from: 0, to: height, by: 1) {
            for x in stride(from: 0, to: width, by: 1) {
                let c = pixel(x, y)
                if c.r > 245, (190...230).contains(c.g), (130...195).contains(c.b) { n += 1 }
            }
        }
        return n / 100
    }

    /// Hit marks (fill or the current one's outline) in a region.
    func hitMarkPixels(x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y {
            for xx in x {
                let c = pixel(xx, yy)
                if (c.r > 245 && (190...230).contains(c.g) && (130...195).contains(c.b)) || (abs(c.r - 217) < 20 && abs(c.g - 77) < 25 && c.b < 30) { n += 1 }
            }
        }
        return n
    }

    /// How blue a region is on average (blue minus red): the outline's marked row is tinted with the theme's
    /// selection blue, the others are grey.
    func tint(x: Range<Int>, y: Range<Int>) -> Int {
        var sum = 0, n = 0
        for yy in y { for xx in x { let c = pixel(xx, yy); sum += c.b - c.r; n += 1 } }
        return n == 0 ? 0 : sum / n
    }

    /// The selection frame's blue (28·112·217: its dashes and handles).
    func selectionFramePixels(x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x { let c = pixel(xx, yy); if abs(c.r - 28) < 20, abs(c.g - 112) < 20, abs(c.b - 217) < 20 { n += 1 } } }
        return n
    }

    /// Highlighter yellow over white paper (255·230·0 at 40 %: 255·245·153).
    func yellowPixels(x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for yy in y { for xx in x { let c = pixel(xx, yy); if c.r > 235, c.g > 215, (120...185).contains(c.b) { n += 1 } } }
        return n
    }

    /// The sidebar's blue frame around the current page's preview (54·133·227): the centre of its pixels.
    func currentPageFrame() -> (x: Int, y: Int)? {
        centre { c in abs(c.r - 54) < 12 && abs(c.g - 133) < 12 && abs(c.b - 227) < 12 }
    }

    private func centre(_ matches: ((r: Int, g: Int, b: Int)) -> Bool) -> (x: Int, y: Int)? {
        var sx = 0, sy = 0, n = 0
        for y in 0..<height {
            for x in 0..<width where matches(pixel(x, y)) { sx += x; sy += y; n += 1 }
        }
        return n >= 20 ? (sx / n, sy / n) : nil
    }
}
