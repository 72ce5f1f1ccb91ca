import XCTest
import Foundation
@testable import InkCore
@testable import InkStore

/// Format step 9: text boxes, images (their files stored once per content) and PDF page backgrounds survive the
/// store, a reopen, undo and redo; format 8 files upgrade; hostile rows are refused with one line.
final class ElementsFormatTests: TempDirTestCase {
    private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4]
    private let pdf: [UInt8] = Array("%PDF-1.4 not really".utf8)

    private func text(_ id: StrokeID, _ s: String, page: PageID = Page.firstID) -> Stroke {
        Stroke(id: id, content: .text(TextBox(text: s, font: "Noto Sans CJK JP", size: 14.5, color: RGBA(r: 1, g: 2, b: 3, a: 200), width: 180)),
               frame: Rect(x: 10, y: 20, width: 180, height: 40), page: page)
    }

    /// What the file must agree on with the editor: every item's content, box and placement per page, and the history.
    private func contents(_ d: Document) -> [[String]] {
        d.pages.map { p in p.strokes.map { "\($0.id) \($0.content) \($0.drawnBox.map { "\($0)" } ?? "ink") \($0.transform)" } }
    }

    private func assertSame(_ doc: DocumentFile, _ e: Editor, _ what: String, line: UInt = #line) throws {
        let back = try DocumentFile.open(path: doc.path, readOnly: true)
        XCTAssertEqual(contents(back.document), contents(e.document), what, line: line)
        XCTAssertEqual(back.document.pages.map(\.format), e.document.pages.map(\.format), what, line: line)
        XCTAssertEqual(back.history.undoStack.flatMap { $0.added + $0.removed }.map(\.content),
                       e.history.undoStack.flatMap { $0.added + $0.removed }.map(\.content), "undo stack: \(what)", line: line)
        XCTAssertEqual(back.history.redoStack.flatMap { $0.added + $0.removed }.map(\.content),
                       e.history.redoStack.flatMap { $0.added + $0.removed }.map(\.content), "redo stack: \(what)", line: line)
        for (h, b) in back.document.files { XCTAssertEqual(e.document.files[h], b, what, line: line) }
    }

    private func fileRows(_ file: String) throws -> Int64 {
        let db = try SQLiteDatabase(path: file, mode: .readOnly)
        defer { db.close() }
        return try db.integer("SELECT count(*) FROM files") ?? -1
    }

    func testTextImagesAndPDFPagesRoundTripWithHistory() throws {
        let file = path("e.oekaki")
        let e = Editor()
        let doc = try DocumentFile.create(path: file, document: e.document)
        func commit(_ u: Update, _ what: String, line: UInt = #line) throws {
            XCTAssertFalse(u.changes.isEmpty, what, line: line)
            doc.addFiles(e.document.files)
            try doc.commit(u.changes)
            try assertSame(doc, e, what, line: line)
        }
        try commit(e.perform(.add([text(100, "Hello 世界\nsecond line")])), "a text box")
        let h = e.addFile(png)
        let image = { (id: StrokeID) in Stroke(id: id, content: .image(ImageBox(file: h, pixelWidth: 640, pixelHeight: 480)), frame: Rect(x: 0, y: 100, width: 320, height: 240)) }
        try commit(e.perform(.add([image(101)])), "an image")
        try commit(e.perform(.add([image(102)])), "the same image again")
        XCTAssertEqual(try fileRows(file), 1, "ten pastes of one picture cost one copy")
        // Moving the text is a transform edit: its content rides along unchanged.
        try e.apply(.none)
        e.selection = [100]
        try commit(try e.apply(.translate(dx: 30, dy: 5)), "move the text")
        try commit(try e.apply(.style(color: RGBA(r: 0, g: 128, b: 0), keepsAlpha: false, width: nil)), "recolour the text")
        let p = e.addFile(pdf)
        try commit(e.addPage(.fixed(Size(width: 612, height: 792), Background(pdf: PDFPageRef(file: p, index: 3)))), "a PDF page")
        XCTAssertEqual(try fileRows(file), 2)
        try commit(e.setBackground(Background(style: .ruled, pdf: PDFPageRef(file: p, index: 4))), "another page of that PDF")
        try commit(e.deletePage(), "delete the PDF page")
        try e.apply(.all)
        try commit(try e.apply(.delete), "delete the items")
        XCTAssertTrue(e.document.pages[0].strokes.isEmpty)
        let n = e.history.undoStack.count
        for k in 0..<n { try commit(e.undo(), "undo \(k + 1)") }
        for k in 0..<n { try commit(e.redo(), "redo \(k + 1)") }
        for k in 0..<3 { try commit(e.undo(), "undo again \(k + 1)") }
        XCTAssertEqual(e.document.pages.count, 2)
        XCTAssertEqual(e.document.pages[1].background.pdf, PDFPageRef(file: p, index: 3))
        doc.close()
        // Reopened for writing: the files come back with the document, and undo goes on.
        let again = try DocumentFile.open(path: file)
        XCTAssertEqual(again.document.files, [h: png, p: pdf])
        let e2 = Editor(document: again.document, history: again.history)
        XCTAssertEqual(e2.document.pages[0].strokes.compactMap(\.content.text?.text), ["Hello 世界\nsecond line"])
        try again.commit(e2.undo().changes)
        again.close()
        // Save as: a new file from the document and history writes what they name.
        let copy = try DocumentFile.create(path: path("copy.oekaki"), document: e2.document, history: e2.history)
        copy.close()
        let c = try DocumentFile.open(path: path("copy.oekaki"), readOnly: true)
        XCTAssertEqual(contents(c.document), contents(e2.document))
        XCTAssertEqual(c.document.files[h], png)
    }

    func testAChangeNamingAFileWhoseBytesAreMissingIsRefused() throws {
        let doc = try DocumentFile.create(path: path("m.oekaki"), document: Document())
        let s = Stroke(id: 5, content: .image(ImageBox(file: ContentHash(of: [1]), pixelWidth: 1, pixelHeight: 1)), frame: Rect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertThrowsError(try doc.commit([.did(.add([s]))])) {
            XCTAssertTrue(($0 as? StoreError)?.isPermanent == true && "\($0)".contains("missing"), "\($0)")
        }
        XCTAssertTrue(try DocumentFile.open(path: path("m.oekaki"), readOnly: true).drawing.strokes.isEmpty)
    }

    func testUpgradeFromFormat8() throws {
        let file = path("v8.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(Schema.elementsVersion - 1) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(Schema.elementsVersion - 1)")
        try db.execute("INSERT INTO pages VALUES(1, 0, 800, 600, 'graph', \(RGBA.white.packed), \(RGBA.black.packed), 20, 5)")
        let blob = try PointCodec.encode([InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
        try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(1, 'pen', 255, 2, ?, 1)").bind(1, blob).run()
        try db.statement("INSERT INTO history(stack, position, kind, strokes) VALUES(0, 1, 0, ?)").bind(1, EditStrokes(removed: [], added: [1]).encoded).run()
        db.close()
        XCTAssertEqual(try DocumentFile.open(path: file, readOnly: true).foundVersion, Schema.elementsVersion - 1)
        let rw = try DocumentFile.open(path: file)
        XCTAssertEqual(rw.drawing.strokes.map(\.content), [.ink])
        XCTAssertNil(rw.document.pages[0].background.pdf)
        let e = Editor(document: rw.document, history: rw.history)
        try rw.commit(e.perform(.add([text(2, "after the upgrade")])).changes)
        try rw.commit(e.undo().changes)
        try rw.commit(e.redo().changes)
        rw.close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.foundVersion, Schema.currentVersion)
        XCTAssertEqual(back.drawing.strokes.map(\.content.text?.text), [nil, "after the upgrade"])
        XCTAssertEqual(back.history.undoStack.count, 2)
    }

    /// Every field of a stored item, file or PDF background is checked; a bad one is a one-line refusal.
    func testHostileRowsAreRefused() throws {
        let file = path("h.oekaki")
        let e = Editor()
        let h = e.addFile(png), p = e.addFile(pdf)
        _ = e.perform(.add([text(100, "ok"), Stroke(id: 101, content: .image(ImageBox(file: h, pixelWidth: 2, pixelHeight: 2)), frame: Rect(x: 0, y: 0, width: 9, height: 9))]))
        _ = e.addPage(.fixed(Size(width: 100, height: 100), Background(pdf: PDFPageRef(file: p, index: 0))))
        try DocumentFile.create(path: file, document: e.document, history: e.history).close()
        XCTAssertEqual(try DocumentFile.open(path: file, readOnly: true).document.pages.count, 2)
        func textBlob(size: Double = 12, width: Double = 100, font: [UInt8] = Array("Sans".utf8), fontLength: UInt8? = nil, text: [UInt8]) -> String {
            var b: [UInt8] = [1]
            for v in [size.bitPattern, width.bitPattern] { for k in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) } }
            b += [0, 0, 0, 255, fontLength ?? UInt8(font.count)] + font + text
            return "x'" + b.map { String(format: "%02x", $0) }.joined() + "'"
        }
        let cases: [(String, String)] = [
            ("UPDATE strokes SET content = x'07' WHERE id = 100", "unknown content kind 7"),
            ("UPDATE strokes SET content = x'' WHERE id = 100", "content is empty"),
            ("UPDATE strokes SET content = x'01ff' WHERE id = 100", "content ends early"),
            ("UPDATE strokes SET content = \(textBlob(size: .nan, text: [0x41])) WHERE id = 100", "text size nan"),
            ("UPDATE strokes SET content = \(textBlob(width: -.infinity, text: [0x41])) WHERE id = 100", "text width -inf"),
            ("UPDATE strokes SET content = \(textBlob(text: [0xff, 0xfe])) WHERE id = 100", "text is not UTF-8"),
            ("UPDATE strokes SET content = \(textBlob(fontLength: 60, text: [0x41])) WHERE id = 100", "content ends early"),
            ("UPDATE strokes SET content = zeroblob(\(TextBox.maxTextBytes + 100)) WHERE id = 100", "unknown content kind 0"),
            ("UPDATE strokes SET content = x'01' || zeroblob(20) || x'00' || randomblob(\(TextBox.maxTextBytes + 1)) WHERE id = 100", "over the \(TextBox.maxTextBytes)-byte limit"),
            ("UPDATE strokes SET content = x'02' || CAST('\(String(repeating: "g", count: 64))' AS BLOB) || x'0202' WHERE id = 101", "no valid file hash"),
            ("UPDATE strokes SET content = x'02' || CAST('\(h.hex)' AS BLOB) || x'ffffffff0f02' WHERE id = 101", "pixels"),
            // Bytes after the size are a formula (format 15): its source, then its PDF's hash, which must be held.
            ("UPDATE strokes SET content = x'02' || CAST('\(h.hex)' AS BLOB) || x'020200' WHERE id = 101", "formula with no source"),
            ("UPDATE strokes SET content = x'02' || CAST('\(h.hex)' AS BLOB) || x'02020178' || CAST('\(String(repeating: "a", count: 64))' AS BLOB) WHERE id = 101", "shows missing file aaaa"),
            // 20000 × 100: within what the store once allowed (30000 a side), beyond what the decoder draws.
            ("UPDATE strokes SET content = x'02' || CAST('\(h.hex)' AS BLOB) || x'a09c0164' WHERE id = 101", "20000 × 100 pixels"),
            ("DELETE FROM files WHERE hash = '\(h.hex)'", "shows missing file"),
            ("DELETE FROM files WHERE hash = '\(p.hex)'", "shows missing PDF"),
            ("UPDATE files SET hash = 'nothex' WHERE hash = '\(h.hex)'", "not a SHA-256"),
            ("UPDATE pages SET pdf = '\(p.hex):-1' WHERE pdf IS NOT NULL", "is not HASH:PAGE"),
            ("UPDATE pages SET pdf = 'x:1' WHERE pdf IS NOT NULL", "is not HASH:PAGE"),
        ]
        for (k, (sql, words)) in cases.enumerated() {
            let copy = path("h-\(k).oekaki")
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            let db = try SQLiteDatabase(path: copy, mode: .readWrite(create: false))
            try db.execute(sql)
            XCTAssertGreaterThan(db.changes, 0, sql)
            db.close()
            XCTAssertThrowsError(try DocumentFile.open(path: copy, readOnly: true), sql) {
                let m = "\($0)"
                XCTAssertTrue(m.contains(words) && m.contains("damaged") && !m.contains("\n"), "\(sql.prefix(120)): \(m.prefix(300))")
            }
        }
        // A box must be exactly two corners.
        let copy = path("h-points.oekaki")
        try FileManager.default.copyItem(atPath: file, toPath: copy)
        let db = try SQLiteDatabase(path: copy, mode: .readWrite(create: false))
        try db.statement("UPDATE strokes SET points = ? WHERE id = 100").bind(1, try PointCodec.encode([InkPoint(x: 1, y: 1), InkPoint(x: 2, y: 2), InkPoint(x: 3, y: 1)])).run()
        db.close()
        XCTAssertThrowsError(try DocumentFile.open(path: copy, readOnly: true)) { XCTAssertTrue("\($0)".contains("not 2"), "\($0)") }
    }

    func testOversizedTextIsNeverWritten() throws {
        let doc = try DocumentFile.create(path: path("t.oekaki"), document: Document())
        let huge = text(7, String(repeating: "x", count: 10_000_000))
        XCTAssertThrowsError(try doc.commit([.did(.add([huge]))])) {
            XCTAssertTrue("\($0)".contains("over the \(TextBox.maxTextBytes)-byte limit"), "\($0)")
        }
        let cut = text(8, TextBox.truncated(String(repeating: "x", count: 10_000_000))!)
        try doc.commit([.did(.add([cut]))])
        doc.close()
        XCTAssertEqual(try DocumentFile.open(path: path("t.oekaki"), readOnly: true).drawing.strokes.first?.content.text?.text.utf8.count, TextBox.maxTextBytes)
    }
}

