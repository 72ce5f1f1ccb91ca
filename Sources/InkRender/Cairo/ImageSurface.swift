import CCairo
import Foundation
import InkCore

// Cairo's C pointers stay in the InkRender/Cairo wrapper files (ARCHITECTURE.md lists them). Everything else
// speaks `ImageSurface`, `CairoContext` and page/device geometry.

/// Why cairo refused to do something, in words a user can act on.
struct CairoFailure: Error, CustomStringConvertible {
    let status: cairo_status_t
    var description: String { String(cString: cairo_status_to_string(status)) }
}

/// A 32-bit premultiplied ARGB raster owned by cairo (or viewing rows of another surface's memory).
/// Identity matters (it owns C memory), hence a class. Safe to read from many threads once no one draws into it.
public final class ImageSurface: @unchecked Sendable {
    let pointer: OpaquePointer
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// Keeps the surface whose memory a band view points into alive.
    private let parent: ImageSurface?

    /// A transparent surface; fails (without allocating) beyond cairo's 32767-pixel limit.
    public init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw RenderError.pageTooLarge("a \(width)×\(height) pixel image is outside 1…32767 pixels a side")
        }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.pageTooLarge("cannot allocate a \(width)×\(height) image: \(CairoFailure(status: st))")
        }
        pointer = s; self.width = width; self.height = height
        stride = Int(cairo_image_surface_get_stride(s)); parent = nil
        // 2 MiB pages for a page's raster (tens of megabytes; cairo's calloc leaves it untouched until drawn):
        // tens of page faults instead of thousands (as `Deflate` does for the XML it inflates).
        if let d = cairo_image_surface_get_data(s), stride * height >= 4 << 20 {
            let start = (Int(bitPattern: d) + 4095) & ~4095, end = (Int(bitPattern: d) + stride * height) & ~4095
            if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
        }
    }

    /// A view of rows `y0..<y0+rows` of `parent`: drawing into it draws into the parent's pixels.
    /// Views of disjoint rows may be drawn from different threads at the same time.
    init(rowsOf parent: ImageSurface, from y0: Int, count rows: Int) {
        cairo_surface_flush(parent.pointer)
        let base = cairo_image_surface_get_data(parent.pointer)! + y0 * parent.stride
        pointer = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(parent.width), Int32(rows), Int32(parent.stride))!
        width = parent.width; height = rows; stride = parent.stride; self.parent = parent
    }

    init(adopting s: OpaquePointer) {
        pointer = s
        width = Int(cairo_image_surface_get_width(s)); height = Int(cairo_image_surface_get_height(s))
        stride = Int(cairo_image_surface_get_stride(s)); parent = nil
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Reads a PNG file (any PNG cairo understands) into an ARGB32 surface.
    public static func load(png path: String) throws -> ImageSurface {
        let s = cairo_image_surface_create_from_png(path)!
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.cannotRead(path: path, reason: CairoFailure(status: st).description)
        }
        return ImageSurface(adoptingAsARGB: s)
    }

    /// Takes ownership of an image surface cairo made, copied onto ARGB32 when it is another format (RGB24 and
    /// others) so pixel readers see one layout.
    convenience init(adoptingAsARGB s: OpaquePointer) {
        if cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32 {
            let w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s)
            let out = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)!
            let cr = cairo_create(out)!
            cairo_set_source_surface(cr, s, 0, 0); cairo_paint(cr); cairo_destroy(cr)
            cairo_surface_destroy(s)
            self.init(adopting: out)
        } else {
            self.init(adopting: s)
        }
    }

    /// A surface holding `pixels` (premultiplied ARGB words, row after row, `width` a row).
    static func copying(_ pixels: [UInt32], width: Int, height: Int) throws -> ImageSurface {
        let surface = try ImageSurface(width: width, height: height)
        guard pixels.count >= width * height else { return surface }
        pixels.withUnsafeBufferPointer { src in
            surface.withPixels { base in
                for y in 0..<height {
                    (base + y * surface.stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                        row.update(from: src.baseAddress! + y * width, count: width)
                    }
                }
            }
        }
        return surface
    }

    /// The premultiplied ARGB words, row after row, `width` a row (the layout `copying` takes).
    func words() -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            withPixels { base in
                for y in 0..<height {
                    (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                        (dst.baseAddress! + y * width).update(from: row, count: width)
                    }
                }
            }
        }
        return out
    }

    /// Calls `body` with the premultiplied ARGB32 bytes (native-endian words) after flushing pending drawing.
    func withPixels<R>(_ body: (UnsafeMutablePointer<UInt8>) throws -> R) rethrows -> R {
        cairo_surface_flush(pointer)
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(cairo_image_surface_get_data(pointer)!)
    }

    /// The first pixel's address, for readers of rows no cairo context is drawing into any more (a band view
    /// flushed after its drawing): unlike `withPixels`, it neither flushes nor marks the surface, so other rows
    /// can still be drawing.
    var pixelBase: UnsafeMutablePointer<UInt8> { cairo_image_surface_get_data(pointer)! }

    /// Finishes pending drawing and detaches the snapshots others keep of the surface (copying their pixels now).
    func flush() { cairo_surface_flush(pointer) }

    /// Tells cairo the pixels were changed behind its back (by band views drawing into them).
    func markDirty() { cairo_surface_mark_dirty(pointer) }

    /// Straight (un-premultiplied) colour of one pixel; transparent outside the surface.
    public func pixel(x: Int, y: Int) -> RGBA {
        guard x >= 0, y >= 0, x < width, y < height else { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        cairo_surface_flush(pointer)
        let word = (cairo_image_surface_get_data(pointer)! + y * stride + x * 4)
            .withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return PixelWord.unpremultiplied(word)
    }

    /// Sets every pixel of rows `y0..<y1` to the premultiplied word of `color` (transparent when nil).
    func fillRows(_ y0: Int, _ y1: Int, with color: RGBA?) {
        let word = color.map(PixelWord.premultiplied) ?? 0
        withPixels { base in
            for y in y0..<y1 {
                (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                    row.update(repeating: word, count: width)
                }
            }
        }
    }
}

