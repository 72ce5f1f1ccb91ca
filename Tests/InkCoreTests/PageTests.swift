import XCTest
@testable import InkCore

/// Pages: the document model and every page operation, done, undone and redone.
final class PageTests: XCTestCase {
    private let a4 = PageFormat.fixed(PagePreset.a4.size, Background(style: .ruled))

    /// Ids of the pages in order and, per page, the ids of its strokes.
    private func layout(_ e: Editor) -> [[StrokeID]] { e.document.pages.map { $0.strokes.map(\.id) } }
    private func pageIDs(_ e: Editor) -> [PageID] { e.document.pages.map(\.id) }

    /// Undoes everything, checks each state going back, redoes everything and checks each state going forward.
    private func assertUndoRedoWalk(_ e: Editor, states: [[[StrokeID]]], file: StaticString = #filePath, line: UInt = #line) {
        for s in states.reversed().dropFirst() {
            _ = e.undo()
            XCTAssertEqual(layout(e), s, "after undo", file: file, line: line)
        }
        XCTAssertFalse(e.history.canUndo, file: file, line: line)
        for s in states.dropFirst() {
            _ = e.redo()
            XCTAssertEqual(layout(e), s, "after redo", file: file, line: line)
        }
    }

    func testANewDrawingIsOneEndlessPlainPage() {
        let e = Editor()
        XCTAssertEqual(e.document.pages.count, 1)
        XCTAssertTrue(e.page.isEndless)
        XCTAssertEqual(e.page.background.style, .plain)
        // An endless page has no bounds: ink far outside any page size stays, and the frame fits it.
        let s = e.line(from: (-5000, -300), to: (9000, 4000))
        XCTAssertNotNil(s)
        XCTAssertEqual(e.page.frame, Rect(minX: -5000 - Page.endlessMargin, minY: -300 - Page.endlessMargin,
                                          maxX: 9000 + Page.endlessMargin, maxY: 4000 + Page.endlessMargin))
        // Ink inside the starting view does not move the frame.
        let small = Editor()
        small.line(from: (10, 10), to: (100, 10))
        XCTAssertEqual(small.page.frame, Rect(x: 0, y: 0, width: Drawing.defaultPageSize.width, height: Drawing.defaultPageSize.height))
    }

    func testAddPageAfterTheCurrentOneWithItsSizeAndBackground() {
        let e = Editor(document: Document(pages: [Page(format: a4)]))
        let u = e.addPage()
        XCTAssertTrue(u.pagesChanged)
        XCTAssertEqual(e.document.pages.count, 2)
        XCTAssertEqual(e.currentPage, 1)
        XCTAssertEqual(e.page.format, a4, "same size and background as the page it follows")
        XCTAssertNotEqual(e.page.id, e.document.pages[0].id)
        // Insert after the current page, not at the end.
        _ = e.goToPage(0)
        _ = e.addPage()
        XCTAssertEqual(e.currentPage, 1)
        XCTAssertEqual(pageIDs(e), [1, 3, 2])
        XCTAssertEqual(u.changes.count, 1)
    }

    func testStrokesBelongToThePageTheyWereDrawnOnWithDocumentWideIDs() {
        let e = Editor()
        let first = e.line(from: (10, 10), to: (100, 10))!
        _ = e.addPage()
        let second = e.line(from: (10, 10), to: (100, 10))!
        XCTAssertEqual(first.page, e.document.pages[0].id)
        XCTAssertEqual(second.page, e.document.pages[1].id)
        XCTAssertNotEqual(first.id, second.id)
        XCTAssertEqual(layout(e), [[first.id], [second.id]])
        // The erasers work on the current page only: the same place on page 1 is untouched.
        e.tool = .strokeEraser
        e.play(gesture(9, [(50, 0), (50, 20)]))
        XCTAssertEqual(layout(e), [[first.id], []])
        // Undoing the page-1 stroke's edit from page 2 makes page 1 current, so the view shows it.
        _ = e.undo()                                        // the erasing
        _ = e.undo()                                        // the page-2 stroke
        _ = e.undo()                                        // the new page
        XCTAssertEqual(e.currentPage, 0)
        let u = e.undo()                                    // the page-1 stroke
        XCTAssertEqual(layout(e), [[]])
        XCTAssertNotNil(u.dirty)
    }

