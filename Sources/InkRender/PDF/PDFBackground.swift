import InkCore
import InkPDF

/// A PDF page as a page's background: the page of the PDF stretched over the page's rect, drawn by poppler.
/// Into a vector context (PDF export) it stays vectors and real text; into a raster it is pixels
/// (`PDFPageRasters` keeps those per zoom for the screen).
public struct PDFBackdrop: @unchecked Sendable {
    public let source: PDFSource
    /// 0-based page of `source`.
    public let index: Int
    public init(source: PDFSource, index: Int) { self.source = source; self.index = index }

    /// Draws the page over `rect` (page units) of `ctx`'s current transform.
    func draw(over rect: Rect, in ctx: CairoContext, printing: Bool) {
        let size = source.pageSize(index)
        guard size.width > 0, size.height > 0, rect.width > 0, rect.height > 0 else { return }
        ctx.save()
        ctx.clip(rect)
        ctx.translate(rect.minX, rect.minY)
        ctx.scale(rect.width / size.width, rect.height / size.height)
        source.render(page: index, into: ctx.cairoPointer, printing: printing)
        ctx.restore()
    }

    /// The page rasterized to `width`×`height` pixels (transparent where the PDF draws nothing).
    public func rasterForTests(width: Int, height: Int) throws -> ImageSurface { try raster(width: width, height: height) }

    func raster(width: Int, height: Int) throws -> ImageSurface {
        let surface = try ImageSurface(width: width, height: height)
        let ctx = CairoContext(drawingInto: surface)
        ctx.identity()
        draw(over: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), in: ctx, printing: false)
        return surface
    }
}

extension PDFBackdrop {
    /// The PDF page `page` shows as its background, from `document`'s embedded files; nil when it has none, or
    /// the file is missing, not a PDF, or lacks that page (the page then shows its paper).
    public static func of(_ page: Page, in document: Document) -> PDFBackdrop? {
        of(page, files: document.files)
    }

    public static func of(_ page: Page, files: [ContentHash: [UInt8]]) -> PDFBackdrop? {
        guard let ref = page.background.pdf, let source = PDFSources.shared.source(ref.file, in: files),
              ref.index >= 0, ref.index < source.pageCount else { return nil }
        return PDFBackdrop(source: source, index: ref.index)
    }
}
