import CCairo
import CPango
import InkCore

/// Text boxes through Pango (pangocairo): the text wraps at word (else character) boundaries to the box's width,
/// in the box's font (a family with its weight and slant) at its size in page units, with the system's fonts for any script (fontconfig
/// falls back per character, so Japanese shows in a Latin font's box too).
///
/// Glyphs are placed as Xournal++ places them, so its notes' text lands where Xournal++ draws it, pixel for pixel:
/// the layout is made in page units (a point is a pixel of a 72 dpi page) with glyph positions rounded (every
/// advance a whole point), never at the zoom it is drawn at, so a box measured once wraps the same at every zoom
/// (zoomed in, the whole-point advances show as Xournal++ shows them). Metrics are hinted on rasters and not on a
/// PDF, as in Xournal++'s PNG and PDF exports; the advances, and so the line breaks, are the same on both. On a
/// PDF surface the glyphs go out as text (selectable, searchable).
public enum TextPainter {
    /// The box's laid-out size in page units: its wrap width and the height of its lines (one line when empty).
    public static func measure(_ box: TextBox) -> Size {
        withLayout(box) { layout in
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_size(layout, &w, &h)
            return Size(width: box.width, height: max(Double(h) / Double(PANGO_SCALE), 1))
        }
    }

    /// Where the text is in its box (page units from the box's top left): its lines' logical extents united, as
    /// wide as its widest line (a box is as wide as it wraps at; its text is often much narrower).
    public static func extent(_ box: TextBox) -> Rect {
        withLayout(box) { layout in
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            let u = Double(PANGO_SCALE)
            return Rect(minX: Double(logical.x) / u, minY: Double(logical.y) / u,
                        maxX: Double(logical.x + logical.width) / u, maxY: Double(logical.y + logical.height) / u)
        }
    }

    /// One laid-out line: its text, where it starts (x from the box's left) and its baseline (from the box's top).
    public struct Line: Equatable, Sendable {
        public var text: String
        public var x: Double
        public var baseline: Double
    }

    /// The lines Pango breaks the text into (what SVG writes as one `<tspan>` each).
    public static func lines(_ box: TextBox) -> [Line] {
        let bytes = Array(box.text.utf8)
        return withLayout(box) { layout in
            var out: [Line] = []
            guard let iter = pango_layout_get_iter(layout) else { return out }
            defer { pango_layout_iter_free(iter) }
            repeat {
                guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
                let start = Int(line.pointee.start_index), length = Int(line.pointee.length)
                var logical = PangoRectangle()
                pango_layout_iter_get_line_extents(iter, nil, &logical)
                let slice = start >= 0 && length >= 0 && start + length <= bytes.count ? bytes[start..<(start + length)] : []
                out.append(Line(text: String(decoding: slice, as: UTF8.self), x: Double(logical.x) / Double(PANGO_SCALE),
                                baseline: Double(pango_layout_iter_get_baseline(iter)) / Double(PANGO_SCALE)))
            } while pango_layout_iter_next_line(iter) != 0
            return out
        }
    }

    /// Where the characters at `scalars` (offsets in Unicode scalars into `box.text`) are drawn: one rect per line
    /// they fall on, covering their glyphs' advances and ink (an "r" or "f" reaches past its advance), in page units
    /// from the box's top left (before the item's placement). White space is left out (a wrapped line's last space
    /// sits past its end). Empty when the range holds nothing to show.
    public static func rects(_ box: TextBox, scalars: Range<Int>) -> [Rect] {
        // Pango indexes bytes of UTF-8.
        var lo = Int.max, hi = 0, spaces = Set<Int>(), offset = 0
        for (i, u) in box.text.unicodeScalars.enumerated() {
            let n = String(u).utf8.count
            if scalars.contains(i) { lo = min(lo, offset); hi = offset + n }
            if u.properties.isWhitespace { spaces.insert(offset) }
            offset += n
        }
        guard lo < hi else { return [] }
        return withLayout(box) { layout in
            var byLine: [Int32: Rect] = [:]
            guard let iter = pango_layout_get_iter(layout) else { return [] }
            defer { pango_layout_iter_free(iter) }
            func rect(_ r: PangoRectangle) -> Rect? {
                guard r.width != 0, r.height > 0 else { return nil }
                let u = Double(PANGO_SCALE)
                // Right-to-left clusters have a negative width.
                return Rect(minX: Double(min(r.x, r.x + r.width)) / u, minY: Double(r.y) / u,
                            maxX: Double(max(r.x, r.x + r.width)) / u, maxY: Double(r.y + r.height) / u)
            }
            repeat {
                let index = Int(pango_layout_iter_get_index(iter))
                guard index >= lo, index < hi, !spaces.contains(index),
                      let line = pango_layout_iter_get_line_readonly(iter) else { continue }
                var ink = PangoRectangle(), logical = PangoRectangle()
                pango_layout_iter_get_cluster_extents(iter, &ink, &logical)
                guard let r = [rect(logical), rect(ink)].compactMap({ $0 }).reduce(nil as Rect?, { $0?.union($1) ?? $1 }) else { continue }
                let key = line.pointee.start_index
                byLine[key] = byLine[key].map { $0.union(r) } ?? r
            } while pango_layout_iter_next_cluster(iter) != 0
            return byLine.keys.sorted().compactMap { byLine[$0] }
        }
    }

