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

/// Rasterizes a whole drawing on every core: the surface is cut into horizontal bands, each a separate cairo
/// surface over its own rows of one buffer, and each band shapes and fills only the strokes the spatial index
/// finds in it. Shaping per band (not all strokes up front) re-shapes strokes that cross a band edge, a few
/// percent more CPU, but never holds every outline at once: peak memory stays the drawing plus the raster.
enum BandRenderer {
    /// Repaints all of `surface`: transparent, then `background` over `backgroundArea` (device pixels;
    /// nil = everywhere), then the strokes of `drawing` that are visible.
    static func render(_ drawing: Drawing, into surface: ImageSurface, mapping: DeviceMapping,
                       background: RGBA?, backgroundArea: Rect? = nil) {
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
            for s in drawing.strokes(in: bandPage) where s.style.color.a > 0 {
                Painter.fill(s, in: ctx, deviceScale: mapping.scale)
            }
        }
        surface.markDirty()
    }
}
