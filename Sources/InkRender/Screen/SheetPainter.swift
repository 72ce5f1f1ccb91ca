import Dispatch
import Foundation
import InkCore

/// Paints a scene's pages into a raster: per page meeting the area, clipped to the page (ink belongs to its
/// page, as in Xournal++), its paper, its lines or dots, then its strokes found by its spatial index.
/// The desk between pages stays transparent (the app paints it under the raster).
enum SheetPainter {
    /// Repaints all of `surface` on every core, in bands cut where they share out the work (`BandCuts`; the
    /// pixels match a one-surface render). `mapping`: view space → surface pixels. False when `cancel` stopped
    /// it (the surface is then partly painted).
    ///
    /// Each visible stroke is shaped once for the whole surface, not once per band it crosses: the first band
    /// to reach a stroke shapes it (or takes the outline an earlier render made, `OutlineCache`), a later band
    /// meeting it fills the same outline, and the last one lets it go. A band fills the same polygons in the
    /// same order as it would alone, so its pixels are unchanged. The bands run as one parallel loop (no step
    /// where one core waits for the other's last band between batches), and only outlines still wanted by a
    /// band not yet past them are held.
    @discardableResult
    static func render(_ scene: Scene, into surface: ImageSurface, mapping: DeviceMapping, cancel: RenderCancellation? = nil,
                       keepOutlines: Bool = true) -> Bool {
        // A pixel more on every side: a stroke or page edge just outside still antialiases into the area.
        let reach = Rect(minX: -1, minY: -1, maxX: Double(surface.width) + 1, maxY: Double(surface.height) + 1)
        // The strokes first: where the ink lies decides where the bands are cut.
        let sheets = scene.sheets(meeting: mapping.pageRect(ofDevice: reach)).map { sheet in
            let pm = mapping.placed(at: sheet.origin)
            let strokes = sheet.strokes(in: pm.pageRect(ofDevice: reach))
            return (sheet: sheet, mapping: pm, strokes: strokes, bounds: strokes.map(\.inkBounds))
        }
        var cuts = BandCuts(height: surface.height)
        // Paper and its lines: a guess of a sample's work per thousand pixels.
        cuts.add(Double(surface.width * surface.height) / 1000, rows: 0, Double(surface.height))
        for found in sheets {
            for (k, s) in found.strokes.enumerated() where s.content.isInk {
                guard let b = found.bounds[k] else { continue }
                let m = found.mapping
                cuts.add(SharedOutlines.work(s), rows: b.minY * m.scale + m.dy, b.maxY * m.scale + m.dy)
            }
        }
        // Bands of 48 rows or more on average: a thin pan strip cut finer would only fill the strokes crossing it
        // once more per band.
        let edges = cuts.edges(mapping: mapping, bands: min(Parallel.cores * 4, surface.height / 48))
        let bands = (0..<(edges.count - 1)).map { b in
            Band(surface: ImageSurface(rowsOf: surface, from: edges[b], count: edges[b + 1] - edges[b]), y0: edges[b], mapping: mapping)
        }
        defer { surface.markDirty(); OutlineCache.shared.endRender() }
        DispatchQueue.concurrentPerform(iterations: bands.count) { b in
            bands[b].surface.fillRows(0, bands[b].surface.height, with: nil)
        }
        for (sheet, pm, strokes, bounds) in sheets {
            if cancel?.isCancelled == true { return false }
            DispatchQueue.concurrentPerform(iterations: bands.count) { b in bands[b].begin(sheet, mapping: mapping) }
            defer { for band in bands { band.end() } }
            let areas = bands.map(\.pageArea)
            // The whole surface as the sheet's page units map to it, on the view's lattice: each stroke is mapped and
            // cut once, and every band fills its rows of that.
            let whole = CairoContext(drawingInto: surface)
            whole.latticeRow = mapping.latticeRow
            whole.setTransform(scale: pm.scale, dx: pm.dx, dy: pm.dy)
            let shared = SharedOutlines(strokes, bounds: bounds, bandAreas: areas, deviceScale: pm.scale, map: whole.deviceMap(),
                                        keep: keepOutlines)
            // Heaviest bands first: the cores finish together instead of one waiting while the other ends a big one.
            DispatchQueue.concurrentPerform(iterations: bands.count) { i in
                let b = shared.heaviestFirst[i]
                let band = bands[b]
                guard let area = areas[b] else { return }
                // By index, from the outlines' own arrays: no stroke value is copied for a band it misses.
                var visited = 0
                for k in 0..<strokes.count where shared.bounds[k]?.intersects(area) == true {
                    visited += 1
                    if visited & 31 == 0, cancel?.isCancelled == true { return }
                    if shared.isInk[k] {
                        switch shared.outline(k) {
                        case .device(let polygon)?: band.context.fill(polygon, rowsFrom: band.y0, color: shared.colors[k], multiply: shared.multiplies[k])
                        case .page(let outline)?: band.context.fillPolygon(outline, color: shared.colors[k], multiply: shared.multiplies[k])
                        case nil: break
                        }
                        shared.done(k)
                    } else {
                        ItemPainter.draw(strokes[k], in: band.context, deviceScale: pm.scale)
                    }
                }
            }
            if cancel?.isCancelled == true { return false }
        }
        return true
    }

