import Foundation

/// A private folder for a bench group that runs peers (Xournal++, rsvg-convert): a HOME with its runtime folder
/// (mode 0700, as peers' toolkits insist) and the peers' log. `remove()` takes it all away.
struct PeerFolder {
    let path: String
    var home: String { path + "/home" }
    var log: String { path + "/peers.log" }

    init(_ name: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("oekaki-bench-\(name)-\(getpid())").path
        for d in [path, home, home + "/run"] { try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
        chmod(home + "/run", 0o700)
        FileManager.default.createFile(atPath: log, contents: nil)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
