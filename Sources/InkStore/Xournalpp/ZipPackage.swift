/// Just enough of the zip format to read one member (`content.xml` of a zip-packaged `.xopp`).
/// Every offset and length is checked against the file before use.
enum ZipPackage {
    static let magic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    enum Failure: Error { case invalid(String), missing(String), unsupported(String) }

    static func member(_ name: String, in z: [UInt8], limit: Int) throws -> [UInt8] {
        func u16(_ o: Int) throws -> Int {
            guard o >= 0, o + 2 <= z.count else { throw Failure.invalid("offset \(o) is past the end") }
            return Int(z[o]) | Int(z[o + 1]) << 8
        }
        func u32(_ o: Int) throws -> Int {
            guard o >= 0, o + 4 <= z.count else { throw Failure.invalid("offset \(o) is past the end") }
            return Int(z[o]) | Int(z[o + 1]) << 8 | Int(z[o + 2]) << 16 | Int(z[o + 3]) << 24
        }
        // End of central directory: the last 22+ bytes, possibly followed by a comment of up to 64 KiB.
        var eocd = -1
        var i = z.count - 22
        while i >= max(0, z.count - 22 - 65535) {
            if z[i] == 0x50, z[i + 1] == 0x4B, z[i + 2] == 0x05, z[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { throw Failure.invalid("no zip directory (truncated?)") }
        let entries = try u16(eocd + 10)
        var p = try u32(eocd + 16)
        let want = Array(name.utf8)
        for _ in 0..<entries {
            guard try u32(p) == 0x0201_4B50 else { throw Failure.invalid("bad directory entry") }
            let method = try u16(p + 10), csize = try u32(p + 20), usize = try u32(p + 24)
            let nlen = try u16(p + 28), xlen = try u16(p + 30), clen = try u16(p + 32), local = try u32(p + 42)
            guard p + 46 + nlen <= z.count else { throw Failure.invalid("bad directory entry") }
            if Array(z[(p + 46)..<(p + 46 + nlen)]) == want {
                guard try u32(local) == 0x0403_4B50 else { throw Failure.invalid("bad local header") }
                let start = local + 30 + (try u16(local + 26)) + (try u16(local + 28))
                guard start + csize <= z.count else { throw Failure.invalid("\(name) is truncated") }
                let data = Array(z[start..<(start + csize)])
                switch method {
                case 0:
                    guard csize <= limit else { throw Deflate.Failure.tooLarge(limit: limit) }
                    return data
                case 8:
                    _ = usize
                    return try Deflate.inflate(data, container: .raw, limit: limit)
                default: throw Failure.unsupported("compression method \(method)")
                }
            }
            p += 46 + nlen + xlen + clen
        }
        throw Failure.missing(name)
    }
}
