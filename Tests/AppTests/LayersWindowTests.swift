import Foundation
import InkCore
import InkStore
import XCTest
import TestSupport

/// Layers in the real window: page menu ▸ Layers… adds a layer, ink drawn goes onto it, its eye hides it (the ink
/// leaves the screen's pixels), Undo shows it again; the file keeps both layers with the ink on the new one.
final class LayersWindowTests: WindowTestCase {
    func testAddALayerDrawOnItHideItAndUndo() throws {
        let log = home.appendingPathComponent("page.jsonl")
        try #"{"type":"canvas","width":600,"height":400}"#.appending("\n").write(to: log, atomically: true, encoding: .utf8)
        let file = home.appendingPathComponent("layers.oekaki").path
        let replay = try run(AppWindowTests.oekakiBinary(), ["replay", log.path, "-o", file])
        XCTAssertEqual(replay.status, 0, replay.output)

        try launch(file)
        let page = try XCTUnwrap(paperCorner(try screenshot()), "the page is on screen")
        let (x, y) = (page.x + 300, page.y + 200)

        // Page menu ▸ Layers… ▸ New layer: "Layer 2" above "Layer 1", current.
        try clickReportedControl(startingWith: "Pages:")
        try clickReportedControl(startingWith: "The layers of this page")
        try clickReportedControl(startingWith: "Add a layer above the current one")
        try waitForReportedControl(startingWith: "Hide layer “Layer 2”")
        key("Escape")
        usleep(300_000)

        // Ink on it.
        drag([(x - 150, y), (x, y + 10), (x + 150, y)])
        let drawn = try waitFor { $0.hasInk(near: x, y + 10) }
        XCTAssertTrue(drawn.hasInk(near: x, y + 10), "the stroke is drawn")

        // Its eye hides it: the ink leaves the screen, the paper stays.
        key("ctrl+l")
        try clickReportedControl(startingWith: "Hide layer “Layer 2”")
        let hidden = try waitFor { !$0.hasInk(near: x, y + 10) }
        XCTAssertFalse(hidden.hasInk(near: x, y + 10, radius: 6), "a hidden layer's ink is not drawn")
        XCTAssertTrue(hidden.isPaper(x, y + 10), "paper where the ink was")
        try waitForReportedControl(startingWith: "Show layer “Layer 2”")
        key("Escape")
        usleep(300_000)

        // Undo shows it again.
        key("ctrl+z")
        let back = try waitFor { $0.hasInk(near: x, y + 10) }
        XCTAssertTrue(back.hasInk(near: x, y + 10), "undo shows the layer again")

        usleep(500_000)
        quit()
        let stored = try DocumentFile.open(path: file, readOnly: true)
        let doc = stored.document
        stored.close()
        XCTAssertEqual(doc.pages[0].layers.map(\.name), ["Layer 1", "Layer 2"])
        XCTAssertEqual(doc.pages[0].layers.map(\.visible), [true, true])
        XCTAssertEqual(doc.pages[0].layers.map(\.drawing.strokes.count), [0, 1], "the ink is on the new layer")
    }
}
