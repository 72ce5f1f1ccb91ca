import CZlib
import InkCore

/// Writes an ARGB32 surface as PNG through zlib directly, pigz-style: row stripes are filtered and
/// deflated on every core as raw deflate streams (sync-flushed, the last one finished), joined behind
/// one zlib header with the Adler-32s combined. This file and Cairo.swift are the C boundary.
enum PNGEncoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `opaque` writes RGB (smaller, faster); otherwise straight RGBA. `level` is zlib's 1…9.
    static func encode(_ surface: ImageSurface, opaque: Bool, level: Int32 = 1) throws -> [UInt8] {
        let w = surface.width, h = surface.height
        let channels = opaque ? 3 : 4
        let rowBytes = 1 + w * channels
        let stripes = max(1, min(h, Parallel.cores * 4))

        let parts: [Result<(data: [UInt8], adler: UInt, length: Int), Failure>] = surface.withPixels { base in
            let base = UnsafePointer(base)
            return Parallel.map(count: h, parts: stripes) { rows in
                var raw = [UInt8](repeating: 0, count: rows.count * rowBytes)
                raw.withUnsafeMutableBufferPointer { out in
                    for (i, y) in rows.enumerated() {
                        filterRow(base + y * surface.stride, width: w, channels: channels, into: out.baseAddress! + i * rowBytes)
                    }
                }
                let isLast = rows.upperBound == h
                return deflateRaw(raw, level: level, finish: isLast).map { data in
                    (data, raw.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }, raw.count)
                }
            }
        }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.appendBigEndian(UInt32(w)); ihdr.appendBigEndian(UInt32(h))
        ihdr += [8, opaque ? 2 : 6, 0, 0, 0]
        png.appendChunk("IHDR", ihdr)

        var adler: UInt = 1
        var first = true
        for part in parts {
            let p = try part.get()
            adler = first ? p.adler : adler32_combine(adler, p.adler, off_t(p.length))
            // The zlib header rides in the first IDAT; chunks concatenate into one zlib stream.
            png.appendChunk("IDAT", first ? [0x78, 0x01] + p.data : p.data)
            first = false
        }
        var trailer: [UInt8] = []
        trailer.appendBigEndian(UInt32(truncatingIfNeeded: adler))
        png.appendChunk("IDAT", trailer)
        png.appendChunk("IEND", [])
        return png
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

    /// Raw deflate of one stripe; sync-flushed so the next stripe can follow byte-aligned, or finished.
    private static func deflateRaw(_ input: [UInt8], level: Int32, finish: Bool) -> Result<[UInt8], Failure> {
        var strm = z_stream()
        guard deflateInit2_(&strm, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .failure(Failure(description: "zlib could not start compressing"))
        }
        defer { deflateEnd(&strm) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&strm, uLong(input.count))) + 64)
        let written: Int32 = input.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                strm.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
                strm.avail_in = uInt(inp.count)
                strm.next_out = o.baseAddress
                strm.avail_out = uInt(o.count)
                let rc = deflate(&strm, finish ? Z_FINISH : Z_SYNC_FLUSH)
                let ok = finish ? rc == Z_STREAM_END : (rc == Z_OK && strm.avail_in == 0)
                return ok ? Int32(o.count - Int(strm.avail_out)) : -1
            }
        }
        guard written >= 0 else { return .failure(Failure(description: "zlib could not compress the image")) }
        out.removeLast(out.count - Int(written))
        return .success(out)
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
        let crc = self.withUnsafeBufferPointer { buf in
            crc32(0, buf.baseAddress! + start, uInt(buf.count - start))
        }
        appendBigEndian(UInt32(truncatingIfNeeded: crc))
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
