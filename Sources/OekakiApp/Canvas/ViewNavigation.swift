import InkCore
import InkRender

/// Navigation on top of the renderer's view transform (view = page · zoom + offset).
extension ViewTransform {
    static let zoomRange = 0.05...16.0

    /// Moves the page along with the pointer by `d` logical pixels.
    func panned(by d: Point) -> ViewTransform {
        var t = self
        t.offset = offset + d
        return t
    }

    /// Zoom by `factor` around `anchor`, kept within `zoomRange`.
    func clampedZoom(by factor: Double, around anchor: Point) -> ViewTransform {
        guard factor.isFinite, factor > 0 else { return self }
        let target = min(max(zoom * factor, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
        return zoomed(by: target / zoom, around: anchor)
    }

    /// Shows all of `rect` centred in a view of `size`, with a margin.
    func fitting(_ rect: Rect, in size: Size, margin: Double = 16) -> ViewTransform {
        guard rect.width > 0, rect.height > 0, size.width > 2 * margin, size.height > 2 * margin else { return self }
        var t = self
        t.zoom = min(max(min((size.width - 2 * margin) / rect.width, (size.height - 2 * margin) / rect.height),
                         Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
        let centre = Point((rect.minX + rect.maxX) / 2, (rect.minY + rect.maxY) / 2)
        t.offset = Point(size.width / 2 - centre.x * t.zoom, size.height / 2 - centre.y * t.zoom)
        return t
    }
}
