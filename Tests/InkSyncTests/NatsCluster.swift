import Foundation
import XCTest
@testable import InkSync

/// Three `nats-server -js` nodes routed into one cluster, all on 127.0.0.1: free client and route ports, a
/// temporary store each. The test that makes one registers `stop` as a teardown block, so every server goes
/// also when the test fails or throws.
final class NatsCluster {
    let servers: [NatsServer]
    let directory: URL

    init(nodes: Int = 3, directory: URL) throws {
        self.directory = directory
        let routes = (0..<nodes).map { _ in NatsServer.freePort() }
        let routeList = routes.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
        servers = try (0..<nodes).map { i in
            try NatsServer(name: "n\(i)", directory: directory.appendingPathComponent("n\(i)"), extra: """
            cluster { name: oekaki, listen: 127.0.0.1:\(routes[i]), routes: [\(routeList)] }
            """)
        }
    }

    func start() throws { for s in servers { try s.start() } }
    func stop() { for s in servers { s.stop() } }

    /// Every node, comma-separated, as a board URL lists them.
    var authority: String { servers.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") }
    func boardURL(_ board: String) -> String { "nats://\(authority)/\(board)?replicas=\(servers.count)" }

    /// Waits until the cluster has elected its JetStream meta leader and holds the board's stream (created with
    /// one copy per node); a cluster takes a few seconds to elect one after it starts.
    func createBoard(_ board: String, within seconds: Double = 30) throws {
        let url = try BoardURL(boardURL(board))
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                let c = try NatsConnection(urls: url.serverURLs, user: nil, password: nil, timeoutMs: 2000, name: "test")
                defer { c.close() }
                if try c.streamLastSequence(url.stream) == nil {
                    try c.addStream(url.stream, subject: url.logSubject, replicas: url.replicas, maxMessageBytes: OperationCodec.maxBytes)
                }
                if try c.streamLeader(url.stream) != nil { return }
            } catch {
                if Date() > deadline { throw error }
            }
            usleep(250_000)
        }
    }

    /// The node leading the board's stream, asked through `$JS.API.STREAM.INFO` of any live node (asked again
    /// while the cluster is still electing one).
    func leader(of board: String, within seconds: Double = 30) throws -> Int? {
        let url = try BoardURL(boardURL(board))
        return try retrying(within: seconds) {
            let c = try NatsConnection(urls: url.serverURLs, user: nil, password: nil, timeoutMs: 2000, name: "test")
            defer { c.close() }
            guard let name = try c.streamLeader(url.stream) else { throw NatsConnection.Failure(kind: .notFound, description: "no leader yet") }
            return servers.firstIndex { $0.name == name }
        }
    }

    private func retrying<T>(within seconds: Double, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do { return try body() } catch {
                if Date() > deadline { throw error }
                usleep(250_000)
            }
        }
    }

    /// Every message of the board's log, by sequence, read by a fresh consumer from the first entry.
    func log(of board: String) throws -> [UInt64: [UInt8]] {
        let url = try BoardURL(boardURL(board))
        return try retrying(within: 30) {
            let c = try NatsConnection(urls: url.serverURLs, user: nil, password: nil, timeoutMs: 5000, name: "test")
            defer { c.close() }
            let last = try c.streamLastSequence(url.stream) ?? 0
            let sub = try c.consume(stream: url.stream, subject: url.logSubject, from: 1, deliverPrefix: url.deliverSubject)
            var out: [UInt64: [UInt8]] = [:]
            while out.count < last, let m = try c.next(sub, timeoutMs: 5000) { out[m.sequence] = m.data }
            return out
        }
    }
}
