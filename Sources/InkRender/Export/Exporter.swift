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
    /// PDF only: the items alone on blank pages of the same sizes (no paper, lines or PDF background).
    public var annotationsOnly = false
    public init(scale: Double = 1, transparent: Bool = false, annotationsOnly: Bool = false) {
        self.scale = scale; self.transparent = transparent; self.annotationsOnly = annotationsOnly
    }
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

/// Writes a page (or a drawing, as a fixed page of its size) as PNG, SVG or PDF, and a whole document as PDF.
/// The page's frame is what is written: a fixed page, or an endless page's ink with a margin.
public enum Exporter {
    /// cairo's limit per side, and a cap of 2^28 pixels (1 GiB of ARGB) so a hostile page cannot exhaust memory.
    public static let maxPixelsPerSide = 32767
    public static let maxPixels = 1 << 28
    /// Acrobat's page limit (200 inches); larger PDF pages do not open in common viewers.
    public static let maxPDFPoints = 14400.0

    /// A drawing as it was before pages: a fixed page of its size on plain paper of its colour.
    static func page(_ drawing: Drawing) -> Page {
        Page(format: .fixed(drawing.pageSize, Background(paper: drawing.background)), drawing: drawing)
    }

    public static func write(_ drawing: Drawing, to path: String, format: ExportFormat, options: ExportOptions = ExportOptions()) throws {
        try write(page(drawing), to: path, format: format, options: options)
    }

    /// `backdrop`: the page's PDF background, when it has one (PNG and PDF draw it under the ink).
    public static func write(_ page: Page, to path: String, format: ExportFormat, options: ExportOptions = ExportOptions(),
                             backdrop: PDFBackdrop? = nil) throws {
        try FileOutput.write(try runs(page, format: format, options: options, backdrop: backdrop), to: path)
    }

    /// Every page of `document` as one PDF, a PDF page per page: through cairo (`CairoPDFExport`) when a page has
    /// a PDF background, text or images (or for `annotationsOnly`), else through the faster `PDFWriter`.
    public static func writePDF(_ document: Document, to path: String, options: ExportOptions = ExportOptions()) throws {
        try FileOutput.write([try pdfData(document, options: options)], to: path)
    }

    /// The PDF `writePDF` writes.
    public static func pdfData(_ document: Document, options: ExportOptions = ExportOptions()) throws -> [UInt8] {
        let cairo = options.annotationsOnly || needsCairo(document.pages)
        if cairo { ItemPainter.provide(document.files) }
        return try pdf(document.pages, transparent: options.transparent, annotationsOnly: options.annotationsOnly,
                       backdrop: cairo ? { PDFBackdrop.of($0, in: document) } : nil)
    }

    /// Pages the hand-written PDF cannot hold: a PDF or picture background, or an item that is not ink.
    static func needsCairo(_ pages: [Page]) -> Bool {
        pages.contains { p in p.background.pdf != nil || p.background.picture != nil || p.shownStrokes.contains { !$0.content.isInk } }
    }

    /// The exported file's bytes.
    public static func data(_ drawing: Drawing, format: ExportFormat, options: ExportOptions = ExportOptions()) throws -> [UInt8] {
        try data(page(drawing), format: format, options: options)
    }

    public static func data(_ page: Page, format: ExportFormat, options: ExportOptions = ExportOptions()) throws -> [UInt8] {
        let parts = try runs(page, format: format, options: options)
        return parts.count == 1 ? parts[0] : Array(parts.joined())
    }

    /// The file as consecutive byte runs, so large SVGs are written without joining them into one copy.
    private static func runs(_ page: Page, format: ExportFormat, options: ExportOptions, backdrop: PDFBackdrop? = nil) throws -> [[UInt8]] {
        let frame = page.frame
        try checkPage(Size(width: frame.width, height: frame.height))
        switch format {
        case .png:
            let opaque = !options.transparent && page.background.paper.a == 255
            let pictures = backdrop != nil || page.background.picture != nil || page.shownStrokes.contains { if case .image = $0.content { return true } else { return false } }
            return try PNGEncoder.encoding(opaque: opaque, filter: pictures ? .sub : .none) { finish in
                try render(page, scale: options.scale, transparent: options.transparent, backdrop: backdrop, finish: finish)
            }
        case .svg:
            return SVGWriter.document(page, transparent: options.transparent, backdrop: backdrop)
        case .pdf:
            if backdrop != nil || options.annotationsOnly || needsCairo([page]) {
                return [try pdf([page], transparent: options.transparent, annotationsOnly: options.annotationsOnly) { _ in backdrop }]
            }
            return [try pdf([page], transparent: options.transparent)]
        }
    }

