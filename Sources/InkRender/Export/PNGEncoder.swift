import Foundation
import InkCore

/// Writes an ARGB32 surface as PNG without cairo's writer: row stripes are un-premultiplied, filtered and deflated
/// at level 1 on every core (`ParallelDeflate`), one IDAT chunk per stripe, each compressed straight into its chunk.
enum PNGEncoder {
    /// PNG's row filter. Ink (flat colours, antialiased edges) deflates smaller and faster unfiltered: 8.9 MB
    /// against 11.2 MB for the Sub filter on a page of 10,000 pressure strokes, and 5 to 15 % smaller on the
    /// Xournal++ corpus's pages; Sub keeps gradients small (photographs, scanned PDF pages).
    enum Filter: UInt8 { case none = 0, sub = 1 }

    /// `opaque` writes RGB (smaller, faster); otherwise straight RGBA. `level` is libdeflate's 1…12.
    static func encode(_ surface: ImageSurface, opaque: Bool, filter: Filter = .sub, level: Int32 = 1) throws -> [UInt8] {
        let runs = try chunks(surface, opaque: opaque, filter: filter, level: level)
        var png: [UInt8] = []
        png.reserveCapacity(runs.reduce(0) { $0 + $1.count })
        for r in runs { png += r }
        return png
    }

    /// The PNG as consecutive byte runs (signature and header, one per IDAT chunk, the end), for writers that
    /// write them one after another instead of joining them into one more copy of the file.
    static func chunks(_ surface: ImageSurface, opaque: Bool, filter: Filter = .sub, level: Int32 = 1) throws -> [[UInt8]] {
        let h = surface.height
        let stripes = max(1, min(h, Parallel.cores * 4))
        let results: [Result<Stripe, Error>] = surface.withPixels { base in
            let base = UnsafePointer(base)
            return Parallel.map(count: h, parts: stripes) { rows in
                Result { try stripe(rows, of: base, surface: surface, opaque: opaque, filter: filter, level: level) }
            }
        }
        var done = try results.map { try $0.get() }
        return assemble(width: surface.width, height: h, opaque: opaque, stripes: &done)
    }

    /// One stripe of the image data, deflated into its own IDAT chunk (length and CRC are `assemble`'s).
    typealias Stripe = (chunk: [UInt8], piece: ParallelDeflate.Piece)

    /// Deflates `rows` of `surface`'s pixels at `base` (any thread; stripes are independent of each other, so a
    /// stripe can be encoded as soon as its rows are drawn).
    static func stripe(_ rows: Range<Int>, of base: UnsafePointer<UInt8>, surface: ImageSurface, opaque: Bool, filter: Filter,
                       level: Int32 = 1) throws -> Stripe {
        let w = surface.width, channels = opaque ? 3 : 4, stride = surface.stride
        // The zlib header rides in the first IDAT; the stripe's bytes are deflated a few rows at a time from one
        // small buffer, straight into the chunk after its length and type.
        let prefix = rows.lowerBound == 0 ? ParallelDeflate.header : []
        return try ParallelDeflate.chunk(units: rows.count, unitSize: 1 + w * channels, last: rows.upperBound == surface.height,
                                         level: level, prefix: Array("IDAT".utf8) + prefix) { k, out in
            filterRow(base + (rows.lowerBound + k) * stride, width: w, channels: channels, filter: filter, into: out)
        }
    }

    /// The PNG of the image `draw` renders, each band encoded as soon as `draw` hands it to `finish` (any core).
    static func encoding(opaque: Bool, filter: Filter,
                         _ draw: (_ finish: @escaping (ImageSurface, Range<Int>) -> Void) throws -> ImageSurface) throws -> [[UInt8]] {
        let stripes = Stripes()
        let image = try draw { surface, rows in stripes.encode(rows, of: surface, opaque: opaque, filter: filter) }
        var done: [Stripe]
        do { done = try stripes.inOrder() } catch { throw RenderError.pageTooLarge("cannot encode the PNG: \(error)") }
        return assemble(width: image.width, height: image.height, opaque: opaque, stripes: &done)
    }

    /// Stripes encoded on several cores as their rows are drawn, in any order; `assemble` takes them top to bottom.
    private final class Stripes: @unchecked Sendable {
        private let lock = NSLock()
        private var byRow: [Int: Result<Stripe, Error>] = [:]

        /// Encodes `rows` of `surface` (any thread).
        func encode(_ rows: Range<Int>, of surface: ImageSurface, opaque: Bool, filter: Filter) {
            let r = Result { try stripe(rows, of: UnsafePointer(surface.pixelBase), surface: surface, opaque: opaque, filter: filter) }
            lock.lock(); byRow[rows.lowerBound] = r; lock.unlock()
        }

        func inOrder() throws -> [Stripe] { try byRow.keys.sorted().map { try byRow[$0]!.get() } }
    }

    /// The PNG around `stripes`, which cover the image's rows top to bottom (their chunks are moved out, not copied).
    static func assemble(width w: Int, height h: Int, opaque: Bool, stripes: inout [Stripe]) -> [[UInt8]] {
        var runs: [[UInt8]] = []
        var head: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.appendBigEndian(UInt32(w)); ihdr.appendBigEndian(UInt32(h))
        ihdr += [8, opaque ? 2 : 6, 0, 0, 0]
        head.appendChunk("IHDR", ihdr)
        runs.append(head)
        for i in stripes.indices {
            var chunk: [UInt8] = []
            swap(&chunk, &stripes[i].chunk)
            // Length before, CRC-32 of type and data after: the chunk's bytes are not copied again.
            let length = UInt32(chunk.count - 8)
            chunk.withUnsafeMutableBufferPointer { b in
                b[0] = UInt8(length >> 24); b[1] = UInt8(length >> 16 & 0xff); b[2] = UInt8(length >> 8 & 0xff); b[3] = UInt8(length & 0xff)
            }
            chunk.appendBigEndian(ParallelDeflate.crc(chunk[4...]))
            runs.append(chunk)
        }
        // The Adler-32 of the whole stream closes the last IDAT; the IDATs concatenate into one zlib stream.
        var tail: [UInt8] = []
        tail.appendChunk("IDAT", ParallelDeflate.trailer(stripes.map(\.piece)))
        tail.appendChunk("IEND", [])
        runs.append(tail)
        return runs
    }

    /// Un-premultiplies one row into PNG bytes with the Sub filter (each byte minus the one a pixel left).
    private static func filterRow(_ src: UnsafePointer<UInt8>, width w: Int, channels: Int, filter: Filter, into dst: UnsafeMutablePointer<UInt8>) {
        dst[0] = filter.rawValue
        // Sub subtracts the previous pixel; no filter subtracts nothing.
        let sub: UInt8 = filter == .sub ? 0xff : 0
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
                pr = r & sub; pg = g & sub; pb = b & sub
                if channels == 4 {
                    let a8 = UInt8(truncatingIfNeeded: a)
                    o[3] = a8 &- pa; pa = a8 & sub
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
