import Foundation
import InkCore
@testable import InkRender
import TestSupport
import XCTest

/// An embedded picture drawn the way every output shows it: PNG export, the canvas's bands, SVG (embedded,
/// read back by rsvg-convert) and PDF (through cairo, read back by pdftoppm).
final class ImageExportTests: XCTestCase {
    /// A 200×100 white page with the halves picture (40×30 px) stretched over (20, 10)–(100, 70).
    func pageWithPicture(transform: AffineMap = .identity) throws -> (Document, [UInt8]) {
        let bytes = try TestImages.make("png")
        var doc = Document(pages: [Page(format: .fixed(Size(width: 200, height: 100), Background(paper: .white)))])
        let hash = doc.addFile(bytes)
        ImagePainter.shared.provide(doc.files)
        let item = Stroke(id: 1, content: .image(ImageBox(file: hash, pixelWidth: 40, pixelHeight: 30)),
                          frame: Rect(x: 20, y: 10, width: 80, height: 60), page: doc.pages[0].id, transform: transform)
        doc.apply(.add([item]))
        return (doc, bytes)
    }

    func assertPicture(_ pixel: (Int, Int) -> RGBA, scale: Double = 1, tolerance: Int = 8, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        func at(_ x: Double, _ y: Double) -> RGBA { pixel(Int(x * scale), Int(y * scale)) }
        XCTAssertColor(at(40, 40), near: TestImages.red, tolerance: tolerance, "\(what): left half", file: file, line: line)
        XCTAssertColor(at(80, 40), near: TestImages.blue, tolerance: tolerance, "\(what): right half", file: file, line: line)
        XCTAssertColor(at(150, 50), near: .white, tolerance: tolerance, "\(what): paper beside it", file: file, line: line)
        XCTAssertColor(at(60, 85), near: .white, tolerance: tolerance, "\(what): paper below it", file: file, line: line)
    }

    func testPNGExportDrawsThePicture() throws {
        let (doc, _) = try pageWithPicture()
        for scale in [1.0, 0.25 * 2, 3] {
            let s = try Exporter.render(doc.pages[0], scale: scale)
            assertPicture({ s.pixel(x: $0, y: $1) }, scale: scale, "PNG at \(scale)×")
        }
        // Through a written file too.
        let out = Fixture.tempPath("picture.png")
        try Exporter.write(doc.pages[0], to: out, format: .png)
        let back = try ImageSurface.load(png: out)
        assertPicture({ back.pixel(x: $0, y: $1) }, "written PNG")
    }

    func testMovedPictureDrawsWhereItWasMoved() throws {
        let (doc, _) = try pageWithPicture(transform: .translation(60, 20))
        let s = try Exporter.render(doc.pages[0], scale: 1)
        XCTAssertColor(s.pixel(x: 100, y: 60), near: TestImages.red, tolerance: 0)
        XCTAssertColor(s.pixel(x: 140, y: 60), near: TestImages.blue, tolerance: 0)
        XCTAssertColor(s.pixel(x: 40, y: 40), near: .white, tolerance: 0)
    }

