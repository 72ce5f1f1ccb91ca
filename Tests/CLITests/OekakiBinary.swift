import Foundation
import XCTest

/// Runs the built `oekaki` executable as a subprocess. Shared by every CLI test file.
///
/// The binary is found, in order: `$OEKAKI_BIN`; next to the running test bundle (the products directory of
/// whatever build/scratch path `swift test` used, e.g. `/tmp/build-x/debug` or `.build/debug`); next to this
/// target's resource bundle; then `.build/{debug,release}` of the package that holds this file.
enum OekakiBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    enum Failure: Error, CustomStringConvertible {
        case notFound([String])
        case timedOut([String])
        var description: String {
            switch self {
            case .notFound(let tried): return "oekaki binary not found; tried: \(tried.joined(separator: ", "))"
            case .timedOut(let args): return "oekaki \(args.joined(separator: " ")) did not finish in time"
            }
        }
    }

    static let candidates: [URL] = {
        var out: [URL] = []
        if let env = ProcessInfo.processInfo.environment["OEKAKI_BIN"], !env.isEmpty { out.append(URL(fileURLWithPath: env)) }
        // The test executable itself (Linux: <products>/<Package>PackageTests.xctest; macOS: inside the bundle).
        var starts: [URL] = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), Bundle.main.bundleURL]
        if let exe = Bundle.main.executableURL { starts.append(exe) }
        starts.append(Bundle(for: Marker.self).bundleURL)
        for start in starts {
            var dir = start.deletingLastPathComponent()
            for _ in 0..<4 {
                out.append(dir.appendingPathComponent("oekaki"))
                dir = dir.deletingLastPathComponent()
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for config in ["debug", "release"] { out.append(root.appendingPathComponent(".build/\(config)/oekaki")) }
        return out
    }()

    static let url: URL? = candidates.first { u in
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: u.path, isDirectory: &isDir) && !isDir.boolValue
            && FileManager.default.isExecutableFile(atPath: u.path)
    }

    /// `oekaki-thumbnailer`, built beside `oekaki`.
    static var thumbnailer: URL? { url?.deletingLastPathComponent().appendingPathComponent("oekaki-thumbnailer") }

    /// Runs `oekaki args…` (`oekaki-thumbnailer args…` when the first is "thumbnailer"), optionally in `directory`
    /// and with `stdin`; fails the test on timeout.
    static func run(_ args: [String], in directory: URL? = nil, stdin: Data? = nil, timeout: TimeInterval = 120) throws -> Result {
        guard let url else { throw Failure.notFound(candidates.map(\.path)) }
        let p = Process()
        if args.first == "thumbnailer", let thumbnailer {
            p.executableURL = thumbnailer
            p.arguments = Array(args.dropFirst())
        } else {
            p.executableURL = url
            p.arguments = args
        }
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out; p.standardError = err; p.standardInput = inp
        try p.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let errData = Collected(), outData = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if let stdin { inp.fileHandleForWriting.write(stdin) }
        try? inp.fileHandleForWriting.close()
        let deadline = DispatchTime.now() + timeout
        group.enter()
        DispatchQueue.global().async { outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if group.wait(timeout: deadline) == .timedOut {
            p.terminate()
            throw Failure.timedOut(args)
        }
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    private final class Marker {}

    /// What one reader thread collected; read only after the group has waited for it.
    private final class Collected: @unchecked Sendable { var data = Data() }
}

/// Test input files kept under Tests/CLITests/Fixtures.
enum Fixtures {
    static let directory: URL = {
        if let u = Bundle.module.url(forResource: "Fixtures", withExtension: nil) { return u }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }()

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