    /// Pixel size of the page at `scale` (each side rounded to the nearest pixel, as Xournal++ sizes its PNG
    /// export: an A4 page at 72 dpi is 595×842), or why it cannot be rendered.
    public static func pixelSize(of page: Size, scale: Double) throws -> (width: Int, height: Int) {
        try checkPage(page)
        guard scale.isFinite, scale > 0 else {
            throw RenderError.pageTooLarge("scale must be a positive number, not \(scale)")
        }
        let w = (page.width * scale).rounded(), h = (page.height * scale).rounded()
        guard w <= Double(maxPixelsPerSide), h <= Double(maxPixelsPerSide) else {
            throw RenderError.pageTooLarge("page of \(fmt(page.width))×\(fmt(page.height)) at scale \(fmt(scale)) would be \(fmt(w))×\(fmt(h)) pixels; the limit is \(maxPixelsPerSide) a side (use a smaller --scale)")
        }
        guard w * h <= Double(maxPixels) else {
            throw RenderError.pageTooLarge("page at scale \(fmt(scale)) would be \(Int(w))×\(Int(h)) = \(Int(w * h)) pixels; the limit is \(maxPixels) (use a smaller --scale)")
        }
        return (max(Int(w), 1), max(Int(h), 1))
    }

    /// The page rasterized at `scale` on every core: background (unless transparent) then strokes.
    public static func render(_ drawing: Drawing, scale: Double = 1, transparent: Bool = false, multiply: Bool = true) throws -> ImageSurface {
        try render(page(drawing), scale: scale, transparent: transparent, multiply: multiply)
    }

    /// The page's frame rasterized at `scale` on every core: paper and its lines (unless transparent), the PDF
    /// page of `backdrop` (rendered once, whole, at this scale), then strokes.
    /// `multiply`: highlighters multiply what is under them, as Xournal++ draws them (false: they cover it, as the
    /// streamed `LayeredExport` draws them).
    /// `finish`, when given, gets each band of rows as soon as it is drawn, on any core.
    public static func render(_ page: Page, scale: Double = 1, transparent: Bool = false, backdrop: PDFBackdrop? = nil,
                              multiply: Bool = true, finish: ((ImageSurface, Range<Int>) -> Void)? = nil) throws -> ImageSurface {
        let frame = page.frame
        let size = try pixelSize(of: Size(width: frame.width, height: frame.height), scale: scale)
        let surface = try ImageSurface(width: size.width, height: size.height)
        var underlay: ImageSurface?
        if let backdrop, let s = page.size {
            let under = try ImageSurface(width: size.width, height: size.height)
            let ctx = CairoContext(drawingInto: under)
            ctx.identity()
            ctx.scale(scale, scale)
            backdrop.draw(over: Rect(x: 0, y: 0, width: s.width, height: s.height), in: ctx, printing: false)
            underlay = under
        }
        BandRenderer.render(page.shownDrawings, into: surface, mapping: DeviceMapping(scale: scale, dx: -frame.minX * scale, dy: -frame.minY * scale),
                            background: transparent ? nil : page.background.paper, paper: transparent ? nil : Paper(page), underlay: underlay,
                            multiply: multiply, finish: finish.map { f in { rows in f(surface, rows) } })
        return surface
    }

    /// Through cairo (`CairoPDFExport`) when `backdrop` is given (pages may have PDF backgrounds, text or images),
    /// else the hand-written `PDFWriter`.
    private static func pdf(_ pages: [Page], transparent: Bool, annotationsOnly: Bool = false,
                            backdrop: CairoPDFExport.Backdrops? = nil) throws -> [UInt8] {
        for (k, p) in pages.enumerated() {
            let f = p.frame
            guard f.width <= maxPDFPoints, f.height <= maxPDFPoints else {
                throw RenderError.pageTooLarge("page \(k + 1) of \(fmt(f.width))×\(fmt(f.height)) pt is larger than PDF allows (\(fmt(maxPDFPoints)) pt a side)")
            }
            try checkPage(Size(width: f.width, height: f.height))
        }
        // Text and images need cairo too (Pango writes real text); ink alone keeps the faster PDFWriter.
        let hasItems = pages.contains { $0.shownStrokes.contains { !$0.content.isInk } }
        if let backdrop = backdrop ?? (hasItems ? { _ in nil } : nil) {
            return try CairoPDFExport.document(pages, backdrop: backdrop, transparent: transparent, annotationsOnly: annotationsOnly)
        }
        return try PDFWriter.document(pages, transparent: transparent)
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