    /// Draws a text item in its box where it is shown (its drawn box under its transform), on `ctx` in page units.
    static func draw(_ s: Stroke, in ctx: CairoContext) {
        guard let box = s.content.text, let frame = s.drawnBox, box.color.a > 0, !box.text.isEmpty else { return }
        let cr = ctx.cairoPointer
        cairo_save(cr)
        // Glyphs are not filled by the 4×4 rasterizer: without its nudge they land where Xournal++'s do.
        ctx.withoutSampleBias()
        var m = cairo_matrix_t(xx: s.transform.a, yx: s.transform.b, xy: s.transform.c, yy: s.transform.d, x0: s.transform.tx, y0: s.transform.ty)
        cairo_transform(cr, &m)
        let c = box.color.unit
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
        cairo_move_to(cr, frame.minX, frame.minY)
        withLayout(box, drawingOn: cr) { layout in pango_cairo_show_layout(cr, layout) }
        cairo_restore(cr)
    }

    /// Draws `box` with its top-left corner at `origin` (page units) on `ctx`, as a text item would be drawn there.
    public static func draw(_ box: TextBox, at origin: Point, in ctx: CairoContext) {
        let frame = Rect(x: origin.x, y: origin.y, width: box.width, height: measure(box).height)
        draw(Stroke(id: 1, content: .text(box), frame: frame), in: ctx)
    }

    /// A font as the user sees it: its family, and its weight (CSS's 100–900) and slant, from a name such as
    /// "Sans", "DejaVu Serif Bold Italic" or "Noto Sans CJK JP Light" (Pango's description without a size, as
    /// Xournal++ writes `font` and GTK's font chooser gives it).
    public struct Face: Equatable, Sendable {
        public var family: String
        public var weight: Int
        public var italic: Bool
        public init(family: String, weight: Int, italic: Bool) { self.family = family; self.weight = weight; self.italic = italic }
    }

    public static func face(of font: String) -> Face {
        let d = description(font)
        defer { pango_font_description_free(d) }
        let family = pango_font_description_get_family(d).map { String(cString: $0) } ?? "Sans"
        let style = pango_font_description_get_style(d)
        return Face(family: family, weight: Int(pango_font_description_get_weight(d).rawValue),
                    italic: style == PANGO_STYLE_ITALIC || style == PANGO_STYLE_OBLIQUE)
    }

    /// Pango's description of `font` (freed by the caller), any size in it dropped; "Sans" where it names no family.
    private static func description(_ font: String) -> OpaquePointer {
        let d = pango_font_description_from_string(font)!
        pango_font_description_unset_fields(d, PANGO_FONT_MASK_SIZE)
        if pango_font_description_get_family(d) == nil { pango_font_description_set_family(d, "Sans") }
        return d
    }

    /// A layout of `box` in page units, the same for measuring and for drawing on any surface (`cairo`).
    private static func withLayout<T>(_ box: TextBox, drawingOn cairo: OpaquePointer? = nil, _ body: (OpaquePointer) -> T) -> T {
        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        // Xournal++'s layout: advances hinted and glyph positions rounded, in page units (a point is a pixel:
        // the context has no zoom, whatever `cairo` is drawn at); on a PDF, as Xournal++'s PDF export lays it
        // out, metrics as the font gives them.
        let pdf = cairo.map { cairo_surface_get_type(cairo_get_target($0)) == CAIRO_SURFACE_TYPE_PDF } ?? false
        cairo_font_options_set_hint_metrics(options, pdf ? CAIRO_HINT_METRICS_OFF : CAIRO_HINT_METRICS_ON)
        pango_cairo_context_set_font_options(context, options)
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = description(box.font)
        defer { pango_font_description_free(font) }
        pango_font_description_set_absolute_size(font, box.size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        // Lines a font's height apart, as Xournal++ spaces them (not by the tallest fallback glyph's extents).
        pango_layout_set_line_spacing(layout, 1)
        pango_layout_set_width(layout, Int32(min(box.width, TextBox.widthRange.upperBound) * Double(PANGO_SCALE)))
        box.text.withCString { pango_layout_set_text(layout, $0, Int32(strlen($0))) }
        return body(layout)
    }
}
