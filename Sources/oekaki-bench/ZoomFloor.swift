import Foundation
import InkCore
import InkRender

/// cairo's share of a window zoom step, measurable beside each step: the outlines of the two views the window's
/// steps alternate between (its canvas, 1170×681, at 100 % and zoomed in to 115 %), shaped once, filled on one
/// thread into one surface (`RenderFloor`). The window zooms around the pointer, a little off the centre these
/// views zoom around: the same density of ink, not the same strokes.
struct ZoomFloor {
    let drawing: Drawing
    let scene: Scene
    let view: Rect
    /// The window's first view (the page's corner at the canvas's, 100 %) and the one a step in shows.
    let start: ViewTransform, zoomedIn: ViewTransform
    private let fillIn: RenderFloor, fillOut: RenderFloor

    init(_ drawing: Drawing) {
        self.drawing = drawing
        let doc = Document(drawing: drawing)
        let layout = PageLayout(document: doc, current: 0)
        scene = Scene(document: doc, layout: layout)
        var start = ViewTransform()
        if let f = layout.frame(ofPage: 0) { start.offset = Point(-f.minX, -f.minY) }
        self.start = start
        view = Rect(minX: 0, minY: 0, maxX: 1170, maxY: 681)
        zoomedIn = start.zoomed(by: 1.15, around: Point(view.width / 2, view.height / 2))
        fillIn = RenderFloor(scene, area: view, transform: zoomedIn)
        fillOut = RenderFloor(scene, area: view, transform: start)
    }

    /// Outline vertices of the zoomed-in and the zoomed-out view.
    var vertices: (zoomedIn: Int, zoomedOut: Int) { (fillIn.vertices, fillOut.vertices) }

    /// CPU time (ms) of cairo filling the view a step in (or out) shows.
    func fillCPU(zoomIn: Bool) -> Double {
        ViewRenderBench.cpuMs { try? (zoomIn ? fillIn : fillOut).fill() }
    }
}
