import CGtk
import InkCore

/// GTK's own font and colour choosers, as buttons that open them: the text tool's font and colour. The chosen
/// font comes back as a face (family, weight and slant: "Sans Bold Italic") and a size in points, the colour as an
/// `RGBA`.
extension Widgets {
    /// A button showing `font` (Pango's "Family Style Size") that opens GTK's font chooser.
    static func fontButton(_ font: String, tooltip: String, chosen: @escaping (_ face: String, _ size: Double) -> Void) -> Widget {
        let b = gtk_font_button_new_with_font(font)!
        gtk_widget_set_tooltip_text(b, tooltip)
        connect(gobject(b), "font-set") {
            guard let desc = gtk_font_chooser_get_font_desc(OpaquePointer(b)) else { return }
            defer { pango_font_description_free(desc) }
            let size = Double(pango_font_description_get_size(desc)) / Double(PANGO_SCALE)
            pango_font_description_unset_fields(desc, PANGO_FONT_MASK_SIZE)
            let face = pango_font_description_to_string(desc).map { p -> String in defer { g_free(p) }; return String(cString: p) } ?? "Sans"
            chosen(face, size)
        }
        return b
    }

    /// A button showing a colour that opens GTK's colour chooser.
    static func colorButton(tooltip: String, chosen: @escaping (RGBA) -> Void) -> Widget {
        let b = gtk_color_button_new()!
        gtk_widget_set_tooltip_text(b, tooltip)
        connect(gobject(b), "color-set") {
            var c = GdkRGBA()
            gtk_color_chooser_get_rgba(OpaquePointer(b), &c)
            func byte(_ v: Float) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
            chosen(RGBA(r: byte(c.red), g: byte(c.green), b: byte(c.blue), a: byte(c.alpha)))
        }
        return b
    }
}
