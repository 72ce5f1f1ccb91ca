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
}

/// Rasterizes a whole drawing on every core: strokes are shaped in parallel, then the surface is cut into
/// horizontal bands, each a separate cairo surface over its own rows, and each band fills only the strokes
/// whose outline touches it.
enum BandRenderer {
    /// Repaints all of `surface`: transparent, then `background` over `backgroundArea` (device pixels;
    /// nil = everywhere), then the strokes of `drawing` that are visible.
    static func render(_ drawing: Drawing, into surface: ImageSurface, mapping: DeviceMapping,
                       background: RGBA?, backgroundArea: Rect? = nil) {
        let full = Rect(minX: 0, minY: 0, maxX: Double(surface.width), maxY: Double(surface.height))
        let visible = mapping.pageRect(ofDevice: full.insetBy(-1))
        let strokes = drawing.strokes(in: visible)
        let shaped = shape(strokes, deviceScale: mapping.scale)

        // More bands than cores balances uneven ink; each band re-tessellates the strokes crossing it, so not too many.
        let bandCount = max(1, min(Parallel.cores * 4, surface.height / 32))
        let rowsPerBand = (surface.height + bandCount - 1) / bandCount
        let wholeBackground = backgroundArea == nil ? background : nil
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let y0 = band * rowsPerBand, y1 = min(surface.height, y0 + rowsPerBand)
            guard y1 > y0 else { return }
            let view = ImageSurface(rowsOf: surface, from: y0, count: y1 - y0)
            view.fillRows(0, y1 - y0, with: wholeBackground)
            let ctx = CairoContext(drawingInto: view)
            if let area = backgroundArea, let bg = background {
                ctx.replace(Rect(minX: area.minX, minY: area.minY - Double(y0), maxX: area.maxX, maxY: area.maxY - Double(y0)), with: bg)
            }
            ctx.setTransform(scale: mapping.scale, dx: mapping.dx, dy: mapping.dy - Double(y0))
            let bandPage = mapping.pageRect(ofDevice: Rect(minX: -1, minY: Double(y0) - 1, maxX: Double(surface.width) + 1, maxY: Double(y1) + 1))
            for s in shaped where s.bounds.intersects(bandPage) {
                ctx.fillPolygon(s.outline, color: s.color)
            }
        }
        surface.markDirty()
    }

    /// Outlines of `strokes` in order, computed on every core.
    static func shape(_ strokes: [Stroke], deviceScale: Double) -> [ShapedStroke] {
        Parallel.map(count: strokes.count, parts: Parallel.cores * 8) { range in
            range.compactMap { ShapedStroke(strokes[$0], deviceScale: deviceScale) }
        }.flatMap { $0 }
    }
}
