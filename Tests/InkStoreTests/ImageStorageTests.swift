import Foundation
import InkCore
import InkSamples
import InkRender
@testable import InkStore
import XCTest

/// Images in `.oekaki` and `.xopp`: bytes stored once per content however often the picture is placed, items
/// (box, size, placement) back after reopening and through undo, and Xournal++'s base64 PNG images both ways.
final class ImageStorageTests: TempDirTestCase {
    /// A real 3×2 PNG (RGBA, no compression tricks), enough for the header check and Xournal++.
    static let png: [UInt8] = {
        // Made once with ImageMagick: convert -size 3x2 xc:'#dc141e' -strip png32:-
        let b64 = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAE0lEQVQI12O8IyL3nwEKmBiQAAAwRgIRhQyyEwAAAABJRU5ErkJggg=="
        return Array(Data(base64Encoded: b64)!)
    }()

    private func imageItem(_ e: Editor, hash: ContentHash, at x: Double) -> Stroke {
        Stroke(id: 0, content: .image(ImageBox(file: hash, pixelWidth: 3, pixelHeight: 2)),
               frame: Rect(x: x, y: 10, width: 30, height: 20), page: e.page.id)
    }

    /// Pastes the picture `times` times through the editor (as the app inserts it) and commits every change.
    private func pasteTimes(_ times: Int, into file: DocumentFile, editor e: Editor) throws {
        for k in 0..<times {
            let h = e.addFile(Self.png)
            file.addFiles(e.document.files)
            try file.commit(try e.paste([imageItem(e, hash: h, at: Double(k) * 40)], at: Point(x: Double(k) * 40 + 15, y: 20)).changes)
        }
    }

    func testTenPastesOfOneScreenshotStoreOneCopy() throws {
        let path = path("ten.oekaki")
        let e = Editor()
        let file = try DocumentFile.create(path: path, document: e.document, history: e.history)
        try pasteTimes(10, into: file, editor: e)
        file.close()
        let db = try SQLiteDatabase(path: path, mode: .readOnly)
        XCTAssertEqual(try db.integer("SELECT count(*) FROM files"), 1)
        XCTAssertEqual(try db.integer("SELECT sum(length(bytes)) FROM files"), Int64(Self.png.count))
        XCTAssertEqual(try db.integer("SELECT count(*) FROM strokes WHERE content IS NOT NULL"), 10)
        db.close()
        let back = try DocumentFile.open(path: path, readOnly: true)
        let items = back.document.pages[0].strokes
        XCTAssertEqual(items.count, 10)
        XCTAssertEqual(back.document.files, [ContentHash(of: Self.png): Self.png])
        XCTAssertEqual(Set(items.compactMap(\.content.image)), [ImageBox(file: ContentHash(of: Self.png), pixelWidth: 3, pixelHeight: 2)])
        XCTAssertEqual(items.map { $0.drawnBox?.minX ?? -1 }, (0..<10).map { Double($0) * 40 })
        back.close()
    }

    func testMovedScaledAndDeletedImageSurvivesReopenAndUndo() throws {
        let path = path("moved.oekaki")
        let e = Editor()
        let file = try DocumentFile.create(path: path, document: e.document, history: e.history)
        try pasteTimes(1, into: file, editor: e)
        try file.commit(try e.apply(.translate(dx: 100, dy: 50)).changes)
        try file.commit(try e.apply(.scale(sx: 2, sy: 2, about: Point(x: 115, y: 70), keepWidths: true)).changes)
        let placed = try XCTUnwrap(e.drawing.strokes.first)
        try file.commit(try e.apply(.delete).changes)
        file.close()

        let again = try DocumentFile.open(path: path)
        XCTAssertTrue(again.document.pages[0].strokes.isEmpty, "deleted")
        let e2 = Editor(document: again.document, history: again.history)
        try again.commit(e2.undo().changes)
        let back = try XCTUnwrap(e2.drawing.strokes.first)
        XCTAssertEqual(back.content, placed.content)
        XCTAssertEqual(back.transform, placed.transform)
        XCTAssertEqual(back.shownCorners?.first?.x ?? 0, placed.shownCorners?.first?.x ?? 1, accuracy: 1e-6)
        try again.commit(e2.undo().changes)
        try again.commit(e2.undo().changes)
        XCTAssertEqual(e2.drawing.strokes.first?.transform, .identity, "undo all the way back to where it was pasted")
        again.close()
        // The bytes are still there for the undone item.
        let third = try DocumentFile.open(path: path, readOnly: true)
        XCTAssertEqual(third.document.files[ContentHash(of: Self.png)], Self.png)
        third.close()
    }

