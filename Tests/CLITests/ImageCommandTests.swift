import Foundation
import XCTest

/// Pictures through the command line: a Xournal++ file's images come in (`info` lists them with their pixels),
/// round-trip through `.oekaki` and `.xopp`, and export to PNG (also the streamed path) and SVG (embedded).
/// Hostile pictures (a 100,000 × 100,000 PNG header, a truncated JPEG, junk) end in one note, never a crash,
/// and the rest of the document stays.
final class ImageCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") else { throw XCTSkip("ImageMagick's convert is needed") }
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { if let tmp { try? FileManager.default.removeItem(at: tmp) } }

    @discardableResult
    private func tool(_ exe: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "\(exe) \(args)")
        return String(decoding: data, as: UTF8.self)
    }

    /// 40×30: left half red, right half blue, as `format` (png or jpg).
    private func halves(_ format: String) throws -> Data {
        let path = tmp.appendingPathComponent("halves.\(format)").path
        try tool("/usr/bin/convert", ["-size", "40x30", "xc:#dc141e", "-fill", "#1e50dc", "-draw", "rectangle 20,0 39,29", "\(format):\(path)"])
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The colour of one pixel of a PNG, by ImageMagick.
    private func pixel(_ png: String, _ x: Int, _ y: Int) throws -> (Int, Int, Int) {
        let s = try tool("/usr/bin/convert", [png, "-format", "%[pixel:p{\(x),\(y)}]", "info:"])
        let v = s.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard v.count >= 3 else { XCTFail("pixel \(s)"); return (0, 0, 0) }
        return (v[0], v[1], v[2])
    }

    private func xopp(_ layer: String, name: String) throws -> String {
        let xml = """
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4">
        <page width="200" height="100"><background type="solid" color="#ffffffff" style="plain"/><layer>
        \(layer)
        </layer></page></xournal>
        """
        let path = tmp.appendingPathComponent(name).path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func run(_ args: [String]) throws -> OekakiBinary.Result {
        let r = try OekakiBinary.run(args)
        XCTAssertEqual(r.status, 0, "\(args): \(r.stderr)")
        return r
    }

    private func json(_ s: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any] ?? [:]
    }

    func testImagesComeInRoundTripAndExport() throws {
        let png = try halves("png"), jpg = try halves("jpg")
        let input = try xopp("""
        <stroke tool="pen" color="#000000ff" width="2">150 90 190 90</stroke>
        <image left="20" top="10" right="100" bottom="70">\(png.base64EncodedString())</image>
        <image left="120" top="10" right="160" bottom="40">\(jpg.base64EncodedString())</image>
        """, name: "in.xopp")
        let info = try json(run(["info", input]).stdout)
        XCTAssertEqual(info["images"] as? Int, 2)
        let items = info["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.map { $0["kind"] as? String }, ["stroke", "image", "image"])
        XCTAssertEqual(items[1]["width"] as? Int, 40)
        XCTAssertEqual(items[1]["height"] as? Int, 30)

        // Into .oekaki, and from there a PNG (streamed from the file), an SVG and a .xopp again.
        let doc = tmp.appendingPathComponent("doc.oekaki").path
        try run(["export", input, doc])
        let out = tmp.appendingPathComponent("out.png").path
        try run(["export", doc, out])
        let red = try pixel(out, 40, 40), blue = try pixel(out, 80, 40), paper = try pixel(out, 110, 80)
        XCTAssertTrue(red.0 > 200 && red.1 < 40 && red.2 < 50, "red half: \(red)")
        XCTAssertTrue(blue.0 < 50 && blue.2 > 200, "blue half: \(blue)")
        XCTAssertTrue(paper.0 > 250 && paper.1 > 250 && paper.2 > 250, "paper: \(paper)")
        let jpegRed = try pixel(out, 125, 25)
        XCTAssertTrue(jpegRed.0 > 190 && jpegRed.1 < 60, "the JPEG's red half: \(jpegRed)")

        let svg = tmp.appendingPathComponent("out.svg").path
        try run(["export", doc, svg])
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        XCTAssertTrue(text.contains("data:image/png;base64,\(png.base64EncodedString())"))
        XCTAssertTrue(text.contains("data:image/jpeg;base64,\(jpg.base64EncodedString())"))

        let back = tmp.appendingPathComponent("back.xopp").path
        try run(["export", doc, back])
        let again = try json(run(["info", back]).stdout)
        XCTAssertEqual(again["images"] as? Int, 2)
        XCTAssertEqual((again["items"] as? [[String: Any]])?.map { $0["kind"] as? String }, ["stroke", "image", "image"])
    }

    func testHostilePicturesAreOneNoteAndTheInkStays() throws {
        let jpg = try halves("jpg")
        var bomb = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        bomb += Data([0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0])   // 100,000 × 100,000
        let input = try xopp("""
        <image left="0" top="0" right="50" bottom="50">\(bomb.base64EncodedString())</image>
        <image left="0" top="0" right="50" bottom="50">\(jpg.prefix(jpg.count / 2).base64EncodedString())</image>
        <image left="0" top="0" right="50" bottom="50">\(Data(repeating: 0x5A, count: 300).base64EncodedString())</image>
        <stroke tool="pen" color="#000000ff" width="2">10 90 190 90</stroke>
        """, name: "hostile.xopp")
        let r = try run(["info", input])
        let info = try json(r.stdout)
        XCTAssertEqual(info["strokes"] as? Int, 1, "the ink stays")
        XCTAssertEqual(info["images"] as? Int, 0)
        let notes = r.stderr.split(separator: "\n").filter { $0.contains("images") }
        XCTAssertEqual(notes.count, 1, r.stderr)
        XCTAssertTrue(notes.first?.contains("3 images that are not readable") ?? false, r.stderr)
        let out = tmp.appendingPathComponent("hostile.png").path
        try run(["export", input, out])
        let ink = try pixel(out, 100, 90)
        XCTAssertTrue(ink.0 < 80, "the stroke is drawn: \(ink)")
    }

    func testPictureThatDoesNotDecodeDrawsAPlaceholder() throws {
        // A PNG whose chunks check out, with junk where the pixels should be: kept (the header is all the
        // import reads), and drawn as a grey box when exported, with no crash.
        var fake = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        fake += Data([0, 0, 0, 20, 0, 0, 0, 20, 8, 6, 0, 0, 0, 0, 0, 0, 0])
        fake += Data([0, 0, 0, 200] + Array("IDAT".utf8)) + Data(repeating: 0x5A, count: 200) + Data([0, 0, 0, 0])
        fake += Data([0, 0, 0, 0] + Array("IEND".utf8) + [0, 0, 0, 0])
        let input = try xopp("""
        <image left="20" top="20" right="80" bottom="80">\(fake.base64EncodedString())</image>
        """, name: "fake.xopp")
        let out = tmp.appendingPathComponent("fake.png").path
        try run(["export", input, out])
        let grey = try pixel(out, 30, 50)
        XCTAssertTrue(abs(grey.0 - 200) < 10 && abs(grey.1 - 200) < 10, "placeholder grey: \(grey)")
        let paper = try pixel(out, 150, 50)
        XCTAssertEqual(paper.0, 255)
    }
}
