import Foundation
import InkCore
@testable import InkStore
import XCTest

/// Xournal++'s image backgrounds (`<background type="pixmap">`): found where Xournal++ keeps them (beside the
/// `.xopp`, in a zip package, at a path, cloned from an earlier page), kept in `.oekaki` files and their undo
/// history, and written back to `.xopp` as Xournal++ writes them.
final class PictureBackgroundTests: TempDirTestCase {
    static let red = ImageStorageTests.png
    /// A second picture: 4 × 4 blue pixels.
    static let blue: [UInt8] = PNGPicture.png(premultipliedARGB: [UInt32](repeating: 0xff00_00ff, count: 16), width: 4, height: 4)!

    private func page(_ background: String) -> String {
        "<page width=\"300\" height=\"200\">\(background)<layer><stroke tool=\"pen\" color=\"#000000ff\" width=\"2\">10 10 90 90</stroke></layer></page>"
    }

    private func writeXopp(_ pages: [String], to name: String) throws -> String {
        let xml = "<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"Xournal++ 1.2.2\" fileversion=\"4\">\n" + pages.joined(separator: "\n") + "\n</xournal>\n"
        let file = path(name)
        try Data(try Deflate.gzip(Array(xml.utf8))).write(to: URL(fileURLWithPath: file))
        return file
    }

    func testImageBackgroundsComeInFromWhereXournalppKeepsThem() throws {
        try Data(Self.red).write(to: URL(fileURLWithPath: path("notes.xopp.bg_1.png")))
        try FileManager.default.createDirectory(atPath: path("pictures"), withIntermediateDirectories: true)
        try Data(Self.blue).write(to: URL(fileURLWithPath: path("pictures/scan.png")))
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: path("notes.xopp.bg_9.png")))
        let file = try writeXopp([
            page(#"<background type="pixmap" domain="attach" filename="bg_1.png"/>"#),
            page(#"<background type="pixmap" domain="clone" filename="0"/>"#),
            page(#"<background type="pixmap" domain="absolute" filename="pictures/scan.png"/>"#),
            // From another machine: not at its path, but beside the .xopp under its name.
            page(#"<background type="pixmap" domain="absolute" filename="/home/someone/pictures/scan.png"/>"#),
            page(#"<background type="pixmap" domain="attach" filename="bg_2.png"/>"#),
            page(#"<background type="pixmap" domain="attach" filename="bg_9.png"/>"#),
            page(#"<background type="pixmap" domain="clone" filename="7"/>"#),
        ], to: "notes.xopp")
        try Data(Self.blue).write(to: URL(fileURLWithPath: path("scan.png")))
        let r = try XoppImport.read(path: file)
        let red = ContentHash(of: Self.red), blue = ContentHash(of: Self.blue)
        XCTAssertEqual(r.document.pages.map(\.background.picture), [red, red, blue, blue, nil, nil, nil])
        XCTAssertEqual(r.document.files[red], Self.red)
        XCTAssertEqual(r.document.files[blue], Self.blue)
        XCTAssertEqual(r.document.files.count, 2, "each picture once")
        XCTAssertTrue(r.document.pages.allSatisfy { $0.strokes.count == 1 }, "the ink stays on every page")
        XCTAssertEqual(r.notes.filter { $0.contains("image backgrounds") }.count, 1)
        XCTAssertTrue(r.notes.contains { $0.hasPrefix("has 3 image backgrounds whose picture is missing") }, "\(r.notes)")
    }

    func testAZipPackageHoldsItsBackgroundPictures() throws {
        let dir = path("package")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let xml = "<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"Xournal++ 1.2.2\" fileversion=\"4\">\n"
            + page(#"<background type="pixmap" domain="attach" filename="bg_1.png"/>"#) + "\n</xournal>\n"
        try Data(xml.utf8).write(to: URL(fileURLWithPath: dir + "/content.xml"))
        try Data(Self.blue).write(to: URL(fileURLWithPath: dir + "/bg_1.png"))
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        zip.currentDirectoryURL = URL(fileURLWithPath: dir)
        zip.arguments = ["-q", path("notes.xopp"), "content.xml", "bg_1.png"]
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"), "zip is not installed")
        try zip.run(); zip.waitUntilExit()
        XCTAssertEqual(zip.terminationStatus, 0)
        let r = try XoppImport.read(path: path("notes.xopp"))
        XCTAssertEqual(r.document.pages.first?.background.picture, ContentHash(of: Self.blue))
        XCTAssertEqual(r.document.files[ContentHash(of: Self.blue)], Self.blue)
    }

    func testAPictureBackgroundIsKeptInTheFileAndItsUndoHistory() throws {
        let file = path("picture.oekaki")
        let e = Editor()
        let doc = try DocumentFile.create(path: file, document: e.document, history: e.history)
        let h = e.addFile(Self.red)
        doc.addFiles(e.document.files)
        try doc.commit(e.setBackground(Background(style: .ruled, picture: h)).changes)
        try doc.commit(e.setBackground(Background(style: .graph)).changes)
        doc.close()

        let again = try DocumentFile.open(path: file)
        XCTAssertNil(again.document.pages[0].background.picture)
        let e2 = Editor(document: again.document, history: again.history)
        try again.commit(e2.undo().changes)
        XCTAssertEqual(e2.page.background.picture, h, "undo brings the picture back from the stored history")
        XCTAssertEqual(e2.page.background.style, .ruled)
        again.close()

        let third = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(third.document.pages[0].background.picture, h)
        XCTAssertEqual(third.document.files[h], Self.red)
        third.close()
        XCTAssertEqual(try PageEditText.readFormat(PageEditText.format(PageFormat.fixed(Size(width: 10, height: 20), Background(picture: h)))).background.picture, h)
        // A format from before pictures (eight fields) still reads.
        XCTAssertNil(try PageEditText.readFormat("10 20 plain #ffffffff #40a0ffff 24 0 -").background.picture)
    }

    func testXoppExportAttachesEachPictureOnceAndClonesIt() throws {
        let red = ContentHash(of: Self.red), blue = ContentHash(of: Self.blue)
        var d = Document(pages: [red, red, blue].enumerated().map { k, h in
            Page(id: PageID(k + 1), format: .fixed(Size(width: 300, height: 200), Background(picture: h)))
        })
        d.addFile(Self.red); d.addFile(Self.blue)
        let out = path("out.xopp")
        try XoppExport.write(d, to: out)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + ".bg_1.png")), Data(Self.red))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out + ".bg_2.png")), Data(Self.blue))
        let xml = String(decoding: try Deflate.inflate(Array(try Data(contentsOf: URL(fileURLWithPath: out))), container: .gzip, limit: 1 << 20), as: UTF8.self)
        XCTAssertTrue(xml.contains(#"<background type="pixmap" domain="attach" filename="bg_1.png"/>"#), xml)
        XCTAssertTrue(xml.contains(#"<background type="pixmap" domain="clone" filename="0"/>"#), xml)
        XCTAssertTrue(xml.contains(#"<background type="pixmap" domain="attach" filename="bg_2.png"/>"#), xml)
        XCTAssertEqual(try XoppImport.read(path: out).document.pages.map(\.background.picture), [red, red, blue])
    }
}
