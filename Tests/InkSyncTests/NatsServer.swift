import Foundation
import XCTest

/// A `nats-server -js` for one test: loopback only, a free port, its own temporary store, stopped (and its store
/// removed) when the test ends. `kill9`, `pause` and `start` again on the same store simulate faults; `stop` is
/// the end (XCTest on Linux keeps every test case, and so a server it holds, until the process exits).
final class NatsServer {
    let port: Int
    let directory: URL
    let name: String
    private let config: String
    private var process: Process?
    /// A store made here (not a cluster's folder) goes with the server.
    private let ownsDirectory: Bool

    /// `extra` is appended to the configuration (accounts, cluster blocks).
    init(name: String = "n1", port: Int? = nil, directory: URL? = nil, extra: String = "") throws {
        self.name = name
        self.port = port ?? Self.freePort()
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("nats-\(UUID().uuidString)")
        ownsDirectory = directory == nil
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        config = """
        server_name: \(name)
        listen: 127.0.0.1:\(self.port)
        jetstream { store_dir: "\(self.directory.path)/store" }
        \(extra)
        """
        try config.write(to: self.directory.appendingPathComponent("\(name).conf"), atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    var url: String { "nats://127.0.0.1:\(port)" }
    var pid: Int32 { process?.processIdentifier ?? 0 }

    /// Starts (or restarts, on the same store) and waits until the port accepts connections.
    func start(wait: Bool = true) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/nats-server")
        p.arguments = ["-c", directory.appendingPathComponent("\(name).conf").path]
        let log = FileHandle(forWritingAtPath: directory.appendingPathComponent("\(name).log").path)
            ?? { FileManager.default.createFile(atPath: directory.appendingPathComponent("\(name).log").path, contents: nil)
                 return FileHandle(forWritingAtPath: directory.appendingPathComponent("\(name).log").path)! }()
        log.seekToEndOfFile()
        p.standardOutput = log; p.standardError = log
        try p.run()
        process = p
        if wait { try waitUntilListening() }
    }

    func waitUntilListening(timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if Self.accepts(port) { return }
            usleep(20_000)
        }
        throw NSError(domain: "NatsServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "nats-server did not listen on \(port)"])
    }

    func kill9() { signal(SIGKILL); process?.waitUntilExit(); process = nil }
    func pause() { signal(SIGSTOP) }
    func resume() { signal(SIGCONT) }
    func stop() {
        if let p = process {
            kill(p.processIdentifier, SIGCONT)
            p.terminate(); p.waitUntilExit(); process = nil
        }
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }
    private func signal(_ s: Int32) { if let p = process { kill(p.processIdentifier, s) } }

    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

/// Runs the built `oekaki` binary (next to the test bundle) with a time limit.
enum Oekaki {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    static let binary: URL = {
        if let env = ProcessInfo.processInfo.environment["OEKAKI_BIN"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("oekaki")
    }()

    static func run(_ args: [String], timeout: TimeInterval = 60) throws -> Result {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-out-\(UUID().uuidString)")
        let err = out.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil); FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        p.standardOutput = try FileHandle(forWritingTo: out); p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { p.terminate(); XCTFail("oekaki \(args) did not finish in \(timeout) s") }
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
