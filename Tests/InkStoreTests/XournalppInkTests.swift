import XCTest
import Foundation
import InkCore
@testable import InkSamples
@testable import InkStore

/// The generated Xournal++ ink is laid out as Xournal++ 1.2 writes it, and reads back as the ink it was made from.
final class XournalppInkTests: TempDirTestCase {
    func testNumbersArePrintedAsPercentPointEightG() {
        var rng = SeededRandom(seed: 11)
        var values: [Double] = [0, 1, -1, 2000, 3000, 595.27559, 841.88976, 0.85, 1.41, 2.26, 0.5, 0.0001234, 0.00012345678912,
                                 9.99999999, 99999999.4, 1e8, 1.23456789e-5, 12345678.9, 0.1 + 0.2, -430.108491]
        for _ in 0..<20_000 { values.append(rng.range(0, 3000)) }
        for _ in 0..<5_000 { values.append(rng.range(0, 3) * rng.range(0, 1)) }
        for _ in 0..<2_000 { values.append(Double(Int(rng.range(0, 300_000))) / 100) }
        for v in values {
            var out: [UInt8] = []
            XournalppInk.number(v, &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(format: "%.8g", v), "\(v)")
        }
    }

    func testLayoutIsXournalpp12s() throws {
        let xml = String(decoding: XournalppInk.xml(strokes: 60, pointsPerStroke: 100), as: UTF8.self)
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(Array(lines.prefix(3)), ["<?xml version=\"1.0\" standalone=\"no\"?>", "<xournal creator=\"xournalpp 1.2.8\" fileversion=\"4\">",
                                               "<title>Xournal++ document - see https://xournalpp.github.io/</title>"])
        XCTAssertTrue(lines[3].hasPrefix("<preview>iVBORw0KGgo") && lines[3].hasSuffix("</preview>"))
        XCTAssertEqual(Array(lines[4...6]), ["<page width=\"2000\" height=\"3000\">", "<background type=\"solid\" color=\"#ffffffff\" style=\"plain\"/>", "<layer>"])
        XCTAssertEqual(Array(lines.suffix(4)), ["</layer>", "</page>", "</xournal>", ""])
        let strokes = lines[7..<(lines.count - 4)]
        XCTAssertEqual(strokes.count, 60)
        let shape = try NSRegularExpression(pattern: ##"^<stroke tool="(pen|highlighter)" color="#[0-9a-f]{8}" width="([^"]+)" capStyle="round">([^<]+)</stroke>$"##)
        var pens = 0
        for line in strokes {
            let m = try XCTUnwrap(shape.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
            let tool = String(line[Range(m.range(at: 1), in: line)!])
            let widths = line[Range(m.range(at: 2), in: line)!].split(separator: " ")
            let numbers = line[Range(m.range(at: 3), in: line)!].split(separator: " ")
            XCTAssertEqual(numbers.count, 200, "100 points, x and y")
            // Pressure ink: one width per point (the nominal one first); a highlighter has one.
            XCTAssertEqual(widths.count, tool == "pen" ? 100 : 1, line.prefix(120) + "…")
            if tool == "pen" { pens += 1 }
        }
        XCTAssertGreaterThan(pens, 50)
        // Attributes in the order of the strokes Xournal++ 1.2.8 wrote in the corpus.
        let corpus = XoppTests.corpus.appendingPathComponent("strokes.xopp").path
        if FileManager.default.fileExists(atPath: corpus), let raw = FileManager.default.contents(atPath: corpus),
           let theirs = try? Deflate.inflate([UInt8](raw), container: .gzip, limit: 1 << 24) {
            let pressure = String(decoding: theirs, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("<stroke tool=\"pen\"") && $0.contains("width=\"2.26 ") }
            let attributes = try NSRegularExpression(pattern: #" ([a-zA-Z]+)=""#)
            func names(_ s: Substring) -> [String] {
                let head = String(s.prefix { $0 != ">" })
                return attributes.matches(in: head, range: NSRange(head.startIndex..., in: head)).map { String(head[Range($0.range(at: 1), in: head)!]) }
            }
            XCTAssertEqual(names(try XCTUnwrap(pressure)), names(strokes.first { $0.hasPrefix("<stroke tool=\"pen\"") }![...]))
        }
    }

    func testReadsBackAsTheInkItWasMadeFrom() throws {
        let file = path("sample.xopp")
        try XournalppInk.write(to: file, strokes: 200, pointsPerStroke: 100, seed: 3)
        let read = try XoppImport.read(path: file)
        XCTAssertEqual(read.document.pages.count, 1)
        XCTAssertEqual(read.document.pages[0].format.size, XournalppInk.pageSize)
        let strokes = read.drawing.strokes
        XCTAssertEqual(strokes.count, 200)
        var rng = SampleInk.Generator(seed: 3)
        for (k, s) in strokes.enumerated() {
            let made = SampleInk.stroke(id: StrokeID(k + 1), points: 100, pageSize: XournalppInk.pageSize, rng: &rng)
            XCTAssertEqual(s.points.count, 100)
            XCTAssertEqual(s.style.tool, made.style.tool)
            for (p, q) in zip(s.points, made.points) {
                XCTAssertEqual(p.x, q.x, accuracy: 1e-4)
                XCTAssertEqual(p.y, q.y, accuracy: 1e-4)
            }
            if s.style.tool == .pen {
                XCTAssertGreaterThan(Set(s.points.map(\.pressure)).count, 10, "pressure varies along a pen stroke")
            }
        }
    }
}
