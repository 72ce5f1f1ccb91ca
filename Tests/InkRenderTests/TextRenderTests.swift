import Foundation
import InkCore
import InkRender
import XCTest

/// Text boxes through Pango: wrapping to the box's width, any script, the same pixels in bands as in one piece,
/// PNG, SVG `<text>` naming the font, and PDF text that pdftotext reads back.
final class TextRenderTests: XCTestCase {
    private let blue = RGBA(r: 20, g: 40, b: 200)

    private func page(_ items: [Stroke], size: Size = Size(width: 400, height: 300)) -> Page {
        Page(format: .fixed(size), drawing: Drawing(pageSize: size, strokes: items))
    }

    private func textItem(_ text: String, at p: Point = Point(40, 50), size: Double = 32, width: Double = 300, font: String = "Sans",
                          id: StrokeID = 1, transform: AffineMap = .identity) -> Stroke {
        let box = TextBox(text: text, font: font, size: size, color: blue, width: width)
        let h = TextPainter.measure(box).height
        return Stroke(id: id, content: .text(box), frame: Rect(x: p.x, y: p.y, width: width, height: h), transform: transform)
    }

    /// Pixels of `image` inside `r` that are clearly not white.
    private func inked(_ image: ImageSurface, _ r: Rect) -> Int {
        var n = 0
        for y in Int(r.minY)..<Int(r.maxY) { for x in Int(r.minX)..<Int(r.maxX) {
            let c = image.pixel(x: x, y: y)
            if Int(c.r) + Int(c.g) + Int(c.b) < 600 { n += 1 }
        } }
        return n
    }

    func testNarrowerBoxesWrapIntoMoreLines() {
        let words = "The quick brown fox jumps over the lazy dog again and again"
        let wide = TextBox(text: words, size: 16, width: 2000), narrow = TextBox(text: words, size: 16, width: 120)
        XCTAssertEqual(TextPainter.lines(wide).count, 1)
        let lines = TextPainter.lines(narrow)
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertEqual(lines.map(\.text).joined(), words, "wrapping drops no character")
        XCTAssertGreaterThan(TextPainter.measure(narrow).height, 3 * TextPainter.measure(wide).height)
        XCTAssertEqual(TextPainter.lines(TextBox(text: "one\ntwo\nthree", size: 16, width: 2000)).count, 3, "newlines break lines")
        XCTAssertGreaterThan(TextPainter.measure(TextBox(text: "", size: 16)).height, 10, "an empty box is one line high")
        // Japanese has no spaces: it still wraps, between characters.
        let ja = TextBox(text: String(repeating: "日本語の文章を書きます。", count: 6), size: 16, width: 150)
        XCTAssertGreaterThan(TextPainter.lines(ja).count, 3)
        XCTAssertEqual(TextPainter.lines(ja).map(\.text).joined(), ja.text)
    }

    func testPNGShowsTheTextInsideItsBoxOnlyInAnyScript() throws {
        for text in ["Hello", "日本語"] {
            let item = textItem(text)
            let image = try Exporter.render(page([item]), scale: 1)
            let box = item.drawnBox!
            XCTAssertGreaterThan(inked(image, box), 100, "\(text): glyphs in the box")
            XCTAssertEqual(inked(image, Rect(x: 0, y: 0, width: 400, height: box.minY - 2)), 0, "\(text): nothing above")
            XCTAssertEqual(inked(image, Rect(x: 0, y: box.maxY + 2, width: 400, height: 300 - box.maxY - 2)), 0, "\(text): nothing below")
            // The darkest pixel is the text's colour.
            var darkest = RGBA.white
            for y in Int(box.minY)..<Int(box.maxY) { for x in Int(box.minX)..<Int(box.maxX) {
                let c = image.pixel(x: x, y: y)
                if Int(c.r) + Int(c.g) + Int(c.b) < Int(darkest.r) + Int(darkest.g) + Int(darkest.b) { darkest = c }
            } }
            XCTAssertColor(darkest, near: blue, tolerance: 30, text)
            if text == "Hello" { try image.writePNG(to: Fixture.tempPath("text.png")) }
        }
    }

