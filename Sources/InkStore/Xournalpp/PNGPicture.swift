/// A picture made on import (a TeX formula's PDF page) as PNG bytes: straight RGBA, rows unfiltered, compressed
/// by libdeflate at a fast level. cairo's own PNG writer (libpng's adaptive filters, zlib's default level) took
/// three quarters of a formula's import.
enum PNGPicture {
    static func png(premultipliedARGB pixels: [UInt32], width: Int, height: Int) -> [UInt8]? {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        // Each row: filter type 0, then R, G, B, A with the alpha taken back out.
        var raw = [UInt8](repeating: 0, count: height * (1 + 4 * width))
        var o = 0
        for y in 0..<height {
            o += 1
            for x in 0..<width {
                let p = pixels[y * width + x], a = Int(p >> 24)
                if a != 0 {
                    func straight(_ c: UInt32) -> UInt8 { UInt8(min(255, (Int(c & 0xff) * 255 + a / 2) / a)) }
                    raw[o] = straight(p >> 16); raw[o + 1] = straight(p >> 8); raw[o + 2] = straight(p); raw[o + 3] = UInt8(a)
                }
                o += 4
            }
        }
        guard let data = Deflate.zlib(raw) else { return nil }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func chunk(_ type: String, _ body: [UInt8]) {
            png += be32(UInt32(body.count))
            let start = png.count
            png += Array(type.utf8) + body
            png += be32(Deflate.crc32(png[start...]))
        }
        // 8 bits a channel, colour type 6 (RGBA), no interlace.
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 0])
        chunk("IDAT", data)
        chunk("IEND", [])
        return png
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
}
