import CDeflate
import CZlib
import Glibc

/// zlib and libdeflate, wrapped: bounded inflate of gzip / raw deflate data and gzip compression. The only caller of either.
public enum Deflate {
    enum Container { case gzip, raw }

    enum Failure: Error, Equatable {
        /// The data would inflate beyond the limit (a decompression bomb, or simply too big).
        case tooLarge(limit: Int)
        case truncated
        case corrupt(String)
    }

    /// Inflates `input`, refusing to produce more than `limit` bytes. Memory stays under limit + one chunk.
    static func inflate(_ input: [UInt8], container: Container, limit: Int) throws -> [UInt8] {
        if container == .gzip, let whole = wholeGzip(input, limit: limit) { return whole }
        var s = z_stream()
        let bits: Int32 = container == .gzip ? 15 + 16 : -15
        guard inflateInit2_(&s, bits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure.corrupt("zlib could not start")
        }
        defer { inflateEnd(&s) }
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, max(input.count * 4, 4096)))
        let chunk = 1 << 16
        var buf = [UInt8](repeating: 0, count: chunk)
        var input = input
        let ended: Bool = try input.withUnsafeMutableBufferPointer { inp in
            s.next_in = inp.baseAddress
            s.avail_in = UInt32(inp.count)
            while true {
                let rc: Int32 = buf.withUnsafeMutableBufferPointer { ob in
                    s.next_out = ob.baseAddress
                    s.avail_out = UInt32(chunk)
                    return CZlib.inflate(&s, Z_NO_FLUSH)
                }
                let produced = chunk - Int(s.avail_out)
                if out.count + produced > limit { throw Failure.tooLarge(limit: limit) }
                out.append(contentsOf: buf[0..<produced])
                switch rc {
                case Z_STREAM_END: return true
                case Z_OK: continue
                case Z_BUF_ERROR: return false   // no progress possible: input ended early
                default:
                    let msg = s.msg.map { String(cString: $0) } ?? "code \(rc)"
                    throw Failure.corrupt(msg)
                }
            }
        }
        guard ended else { throw Failure.truncated }
        return out
    }

    /// libdeflate inflates a whole gzip member about twice as fast as zlib's stream, but needs the output size
    /// up front: the trailer's ISIZE, trusted only up to `limit` and only if the result matches it exactly.
    /// Anything else (multi-member, lying trailer, damage) returns nil and zlib's bounded stream decides.
    private static func wholeGzip(_ input: [UInt8], limit: Int) -> [UInt8]? {
        guard input.count >= 18 else { return nil }
        let n = input.count
        let size = Int(input[n - 4]) | Int(input[n - 3]) << 8 | Int(input[n - 2]) << 16 | Int(input[n - 1]) << 24
        guard size > 0, size <= limit else { return nil }
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var consumed = 0, produced = 0
        var rc = LIBDEFLATE_BAD_DATA
        // Uninitialized: libdeflate writes every byte it reports (tens of megabytes not zeroed first), and the
        // array keeps only those.
        let out = [UInt8](unsafeUninitializedCapacity: size) { o, count in
            preferHugePages(UnsafeMutableRawPointer(o.baseAddress!), count: size)
            rc = input.withUnsafeBytes { inp in
                libdeflate_gzip_decompress_ex(d, inp.baseAddress, inp.count, o.baseAddress, size, &consumed, &produced)
            }
            count = rc == LIBDEFLATE_SUCCESS ? min(produced, size) : 0
        }
        guard rc == LIBDEFLATE_SUCCESS, consumed == n, produced == size else { return nil }
        return out
    }

    /// Asks the kernel for 2 MiB pages for a buffer of megabytes about to be filled: tens of page faults instead of
    /// thousands, on the one thread that inflates the file (ImageSurface does the same for a page's raster).
    private static func preferHugePages(_ p: UnsafeMutableRawPointer, count: Int) {
        guard count >= 4 << 20 else { return }
        let start = (Int(bitPattern: p) + 4095) & ~4095, end = (Int(bitPattern: p) + count) & ~4095
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
    }

    /// `input` as a zlib stream (what a PNG's image data is), by libdeflate at a fast level: pictures made on import.
    static func zlib(_ input: [UInt8], level: Int32 = 3) -> [UInt8]? {
        guard let c = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(c) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(c, input.count))
        let n = input.withUnsafeBytes { i in out.withUnsafeMutableBytes { libdeflate_zlib_compress(c, i.baseAddress, i.count, $0.baseAddress, $0.count) } }
        guard n > 0 else { return nil }
        out.removeLast(out.count - n)
        return out
    }

    /// The CRC-32 of `bytes` (PNG's and gzip's).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    }

    /// gzip-compresses `input` (what `.xopp` files are).
    public static func gzip(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var s = z_stream()
        guard deflateInit2_(&s, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { throw Failure.corrupt("zlib could not start") }
        defer { deflateEnd(&s) }
        let bound = Int(deflateBound(&s, UInt(input.count))) + 64
        var out = [UInt8](repeating: 0, count: bound)
        var input = input
        let rc: Int32 = input.withUnsafeMutableBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { ob in
                s.next_in = inp.baseAddress; s.avail_in = UInt32(inp.count)
                s.next_out = ob.baseAddress; s.avail_out = UInt32(ob.count)
                return deflate(&s, Z_FINISH)
            }
        }
        guard rc == Z_STREAM_END else { throw Failure.corrupt("compression failed (code \(rc))") }
        out.removeLast(Int(s.avail_out))
        return out
    }
}
