import InkCore

/// Writes an ARGB32 surface as PNG without cairo's writer: row stripes are un-premultiplied, Sub-filtered
/// and deflated at level 1 on every core (`ParallelDeflate`), one IDAT chunk per stripe.
enum PNGEncoder {
    /// `opaque` writes RGB (smaller, faster); otherwise straight RGBA. `level` is zlib's 1…9.
    static func encode(_ surface: ImageSurface, opaque: Bool, level: Int32 = 1) throws -> [UInt8] {
        let runs = try chunks(surface, opaque: opaque, level: level)
        var png: [UInt8] = []
        png.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        for r in runs { png += r }
        return png
    }

    /// The PNG as consecutive byte runs (signature and header, one per IDAT chunk, the end), for writers that
    /// write them one after another instead of joining them into one more copy of the file.
    static func chunks(_ surface: ImageSurface, opaque: Bool, level: Int32 = 1) throws -> [[UInt8]] {
        let w = surface.width, h = surface.height
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + w * channels
        let stripes = max(1, min(h, Parallel.cores * 4))

        let results: [Result<ParallelDeflate.Piece, Error>] = surface.withPixels { base in
            let base = UnsafePointer(base)
            return Parallel.map(count: h, parts: stripes) { rows in
                var raw = [UInt8](repeating: 0, count: rows.count * rowBytes)
                raw.withUnsafeMutableBufferPointer { out in
                    for (i, y) in rows.enumerated() {
                        filterRow(base + y * surface.stride, width: w, channels: channels, into: out.baseAddress! + i * rowBytes)
                    }
                }
                return Result { try ParallelDeflate.piece(raw, last: rows.upperBound == h, level: level) }
            }
        }
        var pieces = try results.map { try $0.get() }

        var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.appendBigEndian(UInt32(w)); ihdr.appendBigEndian(UInt32(h))
        ihdr += [8, opaque ? 2 : 6, 0, 0, 0]
        head.appendChunk("IHDR", ihdr)
        var runs = [head]
        // The zlib header rides in the first IDAT and the Adler-32 in the last; IDATs concatenate into one stream.
        for i in pieces.indices {
            var chunk: [UInt8] = []
            chunk.reserveCapacity(pieces[i].data.count + 14)
            chunk.appendChunk("IDAT", i == 0 ? ParallelDeflate.header + pieces[i].data : pieces[i].data)
            runs.append(chunk)
            pieces[i].data = []  // its bytes now live in the chunk
        }
        var tail: [UInt8] = []
        tail.appendChunk("IDAT", ParallelDeflate.trailer(pieces))
        tail.appendChunk("IEND", [])
        runs.append(tail)
        return runs
    }

    /// Un-premultiplies one row into PNG bytes with the Sub filter (each byte minus the one a pixel left).
    private static func filterRow(_ src: UnsafePointer<UInt8>, width w: Int, channels: Int, into dst: UnsafeMutablePointer<UInt8>) {
        dst[0] = 1  // Sub
        src.withMemoryRebound(to: UInt32.self, capacity: w) { px in
            var pr: UInt8 = 0, pg: UInt8 = 0, pb: UInt8 = 0, pa: UInt8 = 0
            var o = dst + 1
            for x in 0..<w {
                let v = px[x]
                let a = v >> 24
                var r = UInt8(truncatingIfNeeded: v >> 16), g = UInt8(truncatingIfNeeded: v >> 8), b = UInt8(truncatingIfNeeded: v)
                if a != 255 {
                    if a == 0 { r = 0; g = 0; b = 0 } else {
                        let half = a / 2
                        r = UInt8(min((UInt32(r) * 255 + half) / a, 255))
                        g = UInt8(min((UInt32(g) * 255 + half) / a, 255))
                        b = UInt8(min((UInt32(b) * 255 + half) / a, 255))
                    }
                }
                o[0] = r &- pr; o[1] = g &- pg; o[2] = b &- pb
                pr = r; pg = g; pb = b
                if channels == 4 {
                    let a8 = UInt8(truncatingIfNeeded: a)
                    o[3] = a8 &- pa; pa = a8
                }
                o += channels
            }
        }
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8(v >> 16 & 0xff)); append(UInt8(v >> 8 & 0xff)); append(UInt8(v & 0xff))
    }

    /// Length, type, data, CRC-32 of type + data.
    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let start = count
        append(contentsOf: Array(type.utf8))
        append(contentsOf: data)
        appendBigEndian(ParallelDeflate.crc(self[start...]))
    }
}

extension ImageSurface {
    /// Saves the raster as an RGBA PNG (for tests, diagnostics and screenshots).
    public func writePNG(to path: String) throws {
        let bytes: [UInt8]
        do { bytes = try PNGEncoder.encode(self, opaque: false) } catch {
            throw RenderError.cannotWrite(path: path, reason: "\(error)")
        }
        try FileOutput.write(bytes, to: path)
    }
}
