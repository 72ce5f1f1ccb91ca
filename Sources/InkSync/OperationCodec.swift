import InkCore
import InkStore

/// The bytes of a log entry. Compact (points go through the document's `PointCodec`, ~2 bytes a point) and
/// strict: everything from the log is untrusted, and a malformed entry is an error, never a crash.
///
/// Layout: "OK" version | kind | varint client | varint number | body. An id is two varints; lists are a varint count.
///
/// Version 1 (strokes on the board's first page, never moved; still written for such entries, so older replicas
/// read them): kinds 1 add, 2 remove, 3 restore, 4 replace. A stroke is: id, place flag (0/1) [+ id], tool
/// (0 pen, 1 highlighter), RGBA (4 bytes), width (8 bytes, IEEE little-endian), shape name (varint length, 0 for
/// freehand, + UTF-8; a name this build does not know reads as freehand; "polyline" is a stroke drawn as written
/// that is no shape), varint blob length, PointCodec blob (the points as drawn).
///
/// Version 2 adds to a stroke its page id (after the place) and its transform (after the shape name: 0 for
/// none, or 1 and six doubles a b c d tx ty), and the kinds 5 look (per stroke: id, a mask 1 transform | 2 width |
/// 4 colour, then those values), 6 front and 7 back (ids, at most `maxReordered`), 8 add page (id, key, format),
/// 9 delete pages and 10 restore pages (ids), 11 move pages (id + key each), 12 format pages (id + format each).
/// Kind 14 (version 2) puts strokes back to their order before the last front or back: per stroke, id and the
/// order (varint of its 64 bits).
///
/// Kind 13 (version 2) is a part of an entry too large for one message (a stroke of more than ~250,000 points):
/// client, number (the whole entry's), varint index, varint count, then that slice of the whole entry's bytes.
/// A replica applies the whole entry when its last part arrives, at that part's place in the log.
///
/// A v2 stroke ends (before its points) with its content: a varint length, 0 for ink, else `ContentCodec` bytes.
/// A key is a varint count and varint digits; a format is a size flag (0 endless, 1 + width, height), the
/// background style's name, paper and line RGBA, spacing and margin, and a PDF flag (0, or 1 + the file's 64 hex
/// digits + varint page index).
///
/// Layers (version 2, kinds 15–21; older builds skip them as unknown): 15 add layer (layer id, page id, key, look,
/// notebook flag 0/1), 16 delete layers and 17 restore layers (ids), 18 move layers (id + key each), 19 layer looks
/// (id + look each), 20 move items (per item: stroke id, layer id), 21 add on a layer (layer id, then a stroke as in
/// kind 1: a stroke on its page's first layer is still kind 1). A layer id is two varints; a look is the name
/// (varint length + UTF-8, at most `Layer.maxNameLength` characters) and a visibility byte 0/1.
///
/// Version 3 is version 2 whose strokes end (after the content, before the points) with their fill, caps and dashes:
/// a varint length, 0 for solid, unfilled, round-capped ink, else `LineLookCodec`'s words. Only entries holding such
/// a stroke are written as version 3, so replicas of older builds keep reading every other entry.
public enum OperationCodec {
    /// The shape name of a polyline that is not a shape (an imported stroke, a piece of a cut shape).
    static let polylineName = "polyline"
    /// Larger entries are refused before parsing (a hostile peer's 100 MB stroke).
    public static let maxBytes = 8 << 20
    /// Most ids one list may name.
    public static let maxIDs = 200_000
    /// Most points one stroke may have.
    public static let maxPoints = 2_000_000
    /// Most strokes one front or back entry may move (each takes its own slot of the entry's place).
    public static let maxReordered = 64
    /// Most pages one entry may name.
    public static let maxPages = 10_000
    /// Most layers one entry may name (a notebook layer on every page of a large board).
    public static let maxLayers = 100_000
    /// Largest message: a larger entry goes out in parts of this size (NATS servers refuse more than 1 MB unless
    /// configured otherwise).
    public static let partBytes = 512 << 10
    /// Most parts one entry may have: the whole stays within `maxBytes`.
    public static let maxParts = maxBytes / partBytes
    /// Largest page side an entry may set (what a document can store).
    public static let maxPageSide = 100_000.0

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ d: String) { description = d }
    }

    public static func encode(_ op: BoardOperation) throws -> [UInt8] {
        let v3: Bool
        switch op.change {
        case .add(let s): v3 = !s.style.isPlainLine
        case .replace(_, let a): v3 = a.contains { !$0.style.isPlainLine }
        default: v3 = false
        }
        let v2 = v3 || op.needsVersion2
        var out = ByteWriter([0x4F, 0x4B, v3 ? 3 : v2 ? 2 : 1], capacity: 64)
        switch op.change {
        case .add(let s) where s.layer != nil: out.append(21)
        case .add: out.append(1)
        case .remove: out.append(2)
        case .restore: out.append(3)
        case .replace: out.append(4)
        case .look: out.append(5)
        case .front: out.append(6)
        case .back: out.append(7)
        case .addPage: out.append(8)
        case .deletePages: out.append(9)
        case .restorePages: out.append(10)
        case .movePages: out.append(11)
        case .formatPages: out.append(12)
        case .reorder: out.append(14)
        case .addLayer: out.append(15)
        case .deleteLayers: out.append(16)
        case .restoreLayers: out.append(17)
        case .moveLayers: out.append(18)
        case .lookLayers: out.append(19)
        case .moveItems: out.append(20)
        }
        out.varint(op.client); out.varint(op.number)
        switch op.change {
        case .add(let s):
            if let l = s.layer { layer(l, &out) }
            try stroke(s, v2: v2, v3: v3, &out)
        case .remove(let ids), .restore(let ids), .front(let ids), .back(let ids): list(ids, &out)
        case .replace(let r, let a):
            list(r, &out)
            out.varint(UInt64(a.count))
            for s in a { try stroke(s, v2: v2, v3: v3, &out) }
        case .look(let changes):
            out.varint(UInt64(changes.count))
            for c in changes {
                id(c.id, &out)
                out.append((c.transform == nil ? 0 : 1) | (c.width == nil ? 0 : 2) | (c.color == nil ? 0 : 4))
                if let t = c.transform { out.matrix(t) }
                if let w = c.width { out.double(w) }
                if let c = c.color { out.append(contentsOf: [c.r, c.g, c.b, c.a]) }
            }
        case .addPage(let p):
            page(p.id, &out); key(p.key, &out); format(p.format, &out)
        case .deletePages(let ids), .restorePages(let ids):
            out.varint(UInt64(ids.count))
            for i in ids { page(i, &out) }
        case .movePages(let keys):
            out.varint(UInt64(keys.count))
            for (i, k) in keys.sorted(by: { $0.key < $1.key }) { page(i, &out); key(k, &out) }
        case .reorder(let orders):
            out.varint(UInt64(orders.count))
            for (i, o) in orders.sorted(by: { $0.key < $1.key }) { id(i, &out); out.varint(o) }
        case .formatPages(let formats):
            out.varint(UInt64(formats.count))
            for (i, f) in formats.sorted(by: { $0.key < $1.key }) { page(i, &out); format(f, &out) }
        case .addLayer(let l):
            layer(l.id, &out); page(l.page, &out); key(l.key, &out); look(l.look, &out); out.append(l.everyPage ? 1 : 0)
        case .deleteLayers(let ids), .restoreLayers(let ids):
            out.varint(UInt64(ids.count))
            for i in ids { layer(i, &out) }
        case .moveLayers(let keys):
            out.varint(UInt64(keys.count))
            for (i, k) in keys.sorted(by: { $0.key < $1.key }) { layer(i, &out); key(k, &out) }
        case .lookLayers(let looks):
            out.varint(UInt64(looks.count))
            for (i, l) in looks.sorted(by: { $0.key < $1.key }) { layer(i, &out); look(l, &out) }
        case .moveItems(let moves):
            out.varint(UInt64(moves.count))
            for (i, l) in moves.sorted(by: { $0.key < $1.key }) { id(i, &out); layer(l, &out) }
        }
        return out.bytes
    }

    /// A message of the log: an entry, or a part of one.
    public enum Message: Hashable, Sendable {
        case operation(BoardOperation)
        case part(OperationPart)
    }

    /// The messages that carry `op`, with their JetStream message ids: one, or its parts in order.
    public static func messages(_ op: BoardOperation) throws -> [(id: String, bytes: [UInt8])] {
        let whole = try encode(op)
        guard whole.count > partBytes else { return [(op.messageID, whole)] }
        guard whole.count <= maxBytes else { throw Failure("entry of \(whole.count) bytes is over the \(maxBytes)-byte limit") }
        let count = (whole.count + partBytes - 1) / partBytes
        return (0..<count).map { i in
            var out = ByteWriter([0x4F, 0x4B, 2, 13])
            out.varint(op.client); out.varint(op.number); out.varint(UInt64(i)); out.varint(UInt64(count))
            out.append(contentsOf: whole[(i * partBytes)..<min((i + 1) * partBytes, whole.count)])
            return ("\(op.messageID).\(i)", out.bytes)
        }
    }

    /// Reads a message of the log.
    public static func decodeMessage(_ bytes: [UInt8]) throws -> Message {
        guard bytes.count >= 4, bytes[0] == 0x4F, bytes[1] == 0x4B, bytes[2] == 2, bytes[3] == 13 else { return .operation(try decode(bytes)) }
        guard bytes.count <= partBytes + 64 else { throw Failure("part of \(bytes.count) bytes is over the \(partBytes)-byte limit") }
        var r = Reader(bytes: bytes)
        r.at = 4
        let client = try r.varint(), number = try r.varint(), index = try r.varint(), count = try r.varint()
        guard count >= 2, count <= UInt64(maxParts), index < count else { throw Failure("part \(index) of \(count) is not a part of an entry") }
        return .part(OperationPart(client: client, number: number, index: Int(index), count: Int(count), bytes: Array(bytes[r.at...])))
    }

    public static func decode(_ bytes: [UInt8]) throws -> BoardOperation {
        guard bytes.count <= maxBytes else { throw Failure("entry of \(bytes.count) bytes is over the \(maxBytes)-byte limit") }
        var r = Reader(bytes: bytes)
        guard try r.byte() == 0x4F, try r.byte() == 0x4B else { throw Failure("not an Oekaki board entry") }
        let version = try r.byte()
        guard version >= 1, version <= 3 else { throw Failure("unknown entry version \(version)") }
        r.v2 = version >= 2
        r.v3 = version == 3
        let kind = try r.byte()
        let client = try r.varint(), number = try r.varint()
        let change: BoardOperation.Change
        switch kind {
        case 1: change = .add(try r.stroke())
        case 21 where r.v2:
            let l = try r.layer()
            var s = try r.stroke()
            s.layer = l
            change = .add(s)
        case 15 where r.v2:
            change = .addLayer(BoardLayer(id: try r.layer(), page: try r.page(), key: try r.key(), look: try r.look(), everyPage: try r.flag()))
        case 16 where r.v2, 17 where r.v2:
            let n = try r.count(limit: maxLayers)
            var ids: [BoardLayerID] = []
            for _ in 0..<n { ids.append(try r.layer()) }
            change = kind == 16 ? .deleteLayers(ids) : .restoreLayers(ids)
        case 18 where r.v2:
            let n = try r.count(limit: maxLayers)
            var keys: [BoardLayerID: PageKey] = [:]
            for _ in 0..<n { keys[try r.layer()] = try r.key() }
            change = .moveLayers(keys)
        case 19 where r.v2:
            let n = try r.count(limit: maxLayers)
            var looks: [BoardLayerID: LayerLook] = [:]
            for _ in 0..<n { looks[try r.layer()] = try r.look() }
            change = .lookLayers(looks)
        case 20 where r.v2:
            let n = try r.count(limit: maxIDs)
            var moves: [BoardStrokeID: BoardLayerID] = [:]
            for _ in 0..<n { moves[try r.id()] = try r.layer() }
            change = .moveItems(moves)
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
        case 5 where r.v2:
            let n = try r.count(limit: maxIDs)
            var changes: [LookChange] = []
            for _ in 0..<n {
                var c = LookChange(id: try r.id())
                let mask = try r.byte()
                guard mask & ~7 == 0 else { throw Failure("look of \(c.id): unknown parts \(mask)") }
                if mask & 1 != 0 {
                    let t = try r.input.matrix()
                    guard t.isUsable else { throw Failure("look of \(c.id): a placement that is not usable") }
                    c.transform = t
                }
                if mask & 2 != 0 { c.width = try r.width(of: c.id) }
                if mask & 4 != 0 { c.color = RGBA(r: try r.byte(), g: try r.byte(), b: try r.byte(), a: try r.byte()) }
                changes.append(c)
            }
            change = .look(changes)
        case 6 where r.v2, 7 where r.v2:
            let ids = try r.ids()
            guard ids.count <= maxReordered else { throw Failure("\(ids.count) strokes reordered in one entry (limit \(maxReordered))") }
            change = kind == 6 ? .front(ids) : .back(ids)
        case 8 where r.v2:
            change = .addPage(BoardPage(id: try r.page(), key: try r.key(), format: try r.format()))
        case 9 where r.v2, 10 where r.v2:
            let n = try r.count(limit: maxPages)
            var ids: [BoardPageID] = []
            for _ in 0..<n { ids.append(try r.page()) }
            change = kind == 9 ? .deletePages(ids) : .restorePages(ids)
        case 11 where r.v2:
            let n = try r.count(limit: maxPages)
            var keys: [BoardPageID: PageKey] = [:]
            for _ in 0..<n { keys[try r.page()] = try r.key() }
            change = .movePages(keys)
        case 13 where r.v2: throw Failure("a part of an entry where a whole entry belongs")
        case 14 where r.v2:
            let n = try r.count(limit: maxIDs)
            var orders: [BoardStrokeID: UInt64] = [:]
            for _ in 0..<n { orders[try r.id()] = try r.varint() }
            change = .reorder(orders)
        case 12 where r.v2:
            let n = try r.count(limit: maxPages)
            var formats: [BoardPageID: PageFormat] = [:]
            for _ in 0..<n { formats[try r.page()] = try r.format() }
            change = .formatPages(formats)
        default: throw Failure("unknown operation kind \(kind)")
        }
        guard r.atEnd else { throw Failure("\(bytes.count - r.at) trailing bytes") }
        return BoardOperation(client: client, number: number, change: change)
    }

    // MARK: writing

    private static func id(_ i: BoardStrokeID, _ out: inout ByteWriter) { out.varint(i.client); out.varint(i.number) }

    private static func page(_ i: BoardPageID, _ out: inout ByteWriter) { out.varint(i.client); out.varint(i.number) }

    private static func layer(_ i: BoardLayerID, _ out: inout ByteWriter) { out.varint(i.client); out.varint(i.number) }

    private static func look(_ l: LayerLook, _ out: inout ByteWriter) {
        let name = Array(l.name.utf8)
        out.varint(UInt64(name.count))
        out.append(contentsOf: name)
        out.append(l.visible ? 1 : 0)
    }

    private static func key(_ k: PageKey, _ out: inout ByteWriter) {
        out.varint(UInt64(k.digits.count))
        for d in k.digits { out.varint(UInt64(d)) }
    }

    private static func format(_ f: PageFormat, _ out: inout ByteWriter) {
        if let s = f.size { out.append(1); out.doubles(s.width, s.height) } else { out.append(0) }
        let b = f.background
        let name = Array(b.style.rawValue.utf8)
        out.varint(UInt64(name.count))
        out.append(contentsOf: name)
        out.append(contentsOf: [b.paper.r, b.paper.g, b.paper.b, b.paper.a, b.line.r, b.line.g, b.line.b, b.line.a])
        out.doubles(b.spacing, b.margin)
        // A PDF page (bit 1) and a picture (bit 2) under the paper's ink, by their files' hashes (the files' bytes
        // are not on the log). Entries from before pictures have 0 or 1 here, and read the same.
        out.append((b.pdf == nil ? 0 : 1) | (b.picture == nil ? 0 : 2))
        if let pdf = b.pdf { out.append(contentsOf: pdf.file.hex.utf8); out.varint(UInt64(pdf.index)) }
        if let picture = b.picture { out.append(contentsOf: picture.hex.utf8) }
    }

    private static func list(_ ids: [BoardStrokeID], _ out: inout ByteWriter) {
        out.varint(UInt64(ids.count))
        for i in ids { id(i, &out) }
    }

    private static func stroke(_ s: BoardStroke, v2: Bool, v3: Bool, _ out: inout ByteWriter) throws {
        id(s.id, &out)
        if let p = s.place { out.append(1); id(p, &out) } else { out.append(0) }
        if v2 { page(s.page, &out) }
        switch s.style.tool {
        case .pen: out.append(0)
        case .highlighter: out.append(1)
        default: throw Failure("a \(s.style.tool.rawValue) leaves no stroke")
        }
        out.append(contentsOf: [s.style.color.r, s.style.color.g, s.style.color.b, s.style.color.a])
        out.double(s.style.width)
        // A polyline that is no shape (an import, a cut shape) is named "polyline", so it is not smoothed elsewhere.
        let shape = Array((s.shape?.rawValue ?? (s.style.trace == .polyline ? OperationCodec.polylineName : "")).utf8)
        out.varint(UInt64(shape.count))
        out.append(contentsOf: shape)
        if v2 {
            let t = s.transform
            if t.isIdentity { out.append(0) } else { out.append(1); out.matrix(t) }
            let content: [UInt8]
            do { content = try ContentCodec.encode(s.content) ?? [] } catch { throw Failure("stroke \(s.id): \(error)") }
            out.varint(UInt64(content.count))
            out.append(contentsOf: content)
        }
        if v3 {
            let look = Array((LineLookCodec.encode(s.style) ?? "").utf8)
            out.varint(UInt64(look.count))
            out.append(contentsOf: look)
        }
        let blob: [UInt8]
        do { blob = try PointCodec.encode(s.points.isEmpty ? [InkPoint(x: 0, y: 0)] : s.points) } catch {
            throw Failure("stroke \(s.id): \(error)")
        }
        out.varint(UInt64(blob.count))
        out.append(contentsOf: blob)
    }

    // MARK: reading

    private struct Reader {
        var input: ByteReader
        var bytes: [UInt8] { input.bytes }
        var at: Int { get { input.position } set { input.position = newValue } }
        /// An entry of version 2 (pages and placements).
        var v2 = false
        /// An entry of version 3 (strokes with their fill, caps and dashes).
        var v3 = false
        var atEnd: Bool { input.atEnd }

        init(bytes: [UInt8]) { input = ByteReader(bytes, endsEarly: Failure("entry ends early"), tooLarge: Failure("number too long")) }

        mutating func byte() throws -> UInt8 { try input.byte() }
        mutating func varint() throws -> UInt64 { try input.varint() }
        mutating func double() throws -> Double { try input.double() }

        mutating func width(of sid: BoardStrokeID) throws -> Double {
            let width = try double()
            guard width.isFinite, width > 0, width <= 10_000 else { throw Failure("stroke \(sid) has width \(width)") }
            return width
        }

        mutating func page() throws -> BoardPageID { BoardPageID(client: try varint(), number: try varint()) }

        mutating func layer() throws -> BoardLayerID { BoardLayerID(client: try varint(), number: try varint()) }

        mutating func flag() throws -> Bool {
            switch try byte() {
            case 0: return false
            case 1: return true
            case let f: throw Failure("bad flag \(f)")
            }
        }

        mutating func look() throws -> LayerLook {
            let n = try varint()
            guard n <= UInt64(Layer.maxNameLength * 4), n <= UInt64(bytes.count - at) else { throw Failure("bad layer name") }
            let name = String(decoding: bytes[at..<at + Int(n)], as: UTF8.self)
            at += Int(n)
            guard !name.isEmpty, name.count <= Layer.maxNameLength, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw Failure("a layer name that is empty, too long or has control characters")
            }
            return LayerLook(name: name, visible: try flag())
        }

        mutating func key() throws -> PageKey {
            let n = try count(limit: PageKey.maxDigits)
            var digits: [UInt16] = []
            for _ in 0..<n {
                let d = try varint()
                guard d <= UInt64(UInt16.max) else { throw Failure("page key digit \(d) is too large") }
                digits.append(UInt16(d))
            }
            guard let k = PageKey(digits: digits) else { throw Failure("page key \(digits.prefix(8)) is not a key") }
            return k
        }

        mutating func format() throws -> PageFormat {
            var size: Size?
            switch try byte() {
            case 0: size = nil
            case 1:
                let w = try double(), h = try double()
                guard w.isFinite, h.isFinite, w > 0, h > 0, w <= OperationCodec.maxPageSide, h <= OperationCodec.maxPageSide else {
                    throw Failure("page size \(w) × \(h) is outside 0…\(Int(OperationCodec.maxPageSide))")
                }
                size = Size(width: w, height: h)
            case let f: throw Failure("bad page size flag \(f)")
            }
            let n = try varint()
            guard n <= 32, n <= UInt64(bytes.count - at) else { throw Failure("bad background name") }
            let name = String(decoding: bytes[at..<at + Int(n)], as: UTF8.self)
            at += Int(n)
            guard let style = Background.Style(rawValue: name) else { throw Failure("unknown background '\(name)'") }
            let paper = RGBA(r: try byte(), g: try byte(), b: try byte(), a: try byte())
            let line = RGBA(r: try byte(), g: try byte(), b: try byte(), a: try byte())
            let spacing = try double(), margin = try double()
            guard Background.spacingRange.contains(spacing), margin.isFinite, margin >= 0, margin <= Background.spacingRange.upperBound else {
                throw Failure("background spacing \(spacing) or margin \(margin) is out of range")
            }
            var pdf: PDFPageRef?, picture: ContentHash?
            let flags = try byte()
            guard flags <= 3 else { throw Failure("bad PDF flag \(flags)") }
            func hash(_ what: String) throws -> ContentHash {
                guard bytes.count - at >= 64, let h = ContentHash(hex: String(decoding: bytes[at..<at + 64], as: UTF8.self)) else {
                    throw Failure("a \(what) background names no file")
                }
                at += 64
                return h
            }
            if flags & 1 != 0 {
                let file = try hash("PDF")
                let index = try varint()
                guard index <= UInt64(PDFPageRef.maxIndex) else { throw Failure("PDF page \(index) is out of range") }
                pdf = PDFPageRef(file: file, index: Int(index))
            }
            if flags & 2 != 0 { picture = try hash("picture") }
            return PageFormat(size: size, background: Background(style: style, paper: paper, line: line, spacing: spacing, margin: margin,
                                                                 pdf: pdf, picture: picture))
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
            let page = v2 ? try self.page() : .first
            let tool: Tool
            switch try byte() {
            case 0: tool = .pen
            case 1: tool = .highlighter
            case let t: throw Failure("unknown tool \(t)")
            }
            let color = RGBA(r: try byte(), g: try byte(), b: try byte(), a: try byte())
            let width = try self.width(of: sid)
            let nameLength = try varint()
            guard nameLength <= 64, nameLength <= UInt64(bytes.count - at) else { throw Failure("stroke \(sid): bad shape name") }
            let name = String(decoding: bytes[at..<at + Int(nameLength)], as: UTF8.self)
            let shape = ShapeKind(rawValue: name)
            at += Int(nameLength)
            var transform = AffineMap.identity
            var content = StrokeContent.ink
            if v2 {
                switch try byte() {
                case 0: break
                case 1:
                    transform = try input.matrix()
                    guard transform.isUsable else { throw Failure("stroke \(sid) has a placement that is not usable") }
                case let f: throw Failure("bad transform flag \(f)")
                }
                let n = try varint()
                guard n <= UInt64(bytes.count - at) else { throw Failure("stroke \(sid): content runs past the end of the entry") }
                if n > 0 {
                    do { content = try ContentCodec.decode(Array(bytes[at..<at + Int(n)])) } catch { throw Failure("stroke \(sid): \(error)") }
                    at += Int(n)
                }
            }
            var style = StrokeStyle(tool: tool, color: color, width: width,
                                    trace: shape == nil && name != OperationCodec.polylineName ? .smoothed : .polyline)
            if v3 {
                let n = try varint()
                guard n <= 1024, n <= UInt64(bytes.count - at) else { throw Failure("stroke \(sid): bad line style") }
                if n > 0 {
                    do { try LineLookCodec.decode(String(decoding: bytes[at..<at + Int(n)], as: UTF8.self), into: &style) } catch {
                        throw Failure("stroke \(sid): \(error)")
                    }
                    at += Int(n)
                }
            }
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
            return BoardStroke(id: sid, place: place, page: page, style: style, points: points, transform: transform, shape: shape, content: content)
        }
    }
}