    /// The outlines of one sheet's strokes during a banded render, shaped by whichever band needs one first
    /// and dropped once every band meeting the stroke has filled it. Slots are guarded by a few striped locks:
    /// a band waits only when another is shaping that very stroke (bands meet few strokes in common).
    private final class SharedOutlines: @unchecked Sendable {
        private let strokes: [Stroke]
        private let deviceScale: Double
        /// One per stroke, each touched only under its stripe's lock.
        private let slots: [Slot]
        private let locks = (0..<64).map { _ in NSLock() }
        /// Per stroke: where its ink can be, whether it is ink (shaped here), its colour and whether it multiplies.
        let bounds: [Rect?]
        let isInk: [Bool]
        let colors: [RGBA]
        let multiplies: [Bool]
        /// Band indices by the samples of the strokes meeting them, each by the share of its height in the band (a guess
        /// at their work), most first.
        let heaviestFirst: [Int]

        /// Whether outlines shaped here go into `OutlineCache` (kept ones are used either way).
        private let keep: Bool
        private let map: DeviceMap?

        /// A stroke's outline once a band has shaped it, and the bands still to fill it (0 for items that are not ink).
        private final class Slot {
            var shaped = false
            var outline: Outline?
            var users: Int32
            init(users: Int32) { self.users = users }
        }

        /// A guess at the work of filling ink stroke `s`: its samples.
        static func work(_ s: Stroke) -> Double { Double(s.points.count) }

        /// `map`: the sheet's page units → the whole surface's pixels (nil: each band maps the page outline itself).
        init(_ strokes: [Stroke], bounds: [Rect?], bandAreas: [Rect?], deviceScale: Double, map: DeviceMap?, keep: Bool) {
            self.strokes = strokes; self.deviceScale = deviceScale; self.map = map; self.keep = keep
            self.bounds = bounds
            // Filled or dashed ink is several loops (and a pen's fill a second fill): `ItemPainter` draws it whole.
            isInk = strokes.map { if case .ink = $0.content { $0.style.isPlainLine || ($0.style.fill == nil && $0.style.line.isSolid) } else { false } }
            colors = strokes.map(\.style.inkColor)
            multiplies = strokes.map(\.style.multiplies)
            var load = [Double](repeating: 0, count: bandAreas.count)
            var slots: [Slot] = []
            slots.reserveCapacity(strokes.count)
            for k in strokes.indices {
                var n: Int32 = 0
                if isInk[k], let b = bounds[k] {
                    let points = Self.work(strokes[k])
                    for (i, area) in bandAreas.enumerated() where area.map({ b.intersects($0) }) == true {
                        n += 1
                        // The share of its height inside the band: a tall stroke across bands is filled in
                        // pieces, and counting it whole in each made the last band's work (one core idle
                        // meanwhile) 15-35 ms instead of 0-15 ms.
                        let inside = area.map { min(b.maxY, $0.maxY) - max(b.minY, $0.minY) } ?? 0
                        load[i] += b.height > 0 ? points * max(inside, 0) / b.height + 1 : points + 1
                    }
                }
                slots.append(Slot(users: n))
            }
            self.slots = slots
            heaviestFirst = bandAreas.indices.sorted { load[$0] > load[$1] }
        }

        /// A shaped stroke as the bands fill it: mapped to the surface's pixels and cut once (`DevicePolygon`), or,
        /// where that cannot be (beyond cairo's range, too many cuts), in page units for each band to map.
        enum Outline {
            case device(DevicePolygon)
            case page([Point])
        }

