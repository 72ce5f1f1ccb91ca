import InkCore

/// How the page appears in the canvas widget: view point = page point · zoom + offset (in logical pixels,
/// the units of GTK's coordinates); device pixels = logical pixels · deviceScale (GTK's scale factor).
public struct ViewTransform: Hashable, Sendable {
    /// Logical pixels per page unit.
    public var zoom: Double
    /// Where the page origin sits in the view, in logical pixels.
    public var offset: Point
    /// Device pixels per logical pixel (1 on most screens, 2 on HiDPI).
    public var deviceScale: Double

    public init(zoom: Double = 1, offset: Point = Point(0, 0), deviceScale: Double = 1) {
        self.zoom = zoom; self.offset = offset; self.deviceScale = deviceScale
    }

    public static let identity = ViewTransform()

    /// Device pixels per page unit: the resolution strokes are rasterized at.
    public var pixelsPerUnit: Double { zoom * deviceScale }

    public func viewPoint(fromPage p: Point) -> Point { Point(p.x * zoom + offset.x, p.y * zoom + offset.y) }
    public func pagePoint(fromView v: Point) -> Point { Point((v.x - offset.x) / zoom, (v.y - offset.y) / zoom) }
    public func viewRect(fromPage r: Rect) -> Rect {
        Rect(minX: r.minX * zoom + offset.x, minY: r.minY * zoom + offset.y, maxX: r.maxX * zoom + offset.x, maxY: r.maxY * zoom + offset.y)
    }
    public func pageRect(fromView r: Rect) -> Rect {
        Rect(minX: (r.minX - offset.x) / zoom, minY: (r.minY - offset.y) / zoom, maxX: (r.maxX - offset.x) / zoom, maxY: (r.maxY - offset.y) / zoom)
    }

    /// Zoomed by `factor` keeping the page point under view point `anchor` in place (pinch / ctrl+wheel).
    public func zoomed(by factor: Double, around anchor: Point) -> ViewTransform {
        let p = pagePoint(fromView: anchor)
        var t = self
        t.zoom = zoom * factor
        t.offset = Point(anchor.x - p.x * t.zoom, anchor.y - p.y * t.zoom)
        return t
    }

    var isUsable: Bool { zoom.isFinite && zoom > 0 && deviceScale.isFinite && deviceScale > 0 && offset.isFinite }

    var deviceMapping: DeviceMapping {
        DeviceMapping(scale: pixelsPerUnit, dx: offset.x * deviceScale, dy: offset.y * deviceScale)
    }
}
