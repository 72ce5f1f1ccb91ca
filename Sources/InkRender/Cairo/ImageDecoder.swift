import CCairo
import CGdkPixbuf
import Foundation
import InkCore

// The only file in InkRender that touches gdk-pixbuf, and cairo's PNG stream reader: image bytes → an ARGB32
// surface. Nothing reaches a decoder before `ImageHeader` has checked the kind and the size, so a bomb never
// allocates, and a decoder's failure is an `ImageError` (one line), never a crash.

/// Decodes the PNG and JPEG images documents embed.
public enum ImageDecoder {
    /// The pixels of `bytes` (premultiplied ARGB32). Throws `ImageError` for anything else, too large or damaged.
    public static func decode(_ bytes: [UInt8]) throws -> ImageSurface {
        let header = try ImageHeader(reading: bytes)
        let surface = header.format == .png ? try png(bytes) : try jpeg(bytes, orientation: header.orientation)
        // A PDF viewer shows embedded JPEG data as stored, without its EXIF turn: only unturned ones go in as they are.
        if header.format == .jpeg, header.orientation == 1 { attachJPEG(bytes, to: surface) }
        // The size limit was checked on the header; a decoder disagreeing with it is a damaged file.
        guard surface.width == header.width, surface.height == header.height else {
            throw ImageError.damaged("the header says \(header.width)×\(header.height), the pixels are \(surface.width)×\(surface.height)")
        }
        return surface
    }

    /// The picture as a PNG of its pixels as shown (a JPEG's EXIF turn applied), nil when it does not decode: for
    /// readers that take PNG only (Xournal++) or ignore EXIF (librsvg).
    public static func pngBytes(_ bytes: [UInt8]) -> [UInt8]? {
        guard let surface = try? decode(bytes), let chunks = try? PNGEncoder.chunks(surface, opaque: false) else { return nil }
        return Array(chunks.joined())
    }

    /// cairo's PNG reader (libpng), fed from memory.
    private static func png(_ bytes: [UInt8]) throws -> ImageSurface {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let reader = Reader(bytes)
        let s: OpaquePointer = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, data, length in
                let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                let n = Int(length)
                guard let data, r.bytes.count - r.offset >= n else { return CAIRO_STATUS_READ_ERROR }
                r.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + r.offset, count: n) }
                r.offset += n
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(reader).toOpaque())!
        }
        let st = cairo_surface_status(s)
        guard st == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw ImageError.undecodable("PNG: \(CairoFailure(status: st))")
        }
        return ImageSurface(adoptingAsARGB: s)
    }

    /// gdk-pixbuf's JPEG loader (libjpeg), fed from memory; its RGB rows are copied into a cairo surface, turned
    /// and mirrored as the EXIF `orientation` (1…8) says the picture is shown (the header's reading of it, so the
    /// size the header reports and the pixels always agree).
    private static func jpeg(_ bytes: [UInt8], orientation: Int) throws -> ImageSurface {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type("jpeg", &error) else {
            throw ImageError.undecodable("JPEG: \(take(&error) ?? "no JPEG loader")")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let written = bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &error) }
        let writeError = take(&error)
        // Always closed, even after a failed write (else the loader complains when it is freed).
        let closed = gdk_pixbuf_loader_close(loader, &error)
        let closeError = take(&error)
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw ImageError.undecodable("JPEG: \(writeError ?? closeError ?? "no picture")")
        }
        let w = Int(gdk_pixbuf_get_width(pixbuf)), h = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let src = gdk_pixbuf_read_pixels(pixbuf) else {
            throw ImageError.undecodable("JPEG: unexpected pixel layout")
        }
        let turn = Orientation(orientation, width: w, height: h)
        let surface = try ImageSurface(width: turn.shownWidth, height: turn.shownHeight)
        let rowWords = surface.stride / 4
        surface.withPixels { base in
            base.withMemoryRebound(to: UInt32.self, capacity: rowWords * surface.height) { out in
                for y in 0..<h {
                    let row = src + y * rowstride
                    // Where stored pixel (x, y) is shown is linear in x: a start and a step per pixel.
                    var at = turn.shownY(0, y) * rowWords + turn.shownX(0, y)
                    let step = turn.dyPerX * rowWords + turn.dxPerX
                    for x in 0..<w {
                        let p = row + x * channels
                        let a = channels == 4 ? UInt32(p[3]) : 255
                        func m(_ v: UInt8) -> UInt32 { a == 255 ? UInt32(v) : (UInt32(v) * a + 127) / 255 }
                        out[at] = a << 24 | m(p[0]) << 16 | m(p[1]) << 8 | m(p[2])
                        at += step
                    }
                }
            }
        }
        return surface
    }

    /// EXIF orientation as a map from a stored pixel (x, y) of a w×h picture to where it is shown.
    struct Orientation {
        let shownWidth: Int, shownHeight: Int
        /// shown x = dxPerX·x + dxPerY·y + dx0, likewise y.
        let dxPerX: Int, dxPerY: Int, dx0: Int, dyPerX: Int, dyPerY: Int, dy0: Int

        init(_ o: Int, width w: Int, height h: Int) {
            switch o {
            case 2: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (-1, 0, w - 1, 0, 1, 0)        // mirrored left–right
            case 3: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (-1, 0, w - 1, 0, -1, h - 1)   // turned 180°
            case 4: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (1, 0, 0, 0, -1, h - 1)        // mirrored top–bottom
            case 5: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (0, 1, 0, 1, 0, 0)             // transposed
            case 6: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (0, -1, h - 1, 1, 0, 0)        // turned 90° clockwise
            case 7: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (0, -1, h - 1, -1, 0, w - 1)   // transversed
            case 8: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (0, 1, 0, -1, 0, w - 1)        // turned 90° anticlockwise
            default: (dxPerX, dxPerY, dx0, dyPerX, dyPerY, dy0) = (1, 0, 0, 0, 1, 0)
            }
            (shownWidth, shownHeight) = (5...8).contains(o) ? (h, w) : (w, h)
        }

        func shownX(_ x: Int, _ y: Int) -> Int { dxPerX * x + dxPerY * y + dx0 }
        func shownY(_ x: Int, _ y: Int) -> Int { dyPerX * x + dyPerY * y + dy0 }
    }

    /// Lets cairo's PDF surface embed the JPEG as it is (DCT) instead of its decoded pixels: a photo stays its
    /// own size in an exported PDF. Raster drawing ignores it.
    private static func attachJPEG(_ bytes: [UInt8], to surface: ImageSurface) {
        guard let copy = malloc(bytes.count) else { return }
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        let st = cairo_surface_set_mime_data(surface.pointer, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self),
                                             UInt(bytes.count), { free($0) }, copy)
        if st != CAIRO_STATUS_SUCCESS { free(copy) }
    }

    /// A GError's message, freed.
    private static func take(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
        guard let e = error else { return nil }
        defer { g_error_free(e); error = nil }
        return e.pointee.message.map { String(cString: $0) }
    }
}
