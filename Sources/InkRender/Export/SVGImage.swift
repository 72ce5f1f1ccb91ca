import Foundation
import InkCore

/// An embedded picture in SVG: an `<image>` holding the file's own bytes (PNG or JPEG, base64 in a data URL),
/// stretched over its box and placed by the item's transform, so the SVG needs no file beside it (a JPEG turned
/// by its EXIF orientation as a PNG of its pixels as shown).
enum SVGImage {
    /// Appends the `<image>` for `bytes` over `box` (page units) under `transform`; a placeholder rectangle when
    /// the bytes are missing or not a picture we read.
    static func append(bytes original: [UInt8]?, box: Rect, transform: AffineMap, to out: inout [UInt8]) {
        var bytes = original
        var format: ImageHeader.Format?
        if let b = original, let h = try? ImageHeader(reading: b) {
            format = h.format
            if h.orientation != 1 {
                // Viewers disagree on EXIF orientation (librsvg ignores it, browsers apply it): a turned JPEG goes in
                // as a PNG of the turned pixels, which every viewer shows alike.
                bytes = ImageDecoder.pngBytes(b)
                format = bytes == nil ? nil : .png
            }
        }
        out.append("<image")
        if !transform.isIdentity {
            out.append(" transform=\"matrix(")
            for (i, v) in [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty].enumerated() {
                if i > 0 { out.append(" ") }
                out.appendNumber(v, decimals: 6)
            }
            out.append(")\"")
        }
        out.append(" x=\""); out.appendNumber(box.minX, decimals: 3); out.append("\" y=\""); out.appendNumber(box.minY, decimals: 3)
        out.append("\" width=\""); out.appendNumber(box.width, decimals: 3); out.append("\" height=\""); out.appendNumber(box.height, decimals: 3)
        out.append("\" preserveAspectRatio=\"none\" href=\"data:")
        switch format {
        case .png?: out.append("image/png")
        case .jpeg?: out.append("image/jpeg")
        case nil: out.append("application/octet-stream")
        }
        out.append(";base64,")
        if let bytes, format != nil { out.append(contentsOf: Data(bytes).base64EncodedData()) }
        out.append("\"/>\n")
    }
}
