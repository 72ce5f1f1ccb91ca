import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// The laser pointer on a shared board: its ink reaches the others as a live stroke (core NATS, outside the log),
/// fades there as on the sender's screen, and never becomes an item anywhere.
final class LaserOnBoardTests: XCTestCase {
    /// A temporary folder and a board `name` on a server of its own, both gone after the test.
    private func boardAndFolder(_ name: String) throws -> (URL, String) {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: tmp) }
        let server = try NatsServer()
        addTeardownBlock { server.stop() }
        try server.start()
        return (tmp, server.url + "/" + name)
    }

    func testLaserReachesAnotherReplicaAsLiveInkAndNeverBecomesAnItem() throws {
        let (tmp, board) = try boardAndFolder("laser")
        let url = try BoardURL(board)
        let a = try BoardSync(document: try DocumentFile.create(path: tmp.appendingPathComponent("a.oekaki").path, drawing: Drawing()), url: url)
        let b = try BoardSync(document: try DocumentFile.create(path: tmp.appendingPathComponent("b.oekaki").path, drawing: Drawing()), url: url)
        for s in [a, b] { s.note = { _ in }; try s.connect(timeoutMs: 2000); try s.syncOnce() }
        try a.syncOnce()
        let logBefore = b.replica.ledger.lastSequence

        // A points with the laser, as the app's editor draws it; each tick sends what changed.
        let editor = Editor()
        editor.tool = .laser
        var sender = LiveSender()
        var live = LiveStrokes()
        func tick(_ now: Double) throws {
            for m in sender.messages(client: a.replica.client, strokes: editor.liveStrokes, laser: editor.laser.trails) { a.publishLive(m) }
            try a.push(); try a.pull(waitMs: 50)
            try b.pull(waitMs: 50)
            usleep(100_000)
            for m in b.takeLive() { live.receive(m, at: now) }
        }
        let pts = [(10.0, 50.0), (60, 60), (120, 40), (150, 80)]
        for (k, p) in pts.enumerated() {
            let phase: InputEvent.Phase = k == 0 ? .began : .moved
            _ = editor.handle(InputEvent(pointer: 1, phase: phase, point: InkPoint(x: p.0, y: p.1, time: Double(k) * 10), device: .mouse))
            try tick(Double(k))
        }
        XCTAssertEqual(live.laserTrails.count, 1, "the laser arrived")
        XCTAssertEqual(live.laserTrails.first?.stroke.points.map(\.x), pts.map(\.0))
        XCTAssertEqual(live.laserTrails.first?.stroke.style.tool, .laser)
        XCTAssertNil(live.laserTrails.first?.liftedAt, "still pointing")
        XCTAssertTrue(live.shown.isEmpty, "not a stroke in progress")

        _ = editor.handle(InputEvent(pointer: 1, phase: .ended, point: InkPoint(x: 150, y: 80, time: 40), device: .mouse))
        try tick(10)
        let lifted = try XCTUnwrap(live.laserTrails.first?.liftedAt, "the lift arrived")
        XCTAssertEqual(lifted, 10_000)
        // It fades on the receiver as on the sender: in full for `hold`, gone at `lifetime`.
        XCTAssertEqual(live.laserTrails[0].opacity(at: lifted + 500), 1)
        XCTAssertLessThan(live.laserTrails[0].opacity(at: lifted + 1200), 1)
        XCTAssertFalse(live.expire(at: 11.4))
        XCTAssertTrue(live.expire(at: 11.6))
        XCTAssertTrue(live.isEmpty, "gone after 1.5 s")

        // Nothing anywhere became an item: not in either file, not in the log, not in the editor's history.
        try a.syncOnce(); try b.syncOnce()
        XCTAssertEqual(a.document.document.strokeCount, 0)
        XCTAssertEqual(b.document.document.strokeCount, 0)
        XCTAssertEqual(b.replica.ledger.lastSequence, logBefore, "no log entry")
        XCTAssertEqual(editor.drawing.strokes.count, 0)
        XCTAssertFalse(editor.history.canUndo)
        // Once faded on the sender, nothing more goes out.
        _ = editor.expireLaser(at: 40 + LaserPointer.lifetime)
        XCTAssertTrue(sender.messages(client: a.replica.client, strokes: [], laser: editor.laser.trails).isEmpty)
    }

    /// Live ink (a stroke in progress, the laser) says which board page it is on: another replica shows it on its
    /// own copy of that page only, though the page has another local id there, and not on the page it is viewing.
    func testLiveInkShowsOnItsOwnPageOnTheOtherReplica() throws {
        let (tmp, url) = try boardAndFolder("pages")
        let a = try EditorOnBoardTests.User(tmp.appendingPathComponent("a.oekaki").path, url)
        let b = try EditorOnBoardTests.User(tmp.appendingPathComponent("b.oekaki").path, url)
        // B's page numbers run ahead of A's, so A's second page has another local id on B.
        try b.run(b.editor.addPage(.endless)); try b.run(b.editor.undo())
        try a.run(a.editor.addPage(.endless))
        for _ in 0..<2 { try a.sync.syncOnce(); try b.sync.syncOnce() }
        let aSecond = a.editor.document.pages[1].id, bFirst = b.editor.document.pages[0].id, bSecond = b.editor.document.pages[1].id
        XCTAssertNotEqual(aSecond, bSecond, "the same page, other local ids")

        // A, on its second page, draws and points with the laser.
        a.editor.tool = .pen
        _ = a.editor.handle(InputEvent(pointer: 1, phase: .began, point: InkPoint(x: 10, y: 10)))
        _ = a.editor.handle(InputEvent(pointer: 1, phase: .moved, point: InkPoint(x: 60, y: 30)))
        a.editor.tool = .laser
        _ = a.editor.handle(InputEvent(pointer: 2, phase: .began, point: InkPoint(x: 100, y: 100, time: 0), device: .mouse))
        _ = a.editor.handle(InputEvent(pointer: 2, phase: .moved, point: InkPoint(x: 140, y: 120, time: 10), device: .mouse))
        var sender = LiveSender()
        let page = a.sync.replica.boardPageID(aSecond)
        for var m in sender.messages(client: a.sync.replica.client, strokes: a.editor.liveStrokes, laser: a.editor.laser.trails) {
            m.page = page   // as the app's board link does on the save queue
            a.sync.publishLive(m)
        }
        var live = LiveStrokes()
        for _ in 0..<20 where live.isEmpty || live.laserTrails.isEmpty {
            try a.sync.pull(waitMs: 20); try b.sync.pull(waitMs: 50)
            for m in b.sync.takeLive() {
                XCTAssertEqual(m.page, page)
                live.receive(m, at: 0, page: m.page.flatMap { b.sync.replica.localPageID($0) })
            }
        }
        let stroke = try XCTUnwrap(live.shown.first), laser = try XCTUnwrap(live.laserTrails.first?.stroke)
        for ink in [stroke, laser] {
            XCTAssertEqual(ink.page, bSecond)
            XCTAssertTrue(LiveStrokes.isShown(ink, on: bSecond), "on B's copy of A's page")
            XCTAssertFalse(LiveStrokes.isShown(ink, on: bFirst), "not on the page B is looking at")
        }

        // A message that names no page (an older sender) still shows wherever the receiver is.
        let old = LiveStroke(id: BoardStrokeID(client: 5, number: 1), style: StrokeStyle(), points: [InkPoint(x: 1, y: 1)], ended: false)
        let back = try XCTUnwrap(LiveStroke(old.encoded()))
        XCTAssertNil(back.page)
        XCTAssertEqual(old.encoded()[2], 1, "written as version 1")
        var any = LiveStrokes()
        any.receive(back, at: 0)
        XCTAssertTrue(LiveStrokes.isShown(try XCTUnwrap(any.shown.first), on: bFirst))
    }

    func testALaserHeldByANewStrokeStopsFadingOnTheReceiverToo() {
        var sender = LiveSender()
        var live = LiveStrokes()
        let s = Stroke(id: 1 << 61, style: StrokeStyle(tool: .laser, color: .laserRed, width: 4), points: [InkPoint(x: 1, y: 1)])
        for m in sender.messages(client: 5, strokes: [], laser: [LaserPointer.Trail(stroke: s, liftedAt: 100)]) { live.receive(LiveStroke(m.encoded())!, at: 1) }
        XCTAssertEqual(live.laserTrails.first?.liftedAt, 1000)
        for m in sender.messages(client: 5, strokes: [], laser: [LaserPointer.Trail(stroke: s, liftedAt: nil)]) { live.receive(LiveStroke(m.encoded())!, at: 1.5) }
        XCTAssertNil(live.laserTrails.first?.liftedAt, "held again")
        XCTAssertEqual(live.laserTrails.first?.stroke.points.count, 1, "no point twice")
        XCTAssertTrue(sender.messages(client: 5, strokes: [], laser: [LaserPointer.Trail(stroke: s, liftedAt: nil)]).isEmpty, "nothing new")
    }
}
