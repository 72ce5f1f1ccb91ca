import XCTest
import Foundation
import InkCore
@testable import InkStore

final class XoppTests: TempDirTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/xournalpp")

    func testFastNumberParserMatchesFoundation() {
        var rng = SeededRandom(seed: 5)
        var samples = ["0", "-0", "7", "-12.345", "1.5e3", "2E-2", "+4.25", "0.00000001", "123456789012345",
                       "1234567890123456789", ".5", "5.", "nan", "-inf", "1e400", ".", "-", "1e", "1.2.3", "12a",
                       // Either side of what the fast path takes: a mantissa up to 2^53, 19 digits, 10^22.
                       "9007199254740992", "9007199254740993", "900719925474.0993", "12345678901234567890",
                       "0.0000000000000000000001", "0.00000000000000000000001", "1.0000000000000000000001", "-0.0", "+.25"]
        for _ in 0..<5000 {
            samples.append(String(format: "%.\(Int.random(in: 0...8, using: &rng))f", Double.random(in: -5000...5000, using: &rng)))
        }
        for s in samples {
            let b = Array(" \(s)\n".utf8)
            let read = XoppImport.numbers(b[1...]).values
            XCTAssertEqual(read.count, 1, s)
            // Foundation's reading, bit for bit; what it cannot read is NaN.
            let slow = Double(s) ?? .nan
            if slow.isNaN { XCTAssertTrue(read.first?.isNaN ?? false, s) } else { XCTAssertEqual(read.first, slow, s) }
        }
        // Several in a row, any white space between, and an overlong token.
        XCTAssertEqual(XoppImport.numbers(Array("1.5\t-2 \r\n 3e1  ".utf8)[...]).values, [1.5, -2, 30])
        XCTAssertTrue(XoppImport.numbers(Array((String(repeating: "1", count: 65) + " 2").utf8)[...]).overlong)
    }

    /// Strokes are parsed in batches on other cores while the XML is read: the error reported is still the first in
    /// the document, and a file that breaks off after thousands of strokes fails at once instead of waiting.
    func testTheFirstBadStrokeInDocumentOrderIsTheOneReported() throws {
        func xml(_ strokes: [String], end: String = "</layer></page></xournal>") -> [UInt8] {
            Array(("<?xml version=\"1.0\"?><xournal creator=\"Xournal++ 1.2.2\" fileversion=\"4\"><page width=\"600\" height=\"800\">"
                   + "<background type=\"solid\" color=\"#ffffffff\" style=\"plain\"/><layer>" + strokes.joined() + end).utf8)
        }
        func stroke(_ coordinates: String) -> String { "<stroke tool=\"pen\" color=\"#000000ff\" width=\"1.5 1.2 1.4\">\(coordinates)</stroke>" }
        var strokes = (0..<1000).map { k in stroke("\(k % 500) 10 \(k % 500 + 5) 20 \(k % 500 + 9) 31") }
        strokes[300] = stroke("1 2 3")                  // 3 coordinates
        strokes[700] = stroke("1 2 3 4 5")              // 5, in a later batch
        XCTAssertThrowsError(try XoppImport.parse(xml(strokes), page: 1)) { error in
            XCTAssertTrue("\((error as? XoppImport.ParseFailure)?.message ?? "")".contains("(3)"), "\(error)")
        }
        strokes[300] = stroke("1 2 3 4")
        let read = try XoppImport.parse(xml(strokes.enumerated().map { $0.offset == 700 ? stroke("1 2 3 4") : $0.element }), page: 1)
        XCTAssertEqual(read.drawing.strokes.count, 1000)
        XCTAssertEqual(read.drawing.strokes[999].points.first?.x, 499)
        XCTAssertThrowsError(try XoppImport.parse(xml(strokes, end: "</layer>"), page: 1))
    }

    func testExportImportRoundTripIsExactForOurOwnFiles() throws {
        var d = PenInk.drawing(strokes: 30, seed: 8)
        d.background = RGBA(r: 250, g: 250, b: 240)
        let file = path("r.xopp")
        try XoppExport.write(d, to: file)
        let r = try XoppImport.read(path: file)
        XCTAssertEqual(r.notes, [])
        XCTAssertEqual(r.drawing.pageSize, d.pageSize)
        XCTAssertEqual(r.drawing.background, d.background)
        XCTAssertEqual(r.drawing.strokes.count, d.strokes.count)
        for (a, b) in zip(d.strokes, r.drawing.strokes) {
            XCTAssertEqual(a.style, b.style)
            XCTAssertEqual(a.points.count, b.points.count)
            for (p, q) in zip(a.points, b.points) {
                XCTAssertEqual(p.x, q.x, accuracy: 0.0001)
                XCTAssertEqual(p.y, q.y, accuracy: 0.0001)
                // Xournal++ keeps one width per segment; the last point takes the previous segment's width.
                if a.style.tool == .pen && p != a.points.last { XCTAssertEqual(p.pressure, q.pressure, accuracy: 0.001) }
            }
        }
    }

    /// Every page comes in with its size and background; other styles become the nearest one and are named; what
    /// cannot be held (PDF backgrounds, text, images) is counted in one note; layers are flattened in order.
    func testEveryPageAndBackgroundIsImported() throws {
        let xml = """
        <?xml version="1.0"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <page width="100" height="200"><background type="solid" color="#ffffffff" style="graph" config="m1=40,rm=1"/>
        <layer><stroke tool="pen" color="#ff0000ff" width="1">0 0 10 10</stroke></layer>
        <layer><stroke tool="pen" color="#00ff00ff" width="1">0 0 10 10</stroke></layer></page>
        <page width="300" height="400"><background type="solid" color="#202020ff" style="lined"/><layer/></page>
        <page width="300" height="400"><background type="solid" color="#ffffffff" style="isodotted"/><layer/></page>
        <page width="300" height="400"><background type="solid" color="#ffffffff" style="hexagons"/><layer/></page>
        <page width="300" height="400"><background type="pdf" domain="attach" filename="x.pdf" pageno="1"/>
        <layer><text font="Sans" size="12" x="1" y="1" color="#000000ff">hi</text></layer></page>
        </xournal>
        """
        let file = path("bg.xopp")
        try Deflate.gzip(Array(xml.utf8)).withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: file)) }
        let d = try XoppImport.read(path: file).document
        XCTAssertEqual(d.pages.map(\.size), [Size(width: 100, height: 200), Size(width: 300, height: 400), Size(width: 300, height: 400), Size(width: 300, height: 400),
                                               Size(width: 300, height: 400)])
        XCTAssertEqual(d.pages.map(\.background.style), [.graph, .lined, .isodotted, .plain, .plain])
        XCTAssertEqual(d.pages[0].background.margin, 40)
        XCTAssertEqual(d.pages[0].strokes.map(\.style.color), [RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 255, b: 0)], "layers in order")
        XCTAssertEqual(d.pages[1].background.paper, RGBA(r: 0x20, g: 0x20, b: 0x20))
        XCTAssertEqual(d.pages[1].background.line, RGBA(r: 0x43, g: 0x43, b: 0x43), "dark paper: Xournal++'s dark grey lines")
        XCTAssertEqual(d.pages[2].background.line, RGBA(r: 0xbd, g: 0xbd, b: 0xbd))
        let notes = try XoppImport.read(path: file).notes
        XCTAssertEqual(notes, ["has PDF backgrounds whose file x.pdf was not found (neither at that path nor beside the .xopp); those pages have plain paper",
                               "has backgrounds Oekaki does not know: 1 hexagons (drawn as plain paper)"])
        XCTAssertEqual(try XoppImport.read(path: file, page: 3).drawing.strokes.count, 0)
        XCTAssertThrowsError(try XoppImport.read(path: file, page: 6))
    }

    func testForeignWidthsBecomePressure() throws {
        let xml = """
        <?xml version="1.0"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="100" height="100">
        <background type="solid" color="#ffffffff" style="plain"/><layer>
        <stroke tool="pen" color="#ff0000ff" width="2.0 0.5 1.0 1.5">0 0 10 0 20 0 30 0</stroke>
        <stroke tool="highlighter" color="yellow" width="8">0 10 30 10</stroke>
        <text font="Sans" size="12" x="1" y="1" color="#000000ff">hi &amp; there</text>
        <image left="0" top="0" right="1" bottom="1">AAAA</image>
        </layer></page></xournal>
        """
        let file = path("f.xopp")
        try Deflate.gzip(Array(xml.utf8)).withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: file)) }
        let r = try XoppImport.read(path: file)
        let pen = r.drawing.strokes[0]
        XCTAssertEqual(pen.style.trace, .polyline, "drawn as written")
        XCTAssertEqual(pen.style.width, 0.75, accuracy: 1e-9, "half the widest segment")
        let o = StrokeShape.options(for: pen.style)
        let shaped = pen.points.map { StrokeShape.width(nominal: pen.style.width, pressure: $0.pressure, thinning: o.thinning) }
        XCTAssertEqual(shaped[0], 0.5, accuracy: 0.01)
        XCTAssertEqual(shaped[1], 1.0, accuracy: 0.01)
        XCTAssertEqual(shaped[2], 1.5, accuracy: 0.01)
        XCTAssertEqual(r.drawing.strokes[1].style.color, RGBA(r: 255, g: 255, b: 0, a: 120), "drawn at 120/255 as Xournal++ draws every highlighter")
        XCTAssertEqual(r.drawing.strokes[1].style.tool, .highlighter)
        XCTAssertEqual(r.notes, ["has 1 images that are not readable PNG or JPEG pictures (or larger than 16384 pixels a side or 64 megapixels); left them out"], "AAAA is no picture")
        // As wide as its line can be (10 characters, 1.1 em each), where the page leaves it less (99): never wrapped.
        XCTAssertEqual(r.drawing.strokes[2].content.text?.width ?? 0, 10 * 1.1 * 12, accuracy: 1e-9)
        XCTAssertEqual(r.drawing.strokes[2].content.text?.text, "hi & there")
    }

    func testLayersKeepTheirNamesOrderAndItemsThroughExportAndImport() throws {
        let xml = """
        <?xml version="1.0"?>
        <xournal creator="Xournal++ 1.2.2" fileversion="4">
        <page width="100" height="200"><background type="solid" color="#ffffffff" style="plain"/>
        <layer name="Ink"><stroke tool="pen" color="#ff0000ff" width="1">0 0 10 10</stroke></layer>
        <layer><stroke tool="pen" color="#00ff00ff" width="1">0 0 10 10</stroke><text font="Sans" size="12" x="1" y="1" color="#000000ff">hi</text></layer>
        <layer name="Answers &amp; notes" visible="false"><stroke tool="highlighter" color="#ffff0080" width="8">0 0 50 50</stroke></layer></page>
        <page width="100" height="200"><background type="solid" color="#ffffffff" style="plain"/><layer/></page>
        </xournal>
        """
        let file = path("layers.xopp")
        try Deflate.gzip(Array(xml.utf8)).withUnsafeBufferPointer { try Data(buffer: $0).write(to: URL(fileURLWithPath: file)) }
        let d = try XoppImport.read(path: file).document
        func shape(_ d: Document) -> [[String]] {
            d.pages.map { p in p.layers.map { "\($0.name) \($0.visible) \($0.drawing.strokes.count)" } }
        }
        XCTAssertEqual(shape(d), [["Ink true 1", "Layer 2 true 2", "Answers & notes false 1"], ["Layer 1 true 0"]])
        XCTAssertTrue(d.pages.allSatisfy { p in p.layers.allSatisfy { l in l.drawing.strokes.allSatisfy { $0.layer == l.id && $0.page == p.id } } })
        XCTAssertEqual(Set(d.pages.flatMap { $0.layers.map(\.id) }).count, 4, "layer ids unique in the document")
        let out = path("again.xopp")
        try XoppExport.write(d, to: out)
        XCTAssertEqual(shape(try XoppImport.read(path: out).document), shape(d))
    }

    func testCorpusFilesImport() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: Self.corpus.path), "corpus not present")
        // width_recovery's strokes with undrawable segments come in as the pieces Xournal++ shows.
        // Their texts come in as text boxes.
        let counts = ["README-Eraser-and-padded-box.xopp": 6, "Setsquare_annotations.xopp": 14, "strokes.xopp": 12, "width_recovery.xopp": 9]
        let texts = ["README-Eraser-and-padded-box.xopp": 4, "Setsquare_annotations.xopp": 3]
        for (name, n) in counts {
            let r = try XoppImport.read(path: Self.corpus.appendingPathComponent(name).path)
            XCTAssertEqual(r.drawing.strokes.filter(\.content.isInk).count, n, name)
            XCTAssertEqual(r.drawing.strokes.filter { $0.content.text != nil }.count, texts[name] ?? 0, name)
            for s in r.drawing.strokes {
                XCTAssertTrue(s.points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.pressure >= 0 && $0.pressure <= 1 }, name)
                XCTAssertTrue(s.style.width > 0 && s.style.width.isFinite, name)
            }
        }
    }

    /// Corpus XML with random byte changes and cuts: every result is an error or a drawing with finite,
    /// in-range values — never a crash or a hang.
    func testMutatedCorpusXML() throws {
        let file = Self.corpus.appendingPathComponent("strokes.xopp").path
        try XCTSkipUnless(FileManager.default.fileExists(atPath: file), "corpus not present")
        let xml = try Deflate.inflate(XoppImport.readFile(file), container: .gzip, limit: 1 << 24)
        var rng = SeededRandom(seed: 31)
        let alphabet = Array("<>/=\"' &;#x0123456789.-eEnaif\n".utf8)
        var accepted = 0
        for round in 0..<500 {
            var m = xml
            if round % 5 == 0 { m = Array(m.prefix(Int.random(in: 0..<m.count, using: &rng))) }
            for _ in 0..<Int.random(in: 1...6, using: &rng) where !m.isEmpty {
                let i = Int.random(in: 0..<m.count, using: &rng)
                m[i] = Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            guard let r = try? XoppImport.parse(m, page: 1) else { continue }
            accepted += 1
            XCTAssertTrue(r.drawing.pageSize.width > 0 && r.drawing.pageSize.width <= Schema.maxPageSide)
            for s in r.drawing.strokes {
                XCTAssertTrue(s.style.width.isFinite && s.style.width > 0)
                XCTAssertTrue(s.points.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.pressure >= 0 && $0.pressure <= 1 })
            }
        }
        XCTAssertGreaterThan(accepted, 0, "some mutations only touch numbers and still import")
    }

    func testXMLParserLimits() {
        func parse(_ s: String) -> Error? {
            var p = XMLSubset(Array(s.utf8))
            do { while try p.next() != nil {}; return nil } catch { return error }
        }
        XCTAssertNil(parse("<a x='1' y=\"&lt;&#65;&#x42;\"><b/>text<![CDATA[<raw>]]><!-- c --><?pi?></a>"))
        XCTAssertNotNil(parse("<!DOCTYPE a [<!ENTITY x 'y'>]><a>&x;</a>"))
        XCTAssertNotNil(parse("<a>&x;</a>"))
        XCTAssertNotNil(parse("<a><b></a>"))
        XCTAssertNotNil(parse("<a>"))
        XCTAssertNotNil(parse("<a></a><b></b>"))
        XCTAssertNotNil(parse(String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65)))
        XCTAssertNotNil(parse("<a " + (0..<65).map { "k\($0)='v'" }.joined(separator: " ") + "/>"))
        XCTAssertNotNil(parse("<a x='1' x='2'/>"))
        XCTAssertNotNil(parse(""))
    }

    /// Text between tags is found with memchr: the text events (entities decoded, raw where there are none) and
    /// where each ends must be what a byte-by-byte scan gives, at the buffer's edges too.
    func testTextBetweenTagsIsCutWhereItEnds() throws {
        func texts(_ s: String) throws -> [String] {
            var p = XMLSubset(Array(s.utf8))
            var out: [String] = []
            while let e = try p.next() { if case .text(let t) = e { out.append(String(decoding: t, as: UTF8.self)) } }
            return out
        }
        XCTAssertEqual(try texts("<a>1 2 3<b>x &amp; y</b>tail</a>"), ["1 2 3", "x & y", "tail"])
        XCTAssertEqual(try texts("<a>" + String(repeating: "9.25 ", count: 5000) + "</a>"), [String(repeating: "9.25 ", count: 5000)])
        XCTAssertEqual(try texts("<a><b/></a>"), [])
        XCTAssertThrowsError(try texts("<a>text that never ends"))
        let bytes = Array("ab<cd<".utf8)
        XCTAssertEqual(ByteScan.first(0x3C, in: bytes, from: 0, to: bytes.count), 2)
        XCTAssertEqual(ByteScan.first(0x3C, in: bytes, from: 3, to: bytes.count), 5)
        XCTAssertEqual(ByteScan.first(0x3C, in: bytes, from: 3, to: 5), 5, "not found: the end")
        XCTAssertEqual(ByteScan.first(0x3C, in: bytes, from: 6, to: 6), 6)
    }
}
