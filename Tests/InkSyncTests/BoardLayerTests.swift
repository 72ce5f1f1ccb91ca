import Foundation
import XCTest
import InkCore
import InkStore
@testable import InkSync

/// Layers on a shared board: every layer edit travels as layer entries (add, delete and restore, move, rename and
/// hide, items moved to a layer) and the other replicas follow it through `Document.apply`; undo converges too.
final class BoardLayerTests: XCTestCase {
    let a = BoardStrokeID(client: 0xabc, number: 7)
    let l = BoardLayerID(client: 0x55, number: 9), p = BoardPageID(client: 0x77, number: 3)

    func layerChanges() -> [BoardOperation.Change] {
        var onLayer = BoardStroke(id: a, page: p, style: StrokeStyle(color: RGBA(r: 1, g: 2, b: 3)), points: [InkPoint(x: 1, y: 2, pressure: 1), InkPoint(x: 3, y: 4, pressure: 1)])
        onLayer.layer = l
        return [
            .addLayer(BoardLayer(id: l, page: p, key: PageKey.between(.first, nil), look: LayerLook(name: "答え Answers", visible: false), everyPage: true)),
            .addLayer(BoardLayer(id: BoardLayerID(page: .first), page: .first, key: .first, look: LayerLook(name: "Layer 1"))),
            .deleteLayers([l, BoardLayerID(page: p)]), .restoreLayers([l]),
            .moveLayers([l: PageKey.between(nil, .first), BoardLayerID(page: p): PageKey(digits: [3, 1])!]),
            .lookLayers([l: LayerLook(name: "Notes", visible: true)]),
            .moveItems([a: l, BoardStrokeID(client: 1, number: 2): BoardLayerID(page: p)]),
            .add(onLayer),
        ]
    }

