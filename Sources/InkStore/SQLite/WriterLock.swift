#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (flock) held on a document while one process writes it, so a second Oekaki
/// is refused instead of interleaving commits. flock is separate from SQLite's own POSIX locks.
final class WriterLock {
    private var fd: Int32

    enum Outcome { case locked(WriterLock), busy, failed(Int32) }

    static func acquire(path: String) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failed(errno) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            close(fd)
            return e == EWOULDBLOCK ? .busy : .failed(e)
        }
        return .locked(WriterLock(fd: fd))
    }

    private init(fd: Int32) { self.fd = fd }

    func release() {
        if fd >= 0 { flock(fd, LOCK_UN); close(fd); fd = -1 }
    }

    deinit { release() }
}
