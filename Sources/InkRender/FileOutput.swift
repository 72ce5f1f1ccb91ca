import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to a path, reporting the system's reason (e.g. "Permission denied") on failure.
enum FileOutput {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write([bytes], to: path)
    }

    /// Writes the runs one after another into one file.
    static func write(_ runs: [[UInt8]], to path: String) throws {
        guard let f = fopen(path, "wb") else {
            throw RenderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        var complete = true
        var writeErrno: Int32 = 0
        for bytes in runs where complete {
            let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
            if written != bytes.count { complete = false; writeErrno = errno }
        }
        let closed = fclose(f)
        guard complete, closed == 0 else {
            let reason = String(cString: strerror(complete ? errno : writeErrno))
            unlink(path)
            throw RenderError.cannotWrite(path: path, reason: reason)
        }
    }
}