    func testLayerEntriesRoundTripWithTheirBytesPinned() throws {
        var all: [UInt8] = []
        for (k, change) in layerChanges().enumerated() {
            let op = BoardOperation(client: 42, number: UInt64(k) + 1, change: change)
            let bytes = try OperationCodec.encode(op)
            XCTAssertEqual(bytes[2], 2, "layer entries are version 2")
            XCTAssertEqual(try OperationCodec.decode(bytes), op)
            all += bytes
        }
        XCTAssertEqual(all.count, 169)
        XCTAssertEqual(ContentHash(of: all).hex, "7eb4646848ab2b16787e0a8de57a8cccf231f2708c5fb6e09535d975026f6c3d", "\(all.count) bytes")
        // A stroke on its page's first layer is still the old kind 1, byte for byte.
        var plain = BoardStroke(id: a, style: StrokeStyle(), points: [InkPoint(x: 1, y: 2)])
        XCTAssertEqual(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(plain)))[2...3], [1, 1])
        plain.layer = l
        XCTAssertEqual(try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .add(plain)))[2...3], [2, 21])
    }

    func testHostileLayerEntriesAreErrors() throws {
        let good = try OperationCodec.encode(BoardOperation(client: 1, number: 1, change: .lookLayers([l: LayerLook(name: "ab")])))
        // [O K 2 19 client number count layer(2) len 'a' 'b' visible]
        XCTAssertEqual(good.count, 13)
        var control = good; control[10] = 0x07
        var flag = good; flag[12] = 7
        var long = good; long[9] = 0xff; long.insert(0x7f, at: 10)
        var empty = Array(good[0..<9]) + [0, 1]
        for bad in [control, flag, long, empty, Array(good.dropLast()), good + [0]] {
            XCTAssertThrowsError(try OperationCodec.decode(bad), "\(bad)")
        }
        empty = [0x4F, 0x4B, 1, 15, 1, 1]   // a layer entry in a version-1 entry
        XCTAssertThrowsError(try OperationCodec.decode(empty))
    }

    func testTwoEditorsConvergeOnNotebookLayersMovesAndUndo() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("board-layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let server = try NatsServer()
        defer { server.stop() }
        try server.start()
        let url = server.url + "/layers"
        let a = try EditorOnBoardTests.User(tmp.appendingPathComponent("a.oekaki").path, url)
        let b = try EditorOnBoardTests.User(tmp.appendingPathComponent("b.oekaki").path, url)
        func settle() throws {
            for _ in 0..<2 { try a.sync.syncOnce(); try b.sync.syncOnce() }
            XCTAssertEqual(a.seen, b.seen)
            XCTAssertEqual(DrawingSummary(b.sync.document.document), b.seen, "B's file holds what B's window shows")
            XCTAssertEqual(DrawingSummary(a.sync.document.document), a.seen)
        }
        func names(_ u: EditorOnBoardTests.User, page: Int = 0) -> [String] { u.editor.document.pages[page].layers.map { "\($0.name)\($0.visible ? "" : " (hidden)")" } }

        // B's numbers run ahead of A's, so the same layer has other local ids on each side.
        try b.run(b.editor.addPage(.endless))
        try b.run(b.editor.undo())
        try settle()

        // A: a line on page 1, a second page, a notebook layer hidden on every page, the line moved to it.
        try a.line(y: 50)
        try a.run(a.editor.addPage(.fixed(Size(width: 600, height: 800))))
        _ = a.editor.goToPage(0)
        try a.run(a.editor.addLayer(named: "Answers", allPages: true))
        try a.run(try a.editor.setLayerVisible(.name("Answers"), false))
        a.editor.selectLayer(0)
        _ = try a.editor.apply(.all)
        try a.run(try a.editor.moveSelection(toLayer: 1))
        try settle()
        XCTAssertEqual(names(b), ["Layer 1", "Answers (hidden)"])
        XCTAssertEqual(names(b, page: 1), ["Layer 1", "Answers (hidden)"])
        XCTAssertEqual(b.editor.document.pages[0].layers[1].drawing.strokes.count, 1, "the line is on B's Answers layer")
        XCTAssertTrue(b.editor.document.pages[0].layers[1].everyPage)
        XCTAssertTrue(b.editor.document.pages[0].shownStrokes.isEmpty, "and hidden there")

        // B: shows it, renames it, puts it under Layer 1 and draws on it; a new layer of its own on page 2.
        try b.run(try b.editor.setLayerVisible(.name("Answers"), true))
        _ = b.editor.goToPage(0)
        try b.run(try b.editor.renameLayer(.index(1), to: "Key"))
        try b.run(try b.editor.moveLayer(.index(1), by: -1))
        b.editor.selectLayer(0)
        try b.line(y: 200)
        _ = b.editor.goToPage(1)
        try b.run(b.editor.addLayer(named: "B's"))
        try settle()
        XCTAssertEqual(names(a), ["Key", "Layer 1"])
        XCTAssertEqual(names(a, page: 1), ["Layer 1", "Answers", "B's"])
        XCTAssertEqual(a.editor.document.pages[0].layers[0].drawing.strokes.count, 2, "A's line and B's on Key")

        // B deletes Layer 1 of page 1 (now empty); A undoes the move of its line and the hide.
        _ = b.editor.goToPage(0)
        try b.run(try b.editor.deleteLayer(.index(1)))
        try settle()
        XCTAssertEqual(names(a), ["Key"])
        try a.run(a.editor.undo())   // the move of the line: back to Layer 1, which B deleted: the line goes to the top layer
        try settle()
        XCTAssertEqual(a.editor.document.pages[0].strokes.count, 2, "no ink lost")
        try b.run(b.editor.undo())   // B's delete: Layer 1 comes back
        try settle()
        XCTAssertEqual(names(a).sorted(), ["Key", "Layer 1"])
        a.sync.disconnect(); b.sync.disconnect()

        // What the board knows about layers survives a restart: the file and its board agree, nothing to publish.
        let path = b.sync.document.path
        b.sync.unlink()
        b.sync.document.close()
        let file = try DocumentFile.open(path: path)
        defer { file.close() }
        let again = try BoardSync(document: file, url: try BoardURL(url))
        again.note = { _ in }
        XCTAssertTrue(again.replica.isSettled, "\(again.replica.outbox())")
        XCTAssertEqual(DrawingSummary(file.document), a.seen)
    }
}
