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
    func testTypeAWordIntoABoxAndUndoIt() throws {
        let log = home.appendingPathComponent("page.jsonl")
        try #"{"type":"canvas","width":600,"height":400}"#.appending("\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("notes.oekaki").path
        let replay = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(replay.status, 0, replay.output)

        try launch(file)
        let start = try waitForPage()
        let page = try XCTUnwrap(paperCorner(start), "the page is on screen")
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
