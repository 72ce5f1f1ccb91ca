import Foundation
import InkCore

/// `nats://[user:password@]host:port[,host:port…]/BOARD[?replicas=N&snapshots=N&keep=log|snapshot]`: where a
/// board lives, who we are there, and how this client keeps the board's snapshots (`BoardSnapshot`). Several
/// servers (a cluster's nodes, comma-separated as nats writes them) are tried in turn, on the first connect and
/// whenever the one in use goes away.
public struct BoardURL: Hashable, Sendable, CustomStringConvertible {
    public struct Server: Hashable, Sendable { public var host: String; public var port: Int }
    /// Every server given, in the order given (at least one).
    public var servers: [Server]
    /// The first server: the replica's name in the app's data folder.
    public var host: String { servers[0].host }
    public var port: Int { servers[0].port }
    public var board: String
    public var user: String?
    public var password: String?
    /// Copies of the board's log kept by a cluster when this client creates the board.
    public var replicas: Int
    /// Log entries after the last snapshot before this client writes a new one (0: it never writes one).
    public var snapshotEvery = 5_000
    /// Whether the log before a snapshot this client writes stays on the server (the default) or is removed.
    public var keepLog = true

    public struct Malformed: Error, CustomStringConvertible { public let description: String }

    public init(_ text: String) throws {
        func bad(_ why: String) -> Malformed { Malformed(description: "'\(text)' is not a board URL (\(why)); expected nats://[user:password@]host:port[,host:port…]/BOARD") }
        guard text.hasPrefix("nats://") else { throw bad("it must start with nats://") }
        var rest = Substring(text.dropFirst("nats://".count))
        replicas = 1
        if let q = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: q)...]
            rest = rest[..<q]
            for item in query.split(separator: "&") {
                let kv = item.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { throw bad("unknown option '\(item)'") }
                switch (kv[0], Int(kv[1])) {
                case ("replicas", let n?) where (1...5).contains(n): replicas = n
                case ("snapshots", let n?) where (0...10_000_000).contains(n): snapshotEvery = n
                case ("keep", _) where kv[1] == "log" || kv[1] == "snapshot": keepLog = kv[1] == "log"
                default: throw bad("unknown option '\(item)'")
                }
            }
        }
        guard let slash = rest.firstIndex(of: "/") else { throw bad("no board name") }
        var authority = rest[..<slash]
        board = String(rest[rest.index(after: slash)...])
        guard !board.isEmpty, board.count <= 64,
              board.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        else { throw bad("the board name must be 1–64 letters, digits, - or _") }
        if let at = authority.lastIndex(of: "@") {
            let cred = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let parts = cred.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let u = Self.percentDecoded(parts[0]), !u.isEmpty else { throw bad("bad user name") }
            user = u
            if parts.count == 2 {
                guard let p = Self.percentDecoded(parts[1]) else { throw bad("bad password") }
                password = p
            }
        }
        servers = []
        for one in authority.split(separator: ",", omittingEmptySubsequences: false) {
            guard let colon = one.lastIndex(of: ":") else { throw bad("no port") }
            let host = String(one[..<colon])
            guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else { throw bad("no host") }
            guard let p = Int(one[one.index(after: colon)...]), (1...65535).contains(p) else { throw bad("bad port") }
            servers.append(Server(host: host, port: p))
        }
        guard servers.count <= 16 else { throw bad("more than 16 servers") }
    }

    /// The server addresses for the client library (credentials are passed apart).
    public var serverURLs: [String] { servers.map { "nats://\($0.host):\($0.port)" } }
    /// The servers as the user wrote them: `host:port,host:port`.
    public var authority: String { servers.map { "\($0.host):\($0.port)" }.joined(separator: ",") }
    /// The URL without credentials: safe to store and to show.
    public var description: String { "nats://\(authority)/\(board)" }

    public var stream: String { "OEKAKI_\(board)" }
    public var logSubject: String { "oekaki.board.\(board).log" }
    public var liveSubject: String { "oekaki.board.\(board).live" }
    public var presenceSubject: String { "oekaki.board.\(board).presence" }
    public var deliverSubject: String { "oekaki.board.\(board).deliver" }
    /// The snapshots' stream (newest message per subject) and subjects: a head naming the parts, and the parts.
    public var snapshotStream: String { "OEKAKISNAP_\(board)" }
    public var snapshotSubjects: String { "oekaki.board.\(board).snapshot.>" }
    public var snapshotHeadSubject: String { "oekaki.board.\(board).snapshot.head" }
    public func snapshotPartSubject(_ k: Int) -> String { "oekaki.board.\(board).snapshot.part.\(k)" }
    /// The files entries name (images, PDFs), by hash, in the snapshots' stream: a head naming the parts, and the parts.
    public func fileHeadSubject(_ hash: ContentHash) -> String { "oekaki.board.\(board).snapshot.file.\(hash.hex).head" }
    public func filePartSubject(_ hash: ContentHash, _ k: Int) -> String { "oekaki.board.\(board).snapshot.file.\(hash.hex).part.\(k)" }

    private static func percentDecoded(_ s: Substring) -> String? {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v); it = it.dropFirst(2)
            } else { bytes.append(b) }
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
