import Foundation
import InkCore
import InkStore

/// A board's state at one entry of its log, kept in JetStream beside the log (DESIGN §9), so that a new replica
/// does not replay a year of edits: it starts from the newest snapshot and reads the log after it.
///
/// A snapshot is the replica file of a client that held exactly the board at that entry (nothing of its own
/// waiting to be published), without its undo history, its outbox or its client id: the compact `.oekaki`
/// encodings, opened by the same checked reader as any file. It travels in parts of 256 KiB and then a head
/// naming them (entry, size, parts, SHA-256). The snapshot stream keeps only the newest message of each subject
/// and every message carries `Nats-Rollup: sub`, so the server holds one snapshot per board.
///
/// A snapshot is untrusted input, like every log entry: a head that does not parse, a size over `maxBytes`, parts
/// that do not add up to the head's size and hash, an entry beyond the log's end, a file that is not a replica of
/// this board at that entry are refused in one line, and the new replica reads the whole log instead.
public enum BoardSnapshot {
    public static let partBytes = 256 * 1024
    public static let maxBytes = 512 << 20
    static let magic = "oekaki-board-snapshot 1"

    /// Why a snapshot was not used, in one line.
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
        init(_ d: String) { description = d }
    }

    /// The head: which entry the snapshot holds the board at, and what its parts must add up to.
    struct Head: Equatable {
        var sequence: UInt64
        var bytes: Int
        var parts: Int
        var sha256: String

        var encoded: [UInt8] { Array("\(BoardSnapshot.magic)\nsequence \(sequence)\nbytes \(bytes)\nparts \(parts)\nsha256 \(sha256)\n".utf8) }

        /// Strict: exactly the five lines, in order, with numbers in range.
        init(sequence: UInt64, bytes: Int, parts: Int, sha256: String) {
            self.sequence = sequence; self.bytes = bytes; self.parts = parts; self.sha256 = sha256
        }

        init(_ data: [UInt8]) throws {
            guard data.count <= 512, let text = String(bytes: data, encoding: .utf8) else { throw Refused("its head is not text") }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count == 6, lines[0] == BoardSnapshot.magic, lines[5].isEmpty else { throw Refused("its head is not an Oekaki snapshot head") }
            func value(_ i: Int, _ name: String) throws -> Substring {
                guard lines[i].hasPrefix(name + " ") else { throw Refused("its head has no \(name)") }
                return lines[i].dropFirst(name.count + 1)
            }
            guard let s = UInt64(try value(1, "sequence")), s >= 1 else { throw Refused("its head's entry is not a log position") }
            guard let b = Int(try value(2, "bytes")), b > 0 else { throw Refused("its head's size is not a size") }
            guard b <= BoardSnapshot.maxBytes else { throw Refused("it claims \(b) bytes, more than the \(BoardSnapshot.maxBytes) a snapshot may have") }
            guard let p = Int(try value(3, "parts")), p == (b + BoardSnapshot.partBytes - 1) / BoardSnapshot.partBytes else {
                throw Refused("its head's part count does not match its size")
            }
            let h = try value(4, "sha256")
            guard h.count == 64, h.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { throw Refused("its head's SHA-256 is not 64 hex digits") }
            self.init(sequence: s, bytes: b, parts: p, sha256: String(h))
        }
    }

    // MARK: writing

    /// Writes `document` (a replica holding exactly the board, nothing waiting) as the board's snapshot; with
    /// `keep=snapshot` the log before it is removed. Returns the entry it holds the board at. `scratch` is a file
    /// path it may use and removes.
    static func write(_ document: DocumentFile, url: BoardURL, connection c: NatsConnection, scratch: String) throws -> UInt64 {
        defer { for s in ["", "-journal"] { unlink(scratch + s) } }
        let sequence: UInt64 = try document.writeCopyWithoutHistory(to: scratch) { r in
            if try r.hasTable("board_outbox") { try r.run("DELETE FROM board_outbox") }
            try r.run("UPDATE board SET client = 0")
            var s: UInt64 = 0
            try r.query("SELECT last_seq FROM board WHERE id = 1") { s = UInt64(bitPattern: $0.int(0)) }
            return s
        }
        guard sequence > 0 else { throw Refused("the replica has read no entry yet") }
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch)))
        guard data.count <= maxBytes else { throw Refused("the board takes \(data.count) bytes, more than a snapshot may have") }
        try c.addLatestStream(url.snapshotStream, subjects: url.snapshotSubjects, replicas: url.replicas, maxMessageBytes: partBytes + 4096)
        let head = Head(sequence: sequence, bytes: data.count, parts: (data.count + partBytes - 1) / partBytes, sha256: ContentHash(of: data).hex)
        let rollup = [("Nats-Rollup", "sub")]
        for k in 0..<head.parts {
            try c.publish(url.snapshotPartSubject(k), Array(data[(k * partBytes)..<min(data.count, (k + 1) * partBytes)]), headers: rollup)
        }
        // The head last: a reader never finds a head whose parts are not all there (a later writer's parts are
        // caught by the hash).
        try c.publish(url.snapshotHeadSubject, head.encoded, headers: rollup)
        if !url.keepLog { try c.purge(url.stream, before: sequence + 1) }
        return sequence
    }

    /// The entry the board's newest snapshot holds it at (0: none, or the head cannot be read).
    static func newest(_ c: NatsConnection, _ url: BoardURL) -> UInt64 {
        guard (try? c.streamBounds(url.snapshotStream)) != nil,
              let bytes = try? c.lastMessage(stream: url.snapshotStream, subject: url.snapshotHeadSubject),
              let head = try? Head(bytes) else { return 0 }
        return head.sequence
    }

    // MARK: a new replica

    /// Makes `path` (which must not exist yet) a replica of the board from its newest snapshot, with a client id
    /// of its own. Returns the entry it starts after, or nil when the board has no snapshot, the server cannot be
    /// reached (the sync that follows says so), or the snapshot is refused: then `note` gets one line and nothing
    /// is written.
    public static func seed(path: String, url: BoardURL, timeoutMs: Int64 = 2000, note: (String) -> Void) -> UInt64? {
        guard !FileManager.default.fileExists(atPath: path) else { return nil }
        guard let c = try? NatsConnection(urls: url.serverURLs, user: url.user, password: url.password, timeoutMs: timeoutMs, name: "oekaki") else { return nil }
        defer { c.close() }
        let scratch = path + ".snapshot-in"
        defer { for s in ["", "-wal", "-shm", "-journal"] { unlink(scratch + s) } }
        do {
            guard try c.streamBounds(url.snapshotStream) != nil,
                  let headBytes = try c.lastMessage(stream: url.snapshotStream, subject: url.snapshotHeadSubject) else { return nil }
            let head = try Head(headBytes)
            guard let log = try c.streamBounds(url.stream), head.sequence <= log.last else {
                throw Refused("it holds the board at entry \(head.sequence), beyond the log's end")
            }
            var data: [UInt8] = []
            data.reserveCapacity(head.bytes)
            for k in 0..<head.parts {
                guard let part = try c.lastMessage(stream: url.snapshotStream, subject: url.snapshotPartSubject(k)) else { throw Refused("its part \(k + 1) of \(head.parts) is missing") }
                let expected = k == head.parts - 1 ? head.bytes - k * partBytes : partBytes
                guard part.count == expected else { throw Refused("its part \(k + 1) has \(part.count) bytes, not \(expected)") }
                data += part
            }
            guard ContentHash(of: data).hex == head.sha256 else { throw Refused("its parts do not match its head's SHA-256") }
            guard FileManager.default.createFile(atPath: scratch, contents: Data(data)) else { throw Refused("cannot write \(scratch)") }
            try adopt(scratch, head: head, url: url)
            guard rename(scratch, path) == 0 else { throw Refused("cannot write \(path)") }
            return head.sequence
        } catch let r as Refused {
            note("board \(url.board): snapshot refused (\(r)); reading the whole log instead")
        } catch {
            // Not reachable, or no permission for the snapshot: the sync that follows reads the log (and says
            // what is wrong with the server, if anything).
        }
        return nil
    }

    /// Checks the downloaded file as a replica of this board at the head's entry (the store's checked reader:
    /// schema, codecs, every stroke and page), then makes it this client's: a new client id, no outbox.
    private static func adopt(_ path: String, head: Head, url: BoardURL) throws {
        let file: DocumentFile
        do { file = try DocumentFile.open(path: path) } catch { throw Refused("it is not an Oekaki document (\(error))") }
        defer { file.close() }
        let record: BoardRecord?
        do { record = try BoardTables.read(file) } catch { throw Refused("its board tables are damaged (\(error))") }
        guard let record else { throw Refused("it is not the replica of a board") }
        guard let board = try? BoardURL(record.url), board.board == url.board else { throw Refused("it is a replica of another board") }
        guard record.lastSequence == head.sequence else { throw Refused("it holds entry \(record.lastSequence), its head says \(head.sequence)") }
        do {
            try file.rows { r in
                try BoardTables.create(r)
                try r.run("DELETE FROM board_outbox")
                try r.run("DELETE FROM history")
                try r.run("UPDATE board SET client = ?1, url = ?2", [.int(Int64.random(in: 1...Int64.max)), .text(url.description)])
            }
        } catch { throw Refused("cannot take it over (\(error))") }
    }
}