    func testMovedTextIsDrawnWhereItIsShownAndBandsMatchOnePiece() throws {
        let item = textItem("Moved", transform: .translation(0, 150))
        let image = try Exporter.render(page([item]), scale: 2)
        XCTAssertEqual(inked(image, Rect(x: 0, y: 80, width: 800, height: 120)), 0, "nothing where it was drawn")
        XCTAssertGreaterThan(inked(image, Rect(x: 80, y: 400, width: 600, height: 90)), 100, "text where it was moved")
        // Bands (export) and the screen's cache draw a box across many band edges alike.
        let tall = textItem(String(repeating: "band edges ", count: 40), size: 20, width: 300)
        let p = page([tall], size: Size(width: 400, height: 600))
        let banded = try Exporter.render(p, scale: 1.5)
        let screen = try ScreenCache(viewSize: Size(width: 600, height: 900), transform: ViewTransform(zoom: 1.5, offset: Point(0, 0)))
        screen.render(p.flattened)
        var diff = 0, inkedRows = Set<Int>()
        for y in 0..<banded.height { for x in 0..<banded.width {
            let a = banded.pixel(x: x, y: y), b = screen.pixel(x: x, y: y)
            diff = max(diff, abs(Int(a.r) - Int(b.r)), abs(Int(a.b) - Int(b.b)))
            if Int(a.r) + Int(a.g) + Int(a.b) < 600 { inkedRows.insert(y) }
        } }
        XCTAssertGreaterThan(inkedRows.count, 100)
        XCTAssertLessThanOrEqual(diff, 60, "export bands draw the text as the screen does")
        // A box baked onto the screen (a finished edit) shows too.
        let baked = try ScreenCache(viewSize: Size(width: 400, height: 300), transform: .identity)
        baked.render(Drawing(pageSize: Size(width: 400, height: 300)))
        let late = textItem("Baked")
        baked.bake(late)
        var n = 0
        for y in 50..<90 { for x in 40..<200 where Int(baked.pixel(x: x, y: y).b) - Int(baked.pixel(x: x, y: y).r) > 60 { n += 1 } }
        XCTAssertGreaterThan(n, 50)
    }

