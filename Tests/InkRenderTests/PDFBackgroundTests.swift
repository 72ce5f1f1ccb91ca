import Foundation
import InkCore
import InkSamples
import InkPDF
import InkRender
import XCTest

/// PDF pages through poppler: reading a generated PDF, rasterizing a page, exporting pages with a PDF under ink
/// (checked with pdftotext and pdftoppm as a user would), and files a reader must refuse.
final class PDFBackgroundTests: XCTestCase {
    private static let letter = Size(width: 612, height: 792)

    func testReadsPageCountSizesAndText() throws {
        let pdf = try SamplePDF.make(pageCount: 3, size: Self.letter) { "Known words on page \($0 + 1)" }
        let source = try PDFSource(bytes: pdf)
        XCTAssertEqual(source.pageCount, 3)
        XCTAssertEqual(try source.pageSizes(), Array(repeating: Self.letter, count: 3))
        XCTAssertTrue(source.text(page: 1).contains("Known words on page 2"), source.text(page: 1))
    }

    func testRasterShowsThePageStretchedOverItsRect() throws {
        let source = try PDFSource(bytes: try SamplePDF.make(pageCount: 1, size: Self.letter))
        // Half size: the band (40…240 × 40…70 pt) lands at 20…120 × 20…35 px.
        let image = try PDFBackdrop(source: source, index: 0).rasterForTests(width: 306, height: 396)
        XCTAssertColor(image.pixel(x: 70, y: 27), near: SamplePDF.bandColor, tolerance: 2)
        XCTAssertEqual(image.pixel(x: 200, y: 300).a, 0, "the PDF's blank paper is left transparent")
    }

    func testExportKeepsThePDFAsTextUnderTheInk() throws {
        let pdf = try SamplePDF.make(pageCount: 2, size: Self.letter) { "Quokka paper page \($0 + 1)" }
        let source = try PDFSource(bytes: pdf)
        var pages: [Page] = []
        for k in 0..<2 {
            var d = Drawing(pageSize: Self.letter)
            // A thick red line across the middle of each page.
            d.insert(Stroke(id: StrokeID(k + 1), style: StrokeStyle(tool: .pen, color: Fixture.red, width: 10),
                            points: [InkPoint(x: 100, y: 400), InkPoint(x: 500, y: 400)]))
            pages.append(Page(id: PageID(k + 1), format: .fixed(Self.letter), drawing: d))
        }
        let out = Fixture.tempPath("annotated.pdf")
        try Data(CairoPDFExport.document(pages) { PDFBackdrop(source: source, index: Int($0.id) - 1) }).write(to: URL(fileURLWithPath: out))
        let text = try pdftotext(out)
        XCTAssertTrue(text.contains("Quokka paper page 1") && text.contains("Quokka paper page 2"), text)
        let png = try pdftoppm(out, page: 2)
        XCTAssertEqual(png.width, 612); XCTAssertEqual(png.height, 792)
        XCTAssertColor(png.pixel(x: 140, y: 55), near: SamplePDF.bandColor, tolerance: 4)
        XCTAssertColor(png.pixel(x: 300, y: 400), near: Fixture.red, tolerance: 4)
        XCTAssertColor(png.pixel(x: 300, y: 600), near: .white, tolerance: 0)

        // PNG: the PDF page under the ink, at the export's scale.
        let image = try Exporter.render(pages[0], scale: 0.5, backdrop: PDFBackdrop(source: source, index: 0))
        XCTAssertEqual(image.width, 306)
        XCTAssertColor(image.pixel(x: 70, y: 27), near: SamplePDF.bandColor, tolerance: 4)
        XCTAssertColor(image.pixel(x: 150, y: 200), near: Fixture.red, tolerance: 4)
        XCTAssertColor(image.pixel(x: 150, y: 300), near: .white, tolerance: 0)

        // Annotations only: the ink on blank pages of the same size; none of the PDF's text or band.
        let bare = Fixture.tempPath("annotations.pdf")
        try Data(CairoPDFExport.document(pages, backdrop: { PDFBackdrop(source: source, index: Int($0.id) - 1) }, annotationsOnly: true))
            .write(to: URL(fileURLWithPath: bare))
        XCTAssertFalse(try pdftotext(bare).contains("Quokka"))
        let plain = try pdftoppm(bare, page: 1)
        XCTAssertEqual(plain.width, 612); XCTAssertEqual(plain.height, 792)
        XCTAssertColor(plain.pixel(x: 300, y: 400), near: Fixture.red, tolerance: 4)
        XCTAssertColor(plain.pixel(x: 140, y: 55), near: .white, tolerance: 0)
    }

