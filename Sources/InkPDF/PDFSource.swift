import Foundation
import InkCore

// The only file that touches poppler's C pointers. Everything else speaks `PDFSource`, page indices and sizes.
// Poppler is loaded with dlopen the first time a PDF is opened, not linked: it and the libraries it brings
// (NSS, OpenJPEG, LCMS, …) are a third of what a process would otherwise map at start, and most runs (a
// thumbnail, an export of ink) never open a PDF.

/// libpoppler-glib's functions (and the GLib ones used with them), looked up once.
private struct Poppler {
    typealias Document = OpaquePointer
    typealias Page = OpaquePointer
    typealias Bytes = OpaquePointer
    let bytesNew: @convention(c) (UnsafeRawPointer?, Int) -> Bytes?
    let bytesUnref: @convention(c) (Bytes?) -> Void
    let errorFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let objectUnref: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let documentNewFromBytes: @convention(c) (Bytes?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Document?
    let errorQuark: @convention(c) () -> UInt32
    let documentPageCount: @convention(c) (Document?) -> Int32
    let documentPage: @convention(c) (Document?, Int32) -> Page?
    let pageSize: @convention(c) (Page?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Void
    let pageRender: @convention(c) (Page?, OpaquePointer?) -> Void
    let pageRenderForPrinting: @convention(c) (Page?, OpaquePointer?) -> Void
    let pageText: @convention(c) (Page?) -> UnsafeMutablePointer<CChar>?
    /// `poppler_page_get_text_layout`: one `PopplerRectangle` (four doubles) per character of the page's text.
    let pageTextLayout: @convention(c) (Page?, UnsafeMutablePointer<UnsafeMutablePointer<Double>?>?, UnsafeMutablePointer<UInt32>?) -> Int32
    let indexIterNew: @convention(c) (Document?) -> OpaquePointer?
    let indexIterChild: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let indexIterNext: @convention(c) (OpaquePointer?) -> Int32
    let indexIterFree: @convention(c) (OpaquePointer?) -> Void
    let indexIterAction: @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
    let actionFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let findDest: @convention(c) (Document?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?
    let destFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    /// cairo, which poppler-glib brings with it: a page made into a picture (`PDFSource.png`) without this module
    /// linking cairo for everyone who never opens a PDF.
    let imageSurfaceCreate: @convention(c) (Int32, Int32, Int32) -> OpaquePointer?
    let surfaceStatus: @convention(c) (OpaquePointer?) -> Int32
    let surfaceDestroy: @convention(c) (OpaquePointer?) -> Void
    let cairoCreate: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let cairoScale: @convention(c) (OpaquePointer?, Double, Double) -> Void
    let cairoDestroy: @convention(c) (OpaquePointer?) -> Void
    let surfaceFlush: @convention(c) (OpaquePointer?) -> Void
    let imageData: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?
    let imageStride: @convention(c) (OpaquePointer?) -> Int32

    /// `PopplerError`'s value for a document that needs a password.
    static let encryptedCode: Int32 = 1
    /// The library Debian's libpoppler-glib8 installs (the package's Depends names it: nothing links it).
    static let library = "libpoppler-glib.so.8"

    /// Loaded on first use (thread-safe: a static's initializer runs once); why not, when it cannot be.
    static let shared: Result<Poppler, PDFError> = {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(.unavailable(dlerror().map { String(cString: $0) } ?? library))
        }
        // Each symbol's type is the property it fills (inferred from the memberwise initializer below).
        func f<T>(_ name: String) throws -> T {
            guard let p = dlsym(handle, name) else { throw PDFError.unavailable("\(library) has no \(name)") }
            return unsafeBitCast(p, to: T.self)
        }
        do {
            return .success(Poppler(
                bytesNew: try f("g_bytes_new"),
                bytesUnref: try f("g_bytes_unref"),
                errorFree: try f("g_error_free"),
                objectUnref: try f("g_object_unref"),
                free: try f("g_free"),
                documentNewFromBytes: try f("poppler_document_new_from_bytes"),
                errorQuark: try f("poppler_error_quark"),
                documentPageCount: try f("poppler_document_get_n_pages"),
                documentPage: try f("poppler_document_get_page"),
                pageSize: try f("poppler_page_get_size"),
                pageRender: try f("poppler_page_render"),
                pageRenderForPrinting: try f("poppler_page_render_for_printing"),
                pageText: try f("poppler_page_get_text"),
                pageTextLayout: try f("poppler_page_get_text_layout"),
                indexIterNew: try f("poppler_index_iter_new"),
                indexIterChild: try f("poppler_index_iter_get_child"),
                indexIterNext: try f("poppler_index_iter_next"),
                indexIterFree: try f("poppler_index_iter_free"),
                indexIterAction: try f("poppler_index_iter_get_action"),
                actionFree: try f("poppler_action_free"),
                findDest: try f("poppler_document_find_dest"),
                destFree: try f("poppler_dest_free"),
                imageSurfaceCreate: try f("cairo_image_surface_create"),
                surfaceStatus: try f("cairo_surface_status"),
                surfaceDestroy: try f("cairo_surface_destroy"),
                cairoCreate: try f("cairo_create"),
                cairoScale: try f("cairo_scale"),
                cairoDestroy: try f("cairo_destroy"),
                surfaceFlush: try f("cairo_surface_flush"),
                imageData: try f("cairo_image_surface_get_data"),
                imageStride: try f("cairo_image_surface_get_stride")))
        } catch let e as PDFError {
            return .failure(e)
        } catch {
            return .failure(.unavailable("\(error)"))
        }
    }()
}

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
    /// Poppler (libpoppler-glib8) could not be loaded.
    case unavailable(String)

    public var description: String {
        switch self {
        case .malformed(let r): return "not a readable PDF (\(r))"
        case .encrypted: return "the PDF is encrypted (it needs a password); save an unprotected copy and open that"
        case .tooManyPages(let n): return "the PDF has \(n) pages; Oekaki opens PDFs of at most \(PDFSource.maxPages)"
        case .tooLarge(let n): return "the PDF is \(n / (1 << 20)) MB; Oekaki opens PDFs of at most \(PDFSource.maxBytes / (1 << 20)) MB"
        case .badPage(let i, let w, let h): return "page \(i + 1) of the PDF has no usable size (\(w)×\(h) pt)"
        case .unavailable(let why): return "PDFs need poppler (libpoppler-glib8), which could not be loaded: \(why)"
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
    private let poppler: Poppler
    private let lock = NSLock()
    public let pageCount: Int

    /// Opens `bytes` (copied: the caller's array may go). Throws `PDFError` for anything that is not an
    /// unprotected PDF of at most `maxPages` pages.
    public init(bytes: [UInt8]) throws {
        guard bytes.count <= Self.maxBytes else { throw PDFError.tooLarge(bytes.count) }
        // Poppler reconstructs files without a "%PDF" header too, which would take any junk for an empty PDF.
        guard Self.looksLikePDF(bytes) else { throw PDFError.malformed("no %PDF header") }
        let poppler = try Self.poppler()
        let data = bytes.withUnsafeBytes { poppler.bytesNew($0.baseAddress, $0.count) }
        defer { poppler.bytesUnref(data) }
        var error: UnsafeMutableRawPointer?
        guard let doc = poppler.documentNewFromBytes(data, nil, &error) else {
            defer { if error != nil { poppler.errorFree(error) } }
            // A GError: its domain (a quark), its code, then its message.
            if let e = error, e.load(as: UInt32.self) == poppler.errorQuark(),
               e.load(fromByteOffset: 4, as: Int32.self) == Poppler.encryptedCode {
                throw PDFError.encrypted
            }
            let why = error.flatMap { $0.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } } ?? "unknown error"
            throw PDFError.malformed(why)
        }
        let n = Int(poppler.documentPageCount(doc))
        guard n <= Self.maxPages else { poppler.objectUnref(UnsafeMutableRawPointer(doc)); throw PDFError.tooManyPages(n) }
        guard n > 0 else { poppler.objectUnref(UnsafeMutableRawPointer(doc)); throw PDFError.malformed("it has no pages") }
        self.poppler = poppler
        document = doc
        pageCount = n
    }

    deinit { poppler.objectUnref(UnsafeMutableRawPointer(document)) }

    private static func poppler() throws -> Poppler {
        switch Poppler.shared {
        case .success(let p): return p
        case .failure(let e): throw e
        }
    }

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
            poppler.pageSize(page, &w, &h)
            return Size(width: w, height: h)
        } ?? Size(width: 0, height: 0)
    }

