import Foundation

/// A whole file's bytes read straight into one array: `Data` and then `[UInt8](data)` went over a file of tens of
/// megabytes twice (and faulted in twice the memory).
enum FileBytes {
    /// The file's bytes, nil when it cannot be opened or read or is larger than `limit`.
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size >= 0, Int(st.st_size) <= limit else { return nil }
        let size = Int(st.st_size)
        var failed = false
        // One byte more than the size says, so a file that grew since is noticed rather than cut.
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buf, count in
            var got = 0
            while got < size + 1 {
                let n = Foundation.read(fd, buf.baseAddress! + got, size + 1 - got)
                if n < 0 { if errno == EINTR { continue }; failed = true; break }
                if n == 0 { break }
                got += n
            }
            count = got
        }
        guard !failed else { return nil }
        // It grew while being read: the rest, up to the limit.
        while bytes.count > size {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            bytes += chunk.prefix(n)
            if bytes.count > limit { return nil }
        }
        return bytes
    }
}
