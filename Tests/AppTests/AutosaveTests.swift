import CGtk
import Foundation
import InkCore
import InkStore
@testable import OekakiApp
import XCTest

/// The autosave queue against a real document in a temp folder (no display: status reports go to an idle
/// source nobody runs, which is fine here).
final class AutosaveTests: XCTestCase {
    private var dir = ""
    private var nextID: Int64 = 1

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "oekaki-autosave-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// One pen stroke starting at `x`, committed the way the window does: the changes plus the editor's state.
    private func draw(_ editor: Editor, _ autosave: Autosave, at x: Double, points: Int = 5) {
        let pts = (0..<points).map { InkPoint(x: x + Double($0), y: 10 + Double($0 % 7)) }
        defer { nextID += 1 }
        let u = editor.perform(.add([Stroke(id: StrokeID(nextID), style: StrokeStyle(tool: .pen, color: .black, width: 2), points: pts)]))
        autosave.commit(u.changes, state: .init(document: editor.document, history: editor.history))
    }

    private func starts(_ d: Drawing) -> [Double] { d.strokes.map { $0.points.first?.x ?? .nan } }

    func testAnEditTheFileRefusesRewritesTheFileAndLaterChangesFollowIt() throws {
        let path = dir + "/refused.oekaki"
        let editor = Editor()
        let autosave = Autosave(file: try DocumentFile.create(path: path, drawing: editor.drawing))
        var rewrites = 0
        autosave.onRewritten = { rewrites += 1 }
        draw(editor, autosave, at: 100)
        XCTAssertEqual(autosave.flushNow(), 0)

        // An undo of an edit the file never saw: `outOfSync`, which no retry can fix.
        let stray = Edit.add([Stroke(id: StrokeID(999), style: StrokeStyle(tool: .pen), points: [InkPoint(x: 1, y: 1)])])
        XCTAssertTrue(StoreError.outOfSync("x").isPermanent)
        XCTAssertFalse(StoreError.diskFull(path: path).isPermanent)
        autosave.commit([.undid(stray)], state: .init(document: editor.document, history: editor.history))
        XCTAssertEqual(autosave.flushNow(), 0, "the refused change is not retried forever: the file is rewritten")
        draw(editor, autosave, at: 200)
        draw(editor, autosave, at: 300)
        XCTAssertEqual(autosave.flushNow(), 0, "later changes are committed to the rewritten file")
        autosave.close()
        // The session hears of the rewrite (a shared board's link must let go of the old file) on the main loop.
        for _ in 0..<100 where rewrites == 0 { _ = g_main_context_iteration(nil, 0); usleep(10_000) }
        XCTAssertEqual(rewrites, 1)

        let onDisk = try DocumentFile.open(path: path, readOnly: true)
        XCTAssertEqual(starts(onDisk.drawing), [100, 200, 300])
        XCTAssertEqual(onDisk.history.undoStack.count, 3)
    }

    func testAStrokeTheFormatCannotStoreWaitsInMemoryAndSavingResumesWithALaterChange() throws {
        let path = dir + "/far.oekaki"
        let editor = Editor()
        let autosave = Autosave(file: try DocumentFile.create(path: path, drawing: editor.drawing))
        draw(editor, autosave, at: 100)
        draw(editor, autosave, at: 2e9)   // beyond ±1e9: the rewrite is refused too
        XCTAssertEqual(autosave.flushNow(), 1)
        XCTAssertEqual(autosave.flushNow(), 1, "retrying without a new change does not help and does not hang")
        _ = editor.undo()                 // the far stroke is still on the redo stack: still refused
        autosave.commit([.undid(try XCTUnwrap(editor.history.redoStack.last))], state: .init(document: editor.document, history: editor.history))
        XCTAssertEqual(autosave.flushNow(), 2)
        draw(editor, autosave, at: 300)   // a new stroke drops the redo stack: the rewrite now succeeds
        XCTAssertEqual(autosave.flushNow(), 0)
        draw(editor, autosave, at: 400)
        XCTAssertEqual(autosave.flushNow(), 0)
        autosave.close()

        let onDisk = try DocumentFile.open(path: path, readOnly: true)
        XCTAssertEqual(starts(onDisk.drawing), [100, 300, 400])
        XCTAssertEqual(onDisk.history.undoStack.count, 3)
        XCTAssertTrue(onDisk.history.redoStack.isEmpty)
    }

    /// A full disk (the file-size limit stands in for it) is transient: changes wait in order, no rewrite.
    func testAFullDiskKeepsChangesQueuedInOrderAndTheRetryCommitsThem() throws {
        let path = dir + "/full.oekaki"
        let editor = Editor()
        let autosave = Autosave(file: try DocumentFile.create(path: path, drawing: editor.drawing))
        draw(editor, autosave, at: 100)
        XCTAssertEqual(autosave.flushNow(), 0)
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber

        let fsize = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        var saved = rlimit()
        getrlimit(fsize, &saved)
        // Smaller than one log frame (a 4 KiB page plus its header): no commit fits.
        var limited = rlimit(rlim_cur: 4096, rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(fsize, &limited), 0)
        draw(editor, autosave, at: 200, points: 400)
        draw(editor, autosave, at: 300, points: 400)
        let stuck = autosave.flushNow()
        setrlimit(fsize, &saved)
        signal(SIGXFSZ, oldHandler)
        XCTAssertEqual(stuck, 2, "both changes wait while the disk is full")

        autosave.retry()
        XCTAssertEqual(autosave.flushNow(), 0)
        autosave.close()
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? NSNumber, inode,
                       "a transient failure never rewrites the file")
        let onDisk = try DocumentFile.open(path: path, readOnly: true)
        XCTAssertEqual(starts(onDisk.drawing), [100, 200, 300])
    }
}