    /// Draws page `index` into `cairo` (a `cairo_t*`) in PDF points from the current transform's origin.
    /// The page's own white is not painted: what is under it (the paper) shows through. `printing` draws what a
    /// print would (used for PDF export); otherwise what a viewer shows.
    public func render(page index: Int, into cairo: OpaquePointer, printing: Bool = false) {
        withPage(index) { page in
            if printing { poppler.pageRenderForPrinting(page, cairo) } else { poppler.pageRender(page, cairo) }
        }
    }

    /// Page `index` stretched over `width` × `height` pixels (as Xournal++ stretches a TeX formula's PDF over its
    /// box), on transparency: cairo's premultiplied ARGB words, row by row; nil when there is no such page or no
    /// such picture can be made.
    public func pixels(page index: Int, width: Int, height: Int) -> [UInt32]? {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else { return nil }
        return withPage(index) { page -> [UInt32]? in
            var w = 0.0, h = 0.0
            poppler.pageSize(page, &w, &h)
            guard w.isFinite, h.isFinite, w > 0, h > 0 else { return nil }
            let argb32: Int32 = 0  // CAIRO_FORMAT_ARGB32
            guard let surface = poppler.imageSurfaceCreate(argb32, Int32(width), Int32(height)) else { return nil }
            defer { poppler.surfaceDestroy(surface) }
            guard poppler.surfaceStatus(surface) == 0, let cr = poppler.cairoCreate(surface) else { return nil }
            poppler.cairoScale(cr, Double(width) / w, Double(height) / h)
            poppler.pageRender(page, cr)
            poppler.cairoDestroy(cr)
            poppler.surfaceFlush(surface)
            guard let data = poppler.imageData(surface) else { return nil }
            let stride = Int(poppler.imageStride(surface))
            var out = [UInt32](repeating: 0, count: width * height)
            out.withUnsafeMutableBytes { o in
                for y in 0..<height { (o.baseAddress! + y * width * 4).copyMemory(from: data + y * stride, byteCount: width * 4) }
            }
            return out
        } ?? nil
    }