    func testUndoOfAStrokeOnAnotherPageShowsThatPage() {
        let e = Editor()
        e.line(from: (10, 10), to: (100, 10))
        _ = e.addPage()
        _ = e.goToPage(0)
        _ = e.goToPage(1)
        e.line(from: (10, 10), to: (100, 10))
        _ = e.goToPage(0)
        let u = e.undo()
        XCTAssertEqual(e.currentPage, 1)
        XCTAssertTrue(u.pagesChanged, "the view must switch pages")
        XCTAssertEqual(layout(e).map(\.count), [1, 0])
    }

    func testDuplicateCopiesStrokesWithNewIDsInTheSameOrder() {
        let e = Editor()
        let a = e.line(from: (10, 10), to: (100, 10))!
        e.line(from: (10, 30), to: (100, 30))
        // A cut piece keeps its original's order, below the later line: the copy must keep that too.
        e.tool = .areaEraser
        e.style.width = 10
        e.play(gesture(7, [(50, 0), (50, 20)]))
        let original = e.drawing.strokes
        XCTAssertEqual(original.count, 3)
        XCTAssertEqual(original.last?.points, e.drawing.strokes.last?.points)
        _ = e.duplicatePage()
        XCTAssertEqual(e.currentPage, 1)
        let copy = e.document.pages[1].strokes
        XCTAssertEqual(copy.map(\.points), original.map(\.points), "same ink, same drawing order")
        XCTAssertEqual(copy.map(\.style), original.map(\.style))
        XCTAssertTrue(Set(copy.map(\.id)).isDisjoint(with: original.map(\.id)))
        XCTAssertTrue(copy.allSatisfy { $0.page == e.page.id })
        XCTAssertFalse(original.contains { $0.id == a.id }, "the cut stroke is gone")
        assertUndoRedoWalk(e, states: [[[]], [[a.id]], [[a.id, original[2].id]], [original.map(\.id)], [original.map(\.id), copy.map(\.id)]])
    }

    func testDeletePageTakesItsStrokesAndUndoPutsThemBack() {
        let e = Editor()
        let a = e.line(from: (10, 10), to: (100, 10))!
        _ = e.addPage()
        let b = e.line(from: (10, 10), to: (100, 10))!
        _ = e.addPage()
        let c = e.line(from: (10, 10), to: (100, 10))!
        _ = e.goToPage(1)
        let u = e.deletePage()
        XCTAssertTrue(u.pagesChanged)
        XCTAssertEqual(layout(e), [[a.id], [c.id]])
        XCTAssertEqual(e.currentPage, 1, "the next page takes its place")
        _ = e.undo()
        XCTAssertEqual(layout(e), [[a.id], [b.id], [c.id]])
        XCTAssertEqual(e.currentPage, 1)
        _ = e.redo()
        XCTAssertEqual(layout(e), [[a.id], [c.id]])
        // Deleting the last page deletes the page after it: the previous one becomes current.
        _ = e.deletePage()
        XCTAssertEqual(layout(e), [[a.id]])
        XCTAssertEqual(e.currentPage, 0)
    }

    func testDeletingTheOnlyPageLeavesOneEmptyPage() {
        let e = Editor(document: Document(pages: [Page(format: a4)]))
        let a = e.line(from: (10, 10), to: (100, 10))!
        let id = e.page.id
        _ = e.deletePage()
        XCTAssertEqual(e.document.pages.count, 1)
        XCTAssertEqual(layout(e), [[]])
        XCTAssertEqual(e.page.id, id)
        XCTAssertEqual(e.page.format, a4)
        _ = e.undo()
        XCTAssertEqual(layout(e), [[a.id]])
        // And nothing at all when it is already empty.
        let empty = Editor()
        XCTAssertTrue(empty.deletePage().changes.isEmpty)
        XCTAssertEqual(empty.document.pages.count, 1)
        // The document refuses to lose its last page whatever edit it is given.
        var d = Document()
        d.apply(.deletePage(d.pages[0], at: 0))
        XCTAssertEqual(d.pages.count, 1)
    }

    func testMovePageUpAndDown() {
        let e = Editor()
        _ = e.addPage()
        _ = e.addPage()                                     // pages 1 2 3, on 3
        XCTAssertTrue(e.movePage(by: 1).changes.isEmpty, "the last page cannot go down")
        _ = e.movePage(by: -1)
        XCTAssertEqual(pageIDs(e), [1, 3, 2])
        XCTAssertEqual(e.currentPage, 1, "the moved page stays current")
        _ = e.movePage(by: -1)
        XCTAssertEqual(pageIDs(e), [3, 1, 2])
        XCTAssertTrue(e.movePage(by: -1).changes.isEmpty, "the first page cannot go up")
        _ = e.undo()
        XCTAssertEqual(pageIDs(e), [1, 3, 2])
        _ = e.undo()
        XCTAssertEqual(pageIDs(e), [1, 2, 3])
        XCTAssertEqual(e.currentPage, 2)
        _ = e.redo(); _ = e.redo()
        XCTAssertEqual(pageIDs(e), [3, 1, 2])
        XCTAssertEqual(e.currentPage, 0)
    }

