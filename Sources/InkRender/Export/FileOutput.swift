import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes bytes to a path, reporting the system's reason (e.g. "Permission denied") on failure.
enum FileOutput {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write([bytes], to: path)
    }

    /// Writes the runs one after another into one file. A regular file is written beside the target and renamed
    /// over it, so a failed export (full disk, killed) leaves an earlier file at `path` as it was.
    static func write(_ runs: [[UInt8]], to path: String) throws {
        var st = stat()
        let exists = stat(path, &st) == 0
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            return try writeDirectly(runs, to: path, reportedAs: path, removeOnFailure: false)   // a device or pipe
        }
        if exists && access(path, W_OK) != 0 {
            throw RenderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let dir = (path as NSString).deletingLastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\((path as NSString).lastPathComponent).\(getpid()).writing"
        try writeDirectly(runs, to: temp, reportedAs: path, removeOnFailure: true)
        guard rename(temp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temp)
            throw RenderError.cannotWrite(path: path, reason: reason)
        }
    }

    private static func writeDirectly(_ runs: [[UInt8]], to file: String, reportedAs path: String, removeOnFailure: Bool) throws {
        guard let f = fopen(file, "wb") else {
            throw RenderError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        var complete = true
        var writeErrno: Int32 = 0
        for bytes in runs where complete {
            let written = fwrite(bytes, 1, bytes.count, f)
            if written != bytes.count { complete = false; writeErrno = errno }
        }
        let closed = fclose(f)
        guard complete, closed == 0 else {
            let reason = String(cString: strerror(complete ? errno : writeErrno))
            if removeOnFailure { unlink(file) }
            throw RenderError.cannotWrite(path: path, reason: reason)
        }
    }
}