    /// The text of page `index` as poppler reads it (tests, and an info summary).
    public func text(page index: Int) -> String {
        withPage(index) { page -> String in
            guard let t = poppler.pageText(page) else { return "" }
            defer { poppler.free(t) }
            return String(cString: t)
        } ?? ""
    }

    /// Page `index`'s text with one box per Unicode scalar of it (points, origin top left), for search and text
    /// selection; nil when there is no such page.
    public func textLayout(page index: Int) -> PDFPageText? {
        withPage(index) { page -> PDFPageText in
            var w = 0.0, h = 0.0
            poppler.pageSize(page, &w, &h)
            let text: String
            if let t = poppler.pageText(page) { text = String(cString: t); poppler.free(t) } else { text = "" }
            var rects: UnsafeMutablePointer<Double>?
            var n: UInt32 = 0
            var boxes: [Rect] = []
            if poppler.pageTextLayout(page, &rects, &n) != 0, let r = rects {
                boxes.reserveCapacity(Int(n))
                for i in 0..<Int(n) {
                    let x1 = r[4 * i], y1 = r[4 * i + 1], x2 = r[4 * i + 2], y2 = r[4 * i + 3]
                    boxes.append(Rect(minX: min(x1, x2), minY: min(y1, y2), maxX: max(x1, x2), maxY: max(y1, y2)))
                }
            }
            if rects != nil { poppler.free(rects) }
            return PDFPageText(text: text, boxes: boxes, size: Size(width: w, height: h))
        }
    }

