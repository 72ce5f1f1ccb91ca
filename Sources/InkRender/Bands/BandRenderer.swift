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

    /// `finish`, when given, is called with each band's rows once they are drawn, on any core (`BandPipeline`).
    static func render(_ layers: [Drawing], into surface: ImageSurface, mapping: DeviceMapping,
                       background: RGBA?, backgroundArea: Rect? = nil, paper: Paper? = nil, underlay: ImageSurface? = nil,
                       multiply: Bool = true, finish: ((Range<Int>) -> Void)? = nil) {
        let wholeBackground = backgroundArea == nil ? background : nil
        let edges = bandEdges(height: surface.height, mapping: mapping)
        func draw(_ band: Int) {
            let y0 = edges[band], y1 = edges[band + 1]
            let view = ImageSurface(rowsOf: surface, from: y0, count: y1 - y0)
            view.fillRows(0, y1 - y0, with: wholeBackground)
            let ctx = CairoContext(drawingInto: view)
            if let area = backgroundArea, let bg = background {
                ctx.replace(Rect(minX: area.minX, minY: area.minY - Double(y0), maxX: area.maxX, maxY: area.maxY - Double(y0)), with: bg)
            }
            ctx.setTransform(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy - Double(y0))
            let bandPage = mapping.pageRect(ofDevice: Rect(minX: -1, minY: Double(y0) - 1, maxX: Double(surface.width) + 1, maxY: Double(y1) + 1))
            if let paper { BackgroundPainter.paint(paper, in: ctx, visible: bandPage, deviceScale: mapping.scale) }
            if let underlay {
                ctx.save(); ctx.identity(); ctx.paint(underlay, atX: 0, y: -Double(y0)); ctx.restore()
            }
            for drawing in layers {
                for s in drawing.strokes(in: bandPage) { ItemPainter.draw(s, in: ctx, deviceScale: mapping.scale, multiply: multiply) }
            }
            view.flush()
        }
        if let finish {
            BandPipeline.run(bands: edges.count - 1, rows: { edges[$0]..<edges[$0 + 1] }, draw: draw, finish: finish)
        } else {
            DispatchQueue.concurrentPerform(iterations: edges.count - 1, execute: draw)
        }
        surface.markDirty()
    }

    /// Row boundaries of the bands, first 0 and last `height`. Every inner boundary is a lattice line of
    /// `CairoContext` (see `addPolygon`), so cutting the surface there cuts no edge the one-surface render
    /// does not cut too: the bands' pixels are exactly one surface's.
    static func bandEdges(height: Int, mapping: DeviceMapping) -> [Int] {
        // More bands than cores balances uneven ink; each band re-tessellates the strokes crossing it, so not too many.
        // Four a core, not two: a taller band's pixels fall out of the cache (cairo's span blending then took half
        // as long again on Xournal++ pressure ink), which costs more than shaping a ninth fewer strokes twice.
        let step = CairoContext.latticeStep
        let bandCount = max(1, min(Parallel.cores * 4, height / 32))
        // Rounded up to whole lattice steps: fewer, taller bands re-shape fewer strokes that cross a boundary.
        let linesPerBand = max(1, ((height + bandCount - 1) / bandCount + step - 1) / step)
        let lines = BandCuts.latticeLines(height: height, mapping: mapping)
        return [0] + stride(from: linesPerBand - 1, to: lines.count, by: linesPerBand).map { lines[$0] } + [height]
    }
}
