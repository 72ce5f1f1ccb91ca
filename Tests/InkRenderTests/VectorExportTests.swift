import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import InkCore
import InkSamples
import InkRender
import XCTest

/// SVG and PDF are checked the way a user sees them: rendered back by rsvg-convert / pdftoppm.
final class VectorExportTests: XCTestCase {
    func testSVGIsValidXMLWithOnePathPerStroke() throws {
        var d = Fixture.line()
        d.insert(Stroke(id: 2, style: StrokeStyle(tool: .highlighter, color: .highlighterYellow, width: 16),
                        points: [InkPoint(x: 30, y: 20), InkPoint(x: 170, y: 80)]))
        let bytes = try Exporter.data(d, format: .svg)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("width=\"200\" height=\"100\" viewBox=\"0 0 200 100\""), text.prefix(300).description)
        XCTAssertEqual(text.components(separatedBy: "<path").count - 1, 2)
        XCTAssertTrue(text.contains("fill=\"#dc141e\""))
        XCTAssertTrue(text.contains("fill=\"#ffe600\" fill-opacity=\"0.4\""))
        XCTAssertTrue(text.contains("<rect"))
        let parser = XMLParser(data: Data(bytes))
        XCTAssertTrue(parser.parse(), "SVG is not well-formed XML: \(String(describing: parser.parserError))")
        let clear = String(decoding: try Exporter.data(d, format: .svg, options: ExportOptions(transparent: true)), as: UTF8.self)
        XCTAssertFalse(clear.contains("<rect"))
    }

    func testSVGRendersThroughRsvgLikeOurPNG() throws {
        guard let rsvg = Fixture.tool("rsvg-convert") else { throw XCTSkip("rsvg-convert is not installed") }
        let svg = Fixture.tempPath("line.svg"), png = Fixture.tempPath("line-rsvg.png")
        try Exporter.write(Fixture.line(), to: svg, format: .svg)
        XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, svg]), 0)
        let img = try ImageSurface.load(png: png)
        XCTAssertEqual(img.width, 200); XCTAssertEqual(img.height, 100)
        XCTAssertColor(img.pixel(x: 100, y: 50), near: Fixture.red)
        XCTAssertColor(img.pixel(x: 100, y: 70), near: .white, tolerance: 0)
        XCTAssertColor(img.pixel(x: 10, y: 50), near: .white, tolerance: 0)

        // A busy drawing: rsvg's pixels and ours agree almost everywhere (antialiasing differs at edges).
        let d = SampleInk.drawing(strokes: 200, pointsPerStroke: 60, pageSize: Size(width: 400, height: 300), seed: 3)
        try Exporter.write(d, to: svg, format: .svg)
        XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, svg]), 0)
        let theirs = try ImageSurface.load(png: png), ours = try Exporter.render(d)
        XCTAssertLessThan(differingFraction(theirs, ours), 0.02)
    }

    func testPDFPageSizeAndPixelsThroughPdftoppm() throws {
        let pdf = Fixture.tempPath("line.pdf")
        try Exporter.write(Fixture.line(), to: pdf, format: .pdf)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
        XCTAssertEqual(String(decoding: bytes.prefix(5), as: UTF8.self), "%PDF-")
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("/MediaBox [0 0 200 100]"))
        guard let pdftoppm = Fixture.tool("pdftoppm") else { throw XCTSkip("pdftoppm is not installed") }
        let prefix = Fixture.tempPath("line-pdf")
        if let pdfinfo = Fixture.tool("pdfinfo") {
            // pdfinfo parses the xref and page tree; its exit status is the structural check.
            XCTAssertEqual(try Fixture.run(pdfinfo, [pdf]), 0)
        }
        // 72 dpi: one PDF point per pixel, the same geometry as our PNG at scale 1.
        XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "72", "-singlefile", pdf, prefix]), 0)
        let img = try ImageSurface.load(png: prefix + ".png")
        XCTAssertEqual(img.width, 200); XCTAssertEqual(img.height, 100)
        XCTAssertColor(img.pixel(x: 100, y: 50), near: Fixture.red, tolerance: 8)
        XCTAssertColor(img.pixel(x: 100, y: 70), near: .white, tolerance: 0)

        let d = SampleInk.drawing(strokes: 200, pointsPerStroke: 60, pageSize: Size(width: 400, height: 300), seed: 3)
        try Exporter.write(d, to: pdf, format: .pdf)
        XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "72", "-singlefile", pdf, prefix]), 0)
        XCTAssertLessThan(differingFraction(try ImageSurface.load(png: prefix + ".png"), try Exporter.render(d)), 0.03)
    }

    func testTranslucentHighlighterMatchesOurPNGInSVGAndPDF() throws {
        let d = Fixture.line(color: .highlighterYellow, width: 16, tool: .highlighter)
        let ours = try Exporter.render(d).pixel(x: 100, y: 50)
        XCTAssertColor(ours, near: RGBA(r: 255, g: 242, b: 153), tolerance: 3)
        if let rsvg = Fixture.tool("rsvg-convert") {
            let svg = Fixture.tempPath("hl.svg"), png = Fixture.tempPath("hl-rsvg.png")
            try Exporter.write(d, to: svg, format: .svg)
            XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, svg]), 0)
            XCTAssertColor(try ImageSurface.load(png: png).pixel(x: 100, y: 50), near: ours, tolerance: 3)
        }
        if let pdftoppm = Fixture.tool("pdftoppm") {
            let pdf = Fixture.tempPath("hl.pdf"), prefix = Fixture.tempPath("hl-pdf")
            try Exporter.write(d, to: pdf, format: .pdf)
            XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "72", "-singlefile", pdf, prefix]), 0)
            XCTAssertColor(try ImageSurface.load(png: prefix + ".png").pixel(x: 100, y: 50), near: ours, tolerance: 3)
        }
    }

    func testEmptyDrawingExportsAPlainPageInEveryFormat() throws {
        let d = Drawing(pageSize: Size(width: 120, height: 80), background: RGBA(r: 250, g: 245, b: 230))
        let png = try ImageSurface.load(png: { let p = Fixture.tempPath("empty.png"); try Exporter.write(d, to: p, format: .png); return p }())
        XCTAssertEqual(png.width, 120)
        XCTAssertColor(png.pixel(x: 60, y: 40), near: RGBA(r: 250, g: 245, b: 230), tolerance: 0)
        if let rsvg = Fixture.tool("rsvg-convert") {
            let svg = Fixture.tempPath("empty.svg"), out = Fixture.tempPath("empty-rsvg.png")
            try Exporter.write(d, to: svg, format: .svg)
            XCTAssertEqual(try Fixture.run(rsvg, ["-o", out, svg]), 0)
            XCTAssertColor(try ImageSurface.load(png: out).pixel(x: 60, y: 40), near: RGBA(r: 250, g: 245, b: 230), tolerance: 1)
        }
        if let pdftoppm = Fixture.tool("pdftoppm") {
            let pdf = Fixture.tempPath("empty.pdf"), prefix = Fixture.tempPath("empty-pdf")
            try Exporter.write(d, to: pdf, format: .pdf)
            XCTAssertEqual(try Fixture.run(pdftoppm, ["-png", "-r", "72", "-singlefile", pdf, prefix]), 0)
            XCTAssertColor(try ImageSurface.load(png: prefix + ".png").pixel(x: 60, y: 40), near: RGBA(r: 250, g: 245, b: 230), tolerance: 1)
        }
    }

    /// Fraction of pixels whose colours differ by more than a small antialiasing tolerance.
    func differingFraction(_ a: ImageSurface, _ b: ImageSurface) -> Double {
        XCTAssertEqual(a.width, b.width); XCTAssertEqual(a.height, b.height)
        var differ = 0, total = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                if d > 40 { differ += 1 }
                total += 1
            }
        }
        return Double(differ) / Double(max(total, 1))
    }
}