    /// A box whose lines run past its stored height (measured by an earlier build, estimated on import, laid out
    /// with another machine's fonts) is still drawn whole: every band, every redrawn patch finds all of it.
    func testTextLongerThanItsStoredBoxIsDrawnWhole() throws {
        let box = TextBox(text: (1...12).map { "line \($0) of gjpqy" }.joined(separator: "\n"), font: "Sans", size: 12, color: blue, width: 300)
        let h = TextPainter.measure(box).height
        func item(height: Double) -> Stroke { Stroke(id: 1, content: .text(box), frame: Rect(x: 30, y: 20, width: 300, height: height)) }
        // Lines 1.164 em apart, as earlier builds measured them (now 1.25 em at 12 pt).
        let right = item(height: h), short = item(height: h * 1.164 / 1.25)
        let size = Size(width: 400, height: 260)
        func differing(_ a: ImageSurface, _ b: ImageSurface) -> Int {
            var n = 0
            for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
            return n
        }
        let whole = try Exporter.render(page([right], size: size), scale: 2)
        XCTAssertEqual(differing(whole, try Exporter.render(page([short], size: size), scale: 2)), 0, "export: the last lines drawn")
        XCTAssertGreaterThan(inked(whole, Rect(x: 60, y: 40 + h * 2 - 30, width: 200, height: 30)), 100, "the last line is there")
        // The screen, in bands, and a patch below the stored box redrawn (an edit there).
        func screen(_ s: Stroke) throws -> ScreenCache {
            let c = try ScreenCache(viewSize: Size(width: 800, height: 520), transform: ViewTransform(zoom: 2, offset: Point(0, 0)))
            c.render(page([s], size: size).flattened)
            return c
        }
        let a = try screen(right), b = try screen(short)
        var n = 0
        for y in 0..<520 { for x in 0..<800 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
        XCTAssertEqual(n, 0, "screen: the last lines drawn")
        let below = Rect(x: 0, y: 20 + h * 1.164 / 1.25 + 5, width: 400, height: 8)
        b.invalidate(below, in: page([short], size: size).flattened)
        n = 0
        for y in 0..<520 { for x in 0..<800 where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { n += 1 } }
        XCTAssertEqual(n, 0, "screen: a patch redrawn below the stored box keeps the last line")
    }

    func testSVGWritesTextNamingTheFont() throws {
        let item = textItem("Fish & <chips>", font: "DejaVu Serif", transform: .translation(5, 6))
        let svg = String(decoding: try Exporter.data(page([item]), format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("font-family=\"DejaVu Serif\""), svg)
        XCTAssertTrue(svg.contains(">Fish &amp; &lt;chips&gt;</tspan>"), svg)
        XCTAssertTrue(svg.contains("transform=\"matrix(1 0 0 1 5 6)\""), svg)
        XCTAssertFalse(svg.contains("<path"), "a text box writes no ink path")
        if let rsvg = Fixture.tool("rsvg-convert") {
            let file = Fixture.tempPath("text.svg"), png = Fixture.tempPath("text-svg.png")
            try svg.write(toFile: file, atomically: true, encoding: .utf8)
            XCTAssertEqual(try Fixture.run(rsvg, ["-o", png, file]), 0)
            let image = try ImageSurface.load(png: png)
            XCTAssertGreaterThan(inked(image, Rect(x: 45, y: 56, width: 250, height: 40)), 100, "librsvg draws the text in the box")
        }
    }

    /// A font is a face, as Xournal++ writes `font` and GTK's chooser gives it: "Sans Bold" is Sans in bold (it was
    /// taken for a family of that name, which fontconfig does not have, and drawn regular), in PNG and in SVG.
    func testAFontNamesItsWeightAndSlant() throws {
        XCTAssertEqual(TextPainter.face(of: "Sans Bold"), TextPainter.Face(family: "Sans", weight: 700, italic: false))
        XCTAssertEqual(TextPainter.face(of: "DejaVu Serif Bold Italic"), TextPainter.Face(family: "DejaVu Serif", weight: 700, italic: true))
        XCTAssertEqual(TextPainter.face(of: "Noto Sans CJK JP"), TextPainter.Face(family: "Noto Sans CJK JP", weight: 400, italic: false))
        XCTAssertEqual(TextPainter.face(of: "Sans 12").family, "Sans", "a size in the name is not the box's")
        XCTAssertEqual(TextPainter.face(of: "").family, "Sans")
        let regular = textItem("Heavy letters", font: "Sans"), bold = textItem("Heavy letters", font: "Sans Bold")
        let r = inked(try Exporter.render(page([regular]), scale: 1), regular.drawnBox!)
        let b = inked(try Exporter.render(page([bold]), scale: 1), bold.drawnBox!)
        XCTAssertGreaterThan(Double(b), Double(r) * 1.15, "bold inks more: \(b) against \(r)")
        let svg = String(decoding: try Exporter.data(page([textItem("x", font: "DejaVu Serif Bold Italic")]), format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("font-family=\"DejaVu Serif\" font-weight=\"700\" font-style=\"italic\""), svg)
    }

    func testPDFHoldsRealText() throws {
        guard let tool = Fixture.tool("pdftotext") else { throw XCTSkip("pdftotext is not installed") }
        let d = Document(pages: [page([textItem("Quokkas are 日本語 friendly", width: 340),
                                       Stroke(id: 2, style: StrokeStyle(color: .black, width: 4), points: [InkPoint(x: 10, y: 200), InkPoint(x: 300, y: 220)])])])
        let out = Fixture.tempPath("text.pdf")
        try Exporter.writePDF(d, to: out)
        XCTAssertEqual(try Fixture.run(tool, [out, out + ".txt"]), 0)
        let text = try String(contentsOfFile: out + ".txt", encoding: .utf8)
        XCTAssertTrue(text.contains("Quokkas are 日本語") && text.contains("friendly"), text)
        // One page, with its ink: a page export takes the same path.
        let single = try Exporter.data(d.pages[0], format: .pdf)
        XCTAssertTrue(String(decoding: single.prefix(8), as: UTF8.self).hasPrefix("%PDF"))
    }

    func testTenMegabytesOfTextAreCutAndStayBounded() {
        let huge = String(repeating: "0123456789 abcdefghi\n", count: 500_000)   // 10.5 MB
        let cut = TextBox.truncated(huge)!
        XCTAssertLessThanOrEqual(cut.utf8.count, TextBox.maxTextBytes)
        let h = TextPainter.measure(TextBox(text: cut, size: 12, width: 400)).height
        XCTAssertGreaterThan(h, 10_000, "what is kept is laid out")
    }
}

/// A file manager's thumbnail shows text boxes too (drawn with cairo over the ink the thumbnail rasterizes itself).
final class TextThumbnailTests: XCTestCase {
    func testThumbnailShowsTheText() throws {
        let box = TextBox(text: "Big words here", size: 60, color: .black, width: 500)
        let item = Stroke(id: 1, content: .text(box), frame: Rect(x: 20, y: 20, width: 500, height: TextPainter.measure(box).height))
        let drawing = Drawing(pageSize: Size(width: 600, height: 400), strokes: [item])
        let thumb = try Thumbnail.render(pageSize: drawing.pageSize, background: .white, runs: LayeredExport.runs(of: drawing, count: 2), size: 200)
        var dark = 0, below = 0
        for y in 0..<200 { for x in 0..<200 {
            let c = thumb.pixel(x: x, y: y)
            guard c.a > 0, Int(c.r) + Int(c.g) + Int(c.b) < 400 else { continue }
            // The page (600 × 400 at 1/3) is centred: it starts at y 33; the box's lines at 40…65.
            if (38..<70).contains(y) { dark += 1 } else { below += 1 }
        } }
        XCTAssertGreaterThan(dark, 30, "the words near the top of the page")
        XCTAssertEqual(below, 0, "nothing elsewhere")
    }
}
