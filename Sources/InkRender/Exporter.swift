import InkCore

public enum ExportFormat: String, CaseIterable, Sendable {
    case png, svg, pdf
    /// The format named by a path's extension, case-insensitive.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

public struct ExportOptions: Sendable {
    /// Pixels per page unit (PNG only; SVG and PDF are vector).
    public var scale: Double = 1
    /// No background fill (PNG: alpha 0 off the ink; SVG/PDF: no background rectangle).
    public var transparent = false
    public init(scale: Double = 1, transparent: Bool = false) { self.scale = scale; self.transparent = transparent }
}

public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The page cannot be rendered at the asked size or scale; the message says what limit was hit.
    case pageTooLarge(String)
    case cannotWrite(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    public var description: String {
        switch self {
        case .pageTooLarge(let m): return m
        case .cannotWrite(let p, let r): return "cannot write \(p): \(r)"
        case .cannotRead(let p, let r): return "cannot read \(p): \(r)"
        }
    }
}

/// Writes a drawing as PNG, SVG or PDF.
public enum Exporter {
    /// cairo's limit per side, and a cap of 2^28 pixels (1 GiB of ARGB) so a hostile page cannot exhaust memory.
    public static let maxPixelsPerSide = 32767
    public static let maxPixels = 1 << 28
    /// Acrobat's page limit (200 inches); larger PDF pages do not open in common viewers.
    public static let maxPDFPoints = 14400.0

    public static func write(_ drawing: Drawing, to path: String, format: ExportFormat, options: ExportOptions = ExportOptions()) throws {
        try FileOutput.write(try runs(drawing, format: format, options: options), to: path)
    }

    /// The exported file's bytes.
    public static func data(_ drawing: Drawing, format: ExportFormat, options: ExportOptions = ExportOptions()) throws -> [UInt8] {
        let parts = try runs(drawing, format: format, options: options)
        return parts.count == 1 ? parts[0] : Array(parts.joined())
    }

    /// The file as consecutive byte runs, so large SVGs are written without joining them into one copy.
    private static func runs(_ drawing: Drawing, format: ExportFormat, options: ExportOptions) throws -> [[UInt8]] {
        try checkPage(drawing.pageSize)
        switch format {
        case .png:
            let image = try render(drawing, scale: options.scale, transparent: options.transparent)
            let opaque = !options.transparent && drawing.background.a == 255
            do { return try PNGEncoder.chunks(image, opaque: opaque) } catch {
                throw RenderError.pageTooLarge("cannot encode the PNG: \(error)")
            }
        case .svg:
            return SVGWriter.document(drawing, transparent: options.transparent)
        case .pdf:
            return [try pdf(drawing, transparent: options.transparent)]
        }
    }

    /// Pixel size of the page at `scale` (each side rounded up), or why it cannot be rendered.
    public static func pixelSize(of page: Size, scale: Double) throws -> (width: Int, height: Int) {
        try checkPage(page)
        guard scale.isFinite, scale > 0 else {
            throw RenderError.pageTooLarge("scale must be a positive number, not \(scale)")
        }
        let w = (page.width * scale).rounded(.up), h = (page.height * scale).rounded(.up)
        guard w <= Double(maxPixelsPerSide), h <= Double(maxPixelsPerSide) else {
            throw RenderError.pageTooLarge("page of \(fmt(page.width))×\(fmt(page.height)) at scale \(fmt(scale)) would be \(fmt(w))×\(fmt(h)) pixels; the limit is \(maxPixelsPerSide) a side (use a smaller --scale)")
        }
        guard w * h <= Double(maxPixels) else {
            throw RenderError.pageTooLarge("page at scale \(fmt(scale)) would be \(Int(w))×\(Int(h)) = \(Int(w * h)) pixels; the limit is \(maxPixels) (use a smaller --scale)")
        }
        return (max(Int(w), 1), max(Int(h), 1))
    }

    /// The page rasterized at `scale` on every core: background (unless transparent) then strokes.
    public static func render(_ drawing: Drawing, scale: Double = 1, transparent: Bool = false) throws -> ImageSurface {
        let size = try pixelSize(of: drawing.pageSize, scale: scale)
        let surface = try ImageSurface(width: size.width, height: size.height)
        BandRenderer.render(drawing, into: surface, mapping: DeviceMapping(scale: scale),
                            background: transparent ? nil : drawing.background)
        return surface
    }

    private static func pdf(_ drawing: Drawing, transparent: Bool) throws -> [UInt8] {
        let page = drawing.pageSize
        guard page.width <= maxPDFPoints, page.height <= maxPDFPoints else {
            throw RenderError.pageTooLarge("page of \(fmt(page.width))×\(fmt(page.height)) pt is larger than PDF allows (\(fmt(maxPDFPoints)) pt a side)")
        }
        return try PDFWriter.document(drawing, transparent: transparent)
    }

    static func checkPage(_ page: Size) throws {
        guard page.width.isFinite, page.height.isFinite, page.width > 0, page.height > 0 else {
            throw RenderError.pageTooLarge("page size \(fmt(page.width))×\(fmt(page.height)) is not a positive finite size")
        }
    }

    private static func fmt(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
