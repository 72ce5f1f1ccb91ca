import CCairo
import InkCore

/// The vector calls the app draws its own widgets and overlays with (tool icons, colour swatches, the selection's
/// frame, the eraser's outline, the desk around the pages): paths, colours, lines and dashes on a `CairoContext`,
/// so no file outside the cairo wrapper holds a `cairo_t`. Coordinates are the context's user space (for a GTK
/// draw function, widget pixels).
extension CairoContext {
    public enum LineEnds { case butt, round }

    /// Paints `image` stretched over `rect`, smoothly filtered (a page's preview in the sidebar).
    public func paintImage(_ image: ImageSurface, in rect: Rect) { drawImage(image, in: rect) }

    public func move(to x: Double, _ y: Double) { cairo_move_to(cr, x, y) }
    public func line(to x: Double, _ y: Double) { cairo_line_to(cr, x, y) }
    public func move(to p: Point) { cairo_move_to(cr, p.x, p.y) }
    public func line(to p: Point) { cairo_line_to(cr, p.x, p.y) }
    public func closePath() { cairo_close_path(cr) }
    public func rectangle(_ r: Rect) { cairo_rectangle(cr, r.minX, r.minY, r.width, r.height) }
    public func rectangle(x: Double, y: Double, width: Double, height: Double) { cairo_rectangle(cr, x, y, width, height) }
    /// A circle (or, from `start` to `end` radians clockwise on screen, an arc) around `centre`.
    public func arc(_ centre: Point, radius: Double, from start: Double = 0, to end: Double = 2 * Double.pi) {
        cairo_arc(cr, centre.x, centre.y, radius, start, end)
    }

    /// The colour of what is stroked, filled or painted next, components 0…1.
    public func setSource(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        cairo_set_source_rgba(cr, red, green, blue, alpha)
    }

    public func setLineWidth(_ w: Double) { cairo_set_line_width(cr, w) }
    /// Round caps and joins, or cairo's default square ends and mitred joins.
    public func setLineEnds(_ ends: LineEnds) {
        cairo_set_line_cap(cr, ends == .round ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, ends == .round ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER)
    }
    /// Dashes of these on/off lengths from `offset`; empty: solid lines.
    public func setDash(_ pattern: [Double], offset: Double = 0) { cairo_set_dash(cr, pattern, Int32(pattern.count), offset) }

    /// Strokes the path; `keepPath` leaves it for a second stroke or fill.
    public func stroke(keepPath: Bool = false) { keepPath ? cairo_stroke_preserve(cr) : cairo_stroke(cr) }
    /// Fills the path with the current source; `keepPath` leaves it for a stroke.
    public func fill(keepPath: Bool = false) { keepPath ? cairo_fill_preserve(cr) : cairo_fill(cr) }
    /// Paints the current source everywhere the clip allows.
    public func paint() { cairo_paint(cr) }
    public func rotate(_ radians: Double) { cairo_rotate(cr, radians) }
    /// Forgets the path (and the current point, so the next arc starts without a line to it).
    public func newPath() { cairo_new_path(cr) }

    /// A short label in cairo's own sans face (scale numbers, readings): its ink's size at `size` pixels, and
    /// where its ink starts relative to the point the text is shown from.
    public func textExtents(_ text: String, size: Double) -> (width: Double, height: Double, x: Double, y: Double) {
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, text, &e)
        return (e.width, e.height, e.x_bearing, e.y_bearing)
    }

    /// Shows `text` with its baseline starting at `at`, in the current source; leaves no path behind.
    public func showText(_ text: String, at: Point, size: Double) {
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        cairo_move_to(cr, at.x, at.y)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }
}
