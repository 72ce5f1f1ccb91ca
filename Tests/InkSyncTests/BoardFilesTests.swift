import Foundation
import XCTest
import InkCore
import InkStore
import InkSamples
@testable import InkSync

/// Pictures and PDFs on a shared board (a real server): an entry names a file by its hash, and the file itself
/// travels beside the log (`BoardFiles`), so an image or a PDF page one person adds shows for everyone, and an
/// entry naming a file the board does not hold never stops anyone's board.
final class BoardFilesTests: XCTestCase {
    var tmp: URL!
    var server: NatsServer!
    var url: String { server.url + "/class" }
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("board-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        server = try NatsServer()
        try server.start()
    }
    override func tearDown() {
        server?.stop()
        try? FileManager.default.removeItem(at: tmp)
    }

    /// A window's path as `DocumentSession` wires it, plus what the window draws with: the files that came.
    final class User {
        let u: EditorOnBoardTests.User
        var notes: [String] = []
        var editor: Editor { u.editor }
        var sync: BoardSync { u.sync }
        init(_ path: String, _ url: String) throws {
            u = try EditorOnBoardTests.User(path, url)
            u.sync.note = { [weak self] in self?.notes.append($0) }
            u.sync.onFiles = { [editor = u.editor] files in for b in files.values { editor.addFile(b) } }
        }
        /// An item showing `bytes` (the app's Insert Image), committed.
        func insert(_ bytes: [UInt8], width: Int, height: Int, formula: Formula? = nil) throws {
            let hash = editor.addFile(bytes)
            sync.document.addFiles(editor.document.files)
            let item = Stroke(id: 0, content: .image(ImageBox(file: hash, pixelWidth: width, pixelHeight: height, formula: formula)),
                              frame: Rect(minX: 10, minY: 10, maxX: 110, maxY: 60), page: editor.page.id)
            try u.run(try editor.paste([item], at: Point(x: 60, y: 35)))
        }
    }

