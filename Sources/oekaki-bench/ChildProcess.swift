import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The only file of the bench that touches C process calls (posix_spawn, wait4, kill).

/// One finished run of another program: how long it took from spawn to exit, and its peak memory.
struct ChildRun {
    var exitStatus: Int32
    var timedOut: Bool
    var wallMs: Double
    /// Peak resident set of the child, from wait4's rusage (ru_maxrss).
    var peakRSSMiB: Double
    /// User + system CPU time of the child (all its threads).
    var cpuMs: Double
    var succeeded: Bool { !timedOut && exitStatus == 0 }
}

enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `path args…` with `environment`, stdout and stderr appended to `log`, and waits for it;
    /// kills it (SIGKILL) after `timeout` seconds. Foundation's `Process` cannot report the child's
    /// rusage, hence posix_spawn + wait4.
    static func run(_ path: String, _ args: [String], environment: [String: String], log: String, timeout: Double) throws -> ChildRun {
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try Self.start(path, args, environment: environment, log: log)

        // A watchdog kills a child that overruns; cancelled as soon as the child is reaped.
        let (status, usage, killed) = reap(pid, timeout: timeout)
        let end = DispatchTime.now().uptimeNanoseconds
        return ChildRun(exitStatus: decode(status), timedOut: killed, wallMs: Double(end - start) / 1e6,
                        peakRSSMiB: Double(usage.ru_maxrss) / 1024, cpuMs: cpuMs(usage))
    }

    /// Runs a program like `run`, but through a small launcher process (this binary with `--launch`), because
    /// Linux charges a child started from a large process with that process's RSS: posix_spawn shares the
    /// parent's memory until exec, and exec records that memory's high-water mark as the child's ru_maxrss.
    /// The launcher is small, so the program's ru_maxrss is its own; the launcher also times it (spawn → exit).
    static func measure(_ path: String, _ args: [String], environment: [String: String], log: String, timeout: Double) throws -> ChildRun {
        let result = log + ".launch"
        unlink(result)
        defer { unlink(result) }
        let outer = try run(ownExecutable, ["--launch", result, String(timeout), path] + args,
                            environment: environment, log: log, timeout: timeout + 30)
        guard let text = try? String(contentsOfFile: result, encoding: .utf8) else {
            throw Failure(description: "the launcher for \(path) reported nothing (exit status \(outer.exitStatus))")
        }
        let f = text.split(separator: " ").map(String.init)
        guard f.count == 5, let status = Int32(f[0]), let ms = Double(f[2]), let kib = Double(f[3]), let cpu = Double(f[4]) else {
            throw Failure(description: "the launcher for \(path) reported '\(text)'")
        }
        return ChildRun(exitStatus: status, timedOut: f[1] == "1", wallMs: ms, peakRSSMiB: kib / 1024, cpuMs: cpu)
    }

    /// The launcher's side of `measure`: runs `path args…` with this process's environment and output, and
    /// writes "status timedOut wallMs maxRSSKiB" to `result`.
    static func launch(result: String, timeout: Double, _ path: String, _ args: [String]) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        let pid = try Self.start(path, args, environment: ProcessInfo.processInfo.environment, log: nil)
        let (status, usage, killed) = reap(pid, timeout: timeout)
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let line = "\(decode(status)) \(killed ? 1 : 0) \(ms) \(usage.ru_maxrss) \(cpuMs(usage))"
        try line.write(toFile: result, atomically: true, encoding: .utf8)
    }

    /// Waits for `pid`, killing it after `timeout` seconds.
    private static func reap(_ pid: pid_t, timeout: Double) -> (Int32, rusage, Bool) {
        let killed = Flag()
        let watchdog = DispatchWorkItem { killed.set(); kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var status: Int32 = 0
        var usage = rusage()
        var r: pid_t
        repeat { r = wait4(pid, &status, 0, &usage) } while r == -1 && errno == EINTR
        watchdog.cancel()
        return (status, usage, killed.isSet)
    }

    private static func cpuMs(_ u: rusage) -> Double {
        Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000 + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000
    }

    /// Exit code, or 128 + signal (WIFEXITED / WEXITSTATUS are macros Swift cannot import).
    private static func decode(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Starts `path args…` and returns its pid: stdout and stderr appended to `log` with stdin from /dev/null,
    /// or this process's own streams when `log` is nil. A long-running helper (e.g. Xvfb) is stopped with `stop`.
    static func start(_ path: String, _ args: [String], environment: [String: String], log: String?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let log {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var pid: pid_t = 0
        let envp = environment.map { "\($0.key)=\($0.value)" }
        let rc = withCStrings([path] + args) { a in
            withCStrings(envp) { e in posix_spawn(&pid, path, &actions, nil, a, e) }
        }
        guard rc == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// True while `pid` (our child) has not exited.
    static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// User + system CPU of a running process, all threads, dead ones included, to the nanosecond: the kernel's
    /// CPU clock of that process (`clock_getcpuclockid`). /proc counts in 10 ms ticks, which over a 120-event
    /// gesture moved a per-event figure in 0.083 ms steps (a ratio's last digit); it is only the fallback.
    static func cpuMs(of pid: pid_t) -> Double? {
        var clock = clockid_t()
        var t = timespec()
        if clock_getcpuclockid(pid, &clock) == 0, clock_gettime(clock, &t) == 0 {
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        return ticksCPUMs(of: pid)
    }

    private static func ticksCPUMs(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let f = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        guard f.count > 13, let u = Double(f[11]), let s = Double(f[12]) else { return nil }
        return (u + s) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Terminates a helper started with `start` and reaps it (SIGKILL if it ignores SIGTERM for 2 s).
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
    }

    /// This executable's own path (for re-running it as a child).
    static var ownExecutable: String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var ptrs: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        ptrs.append(nil)
        defer { for p in ptrs { free(p) } }
        return body(ptrs)
    }
}

/// A thread-safe one-way flag (set by the watchdog, read after the child is reaped).
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