    func testSVGEmbedsTheBytesAndRendersThePicture() throws {
        let (doc, bytes) = try pageWithPicture()
        let svg = String(decoding: try Exporter.data(doc.pages[0], format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("href=\"data:image/png;base64,\(Data(bytes).base64EncodedString())\""), svg)
        guard let rsvg = Fixture.tool("rsvg-convert") else { throw XCTSkip("rsvg-convert is not installed") }
        let path = Fixture.tempPath("picture.svg"), png = Fixture.tempPath("picture-rsvg.png")
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, path]), 0)
        let s = try ImageSurface.load(png: png)
        assertPicture({ s.pixel(x: $0, y: $1) }, tolerance: 12, "SVG through rsvg-convert")
    }

    func testPDFKeepsAJPEGAsItIs() throws {
        let jpeg = try TestImages.make("jpg")
        var doc = Document(pages: [Page(format: .fixed(Size(width: 200, height: 100), Background(paper: .white)))])
        let hash = doc.addFile(jpeg)
        ImagePainter.shared.provide(doc.files)
        doc.apply(.add([Stroke(id: 1, content: .image(ImageBox(file: hash, pixelWidth: 40, pixelHeight: 30)),
                               frame: Rect(x: 20, y: 10, width: 80, height: 60), page: doc.pages[0].id)]))
        let pdf = Fixture.tempPath("jpeg.pdf")
        try Exporter.writePDF(doc, to: pdf)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        XCTAssertNotNil(bytes.range(of: Data("/DCTDecode".utf8)), "the JPEG is embedded as JPEG, not as decoded pixels")
        XCTAssertNotNil(bytes.range(of: Data(jpeg.prefix(64))), "byte for byte")
    }

    /// The halves JPEG stored upside down with EXIF orientation 3 (turned 180°): every output shows it turned back,
    /// blue on the left and red on the right, though librsvg and PDF viewers ignore EXIF.
    func testTurnedJPEGShowsTurnedInSVGAndPDF() throws {
        let jpeg = ImageBytes.inserting(ImageBytes.exifSegment(orientation: 3), into: try TestImages.make("jpg"))
        var doc = Document(pages: [Page(format: .fixed(Size(width: 200, height: 100), Background(paper: .white)))])
        let hash = doc.addFile(jpeg)
        ImagePainter.shared.provide(doc.files)
        doc.apply(.add([Stroke(id: 1, content: .image(ImageBox(file: hash, pixelWidth: 40, pixelHeight: 30)),
                               frame: Rect(x: 20, y: 10, width: 80, height: 60), page: doc.pages[0].id)]))
        func assertTurned(_ pixel: (Int, Int) -> RGBA, scale: Double, _ what: String) {
            XCTAssertColor(pixel(Int(40 * scale), Int(40 * scale)), near: TestImages.blue, tolerance: 16, "\(what): left half")
            XCTAssertColor(pixel(Int(80 * scale), Int(40 * scale)), near: TestImages.red, tolerance: 16, "\(what): right half")
        }
        let png = try Exporter.render(doc.pages[0])
        assertTurned({ png.pixel(x: $0, y: $1) }, scale: 1, "PNG")

        let svg = String(decoding: try Exporter.data(doc.pages[0], format: .svg), as: UTF8.self)
        XCTAssertFalse(svg.contains("image/jpeg"), "the turned pixels, not the stored JPEG")
        let s = try Self.readBack(svg: svg, "turned")
        assertTurned({ s.pixel(x: $0, y: $1) }, scale: 1, "SVG through rsvg-convert")
        let p = try Self.readBack(pdf: doc, "turned")
        assertTurned({ p.pixel(x: $0, y: $1) }, scale: 2, "PDF through pdftoppm")
    }

    /// The SVG rendered by rsvg-convert (at 1 pixel a unit).
    static func readBack(svg: String, _ name: String) throws -> ImageSurface {
        guard let rsvg = Fixture.tool("rsvg-convert") else { throw XCTSkip("rsvg-convert reads the SVG back") }
        let path = Fixture.tempPath(name + ".svg"), png = Fixture.tempPath(name + "-rsvg.png")
        try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, path]), 0)
        return try ImageSurface.load(png: png)
    }

    /// The document's PDF export rendered by pdftoppm (144 dpi: 2 pixels a unit).
    static func readBack(pdf doc: Document, _ name: String) throws -> ImageSurface {
        guard let pdftoppm = Fixture.tool("pdftoppm") else { throw XCTSkip("pdftoppm reads the PDF back") }
        let pdf = Fixture.tempPath(name + ".pdf"), prefix = Fixture.tempPath(name + "-pdf")
        try Exporter.writePDF(doc, to: pdf)
        XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "144", "-singlefile", pdf, prefix]), 0)
        return try ImageSurface.load(png: prefix + ".png")
    }

    func testPDFDrawsThePicture() throws {
        let (doc, _) = try pageWithPicture()
        guard let pdftoppm = Fixture.tool("pdftoppm") else { throw XCTSkip("pdftoppm is not installed") }
        let pdf = Fixture.tempPath("picture.pdf"), prefix = Fixture.tempPath("picture-pdf")
        try Exporter.writePDF(doc, to: pdf)
        XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "144", "-singlefile", pdf, prefix]), 0)
        let s = try ImageSurface.load(png: prefix + ".png")
        assertPicture({ s.pixel(x: $0, y: $1) }, scale: 2, tolerance: 12, "PDF through pdftoppm")
    }

    /// A page whose picture background (Xournal++'s image background) is the halves picture stretched over the
    /// whole 200×100 page, ruled lines and a black line of ink over it: every output shows red on the left, blue on
    /// the right, the ink on top.
    func testAPictureBackgroundIsStretchedOverThePageInEveryOutput() throws {
        let bytes = try TestImages.make("png"), hash = ContentHash(of: bytes)
        var doc = Document(pages: [Page(format: .fixed(Size(width: 200, height: 100), Background(paper: .white, picture: hash)))])
        doc.addFile(bytes)
        ImagePainter.shared.provide(doc.files)
        doc.apply(.add([Stroke(id: 1, style: StrokeStyle(color: .black, width: 6), points: [InkPoint(x: 10, y: 90), InkPoint(x: 190, y: 90)], page: doc.pages[0].id)]))
        func assertBackground(_ pixel: (Int, Int) -> RGBA, scale: Double, tolerance: Int = 12, _ what: String) {
            func at(_ x: Double, _ y: Double) -> RGBA { pixel(Int(x * scale), Int(y * scale)) }
            XCTAssertColor(at(50, 40), near: TestImages.red, tolerance: tolerance, "\(what): left half")
            XCTAssertColor(at(150, 40), near: TestImages.blue, tolerance: tolerance, "\(what): right half")
            XCTAssertColor(at(5, 5), near: TestImages.red, tolerance: tolerance, "\(what): to the page's corner")
            XCTAssertColor(at(195, 5), near: TestImages.blue, tolerance: tolerance, "\(what): to the other corner")
            XCTAssertColor(at(100, 90), near: .black, tolerance: tolerance, "\(what): the ink over it")
        }
        let png = try Exporter.render(doc.pages[0], scale: 2)
        assertBackground({ png.pixel(x: $0, y: $1) }, scale: 2, tolerance: 0, "PNG")

        let layout = PageLayout(document: doc, current: 0)
        let cache = try ScreenCache(viewSize: Size(width: 200, height: 100), transform: .identity)
        cache.render(Scene(document: doc, layout: layout))
        assertBackground({ cache.pixel(x: $0, y: $1) }, scale: 1, tolerance: 0, "screen")

        let thumb = try Thumbnail.render(frame: doc.pages[0].frame, background: .white, picture: hash, runs: [], size: 100)
        XCTAssertColor(thumb.pixel(x: 20, y: 40), near: TestImages.red, tolerance: 12, "thumbnail: left half")
        XCTAssertColor(thumb.pixel(x: 80, y: 40), near: TestImages.blue, tolerance: 12, "thumbnail: right half")

        let svg = String(decoding: try Exporter.data(doc.pages[0], format: .svg), as: UTF8.self)
        XCTAssertEqual(svg.components(separatedBy: "<image").count, 2, "the picture, once")
        let s = try Self.readBack(svg: svg, "bg")
        assertBackground({ s.pixel(x: $0, y: $1) }, scale: 1, "SVG through rsvg-convert")
        let p = try Self.readBack(pdf: doc, "bg")
        assertBackground({ p.pixel(x: $0, y: $1) }, scale: 2, "PDF through pdftoppm")
    }
}