    /// The screen: painting never waits for poppler. The first frame shows paper where the PDF goes; the tile
    /// lands in the background and the next frame is sharp; at another zoom the old tile stands in, scaled, until
    /// the new one lands.
    func testScreenTilesLandInTheBackgroundWithAStandIn() throws {
        let rasters = PDFPageRasters.shared
        rasters.removeAll()
        let source = try PDFSource(bytes: try SamplePDF.make(pageCount: 1, size: Self.letter))
        let page = Rect(x: 0, y: 0, width: 612, height: 792)
        let scene = Scene(sheets: [Sheet(drawing: Drawing(pageSize: Self.letter), clip: page, paperArea: page, paper: .white,
                                         pdf: PDFBackdrop(source: source, index: 0))])
        let landed = expectation(description: "a tile landed")
        landed.assertForOverFulfill = false
        rasters.addObserver(self) { _ in landed.fulfill() }
        defer { rasters.removeObserver(self) }
        let view = Size(width: 400, height: 300), band = Point(140, 55)
        let first = try ScreenCache.renderFrame(scene, viewSize: view, transform: ViewTransform(zoom: 1))
        let cache = try ScreenCache(viewSize: view, transform: ViewTransform(zoom: 1))
        cache.install(first)
        XCTAssertColor(cache.pixel(x: Int(band.x), y: Int(band.y)), near: .white, tolerance: 0, "nothing rendered yet: paper")
        wait(for: [landed], timeout: 10)
        XCTAssertTrue(rasters.waitUntilIdle())
        cache.render(scene)
        XCTAssertColor(cache.pixel(x: Int(band.x), y: Int(band.y)), near: SamplePDF.bandColor, tolerance: 2)

        // The sharp tile lands on whole pixels, unblurred: the band's edges are a clean step from paper to band.
        for x in 36..<44 {
            let p = cache.pixel(x: x, y: 55)
            XCTAssertColor(p, near: x < 40 ? .white : SamplePDF.bandColor, tolerance: 2, "column \(x) across the band's left edge")
        }

        // Zoom 2: the zoom-1 tile stands in at once (scaled), before any new render.
        let zoomed = try ScreenCache.renderFrame(scene, viewSize: view, transform: ViewTransform(zoom: 2))
        let c2 = try ScreenCache(viewSize: view, transform: ViewTransform(zoom: 2))
        c2.install(zoomed)
        XCTAssertColor(c2.pixel(x: Int(band.x * 2), y: Int(band.y * 2)), near: SamplePDF.bandColor, tolerance: 8, "the old zoom's tile stands in")
        XCTAssertTrue(rasters.waitUntilIdle())
        c2.render(scene)
        XCTAssertColor(c2.pixel(x: Int(band.x * 2), y: Int(band.y * 2)), near: SamplePDF.bandColor, tolerance: 2)
        // The band's edge is sharp at zoom 2 (a scaled zoom-1 tile would blur it over two pixels).
        XCTAssertColor(c2.pixel(x: 81, y: 100), near: SamplePDF.bandColor, tolerance: 2)
        XCTAssertColor(c2.pixel(x: 78, y: 100), near: .white, tolerance: 2)
    }

    func testRefusesHostilePDFsQuickly() throws {
        XCTAssertThrowsError(try PDFSource(bytes: Array("hello, not a PDF at all".utf8))) { XCTAssertEqual($0 as? PDFError, .malformed("no %PDF header")) }
        XCTAssertThrowsError(try PDFSource(bytes: Array("%PDF-1.4\n garbage garbage\n%%EOF".utf8))) {
            guard case .malformed? = $0 as? PDFError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try PDFSource(bytes: SamplePDF.encrypted())) { XCTAssertEqual($0 as? PDFError, .encrypted) }
        let start = Date()
        XCTAssertThrowsError(try PDFSource(bytes: SamplePDF.emptyPages(100_000))) { XCTAssertEqual($0 as? PDFError, .tooManyPages(100_000)) }
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "a 100,000-page PDF is refused without reading its pages")
        // Truncated halfway: either refused or read with what survived, never a crash.
        let good = try SamplePDF.make(pageCount: 3)
        for cut in [good.count / 2, good.count - 40, 20] { _ = try? PDFSource(bytes: Array(good.prefix(cut))).pageSizes() }
        XCTAssertEqual(try PDFSource(bytes: SamplePDF.emptyPages(3)).pageCount, 3)
    }

    private func pdftotext(_ pdf: String) throws -> String {
        guard let tool = Fixture.tool("pdftotext") else { throw XCTSkip("pdftotext is not installed") }
        let txt = pdf + ".txt"
        XCTAssertEqual(try Fixture.run(tool, [pdf, txt]), 0)
        return try String(contentsOfFile: txt, encoding: .utf8)
    }

    private func pdftoppm(_ pdf: String, page: Int) throws -> ImageSurface {
        guard let tool = Fixture.tool("pdftoppm") else { throw XCTSkip("pdftoppm is not installed") }
        let prefix = pdf + "-\(page)"
        XCTAssertEqual(try Fixture.run(tool, ["-png", "-r", "72", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf, prefix]), 0)
        return try ImageSurface.load(png: prefix + ".png")
    }
}
