import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to a path, reporting the system's reason (e.g. "Permission denied") on failure.
enum FileOutput {
    static func write(_ bytes: [UInt8], to path: String) throws {
        guard let f = fopen(path, "wb") else {
            throw RenderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
        let writeErrno = errno
        let closed = fclose(f)
        guard written == bytes.count, closed == 0 else {
            let reason = String(cString: strerror(written == bytes.count ? errno : writeErrno))
            unlink(path)
            throw RenderError.cannotWrite(path: path, reason: reason)
        }
    }
}
