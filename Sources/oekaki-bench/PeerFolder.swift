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

    /// Runs a peer group in a folder of its own and, when `display` is true, on a virtual display of its own (nil
    /// if Xvfb cannot start); both are gone when it returns, so a group that exits next leaves nothing in /tmp.
    static func run<T>(_ name: String, display: Bool, _ body: (PeerFolder, VirtualDisplay?) -> T) -> T {
        let folder = PeerFolder(name)
        defer { folder.remove() }
        let screen = display ? try? VirtualDisplay.start(log: folder.log) : nil
        defer { screen?.stop() }
        return body(folder, screen)
    }
}
