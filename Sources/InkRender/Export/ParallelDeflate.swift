import CDeflate
import CZlib

/// pigz-style zlib: independent pieces are raw-deflated on every core, each sync-flushed so the next can
/// follow byte-aligned (the last one finished), then joined behind one zlib header with their Adler-32s
/// combined (PNG image data); and whole zlib streams by libdeflate (PDF content streams).
enum ParallelDeflate {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What a compressed piece leaves for the stream's trailer (its bytes stay in the caller's chunk): the
    /// Adler-32 and length of its input, to combine checksums.
    struct Piece {
        var adler: UInt
        var length: Int
    }

    /// The two-byte zlib header for a 32 KiB window at a fast level.
    static let header: [UInt8] = [0x78, 0x01]

    /// A piece deflated straight into a chunk: four bytes left for the caller's length, `prefix`, then the raw
    /// deflate of `units` units of `unitSize` bytes, which `fill(k, into)` writes a few at a time into one small
    /// buffer (so the uncompressed stripe never exists whole, nor a second copy of the compressed one). The chunk
    /// has room for four more bytes (a CRC).
    static func chunk(units: Int, unitSize: Int, last: Bool, level: Int32 = 1, prefix: [UInt8],
                      fill: (Int, UnsafeMutablePointer<UInt8>) -> Void) throws -> (chunk: [UInt8], piece: Piece) {
        var strm = z_stream()
        guard deflateInit2_(&strm, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start compressing")
        }
        defer { deflateEnd(&strm) }
        let length = units * unitSize
        let perBlock = max(1, (64 << 10) / max(unitSize, 1))
        var block = [UInt8](repeating: 0, count: min(units, perBlock) * unitSize)
        let capacity = 4 + prefix.count + Int(deflateBound(&strm, uLong(length))) + 64
        var adler: UInt = adler32(0, nil, 0)
        var failed = false
        let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            let o = out.baseAddress!
            for k in 0..<4 { o[k] = 0 }
            for (k, b) in prefix.enumerated() { o[4 + k] = b }
            strm.next_out = o + 4 + prefix.count
            strm.avail_out = uInt(capacity - 4 - prefix.count)
            block.withUnsafeMutableBufferPointer { buf in
                var k = 0
                repeat {
                    let n = min(perBlock, units - k)
                    for i in 0..<n { fill(k + i, buf.baseAddress! + i * unitSize) }
                    k += n
                    adler = adler32(adler, buf.baseAddress, uInt(n * unitSize))
                    strm.next_in = buf.baseAddress
                    strm.avail_in = uInt(n * unitSize)
                    let flush = k < units ? Z_NO_FLUSH : (last ? Z_FINISH : Z_SYNC_FLUSH)
                    let rc = deflate(&strm, flush)
                    let ok = flush == Z_FINISH ? rc == Z_STREAM_END : rc == Z_OK
                    if !ok || strm.avail_in != 0 { failed = true; break }
                } while k < units
            }
            count = failed ? 0 : capacity - Int(strm.avail_out)
        }
        guard !failed else { throw Failure(description: "zlib could not compress the data") }
        return (chunk, Piece(adler: adler, length: length))
    }

    /// Adler-32 of the concatenation of the pieces' inputs, as the 4-byte zlib trailer.
    static func trailer(_ pieces: [Piece]) -> [UInt8] {
        var adler: UInt = 1
        for (i, p) in pieces.enumerated() {
            adler = i == 0 ? p.adler : adler32_combine(adler, p.adler, off_t(p.length))
        }
        let a = UInt32(truncatingIfNeeded: adler)
        return [UInt8(a >> 24), UInt8(a >> 16 & 0xff), UInt8(a >> 8 & 0xff), UInt8(a & 0xff)]
    }

    /// One whole zlib stream of `input` by libdeflate, which at its level 1 is about five times as fast as zlib's
    /// level 3 and a little smaller on a PDF's path text; whole streams only (it cannot sync-flush), so callers
    /// that split their data keep the pieces apart (a PDF page's content as an array of streams).
    static func whole(_ input: [UInt8], level: Int32 = 1) throws -> [UInt8] {
        guard let c = libdeflate_alloc_compressor(level) else { throw Failure(description: "libdeflate could not start compressing") }
        defer { libdeflate_free_compressor(c) }
        let bound = libdeflate_zlib_compress_bound(c, input.count)
        // Uninitialized: zero-filling a bound the size of the input would cost as much as a tenth of compressing it.
        return try [UInt8](unsafeUninitializedCapacity: bound) { buf, count in
            count = input.withUnsafeBytes { libdeflate_zlib_compress(c, $0.baseAddress, $0.count, buf.baseAddress, buf.count) }
            if count == 0 { throw Failure(description: "libdeflate could not compress the data") }
        }
    }

    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        UInt32(truncatingIfNeeded: bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
    }
}