/// cairo's ARGB32 pixel word: premultiplied, alpha in the top byte.
enum PixelWord {
    static func premultiplied(_ c: RGBA) -> UInt32 {
        let a = UInt32(c.a)
        func m(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
        return a << 24 | m(c.r) << 16 | m(c.g) << 8 | m(c.b)
    }
    static func unpremultiplied(_ w: UInt32) -> RGBA {
        let a = w >> 24
        guard a > 0 else { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        func u(_ v: UInt32) -> UInt8 { UInt8(min((v * 255 + a / 2) / a, 255)) }
        return RGBA(r: u(w >> 16 & 0xff), g: u(w >> 8 & 0xff), b: u(w & 0xff), a: UInt8(a))
    }
}

extension ImageSurface {
    /// The picture at half the size (rounded up), each pixel the average of the 2×2 it covers: one level of
    /// an image's zoom pyramid.
    func halved() throws -> ImageSurface {
        let out = try ImageSurface(width: (width + 1) / 2, height: (height + 1) / 2)
        let cr = cairo_create(out.pointer)!
        cairo_scale(cr, Double(out.width) / Double(width), Double(out.height) / Double(height))
        cairo_set_source_surface(cr, pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_destroy(cr)
        return out
    }

    /// Moves the picture by (dx, dy) whole pixels; uncovered pixels become transparent.
    func shift(dx: Int, dy: Int) {
        guard dx != 0 || dy != 0 else { return }
        let w = width, h = height, st = stride
        guard abs(dx) < w, abs(dy) < h else { fillRows(0, h, with: nil); return }
        withPixels { base in
            let rowBytes = (w - abs(dx)) * 4
            let from = max(0, -dx) * 4, to = max(0, dx) * 4
            // Walk rows against the direction of travel so no source row is overwritten before it is read.
            let rows = dy > 0 ? Array(Swift.stride(from: h - 1, through: dy, by: -1)) : Array(0..<(h + dy))
            for y in rows {
                let src = base + (y - dy) * st, dst = base + y * st
                memmove(dst + to, src + from, rowBytes)
                // The columns the shift uncovered.
                if dx > 0 { memset(dst, 0, dx * 4) } else if dx < 0 { memset(dst + (w + dx) * 4, 0, -dx * 4) }
            }
            let cleared = dy > 0 ? 0..<dy : (h + dy)..<h
            for y in cleared { memset(base + y * st, 0, w * 4) }
        }
    }
}
