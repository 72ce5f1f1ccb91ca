import CDeflate
import CZlib

/// pigz-style zlib: independent pieces are raw-deflated on every core, each left open on a byte boundary so the next
/// can follow (the last one finished), then joined behind one zlib header with their Adler-32s combined (PNG image
/// data); and whole zlib streams (PDF content streams). libdeflate compresses both.
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

    /// Most input compressed in one call: libdeflate compresses whole buffers, and a stripe is filled into one
    /// (a megabyte compresses within 0.3 % of the whole stripe, and the uncompressed stripe never exists whole).
    static let groupBytes = 1 << 20

    /// A piece deflated straight into a chunk: four bytes left for the caller's length, `prefix`, then the raw
    /// deflate of `units` units of `unitSize` bytes, which `fill(k, into)` writes into one buffer of at most
    /// `groupBytes`. libdeflate compresses each group (twice as fast as zlib at level 1 on a page of ink, 4 % larger),
    /// and `DeflateSeam` opens its end so the next group, or the next piece, follows; only the image's last group
    /// keeps its final block. The chunk has room for four more bytes (a CRC).
    static func chunk(units: Int, unitSize: Int, last: Bool, level: Int32 = 1, prefix: [UInt8],
                      fill: (Int, UnsafeMutablePointer<UInt8>) -> Void) throws -> (chunk: [UInt8], piece: Piece) {
        guard let compressor = libdeflate_alloc_compressor(level) else { throw Failure(description: "libdeflate could not start compressing") }
        defer { libdeflate_free_compressor(compressor) }
        let perGroup = max(1, groupBytes / max(unitSize, 1))
        let groups = max(1, (units + perGroup - 1) / perGroup)
        let groupCapacity = max(libdeflate_deflate_compress_bound(compressor, perGroup * unitSize), Int(compressBound(uLong(perGroup * unitSize)))) + 16
        let capacity = 4 + prefix.count + groups * groupCapacity + 64
        // Uninitialized: every byte compressed is filled first (zeroing a megabyte a stripe was most of a memset's time).
        var input = [UInt8](unsafeUninitializedCapacity: max(1, min(units, perGroup) * unitSize)) { _, count in count = max(1, min(units, perGroup) * unitSize) }
        var adler: UInt32 = 1
        var failure: Error?
        let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            let o = out.baseAddress!
            for k in 0..<4 { o[k] = 0 }
            for (k, b) in prefix.enumerated() { o[4 + k] = b }
            var at = 4 + prefix.count
            input.withUnsafeMutableBufferPointer { buf in
                let b = buf.baseAddress!
                for g in 0..<groups {
                    let lo = g * perGroup, n = min(perGroup, units - lo), bytes = n * unitSize
                    for i in 0..<n { fill(lo + i, b + i * unitSize) }
                    adler = libdeflate_adler32(adler, b, bytes)
                    let closing = last && g == groups - 1
                    var size = libdeflate_deflate_compress(compressor, b, bytes, o + at, groupCapacity)
                    do {
                        guard size > 0 else { throw Failure(description: "libdeflate could not compress the data") }
                        if !closing {
                            // A walk that fails would be our bug, not the data's: zlib compresses that group instead.
                            do { size = try DeflateSeam.open(o + at, count: size, capacity: groupCapacity) } catch {
                                size = try syncFlushed(b, count: bytes, into: o + at, capacity: groupCapacity, level: level)
                            }
                        }
                    } catch { failure = error; break }
                    at += size
                }
            }
            count = failure == nil ? at : 0
        }
        if let failure { throw failure }
        return (chunk, Piece(adler: UInt(adler), length: units * unitSize))
    }

    /// `count` bytes raw-deflated by zlib and sync-flushed (ending on a byte boundary, open for what follows).
    static func syncFlushed(_ input: UnsafeMutablePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>, capacity: Int,
                            level: Int32) throws -> Int {
        var strm = z_stream()
        guard deflateInit2_(&strm, min(max(level, 1), 9), Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start compressing")
        }
        defer { deflateEnd(&strm) }
        strm.next_in = input
        strm.avail_in = uInt(count)
        strm.next_out = out
        strm.avail_out = uInt(capacity)
        guard deflate(&strm, Z_SYNC_FLUSH) == Z_OK, strm.avail_in == 0, strm.avail_out > 0 else {
            throw Failure(description: "zlib could not compress the data")
        }
        return capacity - Int(strm.avail_out)
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
