import CCairo
import Foundation
import InkCore

/// A cairo PDF surface collecting the file's bytes in memory, a page at a time (`CairoPDFExport`).
/// Vector output: text drawn into it (poppler's, Pango's) stays text, paths stay paths.
public final class PDFSurface {
    /// Receives cairo's output; lives as long as the surface.
    private final class Sink { var bytes: [UInt8] = [] }
    private let sink = Sink()
    private let pointer: OpaquePointer
    private var finished = false

    /// A surface whose first page is `size` points.
    public init(size: Size) throws {
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let s = cairo_pdf_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), size.width, size.height)!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.pageTooLarge("cannot start a PDF: \(CairoFailure(status: st))")
        }
        pointer = s
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "Oekaki")
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Sets the size of the page drawn next (before any drawing on it).
    func setPageSize(_ size: Size) { cairo_pdf_surface_set_size(pointer, size.width, size.height) }

    /// A context drawing onto the current page, page units = points, origin top-left.
    public func context() -> CairoContext { CairoContext(vector: pointer) }

    /// Ends the current page; drawing continues on a new one.
    public func showPage(_ ctx: CairoContext) { cairo_show_page(ctx.cr) }

    /// Adds an outline entry (a bookmark) under `parent` (0: the top level) going to `page` (0-based) at `top`
    /// points from its top; returns the entry's id for its children.
    @discardableResult
    public func addOutline(_ title: String, page: Int, top: Double = 0, parent: Int32 = 0) -> Int32 {
        cairo_pdf_surface_add_outline(pointer, parent, title, "page=\(page + 1) pos=[0 \(top)]", cairo_pdf_outline_flags_t(rawValue: 0))
    }

    /// Finishes the file and returns its bytes, or why cairo failed.
    public func finish() throws -> [UInt8] {
        if !finished { cairo_surface_finish(pointer); finished = true }
        let st = cairo_surface_status(pointer)
        guard st == CAIRO_STATUS_SUCCESS else { throw RenderError.pageTooLarge("cannot write the PDF: \(CairoFailure(status: st))") }
        return sink.bytes
    }
}
