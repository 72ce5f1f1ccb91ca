import CPoppler
import Foundation
import InkCore

// The only file that touches poppler's C pointers. Everything else speaks `PDFSource`, page indices and sizes.

/// Why a PDF cannot be used, in words a user can act on.
public enum PDFError: Error, CustomStringConvertible, Equatable {
    /// Poppler could not read it as a PDF (the reason is poppler's).
    case malformed(String)
    /// It needs a password to open.
    case encrypted
    /// More pages than `PDFSource.maxPages`.
    case tooManyPages(Int)
    /// Larger than `PDFSource.maxBytes`.
    case tooLarge(Int)
    /// A page whose size is not a positive, finite size a PDF may have.
    case badPage(index: Int, width: Double, height: Double)

    public var description: String {
        switch self {
        case .malformed(let r): return "not a readable PDF (\(r))"
        case .encrypted: return "the PDF is encrypted (it needs a password); save an unprotected copy and open that"
        case .tooManyPages(let n): return "the PDF has \(n) pages; Oekaki opens PDFs of at most \(PDFSource.maxPages)"
        case .tooLarge(let n): return "the PDF is \(n / (1 << 20)) MB; Oekaki opens PDFs of at most \(PDFSource.maxBytes / (1 << 20)) MB"
        case .badPage(let i, let w, let h): return "page \(i + 1) of the PDF has no usable size (\(w)×\(h) pt)"
        }
    }
}

/// An open PDF: how many pages it has, each page's size in points, and each page drawn into a cairo context
/// (as vectors on a vector surface). Identity matters (it owns poppler's document), hence a class.
/// Poppler's documents are not safe to use from two threads at once, so every call takes the lock.
public final class PDFSource: @unchecked Sendable {
    /// The same limit as a `.xopp`'s pages: a notebook, not a phone book; a 100,000-page file is refused at once.
    public static let maxPages = 10_000
    public static let maxBytes = 512 << 20
    /// Acrobat's largest page side (200 inches).
    public static let maxPoints = 14_400.0

    private let document: OpaquePointer
    private let lock = NSLock()
    public let pageCount: Int

    /// Opens `bytes` (copied: the caller's array may go). Throws `PDFError` for anything that is not an
    /// unprotected PDF of at most `maxPages` pages.
    public init(bytes: [UInt8]) throws {
        guard bytes.count <= Self.maxBytes else { throw PDFError.tooLarge(bytes.count) }
        // Poppler reconstructs files without a "%PDF" header too, which would take any junk for an empty PDF.
        guard Self.looksLikePDF(bytes) else { throw PDFError.malformed("no %PDF header") }
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        var error: UnsafeMutablePointer<GError>?
        guard let doc = poppler_document_new_from_bytes(data, nil, &error) else {
            defer { if error != nil { g_error_free(error) } }
            if let e = error, e.pointee.domain == poppler_error_quark(), e.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw PDFError.encrypted
            }
            let why = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "unknown error"
            throw PDFError.malformed(why)
        }
        let n = Int(poppler_document_get_n_pages(doc))
        guard n <= Self.maxPages else { g_object_unref(UnsafeMutableRawPointer(doc)); throw PDFError.tooManyPages(n) }
        guard n > 0 else { g_object_unref(UnsafeMutableRawPointer(doc)); throw PDFError.malformed("it has no pages") }
        document = doc
        pageCount = n
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    /// True when `bytes` start (within the first KiB, as readers allow) with a PDF header.
    public static func looksLikePDF(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(1024)
        let magic = Array("%PDF-".utf8)
        guard head.count >= magic.count else { return false }
        for i in head.startIndex...(head.endIndex - magic.count) where head[i] == magic[0] {
            if Array(head[i..<(i + magic.count)]) == magic { return true }
        }
        return false
    }

    /// Every page's size in points (crop box, turned as the page is shown), or why one has none.
    public func pageSizes() throws -> [Size] {
        try (0..<pageCount).map { i in
            let s = pageSize(i)
            guard s.width.isFinite, s.height.isFinite, s.width >= 1, s.height >= 1,
                  s.width <= Self.maxPoints, s.height <= Self.maxPoints else {
                throw PDFError.badPage(index: i, width: s.width, height: s.height)
            }
            return s
        }
    }

    /// Page `index`'s size in points; 0×0 when there is no such page.
    public func pageSize(_ index: Int) -> Size {
        withPage(index) { page in
            var w = 0.0, h = 0.0
            poppler_page_get_size(page, &w, &h)
            return Size(width: w, height: h)
        } ?? Size(width: 0, height: 0)
    }

    /// Draws page `index` into `cairo` (a `cairo_t*`) in PDF points from the current transform's origin.
    /// The page's own white is not painted: what is under it (the paper) shows through. `printing` draws what a
    /// print would (used for PDF export); otherwise what a viewer shows.
    public func render(page index: Int, into cairo: OpaquePointer, printing: Bool = false) {
        withPage(index) { page in
            if printing { poppler_page_render_for_printing(page, cairo) } else { poppler_page_render(page, cairo) }
        }
    }

    /// The text of page `index` as poppler reads it (tests, and an info summary).
    public func text(page index: Int) -> String {
        withPage(index) { page -> String in
            guard let t = poppler_page_get_text(page) else { return "" }
            defer { g_free(t) }
            return String(cString: t)
        } ?? ""
    }

    private func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard index >= 0, index < pageCount else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }
}