    /// Most outline entries read, and how deep: a hostile outline is cut there, not followed for ever.
    public static let maxOutlineEntries = 10_000
    public static let maxOutlineDepth = 32

    /// The PDF's outline (bookmarks) with 0-based pages; empty when it has none.
    public func outline() -> [OutlineEntry] {
        lock.lock(); defer { lock.unlock() }
        guard let root = poppler.indexIterNew(document) else { return [] }
        defer { poppler.indexIterFree(root) }
        var budget = Self.maxOutlineEntries
        return outlineLevel(root, depth: 0, budget: &budget)
    }

    /// The entries at `iter`'s level and below. Poppler's structs are read at their fixed offsets (x86-64 and
    /// aarch64): `PopplerActionGotoDest` {type, title, dest}; `PopplerDest` {type, page_num, left, bottom, right,
    /// top, zoom, named_dest, …}.
    private func outlineLevel(_ iter: OpaquePointer, depth: Int, budget: inout Int) -> [OutlineEntry] {
        var out: [OutlineEntry] = []
        repeat {
            guard budget > 0 else { break }
            budget -= 1
            guard let action = poppler.indexIterAction(iter) else { continue }
            defer { poppler.actionFree(action) }
            let gotoDest: Int32 = 2  // POPPLER_ACTION_GOTO_DEST
            let title = action.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            var target: (page: Int, top: Double?)?
            if action.load(as: Int32.self) == gotoDest, let dest = action.load(fromByteOffset: 16, as: UnsafeMutableRawPointer?.self) {
                target = destination(dest)
            }
            var children: [OutlineEntry] = []
            if depth + 1 < Self.maxOutlineDepth, let child = poppler.indexIterChild(iter) {
                children = outlineLevel(child, depth: depth + 1, budget: &budget)
                poppler.indexIterFree(child)
            }
            if let t = target {
                out.append(OutlineEntry(title: title, page: t.page, top: t.top, children: children))
            } else {
                out += children
            }
        } while poppler.indexIterNext(iter) != 0
        return out
    }

    /// A destination's 0-based page and top (points from the page's top), a named one looked up first.
    private func destination(_ dest: UnsafeMutableRawPointer) -> (page: Int, top: Double?)? {
        // PopplerDestType's values.
        let named: Int32 = 9, xyz: Int32 = 1, fitH: Int32 = 3, fitR: Int32 = 5, fitBH: Int32 = 7
        var d = dest
        var looked: UnsafeMutableRawPointer?
        defer { if let l = looked { poppler.destFree(l) } }
        if d.load(as: Int32.self) == named {
            guard let name = d.load(fromByteOffset: 48, as: UnsafePointer<CChar>?.self),
                  let found = poppler.findDest(document, name) else { return nil }
            looked = found
            d = found
        }
        let pageNumber = Int(d.load(fromByteOffset: 4, as: Int32.self))
        guard pageNumber >= 1, pageNumber <= pageCount else { return nil }
        let type = d.load(as: Int32.self)
        var top: Double?
        if [xyz, fitH, fitR, fitBH].contains(type) {
            let t = d.load(fromByteOffset: 32, as: Double.self)
            let h = pageSizeUnlocked(pageNumber - 1).height
            if t.isFinite, h > 0 { top = min(max(h - t, 0), h) }
        }
        return (pageNumber - 1, top)
    }

    private func pageSizeUnlocked(_ index: Int) -> Size {
        guard let page = poppler.documentPage(document, Int32(index)) else { return Size(width: 0, height: 0) }
        defer { poppler.objectUnref(UnsafeMutableRawPointer(page)) }
        var w = 0.0, h = 0.0
        poppler.pageSize(page, &w, &h)
        return Size(width: w, height: h)
    }

    private func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard index >= 0, index < pageCount else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let page = poppler.documentPage(document, Int32(index)) else { return nil }
        defer { poppler.objectUnref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }
}