    static func png(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64)!) }
    /// 2 × 1 pixels, red then blue.
    static let png = png("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==")

    func testPicturesAndPDFPagesReachEveryone() throws {
        let a = try User(tmp.appendingPathComponent("a.oekaki").path, url)
        let b = try User(tmp.appendingPathComponent("b.oekaki").path, url)
        func settle() throws { for _ in 0..<2 { try a.sync.syncOnce(); try b.sync.syncOnce() } }
        // A: a picture, a formula with its PDF, a page on a PDF and a page with a picture background.
        let pdf = try SamplePDF.make(pageCount: 2, size: Size(width: 300, height: 200), text: { "page \($0 + 1)" })
        let formulaPDF = try SamplePDF.make(pageCount: 1, size: Size(width: 60, height: 20), text: { _ in "x²" })
        try a.insert(Self.png, width: 2, height: 1)
        let texPNG = Self.png("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNg+M8AAAICAQB7CYF4AAAAAElFTkSuQmCC")
        try a.insert(texPNG, width: 1, height: 1, formula: Formula(source: "x^2", pdf: a.editor.addFile(formulaPDF)))
        let pdfHash = a.editor.addFile(pdf)
        a.sync.document.addFiles(a.editor.document.files)
        try a.u.run(a.editor.addPage(PageFormat(size: Size(width: 300, height: 200), background: Background(pdf: PDFPageRef(file: pdfHash, index: 1)))))
        let picture = Self.png("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGMwTpsJRwzEcQDrIxMhwmPP/AAAAABJRU5ErkJggg==")
        let pictureHash = a.editor.addFile(picture)
        a.sync.document.addFiles(a.editor.document.files)
        try a.u.run(a.editor.addPage(PageFormat(size: Size(width: 300, height: 200), background: Background(picture: pictureHash))))
        try settle()

        // B holds every file, in its window and in its file, and shows what A shows.
        for (h, bytes) in [(ContentHash(of: Self.png), Self.png), (ContentHash(of: texPNG), texPNG), (ContentHash(of: formulaPDF), formulaPDF),
                           (pdfHash, pdf), (pictureHash, picture)] {
            XCTAssertEqual(b.editor.document.files[h], bytes, "B's window has \(h.hex.prefix(8))")
            XCTAssertEqual(b.sync.document.document.files[h], bytes, "B's file has \(h.hex.prefix(8))")
        }
        XCTAssertEqual(b.u.seen, a.u.seen)
        XCTAssertEqual(b.editor.document.pages.map(\.background), a.editor.document.pages.map(\.background))
        XCTAssertTrue(b.notes.isEmpty, "\(b.notes)")
        // And the board goes on both ways.
        try b.u.line(y: 150)
        try a.u.line(y: 170)
        try settle()
        XCTAssertEqual(a.u.seen, b.u.seen)
        XCTAssertEqual(a.editor.document.strokeCount, 4)

        // Reopened, B's file is whole; a third user joining later gets the files too.
        let reopened = try DocumentFile.open(path: b.sync.document.path, readOnly: true)
        XCTAssertEqual(reopened.document.files[pdfHash], pdf)
        reopened.close()
        let c = try User(tmp.appendingPathComponent("c.oekaki").path, url)
        try c.sync.syncOnce()
        XCTAssertEqual(c.editor.document.files[pictureHash], picture)
        XCTAssertEqual(c.u.seen, a.u.seen)
        // Each file went to the board once.
        let conn = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "check")
        defer { conn.close() }
        let board = try BoardURL(url)
        XCTAssertEqual(try BoardFiles.take(pdfHash, url: board, connection: conn), pdf)
    }

    /// An entry from a replica that did not put its file on the board (an older Oekaki, or a file too large):
    /// the others go on, the item shows nothing until the file is there, then it shows.
    func testAnEntryNamingAFileTheBoardLacksDoesNotStopTheBoard() throws {
        let a = try User(tmp.appendingPathComponent("a.oekaki").path, url)
        let b = try User(tmp.appendingPathComponent("b.oekaki").path, url)
        b.sync.wantedFilesEvery = 0
        let board = try BoardURL(url)
        let conn = try NatsConnection(url: server.url, user: nil, password: nil, timeoutMs: 2000, name: "old")
        defer { conn.close() }
        // As an older Oekaki publishes it: the entry alone.
        let hash = ContentHash(of: Self.png)
        let item = BoardStroke(id: BoardStrokeID(client: 77, number: 1), page: .first, style: StrokeStyle(width: 1),
                               points: [InkPoint(x: 0, y: 0, pressure: 1), InkPoint(x: 40, y: 20, pressure: 1)],
                               content: .image(ImageBox(file: hash, pixelWidth: 2, pixelHeight: 1)))
        try a.u.line(y: 10)
        try a.sync.syncOnce()
        for m in try OperationCodec.messages(BoardOperation(client: 77, number: 1, change: .add(item))) {
            _ = try conn.publish(board.logSubject, m.bytes, messageID: m.id)
        }
        try a.u.line(y: 30)
        try a.sync.syncOnce()
        try b.sync.syncOnce()
        XCTAssertEqual(b.editor.document.pages[0].strokes.count, 3, "B has the item and the lines around it")
        XCTAssertEqual(b.sync.document.document.files[hash], [], "held empty until it comes")
        XCTAssertNil(b.editor.document.files[hash])
        XCTAssertTrue(b.notes.contains { $0.contains("1 files the board names are not on it yet") }, "\(b.notes)")
        // B's file opens (its item's file is held, empty) and B's board goes on.
        let reopened = try DocumentFile.open(path: b.sync.document.path, readOnly: true)
        XCTAssertEqual(reopened.document.files[hash], [])
        // Exported meanwhile, the item is left out rather than written as a picture of nothing.
        let xopp = tmp.appendingPathComponent("b.xopp").path
        try XoppExport.write(reopened.document, to: xopp)
        let gunzip = Process(), out = Pipe()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip"); gunzip.arguments = ["-dc", xopp]; gunzip.standardOutput = out
        try gunzip.run()
        let xml = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        gunzip.waitUntilExit()
        XCTAssertEqual(gunzip.terminationStatus, 0)
        XCTAssertFalse(xml.contains("<image"), xml)
        XCTAssertEqual(xml.components(separatedBy: "<stroke ").count, 3, "the two lines")
        reopened.close()

        // Someone puts damaged bytes under its name: refused. Then the right bytes: the next entries bring them.
        try BoardFiles.put(hash, [1, 2, 3], url: board, connection: conn)
        try a.u.line(y: 50)
        try a.sync.syncOnce(); try b.sync.syncOnce()
        XCTAssertEqual(b.sync.document.document.files[hash], [])
        XCTAssertTrue(b.notes.contains { $0.contains("do not match its name") }, "\(b.notes)")
        try BoardFiles.put(hash, Self.png, url: board, connection: conn)
        try a.u.line(y: 70)
        try a.sync.syncOnce(); try b.sync.syncOnce()
        XCTAssertEqual(b.sync.document.document.files[hash], Self.png)
        XCTAssertEqual(b.editor.document.files[hash], Self.png, "the window got it")
        let again = try DocumentFile.open(path: b.sync.document.path, readOnly: true)
        XCTAssertEqual(again.document.files[hash], Self.png, "and the file")
        again.close()
        XCTAssertEqual(b.editor.document.pages[0].strokes.count, 5)
    }

    /// A user whose permissions leave out the snapshots' stream (SHARING.md: optional) still shares an image's
    /// entry; the file stays with them, and the others hold it empty.
    func testAUserWithoutTheSnapshotStreamStillPublishes() throws {
        server.stop()
        server = try NatsServer(extra: """
        log_only = {
          publish: { allow: [ "oekaki.board.class.log", "oekaki.board.class.live", "oekaki.board.class.presence",
                              "$JS.API.STREAM.INFO.OEKAKI_class", "$JS.API.STREAM.CREATE.OEKAKI_class",
                              "$JS.API.CONSUMER.CREATE.OEKAKI_class", "$JS.API.CONSUMER.CREATE.OEKAKI_class.>",
                              "$JS.API.CONSUMER.DELETE.OEKAKI_class.>" ] }
          subscribe: { allow: [ "oekaki.board.class.>", "_INBOX.>" ] }
        }
        accounts { CLASS { jetstream: enabled, users: [ { user: eve, password: eve-secret, permissions: $log_only } ] } }
        """)
        try server.start()
        let host = "127.0.0.1:\(server.port)"
        let eve = try User(tmp.appendingPathComponent("eve.oekaki").path, "nats://eve:eve-secret@\(host)/class")
        let bob = try User(tmp.appendingPathComponent("bob.oekaki").path, "nats://eve:eve-secret@\(host)/class")
        let started = Date()
        try eve.insert(Self.png, width: 2, height: 1)
        try eve.u.line(y: 100)
        try eve.sync.syncOnce()
        try bob.sync.syncOnce()
        XCTAssertLessThan(Date().timeIntervalSince(started), 6, "one short wait each for the refused requests, not one per file or per sync")
        XCTAssertEqual(bob.editor.document.pages[0].strokes.count, 2, "the image's entry and the line arrived")
        XCTAssertEqual(bob.sync.document.document.files[ContentHash(of: Self.png)], [])
        XCTAssertTrue(eve.notes.contains { $0.contains("not put on the board") }, "\(eve.notes)")
    }

    func testFileHeadsAreStrict() throws {
        XCTAssertEqual(try BoardFiles.head(Array("oekaki-board-file 1\nbytes 300000\nparts 2\n".utf8)).parts, 2)
        for bad in ["oekaki-board-file 1\nbytes 300000\nparts 1\n", "oekaki-board-file 2\nbytes 3\nparts 1\n",
                    "oekaki-board-file 1\nbytes 0\nparts 0\n", "oekaki-board-file 1\nbytes 3\nparts 1", "oekaki-board-file 1\nbytes -3\nparts 1\n",
                    "oekaki-board-file 1\nbytes \(BoardFiles.maxBytes + 1)\nparts \(BoardFiles.maxBytes / BoardFiles.partBytes + 1)\n"] {
            XCTAssertThrowsError(try BoardFiles.head(Array(bad.utf8)), bad)
        }
    }
}
