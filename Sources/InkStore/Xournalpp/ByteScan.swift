import Foundation

/// Finding one byte in a long run of bytes with the C library's `memchr`, which compares many bytes per
/// instruction: a `.xopp`'s stroke coordinates are tens of megabytes of text between tags, and a Swift loop
/// over them was a good part of reading one.
enum ByteScan {
    /// The first index of `byte` in `bytes[from..<to]`, or `to` when there is none.
    static func first(_ byte: UInt8, in bytes: [UInt8], from: Int, to: Int) -> Int {
        guard from < to, from >= 0, to <= bytes.count else { return max(from, to) }
        return bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}
