import Dispatch
import InkCore

/// Paints a scene's pages into a raster: per page meeting the area, clipped to the page (ink belongs to its
/// page, as in Xournal++), its paper, its lines or dots, then its strokes found by its spatial index.
/// The desk between pages stays transparent (the app paints it under the raster).
enum SheetPainter {
    /// Repaints all of `surface` on every core, in the bands `BandRenderer` cuts (so pixels match a
    /// one-surface render). `mapping`: view space → surface pixels.
    static func render(_ scene: Scene, into surface: ImageSurface, mapping: DeviceMapping) {
        let edges = BandRenderer.bandEdges(height: surface.height, mapping: mapping)
        DispatchQueue.concurrentPerform(iterations: edges.count - 1) { band in
            let y0 = edges[band], y1 = edges[band + 1]
            let view = ImageSurface(rowsOf: surface, from: y0, count: y1 - y0)
            view.fillRows(0, y1 - y0, with: nil)
            let ctx = CairoContext(drawingInto: view)
            var m = mapping
            m.dy -= Double(y0)
            paint(scene, in: ctx, mapping: m, area: Rect(minX: 0, minY: 0, maxX: Double(surface.width), maxY: Double(y1 - y0)))
        }
        surface.markDirty()
    }

    /// Paints the sheets meeting device rect `area` of `ctx` (which is transparent there, identity transform).
    static func paint(_ scene: Scene, in ctx: CairoContext, mapping m: DeviceMapping, area: Rect) {
        // A pixel more on every side: a stroke or page edge just outside still antialiases into the area.
        let reach = area.insetBy(-1)
        for sheet in scene.sheets(meeting: m.pageRect(ofDevice: reach)) {
            ctx.save()
            if let c = sheet.clip {
                // Clipped to the area too: cairo's fixed point cannot hold a huge page's device rect.
                guard let r = m.deviceRect(ofPage: c).intersection(reach) else { ctx.restore(); continue }
                ctx.clip(r)
            }
            if sheet.paper.a > 0 {
                let paper = sheet.paperArea.map { m.deviceRect(ofPage: $0).intersection(reach) } ?? reach
                if let paper { ctx.replace(paper, with: sheet.paper) }
            }
            var pm = m
            pm.dx += sheet.origin.x * m.scale; pm.dy += sheet.origin.y * m.scale
            ctx.setTransform(scale: pm.scale, dx: pm.dx, dy: pm.dy)
            let pageArea = pm.pageRect(ofDevice: reach)
            if let b = sheet.background, b.style != .plain {
                SheetPattern.paint(b, endless: sheet.endless, drawing: sheet.drawing, in: ctx, visible: pageArea)
            }
            if let pdf = sheet.pdf, !sheet.endless {
                // From the rasters cached for this zoom (or a stand-in while the sharp one renders): never waits.
                PDFPageRasters.shared.paint(pdf, pageSize: sheet.drawing.pageSize, in: ctx, scale: pm.scale, visible: pageArea)
            }
            for s in sheet.drawing.strokes(in: pageArea) {
                ItemPainter.draw(s, in: ctx, deviceScale: pm.scale)
            }
            ctx.restore()
        }
    }
}
