import Foundation
import InkCore
import InkSamples
import InkRender
import InkStore
import XCTest
import TestSupport

/// Writing on a PDF in the real window under its own Xvfb: `oekaki paper.pdf` imports it beside the PDF, the
/// PDF's pages show (rendered in the background), ink drawn on page 2 lands on page 2 over its PDF page, and the
/// document exports a PDF whose text is the original's with the ink on top.
final class PDFWindowTests: WindowTestCase {
    override class var requiredTools: [String] { super.requiredTools + ["pdftotext", "pdftoppm"] }
    override class var installHint: String { super.installHint + " poppler-utils" }

    func testOpenAPDFDrawOnPage2AndExport() throws {
        // Three 400×300 pages; each has a blue band at 40…240 × 40…70 and says "Numbat page K".
        let pdf = home.appendingPathComponent("paper.pdf")
        try Data(SamplePDF.make(pageCount: 3, size: Size(width: 400, height: 300)) { "Numbat page \($0 + 1)" }).write(to: pdf)
        try launch(pdf.path, title: "paper.oekaki")
        let doc = home.appendingPathComponent("paper.oekaki").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: doc), "the import is beside the PDF")

        // Page 1's band shows once its tile has rendered in the background.
        let start = try waitFor(seconds: 10) { s in self.paperCorner(s).map { s.isBand($0.x + 140, $0.y + 55) } ?? false }
        let page = try XCTUnwrap(paperCorner(start), "page 1 is on screen")
        XCTAssertTrue(start.isBand(page.x + 140, page.y + 55), "page 1 shows its PDF page")
        XCTAssertTrue(start.isPaper(page.x + 300, page.y + 200), "and paper where the PDF has nothing")
        let top2 = page.y + 300 + Int(PageLayout.gap)
        XCTAssertTrue(start.isBand(page.x + 140, top2 + 55), "page 2 below shows its PDF page too")

        // Ink across page 2, below its band.
        x.drag([(page.x + 100, top2 + 200), (page.x + 200, top2 + 210), (page.x + 300, top2 + 220)])
        let drawn = try waitFor(seconds: 3) { $0.hasInk(near: page.x + 200, top2 + 210) }
        XCTAssertTrue(drawn.hasInk(near: page.x + 200, top2 + 210), "the stroke is drawn on page 2")
        XCTAssertTrue(drawn.isBand(page.x + 140, top2 + 55), "over page 2's PDF page, which stays")
        XCTAssertFalse(drawn.hasInk(near: page.x + 200, page.y + 210), "page 1 has no ink")

        // Stored on page 2 (autosave), and the PDF travels inside the document: the original can go.
        usleep(700_000)
        quit()
        try FileManager.default.removeItem(at: pdf)
        let stored = try DocumentFile.open(path: doc, readOnly: true)
        let pages = stored.document.pages
        stored.close()
        XCTAssertEqual(pages.count, 3)
        XCTAssertEqual(pages.map { $0.strokes.count }, [0, 1, 0])
        XCTAssertEqual(pages.map { $0.background.pdf?.index }, [0, 1, 2])

        // Exported: the original's text (real text, not pixels) and, on page 2, the ink over the band's page.
        let out = home.appendingPathComponent("out.pdf").path
        let export = try run(try AppWindowTests.oekakiBinary(), ["export", doc, out])
        XCTAssertEqual(export.status, 0, export.output)
        let text = try run(URL(fileURLWithPath: AppWindowTests.tool("pdftotext")!), [out, "-"]).output
        for k in 1...3 { XCTAssertTrue(text.contains("Numbat page \(k)"), text) }
        let prefix = home.appendingPathComponent("page2").path
        XCTAssertEqual(try run(URL(fileURLWithPath: AppWindowTests.tool("pdftoppm")!), ["-png", "-r", "72", "-f", "2", "-l", "2", "-singlefile", out, prefix]).status, 0)
        let png = try ImageSurface.load(png: prefix + ".png")
        XCTAssertEqual(png.width, 400); XCTAssertEqual(png.height, 300)
        let ink = png.pixel(x: 200, y: 210), band = png.pixel(x: 140, y: 55)
        XCTAssertTrue(ink.r < 90 && ink.g < 90 && ink.b < 90, "ink on page 2: \(ink)")
        XCTAssertTrue(band.b > 150 && band.r < 80, "page 2's PDF band: \(band)")
    }

    // MARK: driving the app

    /// The top-left corner of page 1 wherever the window puts it: its left edge along a row through it (8 white
    /// pixels in a row), then its top edge along a column just inside it.
    override func paperCorner(_ s: Screenshot) -> (x: Int, y: Int)? {
        for row in [250, 300, 200] {
            guard let x = (0..<(Self.screen.width - 8)).first(where: { x in (0..<8).allSatisfy { s.isPaper(x + $0, row) } }),
                  let y = (40..<row).first(where: { y in (0..<10).allSatisfy { s.isPaper(x + 4, y + $0) } }) else { continue }
            return (x, y)
        }
        return nil
    }




}

private extension Screenshot {
    func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let i = (y * width + x) * 3
        guard x >= 0, y >= 0, x < width, y < height, i + 2 < rgb.count else { return (255, 255, 255) }
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
    /// The sample PDF's blue band (0x20, 0x40, 0xc0).
    func isBand(_ x: Int, _ y: Int) -> Bool {
        let c = rgb(x, y)
        return abs(c.r - 0x20) < 24 && abs(c.g - 0x40) < 24 && abs(c.b - 0xc0) < 24
    }
}
