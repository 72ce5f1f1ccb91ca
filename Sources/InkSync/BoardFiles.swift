import Foundation
import InkCore

/// The files a board's entries name (an image's picture, a formula's PDF, a page's PDF or picture) travel beside
/// the log, since an entry carries only their hashes: in the snapshots' stream (one message per subject, DESIGN
/// §9), as parts of 256 KiB and then a head naming them (`oekaki-board-file 1`, size, parts). A file is stored
/// once however often it is named, and costs nothing until someone names it.
///
/// A replica puts each file on the board before the first entry naming it goes out, and takes the files a
/// batch of entries names before it commits the batch. A file is untrusted like every entry: a head that does
/// not parse, a size over `maxBytes`, parts that do not add up, bytes that do not hash to the name are refused
/// in one line (the file is then not there yet).
enum BoardFiles {
    static let partBytes = BoardSnapshot.partBytes
    static let maxBytes = BoardSnapshot.maxBytes
    static let magic = "oekaki-board-file 1"

    /// The files an entry names.
    static func named(by change: BoardOperation.Change) -> [ContentHash] {
        switch change {
        case .add(let s): return s.content.image?.files ?? []
        case .replace(_, let added): return added.flatMap { $0.content.image?.files ?? [] }
        case .addPage(let p): return p.format.background.files
        case .formatPages(let formats): return formats.values.flatMap(\.background.files)
        default: return []
        }
    }

    /// The files a batch's commit stores: what its edits bring, and the strokes and pages it keeps aside.
    static func named(by c: BoardCommit) -> Set<ContentHash> {
        var out = Set<ContentHash>()
        for e in c.edits {
            for s in e.added { out.formUnion(s.content.image?.files ?? []) }
            switch e {
            case .addPage(let p, _): out.formUnion(p.background.files)
            case .setFormat(let changes): for f in changes { out.formUnion(f.to.background.files) }
            default: break
            }
        }
        for s in c.hidden { out.formUnion(s.content.image?.files ?? []) }
        for p in c.parkedPages { out.formUnion(p.format.background.files) }
        for p in c.pageEntries { out.formUnion(p.format.background.files) }
        return out
    }

    /// Milliseconds a request about files waits for the server: a user without permission for the snapshots' stream
    /// is never answered, and pays this once a session (`BoardSync` then stops asking).
    static let waitMs: Int64 = 1500

    /// Whether the board holds the file (its head is there).
    static func isOnBoard(_ hash: ContentHash, url: BoardURL, connection c: NatsConnection) throws -> Bool {
        guard try c.streamBounds(url.snapshotStream, waitMs: waitMs) != nil else { return false }
        return try c.lastMessage(stream: url.snapshotStream, subject: url.fileHeadSubject(hash)) != nil
    }

    /// Puts the file on the board: its parts, then its head (a reader never finds a head without its parts).
    static func put(_ hash: ContentHash, _ bytes: [UInt8], url: BoardURL, connection c: NatsConnection) throws {
        guard bytes.count <= maxBytes else { throw BoardSnapshot.Refused("a file of \(bytes.count) bytes is more than the \(maxBytes) a board keeps") }
        try c.addLatestStream(url.snapshotStream, subjects: url.snapshotSubjects, replicas: url.replicas, maxMessageBytes: partBytes + 4096)
        let parts = (bytes.count + partBytes - 1) / partBytes
        for k in 0..<parts {
            try c.publish(url.filePartSubject(hash, k), Array(bytes[(k * partBytes)..<min(bytes.count, (k + 1) * partBytes)]), headers: [])
        }
        try c.publish(url.fileHeadSubject(hash), Array("\(magic)\nbytes \(bytes.count)\nparts \(parts)\n".utf8), headers: [])
    }

    /// The file's bytes from the board, checked against its name; nil when the board does not hold it.
    static func take(_ hash: ContentHash, url: BoardURL, connection c: NatsConnection) throws -> [UInt8]? {
        guard try c.streamBounds(url.snapshotStream, waitMs: waitMs) != nil,
              let head = try c.lastMessage(stream: url.snapshotStream, subject: url.fileHeadSubject(hash)) else { return nil }
        let (size, parts) = try Self.head(head)
        var data: [UInt8] = []
        data.reserveCapacity(size)
        for k in 0..<parts {
            guard let part = try c.lastMessage(stream: url.snapshotStream, subject: url.filePartSubject(hash, k)) else {
                throw BoardSnapshot.Refused("file \(hash.hex.prefix(12))…: its part \(k + 1) of \(parts) is missing")
            }
            let expected = k == parts - 1 ? size - k * partBytes : partBytes
            guard part.count == expected else { throw BoardSnapshot.Refused("file \(hash.hex.prefix(12))…: its part \(k + 1) has \(part.count) bytes, not \(expected)") }
            data += part
        }
        guard ContentHash(of: data) == hash else { throw BoardSnapshot.Refused("file \(hash.hex.prefix(12))…: its bytes do not match its name") }
        return data
    }

    /// Strict: the magic, the size and the part count that size needs.
    static func head(_ data: [UInt8]) throws -> (bytes: Int, parts: Int) {
        guard data.count <= 256, let text = String(bytes: data, encoding: .utf8) else { throw BoardSnapshot.Refused("a file's head is not text") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == magic, lines[3].isEmpty, lines[1].hasPrefix("bytes "), lines[2].hasPrefix("parts "),
              let b = Int(lines[1].dropFirst(6)), b > 0, b <= maxBytes,
              let p = Int(lines[2].dropFirst(6)), p == (b + partBytes - 1) / partBytes else {
            throw BoardSnapshot.Refused("a file's head is not an Oekaki file head")
        }
        return (b, p)
    }
}
