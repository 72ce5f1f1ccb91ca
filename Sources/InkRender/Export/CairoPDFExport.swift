import InkCore

/// PDF export through cairo's PDF surface, for documents the hand-written `PDFWriter` cannot hold: pages with a PDF
/// background (drawn by poppler onto the PDF surface, so the original stays vectors and its text stays text) and
/// pages with text or images. Page by page: paper, its lines or dots, the PDF page, then the items in drawing
/// order. `annotationsOnly` leaves out paper, lines and PDF: the items alone on blank pages of the same sizes.
/// (Ink-only documents keep `PDFWriter`: it formats ink on every core, cairo on one.)
public enum CairoPDFExport {
    /// What a page's background PDF is, if it has one (resolved by the caller from the document's files).
    public typealias Backdrops = (Page) -> PDFBackdrop?

    public static func document(_ pages: [Page], backdrop: Backdrops, transparent: Bool = false,
                                annotationsOnly: Bool = false) throws -> [UInt8] {
        guard let first = pages.first else { return [] }
        let surface = try PDFSurface(size: Size(width: first.frame.width, height: first.frame.height))
        let ctx = surface.context()
        for page in pages {
            let f = page.frame
            surface.setPageSize(Size(width: f.width, height: f.height))
            ctx.save()
            ctx.translate(-f.minX, -f.minY)
            if !annotationsOnly {
                if !transparent, page.background.paper.a > 0 { ctx.setColor(page.background.paper); ctx.cairoFillRect(f) }
                if !transparent, !page.background.isPlainPaper { BackgroundPainter.paint(Paper(page), in: ctx, visible: f, deviceScale: nil) }
                if let b = backdrop(page), let size = page.size {
                    b.draw(over: Rect(x: 0, y: 0, width: size.width, height: size.height), in: ctx, printing: true)
                }
            }
            for s in page.shownStrokes {
                ItemPainter.draw(s, in: ctx, deviceScale: nil)
            }
            ctx.restore()
            surface.showPage(ctx)
        }
        return try surface.finish()
    }
}
