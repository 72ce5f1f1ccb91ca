/// Where an inserted picture goes: one page unit per pixel (a screenshot looks as it did on screen at 100 %),
/// shrunk to fit within most of the visible part of the page, and centred there. Never enlarged: a small icon
/// stays small.
public enum ImagePlacement {
    /// The share of the visible area's width and height a large picture may fill.
    public static let fill = 0.8

    /// The picture's box in page units for `pixelWidth`×`pixelHeight` pixels, centred in `visible` (the part of
    /// the page the user sees), or at `centre` when given (where a file was dropped).
    public static func frame(pixelWidth: Int, pixelHeight: Int, visible: Rect, centre: Point? = nil) -> Rect {
        let w = Double(max(pixelWidth, 1)), h = Double(max(pixelHeight, 1))
        var scale = 1.0
        if visible.width > 0, visible.height > 0 {
            scale = min(1, visible.width * fill / w, visible.height * fill / h)
        }
        let c = centre ?? Point(x: (visible.minX + visible.maxX) / 2, y: (visible.minY + visible.maxY) / 2)
        return Rect(minX: c.x - w * scale / 2, minY: c.y - h * scale / 2, maxX: c.x + w * scale / 2, maxY: c.y + h * scale / 2)
    }
}