    func testXoppImagesComeInAndGoBackOut() throws {
        let b64 = Data(Self.png).base64EncodedString()
        let xml = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="xournalpp 1.1.3" fileversion="4">
        <page width="600" height="400"><background type="solid" color="#ffffffff" style="plain"/>
        <layer>
        <stroke tool="pen" color="#000000ff" width="2">10 10 50 50</stroke>
        <image left="100" top="120" right="160" bottom="160">\(b64)</image>
        <stroke tool="pen" color="#ff0000ff" width="2">10 60 50 90</stroke>
        </layer></page></xournal>
        """
        let src = path("in.xopp")
        try Deflate.gzip(Array(xml.utf8), level: 3).write(to: src)
        let r = try XoppImport.read(path: src, page: 1)
        XCTAssertTrue(r.notes.isEmpty, "\(r.notes)")
        let items = r.document.pages[0].strokes
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items.map(\.content.isInk), [true, false, true], "the image keeps its place between the strokes")
        XCTAssertEqual(items[1].content.image, ImageBox(file: ContentHash(of: Self.png), pixelWidth: 3, pixelHeight: 2))
        XCTAssertEqual(items[1].drawnBox, Rect(minX: 100, minY: 120, maxX: 160, maxY: 160))
        XCTAssertEqual(r.document.files[ContentHash(of: Self.png)], Self.png)

        // Out again (an .oekaki on the way, to go through the store too) and back in: the same image.
        let mid = path("mid.oekaki")
        try DocumentFile.create(path: mid, document: r.document).close()
        let stored = try DocumentFile.open(path: mid, readOnly: true)
        let out = path("out.xopp")
        try XoppExport.write(stored.document, to: out)
        stored.close()
        let text = String(decoding: try Deflate.inflate(Array(try Data(contentsOf: URL(fileURLWithPath: out))), container: .gzip, limit: 1 << 24), as: UTF8.self)
        XCTAssertTrue(text.contains("<image left=\"100\" top=\"120\" right=\"160\" bottom=\"160\">\(b64)</image>"), text)
        let again = try XoppImport.read(path: out, page: 1)
        XCTAssertEqual(again.document.pages[0].strokes.compactMap(\.content.image), [items[1].content.image!])
        XCTAssertEqual(again.document.pages[0].strokes.map(\.content.isInk), [true, false, true])
    }

    func testXoppImageThatIsNoPictureIsANoteNotAFailure() throws {
        let bomb = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]).base64EncodedString()
        let xml = """
        <xournal creator="xournalpp 1.1.3" fileversion="4"><page width="600" height="400"><background type="solid" color="#ffffffff" style="plain"/>
        <layer><image left="0" top="0" right="10" bottom="10">\(bomb)</image><image left="0" top="0" right="10" bottom="10">!!not base64!!</image>
        <stroke tool="pen" color="#000000ff" width="2">10 10 50 50</stroke></layer></page></xournal>
        """
        let src = path("bad.xopp")
        try Array(xml.utf8).write(to: src)
        let r = try XoppImport.read(path: src, page: 1)
        XCTAssertEqual(r.document.pages[0].strokes.count, 1, "the ink stays")
        XCTAssertEqual(r.notes.count, 1, "\(r.notes)")
        XCTAssertTrue(r.notes[0].contains("2 images"), r.notes[0])
    }

    /// The PNG a formula becomes holds cairo's premultiplied pixels as straight RGBA: opaque, half-covered (an
    /// antialiased edge) and empty pixels read back as they were drawn.
    func testFormulaPicturesKeepTheirColoursAndCoverage() throws {
        // Premultiplied ARGB: opaque red, blue at half alpha (0x80: premultiplied blue 0x80), nothing, opaque white.
        let pixels: [UInt32] = [0xffff0000, 0x80000080, 0x00000000, 0xffffffff, 0xff00ff00, 0x40202020]
        let png = try XCTUnwrap(PNGPicture.png(premultipliedARGB: pixels, width: 3, height: 2))
        let image = try ImageDecoder.decode(png)
        XCTAssertEqual([image.width, image.height], [3, 2])
        XCTAssertEqual(image.pixel(x: 0, y: 0), RGBA(r: 255, g: 0, b: 0))
        let half = image.pixel(x: 1, y: 0)
        XCTAssertEqual(half.a, 0x80)
        XCTAssertEqual(Int(half.b), 255, accuracy: 1)
        XCTAssertEqual(image.pixel(x: 2, y: 0).a, 0)
        XCTAssertEqual(image.pixel(x: 0, y: 1), RGBA(r: 255, g: 255, b: 255))
        XCTAssertEqual(image.pixel(x: 1, y: 1), RGBA(r: 0, g: 255, b: 0))
        XCTAssertEqual(Int(image.pixel(x: 2, y: 1).r), 0x80, accuracy: 2)
        XCTAssertNil(PNGPicture.png(premultipliedARGB: pixels, width: 4, height: 2), "pixels that do not fill the size")
    }

    /// A LaTeX formula kept as Xournal++ 1.1 keeps it (the PDF LaTeX made) comes in as a picture of its box at
    /// `texPixelsPerUnit`, in its place among the strokes; an old one (a PNG) as that PNG; one that is neither, or a
    /// PDF poppler cannot read, is a note, and the ink stays.
    func testXoppTeXFormulasComeInAsPictures() throws {
        // A 100 × 40 point page: left half red, top right blue (PDF's y axis points up), bottom right empty.
        let content = "1 0 0 rg 0 0 50 40 re f 0 0 1 rg 50 20 50 20 re f"
        let pdf = SamplePDF.handWritten(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                         "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 40] /Contents 4 0 R /Resources << >> >>",
                                         "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream"])
        let b64 = Data(pdf).base64EncodedString()
        let xml = """
        <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="600" height="400"><background type="solid" color="#ffffffff" style="plain"/>
        <layer><stroke tool="pen" color="#000000ff" width="2">10 10 50 50</stroke>
        <teximage text="\\frac{a}{b}" texlength="10" left="100" top="120" right="150" bottom="140">\(b64)</teximage>
        <teximage text="x" texlength="1" left="200" top="120" right="230" bottom="140">\(Data(Self.png).base64EncodedString())</teximage>
        <teximage text="y" texlength="1" left="0" top="0" right="10" bottom="10">JVBERi0xLjQKbm90IGEgcmVhbCBQREY=</teximage>
        <teximage text="z" texlength="1" left="0" top="0" right="10" bottom="10">!!not base64!!</teximage>
        <stroke tool="pen" color="#ff0000ff" width="2">10 60 50 90</stroke></layer></page></xournal>
        """
        let src = path("tex.xopp")
        try Array(xml.utf8).write(to: src)
        let r = try XoppImport.read(path: src, page: 1)
        let items = r.document.pages[0].strokes
        XCTAssertEqual(items.map(\.content.isInk), [true, false, false, true], "the formulas keep their place between the strokes")
        XCTAssertEqual(items[1].drawnBox, Rect(minX: 100, minY: 120, maxX: 150, maxY: 140), "stretched over its box")
        XCTAssertEqual(items[1].content.image?.pixelWidth, 200)
        XCTAssertEqual(items[1].content.image?.pixelHeight, 80)
        XCTAssertEqual(items[2].content.image, ImageBox(file: ContentHash(of: Self.png), pixelWidth: 3, pixelHeight: 2, formula: Formula(source: "x")),
                       "an old formula's PNG as it is, with its LaTeX")
        // The LaTeX and the PDF LaTeX made are kept, the PDF's bytes as they were (the export writes them back).
        XCTAssertEqual(items[1].content.image?.formula, Formula(source: "\\frac{a}{b}", pdf: ContentHash(of: pdf)))
        XCTAssertEqual(r.document.files[ContentHash(of: pdf)], pdf)
        XCTAssertEqual(r.notes.count, 2, "\(r.notes)")
        XCTAssertTrue(r.notes.contains { $0.contains("2 TeX formulas; they came in as pictures") }, "\(r.notes)")
        XCTAssertTrue(r.notes.contains { $0.contains("2 TeX formulas that are not a readable PDF") }, "\(r.notes)")
        // The picture is the PDF's page: red on the left, blue top right, nothing bottom right.
        let picture = try XCTUnwrap(items[1].content.image.flatMap { r.document.files[$0.file] })
        let pixels = try ImageDecoder.decode(picture)
        XCTAssertEqual(pixels.pixel(x: 40, y: 40), RGBA(r: 255, g: 0, b: 0))
        XCTAssertEqual(pixels.pixel(x: 160, y: 20), RGBA(r: 0, g: 0, b: 255))
        XCTAssertEqual(pixels.pixel(x: 160, y: 60).a, 0)

        // Through the store and back out: each formula a <teximage> with its LaTeX (markup, line breaks and all,
        // escaped) and the very bytes it came with, also when moved here; read again, the same formulas.
        var doc = r.document
        var moved = items[1], hard = items[2]
        moved.setTransform(.translation(10, 5))
        hard.content = .image(ImageBox(file: ContentHash(of: Self.png), pixelWidth: 3, pixelHeight: 2,
                                       formula: Formula(source: "a < b & \"c\"\n\\\\ d")))
        doc.apply(.replace(removed: [items[1], items[2]], added: [moved, hard]))
        let mid = path("tex.oekaki")
        try DocumentFile.create(path: mid, document: doc).close()
        let stored = try DocumentFile.open(path: mid, readOnly: true)
        XCTAssertEqual(stored.document.pages[0].strokes.compactMap(\.content.image), doc.pages[0].strokes.compactMap(\.content.image))
        XCTAssertEqual(stored.document.files[ContentHash(of: pdf)], pdf, "the formula's PDF is in the file")
        let out = path("tex-out.xopp")
        try XoppExport.write(stored.document, to: out)
        stored.close()
        let text = String(decoding: try Deflate.inflate(Array(try Data(contentsOf: URL(fileURLWithPath: out))), container: .gzip, limit: 1 << 24), as: UTF8.self)
        XCTAssertTrue(text.contains(#"<teximage text="\frac{a}{b}" texlength="11" left="110" top="125" right="160" bottom="145">\#(b64)</teximage>"#), text)
        XCTAssertTrue(text.contains(#"<teximage text="a &lt; b &amp; &quot;c&quot;&#10;\\ d" texlength="16" left="200" top="120" right="230" bottom="140">\#(Data(Self.png).base64EncodedString())</teximage>"#), text)
        XCTAssertFalse(text.contains("<image"), "no formula went out as a plain picture")
        let again = try XoppImport.read(path: out, page: 1)
        XCTAssertEqual(again.document.pages[0].strokes.compactMap(\.content.image?.formula), [Formula(source: "\\frac{a}{b}", pdf: ContentHash(of: pdf)), Formula(source: "a < b & \"c\"\n\\\\ d")])
        XCTAssertEqual(again.document.pages[0].strokes.compactMap(\.content.image).map(\.pixelWidth), [200, 3], "drawn from the same PDF again")
    }
}

private extension Array where Element == UInt8 {
    func write(to path: String) throws { try Data(self).write(to: URL(fileURLWithPath: path)) }
}