        /// The outline of stroke `k`, shaped now if no band has yet (nil: nothing to fill).
        func outline(_ k: Int) -> Outline? {
            let lock = locks[k & 63], slot = slots[k]
            lock.lock(); defer { lock.unlock() }
            if !slot.shaped {
                slot.shaped = true
                let s = strokes[k]
                if s.style.color.a > 0 {
                    let page = OutlineCache.shared.outline(of: s, deviceScale: deviceScale, keep: keep)
                    slot.outline = map?.polygon(page).map(Outline.device) ?? .page(page)
                }
            }
            return slot.outline
        }

        /// A band has filled stroke `k`: the last one frees its outline.
        func done(_ k: Int) {
            let lock = locks[k & 63], slot = slots[k]
            lock.lock(); defer { lock.unlock() }
            slot.users -= 1
            if slot.users <= 0 { slot.outline = nil }
        }
    }

    /// One band of a `render`: its rows of the surface, and the page area it shows for the sheet being painted.
    private final class Band {
        let surface: ImageSurface
        let context: CairoContext
        /// Surface pixels → band pixels: the band starts at row `y0`.
        let y0: Int
        let reach: Rect
        /// The painted sheet's page area this band shows (nil: the sheet misses the band).
        var pageArea: Rect?

        init(surface: ImageSurface, y0: Int, mapping: DeviceMapping) {
            self.surface = surface; self.y0 = y0
            context = CairoContext(drawingInto: surface)
            // Every page on the view's lattice, which the bands are cut on.
            context.latticeRow = mapping.latticeRow - Double(y0)
            reach = Rect(minX: 0, minY: 0, maxX: Double(surface.width), maxY: Double(surface.height)).insetBy(-1)
        }

        /// Clip, paper, lines and PDF page of `sheet` (as `paint` does for one area); its items follow.
        func begin(_ sheet: Sheet, mapping: DeviceMapping) {
            var m = mapping
            m.dy -= Double(y0)
            pageArea = nil
            context.save()
            guard sheet.reach(m.pageRect(ofDevice: reach)) != nil else { return }
            pageArea = SheetPainter.underlay(sheet, in: context, mapping: m, reach: reach)?.area
        }

        func end() { context.restore() }
    }

    /// Paints the sheets meeting device rect `area` of `ctx` (which is transparent there, identity transform).
    static func paint(_ scene: Scene, in ctx: CairoContext, mapping m: DeviceMapping, area: Rect) {
        // A pixel more on every side: a stroke or page edge just outside still antialiases into the area.
        let reach = area.insetBy(-1)
        for sheet in scene.sheets(meeting: m.pageRect(ofDevice: reach)) {
            ctx.save()
            guard let (pm, pageArea) = underlay(sheet, in: ctx, mapping: m, reach: reach) else { ctx.restore(); continue }
            for s in sheet.strokes(in: pageArea) {
                ItemPainter.draw(s, in: ctx, deviceScale: pm.scale)
            }
            ctx.restore()
        }
    }

    /// Clip, paper, lines and PDF page of `sheet` on `ctx` (saved by the caller) where device rect `reach` shows it,
    /// leaving the transform in page units; the sheet's page mapping and area there, nil when its clip misses `reach`.
    /// The one place both the banded render and `paint` draw what lies under a sheet's items.
    static func underlay(_ sheet: Sheet, in ctx: CairoContext, mapping m: DeviceMapping, reach: Rect) -> (mapping: DeviceMapping, area: Rect)? {
        if let c = sheet.clip {
            // Clipped to the reach too: cairo's fixed point cannot hold a huge page's device rect.
            guard let r = m.deviceRect(ofPage: c).intersection(reach) else { return nil }
            ctx.clip(r)
        }
        if sheet.paper.a > 0 {
            let paper = sheet.paperArea.map { m.deviceRect(ofPage: $0).intersection(reach) } ?? reach
            if let paper { ctx.replace(paper, with: sheet.paper) }
        }
        let pm = m.placed(at: sheet.origin)
        ctx.setTransform(scale: pm.scale, dx: pm.dx, dy: pm.dy)
        let area = pm.pageRect(ofDevice: reach)
        if let b = sheet.background, !b.isPlainPaper {
            SheetPattern.paint(b, endless: sheet.endless, pageSize: sheet.pageSize, in: ctx, visible: area, deviceScale: pm.scale)
        }
        if let pdf = sheet.pdf, !sheet.endless {
            // From the rasters cached for this zoom (or a stand-in while the sharp one renders): never waits.
            PDFPageRasters.shared.paint(pdf, pageSize: sheet.pageSize, in: ctx, scale: pm.scale, visible: area)
        }
        return (pm, area)
    }
}
