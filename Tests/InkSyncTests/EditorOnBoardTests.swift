import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// The app's path on a real server, without the window: an `Editor` per user commits through the sync engine
/// (file and replica in one step), numbering strokes and pages in the editor's lane of ids, and follows
/// what the board applies (`onApplied` → `Editor.follow`). Page commands and selection commands in one editor
/// reach the other editor, its file and the board.
final class EditorOnBoardTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("sync-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: tmp) }

    /// One window: an editor over a replica document, wired as `MainWindow.share` wires it.
    final class User {
        let editor: Editor
        let sync: BoardSync
        init(_ path: String, _ url: String) throws {
            let doc = try DocumentFile.create(path: path, document: Document())
            editor = Editor(document: doc.document, history: doc.history)
            sync = try BoardSync(document: doc, url: try BoardURL(url))
            sync.note = { _ in }
            editor.ids = BoardReplica.editorLane
            sync.ids = BoardReplica.replicaLane
            sync.onApplied = { [editor] c in _ = editor.follow(c.edits) }
            try sync.connect()
        }

        func run(_ u: Update) throws { try sync.commit(u.changes) }

        func line(y: Double) throws {
            for (k, phase) in [InputEvent.Phase.began, .moved, .ended].enumerated() {
                try run(editor.handle(InputEvent(pointer: 1, phase: phase, point: InkPoint(x: 20 + 80 * Double(k), y: y))))
            }
        }

        /// What a user sees, without ids: pages with their formats, and each stroke's page, colour and bounds.
        var seen: DrawingSummary { DrawingSummary(editor.document) }
    }

    func testPageAndSelectionCommandsReachTheOtherEditor() throws {
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let url = server.url + "/class"
        let a = try User(tmp.appendingPathComponent("a.oekaki").path, url)
        let b = try User(tmp.appendingPathComponent("b.oekaki").path, url)
        func settle() throws {
            for _ in 0..<2 { try a.sync.syncOnce(); try b.sync.syncOnce() }
        }

        // A: a line on page 1, a new page of graph paper with a line moved right by a selection.
        try a.line(y: 50)
        try a.run(a.editor.addPage(.fixed(Size(width: 600, height: 800))))
        try a.line(y: 100)
        _ = try a.editor.apply(.all)
        try a.run(try a.editor.apply(.translate(dx: 50, dy: 0)))
        try a.run(a.editor.setBackground(Background(style: .graph)))
        try settle()
        XCTAssertEqual(b.editor.document.pages.count, 2)
        XCTAssertEqual(b.editor.document.pages[1].background.style, .graph)
        XCTAssertEqual(b.editor.document.pages[1].strokes.first?.bounds?.minX, 70, "moved on the other side")
        XCTAssertEqual(b.seen, a.seen)
        XCTAssertEqual(DrawingSummary(b.sync.document.document), b.seen, "B's file holds what B's window shows")

        // B: sends the moved line's page to the front of the notebook, recolours its line, deletes the other page.
        _ = b.editor.goToPage(1)
        try b.run(b.editor.movePage(by: -1))
        _ = try b.editor.apply(.all)
        try b.run(try b.editor.apply(.style(color: RGBA(r: 0, g: 0x80, b: 0), keepsAlpha: false, width: 6)))
        _ = b.editor.goToPage(1)
        try b.run(b.editor.deletePage())
        try settle()
        XCTAssertEqual(a.editor.document.pages.count, 1)
        XCTAssertEqual(a.editor.document.pages[0].background.style, .graph)
        XCTAssertEqual(a.editor.document.pages[0].strokes.map(\.style.color), [RGBA(r: 0, g: 0x80, b: 0)])
        XCTAssertEqual(a.editor.document.pages[0].strokes.map(\.style.width), [6])
        XCTAssertEqual(a.seen, b.seen)
        XCTAssertEqual(DrawingSummary(a.sync.document.document), a.seen)

        // A undoes its move: only its own edit goes back, on both sides.
        try a.run(a.editor.undo())   // the background (a page edit of A's)
        try a.run(a.editor.undo())   // the move
        try settle()
        XCTAssertEqual(b.editor.document.pages[0].strokes.first?.bounds?.minX, 20)
        XCTAssertEqual(b.editor.document.pages[0].strokes.map(\.style.color), [RGBA(r: 0, g: 0x80, b: 0)], "B's colour stays")
        XCTAssertEqual(a.seen, b.seen)
        a.sync.disconnect(); b.sync.disconnect()
    }
}