    func testSetSizeAndBackgroundForThisPageOrAll() {
        let e = Editor()
        _ = e.addPage()
        _ = e.addPage()
        _ = e.goToPage(1)
        let graph = Background(style: .graph, paper: RGBA(r: 250, g: 250, b: 240), line: RGBA(r: 200, g: 200, b: 200), spacing: 20)
        _ = e.setBackground(graph)
        XCTAssertEqual(e.document.pages.map(\.background.style), [.plain, .graph, .plain])
        _ = e.setSize(PagePreset.letter.size, allPages: true)
        XCTAssertEqual(e.document.pages.map(\.size), Array(repeating: PagePreset.letter.size, count: 3))
        XCTAssertEqual(e.document.pages.map(\.background.style), [.plain, .graph, .plain], "size only: backgrounds kept")
        XCTAssertEqual(e.document.pages[1].layers[0].drawing.background, graph.paper, "renderers read the paper colour from the drawing")
        _ = e.setFormat(a4, allPages: true)
        XCTAssertEqual(e.document.pages.map(\.format), [a4, a4, a4])
        XCTAssertTrue(e.setFormat(a4, allPages: true).changes.isEmpty, "no change, no edit")
        _ = e.undo()
        XCTAssertEqual(e.document.pages.map(\.background.style), [.plain, .graph, .plain])
        _ = e.undo()
        XCTAssertEqual(e.document.pages.map(\.size), [nil, nil, nil])
        _ = e.undo()
        XCTAssertEqual(e.document.pages.map(\.background), [.plain, .plain, .plain])
        _ = e.redo(); _ = e.redo(); _ = e.redo()
        XCTAssertEqual(e.document.pages.map(\.format), [a4, a4, a4])
    }

    func testEveryPageEditHasAnExactInverse() {
        var d = Document(pages: [Page(id: 1, format: a4), Page(id: 2), Page(id: 3, format: .endless)])
        let before = d.pages
        let edits: [Edit] = [
            .addPage(Page(id: 9, format: a4), at: 1),
            .deletePage(d.pages[2], at: 2),
            .movePage(from: 0, to: 2),
            .setFormat([Edit.FormatChange(page: 2, from: .endless, to: a4), Edit.FormatChange(page: 1, from: a4, to: .endless)]),
        ]
        for edit in edits {
            d.apply(edit)
            XCTAssertNotEqual(d.pages, before, "\(edit)")
            d.apply(edit.inverse)
            XCTAssertEqual(d.pages, before, "\(edit)")
        }
    }

    func testEditsNamingMissingPagesOrPlacesChangeNothing() {
        var d = Document(pages: [Page(id: 1), Page(id: 2)])
        let before = d.pages
        d.apply(.movePage(from: 0, to: 7))
        d.apply(.movePage(from: -1, to: 0))
        d.apply(.deletePage(Page(id: 42), at: 0))
        d.apply(.add([Stroke(id: 5, style: StrokeStyle(tool: .pen), points: [InkPoint(x: 1, y: 1)], page: 42)]))
        d.apply(.setFormat([Edit.FormatChange(page: 42, from: .endless, to: a4)]))
        d.apply(.addPage(Page(id: 2), at: 0))               // an id already present
        XCTAssertEqual(d.pages, before)
        d.apply(.addPage(Page(id: 3), at: 99))              // a place past the end: appended
        XCTAssertEqual(d.pages.map(\.id), [1, 2, 3])
    }

    func testPresetsAndBackgroundDefaults() {
        XCTAssertEqual(PagePreset.a4.size.width, 595.276, accuracy: 1e-9)
        XCTAssertEqual(PagePreset(name: "16:9"), .widescreen)
        XCTAssertEqual(PagePreset(name: "Letter"), .letter)
        XCTAssertNil(PagePreset(name: "b5"))
        XCTAssertEqual(Background(style: .graph).spacing, 14.17)
        XCTAssertEqual(Background(style: .ruled, spacing: -3).spacing, 1, "clamped to the smallest spacing")
        XCTAssertEqual(Background(style: .ruled, spacing: .nan).spacing, 24)
    }
}
