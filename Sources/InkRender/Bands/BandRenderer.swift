import Dispatch
import Foundation
import InkCore

/// Page → device pixels for a raster: device = page · scale + offset.
struct DeviceMapping: Hashable, Sendable {
    var scale: Double
    var dx: Double = 0
    var dy: Double = 0

    func pageRect(ofDevice r: Rect) -> Rect {
        Rect(minX: (r.minX - dx) / scale, minY: (r.minY - dy) / scale, maxX: (r.maxX - dx) / scale, maxY: (r.maxY - dy) / scale)
    }
    func deviceRect(ofPage r: Rect) -> Rect {
        Rect(minX: r.minX * scale + dx, minY: r.minY * scale + dy, maxX: r.maxX * scale + dx, maxY: r.maxY * scale + dy)
    }
    /// The surface row of the lattice line where y = 0 lands, floored (see `CairoContext.latticeRow`).
    var latticeRow: Double { (dy + 1e-6).rounded(.down) }
    /// The mapping of a page placed at `origin` (its own units → the same pixels).
    func placed(at origin: Point) -> DeviceMapping {
        DeviceMapping(scale: scale, dx: dx + origin.x * scale, dy: dy + origin.y * scale)
    }
}

/// Rasterizes a whole drawing on every core: the surface is cut into horizontal bands, each a separate cairo
/// surface over its own rows of one buffer, and each band shapes and fills only the strokes the spatial index
/// finds in it. Shaping per band (not all strokes up front) re-shapes strokes that cross a band edge, a few
/// percent more CPU, but never holds every outline at once: peak memory stays the drawing plus the raster.
enum BandRenderer {
    /// Repaints all of `surface`: transparent, then `background` over `backgroundArea` (device pixels;
    /// nil = everywhere), then the lines or dots of `paper`, then `underlay` (a PDF page rendered for this
    /// surface, pixel for pixel), then the strokes of `layers` (bottom first) that are visible.
    static func render(_ drawing: Drawing, into surface: ImageSurface, mapping: DeviceMapping,
                       background: RGBA?, backgroundArea: Rect? = nil, paper: Paper? = nil, underlay: ImageSurface? = nil,
                       multiply: Bool = true) {
        render([drawing], into: surface, mapping: mapping, background: background, backgroundArea: backgroundArea, paper: paper,
               underlay: underlay, multiply: multiply)
    }

    static func render(_ layers: [Drawing], into surface: ImageSurface, mapping: DeviceMapping,
                       background: RGBA?, backgroundArea: Rect? = nil, paper: Paper? = nil, underlay: ImageSurface? = nil,
                       multiply: Bool = true) {
        let wholeBackground = backgroundArea == nil ? background : nil
        let edges = bandEdges(layers, height: surface.height, mapping: mapping)
        DispatchQueue.concurrentPerform(iterations: edges.count - 1) { band in
            let y0 = edges[band], y1 = edges[band + 1]
            let view = ImageSurface(rowsOf: surface, from: y0, count: y1 - y0)
            view.fillRows(0, y1 - y0, with: wholeBackground)
            let ctx = CairoContext(drawingInto: view)
            if let area = backgroundArea, let bg = background {
                ctx.replace(Rect(minX: area.minX, minY: area.minY - Double(y0), maxX: area.maxX, maxY: area.maxY - Double(y0)), with: bg)
            }
            ctx.setTransform(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy - Double(y0))
            let bandPage = mapping.pageRect(ofDevice: Rect(minX: -1, minY: Double(y0) - 1, maxX: Double(surface.width) + 1, maxY: Double(y1) + 1))
            if let paper { BackgroundPainter.paint(paper, in: ctx, visible: bandPage) }
            if let underlay {
                ctx.save(); ctx.identity(); ctx.paint(underlay, atX: 0, y: -Double(y0)); ctx.restore()
            }
            for drawing in layers {
                for s in drawing.strokes(in: bandPage) { ItemPainter.draw(s, in: ctx, deviceScale: mapping.scale, multiply: multiply) }
            }
        }
        surface.markDirty()
    }

    /// Row boundaries of the bands, first 0 and last `height`, cut by the work the strokes promise (`BandCuts`:
    /// their points spread over the rows they span, the heaviest band first and falling shares, so both cores end
    /// together). Twice as many bands as cores: a stroke crossing a cut is shaped and filled once per band, and
    /// eight bands on two cores did that for a quarter of Xournal++ pressure ink's strokes, four for a ninth.
    /// Every inner boundary is a lattice line of `CairoContext` (see `addPolygon`), so cutting the surface there
    /// cuts no edge the one-surface render does not cut too: the bands' pixels are exactly one surface's.
    static func bandEdges(_ layers: [Drawing], height: Int, mapping: DeviceMapping) -> [Int] {
        let bands = max(1, min(Parallel.cores * 2, height / 32))
        guard bands > 1 else { return [0, height] }
        var cuts = BandCuts(height: height)
        for drawing in layers {
            for s in drawing.strokes {
                guard let b = s.inkBounds else { continue }
                // Paper and the compositing of each row are work too: a point's worth per stroke.
                cuts.add(Double(s.points.count + 1), rows: b.minY * mapping.scale + mapping.dy, b.maxY * mapping.scale + mapping.dy)
            }
        }
        return cuts.edges(mapping: mapping, bands: bands)
    }

    /// The cuts for a surface without strokes (its rows are the work).
    static func bandEdges(height: Int, mapping: DeviceMapping) -> [Int] { bandEdges([], height: height, mapping: mapping) }
}
