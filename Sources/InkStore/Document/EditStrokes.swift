import InkCore

/// The stroke ids of one stored edit, packed for the `history` table (format 3): the number removed and the
/// number added as varints, then every id (removed first, then added) as a zigzag varint of its difference
/// from the previous one. An edit of one new stroke takes 4–5 bytes.
struct EditStrokes: Equatable {
    var removed: [StrokeID]
    var added: [StrokeID]

    init(removed: [StrokeID], added: [StrokeID]) { self.removed = removed; self.added = added }
    /// A transform edit's strokes are stored as added (it adds none, but must name what it moves).
    init(_ e: Edit) { removed = e.removed.map(\.id); added = e.added.map(\.id) + e.transformedIDs }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var encoded: [UInt8] {
        var out = ByteWriter(capacity: 2 + 3 * (removed.count + added.count))
        out.varint(UInt64(removed.count))
        out.varint(UInt64(added.count))
        var prev: Int64 = 0
        for id in removed + added {
            let v = Int64(bitPattern: id)
            out.signedVarint(v &- prev)
            prev = v
        }
        return out.bytes
    }

    /// Decodes and checks a blob from the file: counts that fit the bytes, positive ids, nothing left over.
    init(decoding b: [UInt8]) throws {
        var bytes = ByteReader(b, endsEarly: Failure(description: "edit strokes end early"),
                               tooLarge: Failure(description: "edit strokes hold a number too large"))
        let r = try bytes.varint(), a = try bytes.varint()
        // Every id takes at least one byte, which bounds the counts before anything is allocated.
        guard r <= UInt64(b.count), a <= UInt64(b.count), r + a <= UInt64(bytes.remaining) else {
            throw Failure(description: "edit strokes claim \(r) + \(a) ids in \(b.count) bytes")
        }
        var ids: [StrokeID] = []
        ids.reserveCapacity(Int(r + a))
        var prev: Int64 = 0
        for _ in 0..<(r + a) {
            let d = try bytes.signedVarint()
            let (v, overflow) = prev.addingReportingOverflow(d)
            guard !overflow, v > 0 else { throw Failure(description: "edit strokes name stroke id \(overflow ? "out of range" : String(v))") }
            ids.append(StrokeID(v))
            prev = v
        }
        guard bytes.atEnd else { throw Failure(description: "edit strokes have \(bytes.remaining) bytes left over") }
        removed = Array(ids[..<Int(r)]); added = Array(ids[Int(r)...])
    }

    /// Format 2 → 3: moves every edit from `edits`/`edit_strokes` into `history`, same stacks, same order.
    /// Runs inside the upgrade transaction; the old tables are dropped after it.
    static func convertVersion2History(_ db: SQLiteDatabase) throws {
        let e = try db.statement("SELECT id, stack, position, kind FROM edits ORDER BY stack, position")
        var rows: [(id: Int64, stack: Int64, position: Int64, kind: Int64)] = []
        while try e.step() { rows.append((e.int(0), e.int(1), e.int(2), e.int(3))) }
        e.reset()
        let r = try db.statement("SELECT role, stroke FROM edit_strokes WHERE edit = ? ORDER BY role, seq")
        let ins = try db.statement("INSERT INTO history(stack, position, kind, strokes) VALUES(?, ?, ?, ?)")
        for row in rows {
            var s = EditStrokes(removed: [], added: [])
            try r.bind(1, row.id)
            while try r.step() {
                switch Schema.Role(rawValue: r.int(0)) {
                case .removed: s.removed.append(StrokeID(bitPattern: r.int(1)))
                case .added: s.added.append(StrokeID(bitPattern: r.int(1)))
                case nil:
                    let message = "edit \(row.id) has stroke role \(r.int(0))"
                    r.reset(); throw Failure(description: message)
                }
            }
            r.reset()
            try ins.bind(1, row.stack).bind(2, row.position).bind(3, row.kind).bind(4, s.encoded).run()
        }
    }
}
