import XCTest
import InkCore
@testable import InkRender

/// Hidden layers are not drawn, shown ones are drawn bottom to top: PNG (bands), SVG, PDF and the screen's scene.
final class LayerRenderTests: XCTestCase {
    /// A 200×200 page: a red bar on "Layer 1", a blue bar crossing it on "Top", a green bar on hidden "Answers".
    private func page() throws -> Page {
        let e = Editor(document: Document(pages: [Page(format: .fixed(Size(width: 200, height: 200)))]))
        func bar(_ color: RGBA, from a: (Double, Double), to b: (Double, Double)) {
            e.style = StrokeStyle(tool: .pen, color: color, width: 12)
            for k in 0...10 {
                let t = Double(k) / 10
                let phase: InputEvent.Phase = k == 0 ? .began : k == 10 ? .ended : .moved
                _ = e.handle(InputEvent(pointer: 1, phase: phase, point: InkPoint(x: a.0 + (b.0 - a.0) * t, y: a.1 + (b.1 - a.1) * t, pressure: 0.5),
                                        device: .pen, hasPressure: true))
            }
        }
        bar(RGBA(r: 255, g: 0, b: 0), from: (20, 100), to: (180, 100))
        e.addLayer(named: "Top")
        bar(RGBA(r: 0, g: 0, b: 255), from: (100, 20), to: (100, 180))
        e.addLayer(named: "Answers")
        bar(RGBA(r: 0, g: 160, b: 0), from: (20, 40), to: (180, 40))
        try e.setLayerVisible(.name("Answers"), false)
        return e.page
    }

    func testPNGDrawsShownLayersBottomToTopAndSkipsHiddenOnes() throws {
        let p = try page()
        let image = try Exporter.render(p)
        XCTAssertEqual(image.pixel(x: 100, y: 100).b, 255, "the upper layer's blue over the lower red")
        XCTAssertEqual(image.pixel(x: 40, y: 100).r, 255, "the lower layer's red")
        XCTAssertEqual(image.pixel(x: 60, y: 40), .white, "the hidden layer's green is not drawn")
        var moved = p
        moved = Page(id: p.id, format: p.format, layers: [p.layers[1], p.layers[0], p.layers[2]])
        XCTAssertEqual(try Exporter.render(moved).pixel(x: 100, y: 100).r, 255, "moved up, the red is on top")
    }

    func testVectorExportsLeaveOutHiddenLayers() throws {
        let p = try page()
        let svg = String(decoding: try Exporter.data(p, format: .svg), as: UTF8.self)
        XCTAssertTrue(svg.contains("#ff0000") && svg.contains("#0000ff"), svg)
        XCTAssertFalse(svg.contains("#00a000"), "no hidden ink in the SVG")
        XCTAssertLessThan(svg.range(of: "#ff0000")!.lowerBound, svg.range(of: "#0000ff")!.lowerBound, "bottom layer first")
        let pdf = try Exporter.data(p, format: .pdf)
        XCTAssertFalse(pdf.isEmpty)
    }

    func testTheScreenSceneShowsOnlyShownLayers() throws {
        let p = try page()
        let sheets = Scene(document: Document(pages: [p]), layout: PageLayout(document: Document(pages: [p]), current: 0)).sheets(meeting: Rect(x: -1000, y: -1000, width: 4000, height: 4000))
        XCTAssertEqual(sheets.count, 1)
        XCTAssertEqual(sheets[0].layers.count, 2)
        XCTAssertEqual(sheets[0].strokes(in: Rect(x: 0, y: 0, width: 200, height: 200)).map(\.style.color.b), [0, 255])
    }
}
