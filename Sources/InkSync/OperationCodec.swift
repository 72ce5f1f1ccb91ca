import InkCore
import InkStore

/// The bytes of a log entry. Compact (points go through the document's `PointCodec`, ~2 bytes a point) and
/// strict: everything from the log is untrusted, and a malformed entry is an error, never a crash.
///
/// Layout: "OK" 1 | kind (1 add, 2 remove, 3 restore, 4 replace) | varint client | varint number | body.
/// A stroke is: id, place flag (0/1) [+ id], tool (0 pen, 1 highlighter), RGBA (4 bytes), width (8 bytes,
/// IEEE little-endian), shape name (varint length, 0 for freehand, + UTF-8; a name this build does not know
/// reads as freehand; "polyline" is a stroke drawn as written that is no shape), varint blob length, PointCodec
/// blob. An id is two varints. Lists are a varint count.
public enum OperationCodec {
    /// The shape name of a polyline that is not a shape (an imported stroke, a piece of a cut shape).
    static let polylineName = "polyline"
    /// Larger entries are refused before parsing (a hostile peer's 100 MB stroke).
    public static let maxBytes = 8 << 20
    /// Most ids one list may name.
    public static let maxIDs = 200_000
    /// Most points one stroke may have.
    public static let maxPoints = 2_000_000

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ d: String) { description = d }
    }

    public static func encode(_ op: BoardOperation) throws -> [UInt8] {
        var out: [UInt8] = [0x4F, 0x4B, 1]
        out.reserveCapacity(64)
        switch op.change {
        case .add: out.append(1)
        case .remove: out.append(2)
        case .restore: out.append(3)
        case .replace: out.append(4)
        }
        varint(op.client, &out); varint(op.number, &out)
        switch op.change {
        case .add(let s): try stroke(s, &out)
        case .remove(let ids), .restore(let ids): list(ids, &out)
        case .replace(let r, let a):
            list(r, &out)
            varint(UInt64(a.count), &out)
            for s in a { try stroke(s, &out) }
        }
        return out
    }

    public static func decode(_ bytes: [UInt8]) throws -> BoardOperation {
        guard bytes.count <= maxBytes else { throw Failure("entry of \(bytes.count) bytes is over the \(maxBytes)-byte limit") }
        var r = Reader(bytes: bytes)
        guard try r.byte() == 0x4F, try r.byte() == 0x4B else { throw Failure("not an Oekaki board entry") }
        let version = try r.byte()
        guard version == 1 else { throw Failure("unknown entry version \(version)") }
        let kind = try r.byte()
        let client = try r.varint(), number = try r.varint()
        let change: BoardOperation.Change
        switch kind {
        case 1: change = .add(try r.stroke())
        case 2: change = .remove(try r.ids())
        case 3: change = .restore(try r.ids())
        case 4:
            let removed = try r.ids()
            let n = try r.count(limit: maxIDs)
            var added: [BoardStroke] = []
            for _ in 0..<n {
                let s = try r.stroke()
                guard let p = s.place, removed.contains(p) else { throw Failure("a piece of a cut names no cut stroke") }
                added.append(s)
            }
            change = .replace(removed: removed, added: added)
        default: throw Failure("unknown operation kind \(kind)")
        }
        guard r.atEnd else { throw Failure("\(bytes.count - r.at) trailing bytes") }
        return BoardOperation(client: client, number: number, change: change)
    }

    // MARK: writing

    static func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7f) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }

    private static func id(_ i: BoardStrokeID, _ out: inout [UInt8]) { varint(i.client, &out); varint(i.number, &out) }

    private static func list(_ ids: [BoardStrokeID], _ out: inout [UInt8]) {
        varint(UInt64(ids.count), &out)
        for i in ids { id(i, &out) }
    }

    private static func stroke(_ s: BoardStroke, _ out: inout [UInt8]) throws {
        id(s.id, &out)
        if let p = s.place { out.append(1); id(p, &out) } else { out.append(0) }
        switch s.style.tool {
        case .pen: out.append(0)
        case .highlighter: out.append(1)
        default: throw Failure("a \(s.style.tool.rawValue) leaves no stroke")
        }
        out += [s.style.color.r, s.style.color.g, s.style.color.b, s.style.color.a]
        withUnsafeBytes(of: s.style.width.bitPattern.littleEndian) { out += $0 }
        // A polyline that is no shape (an import, a cut shape) is named "polyline", so it is not smoothed elsewhere.
        let shape = Array((s.shape?.rawValue ?? (s.style.trace == .polyline ? OperationCodec.polylineName : "")).utf8)
        varint(UInt64(shape.count), &out)
        out += shape
        let blob: [UInt8]
        do { blob = try PointCodec.encode(s.points.isEmpty ? [InkPoint(x: 0, y: 0)] : s.points) } catch {
            throw Failure("stroke \(s.id): \(error)")
        }
        varint(UInt64(blob.count), &out)
        out += blob
    }

    // MARK: reading

    private struct Reader {
        let bytes: [UInt8]
        var at = 0
        var atEnd: Bool { at == bytes.count }

        mutating func byte() throws -> UInt8 {
            guard at < bytes.count else { throw Failure("entry ends early") }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func varint() throws -> UInt64 {
            var v: UInt64 = 0, shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 64, shift < 63 || b <= 1 else { throw Failure("number too long") }
                v |= UInt64(b & 0x7f) << shift
                if b & 0x80 == 0 { return v }
                shift += 7
            }
        }

        mutating func count(limit: Int) throws -> Int {
            let n = try varint()
            guard n <= UInt64(limit) else { throw Failure("list of \(n) items is over the limit of \(limit)") }
            return Int(n)
        }

        mutating func id() throws -> BoardStrokeID { BoardStrokeID(client: try varint(), number: try varint()) }

        mutating func ids() throws -> [BoardStrokeID] {
            let n = try count(limit: maxIDs)
            var out: [BoardStrokeID] = []
            out.reserveCapacity(Swift.min(n, bytes.count - at))
            for _ in 0..<n { out.append(try id()) }
            return out
        }

        mutating func stroke() throws -> BoardStroke {
            let sid = try id()
            let place: BoardStrokeID?
            switch try byte() {
            case 0: place = nil
            case 1: place = try id()
            case let f: throw Failure("bad place flag \(f)")
            }
            let tool: Tool
            switch try byte() {
            case 0: tool = .pen
            case 1: tool = .highlighter
            case let t: throw Failure("unknown tool \(t)")
            }
            let color = RGBA(r: try byte(), g: try byte(), b: try byte(), a: try byte())
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(try byte()) << (8 * UInt64(i)) }
            let width = Double(bitPattern: bits)
            guard width.isFinite, width > 0, width <= 10_000 else { throw Failure("stroke \(sid) has width \(width)") }
            let nameLength = try varint()
            guard nameLength <= 64, nameLength <= UInt64(bytes.count - at) else { throw Failure("stroke \(sid): bad shape name") }
            let name = String(decoding: bytes[at..<at + Int(nameLength)], as: UTF8.self)
            let shape = ShapeKind(rawValue: name)
            at += Int(nameLength)
            let length = try varint()
            guard length <= UInt64(bytes.count - at) else { throw Failure("stroke \(sid): points run past the end of the entry") }
            let n = Int(length)
            let blob = Array(bytes[at..<at + n])
            at += n
            let points: [InkPoint]
            do { points = try PointCodec.decode(blob) } catch { throw Failure("stroke \(sid): \(error)") }
            guard points.count <= maxPoints else { throw Failure("stroke \(sid) has \(points.count) points (limit \(maxPoints))") }
            guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.pressure.isFinite }) else {
                throw Failure("stroke \(sid) has a point that is not a number")
            }
            // A shape is drawn as a polyline (its points are the exact shape), never smoothed.
            return BoardStroke(id: sid, place: place, style: StrokeStyle(tool: tool, color: color, width: width,
                                                                        trace: shape == nil && name != OperationCodec.polylineName ? .smoothed : .polyline),
                               points: points, shape: shape)
        }
    }
}
