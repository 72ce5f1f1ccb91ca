import Foundation
import InkCore
import InkSamples
import InkRender
import InkStore
import XCTest
import TestSupport

/// The text tool in the real window under its own Xvfb: T, a click on the page, a typed word (through the
/// text field over the canvas, as an input method would), Escape: the word is drawn on the page, stored as a
/// text box, and undo takes it away again.
final class TextWindowTests: WindowTestCase {
    /// A blank 600×400 page (made by `oekaki replay`) open in the window: its file, the screen and the page's
    /// corner on it.
    private func openBlankPage(_ name: String) throws -> (file: String, screen: Screenshot, page: (x: Int, y: Int)) {
        let log = home.appendingPathComponent("page.jsonl")
        try #"{"type":"canvas","width":600,"height":400}"#.appending("\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent(name).path
        let replay = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(replay.status, 0, replay.output)
        try launch(file)
        let screen = try waitForPage()
        return (file, screen, try XCTUnwrap(paperCorner(screen), "the page is on screen"))
    }

    func testTypeAWordIntoABoxAndUndoIt() throws {
        let (file, start, page) = try openBlankPage("notes.oekaki")
        let box = (x: (page.x + 100)..<(page.x + 300), y: (page.y + 100)..<(page.y + 130))
        XCTAssertEqual(start.darkPixels(in: box), 0, "blank paper where the box goes")

        key("t")
        usleep(200_000)
        xdotool(["mousemove", "\(page.x + 100)", "\(page.y + 100)", "click", "1"])
        usleep(400_000)
        xdotool(["type", "--delay", "60", "Wombat"])
        usleep(300_000)
        key("Escape")
        // The field (whose own text and border are dark too) closes first; then the canvas is measured.
        usleep(800_000)
        let typed = try waitFor { $0.darkPixels(in: box) > 80 }
        XCTAssertGreaterThan(typed.darkPixels(in: box), 80, "the word is drawn in the box")
        XCTAssertEqual(typed.darkPixels(in: (x: (page.x + 100)..<(page.x + 300), y: (page.y + 160)..<(page.y + 300))), 0, "and nowhere below it")

        key("ctrl+z")
        let undone = try waitFor { $0.darkPixels(in: box) == 0 }
        XCTAssertEqual(undone.darkPixels(in: box), 0, "undo takes the box away")
        key("ctrl+shift+z")
        let redone = try waitFor { $0.darkPixels(in: box) > 80 }
        XCTAssertGreaterThan(redone.darkPixels(in: box), 80, "redo brings it back")

        // Double-click the box with the lasso: it opens for typing again; the added word is one more edit.
        key("s")
        usleep(200_000)
        xdotool(["mousemove", "\(page.x + 110)", "\(page.y + 110)", "click", "--repeat", "2", "--delay", "120", "1"])
        usleep(400_000)
        key("ctrl+End")
        xdotool(["type", "--delay", "60", " wins"])
        usleep(300_000)
        key("Escape")
        usleep(800_000)
        let wider = (x: (page.x + 100)..<(page.x + 400), y: box.y)
        let more = try waitFor { $0.darkPixels(in: wider) > typed.darkPixels(in: wider) + 40 }
        XCTAssertGreaterThan(more.darkPixels(in: wider), typed.darkPixels(in: wider) + 40, "the added word is drawn")

        usleep(500_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let items = stored.document.pages[0].strokes
        stored.close()
        XCTAssertEqual(items.compactMap(\.content.text?.text), ["Wombat wins"])
        if let b = items.first?.drawnBox {
            XCTAssertEqual(b.minX, 100, accuracy: 3, "the box starts where it was clicked")
            XCTAssertEqual(b.minY, 100, accuracy: 3)
        }
    }

    /// A box is as wide as it wraps (320 units for a new one; an imported Xournal++ label reaches the page's edge),
    /// its text often much narrower: a click beside the text, inside the box, starts a new box there (as in
    /// Xournal++); a click on the text opens it.
    func testAClickBesideABoxsTextStartsANewBox() throws {
        let (file, _, page) = try openBlankPage("labels.oekaki")
        func type(_ word: String, clickingAt x: Int, _ y: Int) {
            key("t")
            usleep(200_000)
            xdotool(["mousemove", "\(page.x + x)", "\(page.y + y)", "click", "1"])
            usleep(400_000)
            xdotool(["type", "--delay", "60", word])
            usleep(300_000)
            key("Escape")
            usleep(700_000)
        }
        type("Wombat", clickingAt: 100, 100)
        type("Koala", clickingAt: 300, 104)     // beside "Wombat", inside its 320-unit box
        type("s", clickingAt: 150, 108)         // on "Wombat": opens it (the caret at the click)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let texts = stored.document.pages[0].strokes.compactMap(\.content.text?.text)
        stored.close()
        XCTAssertEqual(texts.count, 2, "a new box beside the first: \(texts)")
        XCTAssertTrue(texts.contains("Koala"), "\(texts)")
        XCTAssertTrue(texts.contains { $0.hasPrefix("Wom") && $0.count == 7 }, "the click on the word opened it: \(texts)")
    }

    /// Typing at a zoom, and zooming while typing: the field shows the text where and how big it will be drawn
    /// (GTK's text view kept its height from the old font, so the typed line was cut off and sat higher).
    func testTheFieldShowsTheTextWhereItLandsAtAZoom() throws {
        let (_, _, page) = try openBlankPage("zoomed.oekaki")
        let click = (x: page.x + 60, y: page.y + 80)
        let area = (x: (click.x - 10)..<(click.x + 400), y: (click.y - 40)..<(click.y + 120))
        xdotool(["mousemove", "\(click.x)", "\(click.y)"])
        key("plus")
        key("plus")
        usleep(500_000)

        func typedThenDrawn(_ word: String, zoomingWhileTyping: Bool) throws -> (typed: Screenshot, drawn: Screenshot) {
            key("t")
            usleep(200_000)
            xdotool(["mousemove", "\(click.x)", "\(click.y)", "click", "1"])
            usleep(400_000)
            xdotool(["type", "--delay", "40", word])
            if zoomingWhileTyping {
                // Just outside the field (a wheel over it scrolls the field), so the box barely moves.
                xdotool(["mousemove", "\(click.x - 8)", "\(click.y - 8)", "keydown", "ctrl", "click", "4", "click", "4", "keyup", "ctrl"])
            }
            key("Home") // the caret to the left of the text, outside the columns compared
            usleep(700_000)
            let typed = try screenshot()
            key("Escape")
            usleep(800_000)
            return (typed, try screenshot())
        }
        func inkBox(_ s: Screenshot, columns: Range<Int>? = nil) -> (x: ClosedRange<Int>, y: ClosedRange<Int>)? {
            var xs: [Int] = [], ys: [Int] = []
            for y in area.y { for x in columns ?? area.x where s.brightness(x, y) < 100 { xs.append(x); ys.append(y) } }
            guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
            return (x0...x1, y0...y1)
        }
        for (word, zooming) in [("Wombat", false), ("Numbat", true)] {
            let (typed, drawn) = try typedThenDrawn(word, zoomingWhileTyping: zooming)
            let text = try XCTUnwrap(inkBox(drawn), "\(word) is drawn")
            XCTAssertGreaterThan(text.y.count, 12, "at the zoom, taller than at 100 %")
            let columns = (text.x.lowerBound + 4)..<(text.x.upperBound + 1)
            let drawnInk = try XCTUnwrap(inkBox(drawn, columns: columns))
            let field = try XCTUnwrap(inkBox(typed, columns: columns), "the field shows \(word)")
            XCTAssertEqual(field.y.lowerBound, drawnInk.y.lowerBound, accuracy: 2, "\(word): the typed text's top is where it is drawn")
            XCTAssertEqual(field.y.upperBound, drawnInk.y.upperBound, accuracy: 2, "\(word): and its bottom")
            XCTAssertEqual(field.x.upperBound, drawnInk.x.upperBound, accuracy: 3, "\(word): and its right end")
            key("ctrl+z") // the next word goes into the same place
            usleep(500_000)
        }
        quit()
    }

    /// The issue's scenario: open a PDF, draw on page 2 and type a word there; the pixels show both and the
    /// exported PDF has the word as text beside the original's.
    func testTypeOnPage2OfAPDFAndExport() throws {
        for t in ["pdftotext"] where AppWindowTests.tool(t) == nil { throw XCTSkip("\(t) is needed") }
        let pdf = home.appendingPathComponent("paper.pdf")
        try Data(SamplePDF.make(pageCount: 3, size: Size(width: 400, height: 300)) { "Numbat page \($0 + 1)" }).write(to: pdf)
        try launch(pdf.path, title: "paper.oekaki")
        let doc = home.appendingPathComponent("paper.oekaki").path
        let start = try waitForPage()
        let page = try XCTUnwrap(paperCorner(start), "page 1 is on screen")
        let top2 = page.y + 300 + Int(PageLayout.gap)
        let box = (x: (page.x + 60)..<(page.x + 260), y: (top2 + 230)..<(top2 + 258))
        XCTAssertEqual(start.darkPixels(in: box), 0, "page 2 is blank where the word goes")

        x.drag([(page.x + 100, top2 + 150), (page.x + 200, top2 + 160), (page.x + 300, top2 + 170)])
        key("t")
        usleep(200_000)
        xdotool(["mousemove", "\(page.x + 60)", "\(top2 + 230)", "click", "1"])
        usleep(400_000)
        xdotool(["type", "--delay", "60", "Quokka"])
        usleep(300_000)
        key("Escape")
        let typed = try waitFor { $0.darkPixels(in: box) > 80 && $0.hasInk(near: page.x + 200, top2 + 160) }
        XCTAssertGreaterThan(typed.darkPixels(in: box), 80, "the word is drawn on page 2")
        XCTAssertTrue(typed.hasInk(near: page.x + 200, top2 + 160), "with the stroke")

        usleep(700_000)
        quit()
        let stored = try DocumentFile.open(path: doc, readOnly: true)
        let pages = stored.document.pages
        stored.close()
        XCTAssertEqual(pages.map { $0.strokes.count }, [0, 2, 0])
        XCTAssertEqual(pages[1].strokes.compactMap(\.content.text?.text), ["Quokka"])
        let out = home.appendingPathComponent("out.pdf").path
        let export = try run(try AppWindowTests.oekakiBinary(), ["export", doc, out])
        XCTAssertEqual(export.status, 0, export.output)
        let text = try run(URL(fileURLWithPath: AppWindowTests.tool("pdftotext")!), [out, "-"]).output
        XCTAssertTrue(text.contains("Numbat page 2") && text.contains("Quokka"), text)
    }
}