/// Text through `.xopp`: Xournal++'s `<text>` keeps font, size, colour and position both ways.
final class XoppTextTests: TempDirTestCase {
    func testTextRoundTripsThroughXopp() throws {
        let box = TextBox(text: "Fish & <chips>\n日本語の行", font: "DejaVu Serif", size: 18.5, color: RGBA(r: 10, g: 120, b: 30, a: 200), width: 250)
        var moved = Stroke(id: 2, content: .text(box), frame: Rect(x: 30, y: 40, width: 250, height: 50))
        moved.setTransform(.translation(100, 200))
        let ink = Stroke(id: 1, style: StrokeStyle(color: .black, width: 2), points: [InkPoint(x: 0, y: 0), InkPoint(x: 50, y: 50)])
        let plain = Stroke(id: 3, content: .text(TextBox(text: "on top", size: 12, width: 100)), frame: Rect(x: 5, y: 5, width: 100, height: 14))
        let page = Page(format: .fixed(Size(width: 595, height: 842)), drawing: Drawing(pageSize: Size(width: 595, height: 842), strokes: [ink, moved, plain]))
        let file = path("t.xopp")
        try XoppExport.write(Document(pages: [page]), to: file)
        let xml = String(decoding: try Deflate.inflate(Array(try Data(contentsOf: URL(fileURLWithPath: file))), container: .gzip, limit: 1 << 20), as: UTF8.self)
        XCTAssertTrue(xml.contains(##"<text font="DejaVu Serif" size="18.5" x="130" y="240" color="#0a781ec8" width="250">Fish &amp; &lt;chips&gt;"##), xml)
        let r = try XoppImport.read(path: file)
        let items = r.drawing.strokes
        XCTAssertEqual(items.map(\.content.isInk), [true, false, false], "drawing order kept")
        XCTAssertEqual(items[1].content.text, box)
        XCTAssertEqual(items[1].shownCorners?.first, Point(130, 240), "placed where it was shown")
        XCTAssertEqual(items[2].content.text?.text, "on top")
        XCTAssertTrue(r.notes.isEmpty, "\(r.notes)")
    }

    func testOversizedTextIsCutWithANote() throws {
        let big = String(repeating: "abcdefghij", count: 1_000_000)   // 10 MB in one box
        let xml = """
        <?xml version="1.0"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="100" height="100">
        <background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="12" x="1" y="1" color="#000000ff">\(big)</text>
        </layer></page></xournal>
        """
        let file = path("big.xopp")
        try Data(try Deflate.gzip(Array(xml.utf8))).write(to: URL(fileURLWithPath: file))
        let r = try XoppImport.read(path: file)
        XCTAssertEqual(r.drawing.strokes.first?.content.text?.text.utf8.count, TextBox.maxTextBytes)
        XCTAssertEqual(r.notes, ["has 1 texts longer than a text box holds (\(TextBox.maxTextBytes / 1024) KiB); kept their beginnings"])
        // And a hostile position or size is a one-line refusal.
        for bad in [#"x="nan" y="1""#, #"x="1" y="1e300""#] {
            let x = xml.replacingOccurrences(of: #"x="1" y="1""#, with: bad).replacingOccurrences(of: big, with: "hi")
            try Data(try Deflate.gzip(Array(x.utf8))).write(to: URL(fileURLWithPath: file))
            XCTAssertThrowsError(try XoppImport.read(path: file)) { XCTAssertTrue("\($0)".contains("text 1 has no valid position"), "\($0)") }
        }
    }
}
