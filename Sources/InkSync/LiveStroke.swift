import InkCore
import InkStore

/// A stroke still being drawn, sent outside the log on the board's core subject every ~30 ms: only the points
/// added since the last message, then one message when the pen lifts (or the stroke is cancelled). Nothing is
/// stored; a live stroke that stops arriving is dropped by the receivers after `LiveStrokes.timeout`.
///
/// Layout: "OL" 1 | flags (1 = ended) | varint client | varint number | tool (0 pen, 1 highlighter) |
/// RGBA (4 bytes) | width (float32) | varint count | count × (x float32, y float32, pressure byte).
public struct LiveStroke: Hashable, Sendable {
    public var id: BoardStrokeID
    public var style: StrokeStyle
    public var points: [InkPoint]
    public var ended: Bool

    public init(id: BoardStrokeID, style: StrokeStyle, points: [InkPoint], ended: Bool) {
        self.id = id; self.style = style; self.points = points; self.ended = ended
    }

    public static let maxPoints = 10_000

    public func encoded() -> [UInt8] {
        var out: [UInt8] = [0x4F, 0x4C, 1, ended ? 1 : 0]
        OperationCodec.varint(id.client, &out); OperationCodec.varint(id.number, &out)
        out.append(style.tool == .highlighter ? 1 : 0)
        out += [style.color.r, style.color.g, style.color.b, style.color.a]
        func f32(_ v: Double) { var w = ByteWriter(); w.littleEndian(Float(v).bitPattern); out += w.bytes }
        f32(style.width)
        let pts = points.prefix(Self.maxPoints)
        OperationCodec.varint(UInt64(pts.count), &out)
        for p in pts { f32(p.x); f32(p.y); out.append(UInt8((min(max(p.pressure, 0), 1) * 255).rounded())) }
        return out
    }

    /// Nil for anything malformed: live strokes are cosmetic, a bad one is simply not shown.
    public init?(_ b: [UInt8]) {
        var at = 0
        func byte() -> UInt8? { guard at < b.count else { return nil }; defer { at += 1 }; return b[at] }
        func varint() -> UInt64? {
            var v: UInt64 = 0, shift: UInt64 = 0
            while let x = byte() {
                guard shift < 63 else { return nil }
                v |= UInt64(x & 0x7f) << shift
                if x & 0x80 == 0 { return v }
                shift += 7
            }
            return nil
        }
        func f32() -> Double? {
            guard at + 4 <= b.count else { return nil }
            var bits: UInt32 = 0
            for i in 0..<4 { bits |= UInt32(b[at + i]) << (8 * UInt32(i)) }
            at += 4
            let v = Double(Float(bitPattern: bits))
            return v.isFinite ? v : nil
        }
        guard byte() == 0x4F, byte() == 0x4C, byte() == 1, let flags = byte(), let client = varint(), let number = varint(),
              let tool = byte(), tool <= 1, let r = byte(), let g = byte(), let bl = byte(), let a = byte(),
              let width = f32(), width > 0, width <= 10_000, let n = varint(), n <= UInt64(Self.maxPoints), n * 9 <= UInt64(b.count)
        else { return nil }
        var points: [InkPoint] = []
        points.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let x = f32(), let y = f32(), let p = byte(), abs(x) < 1e9, abs(y) < 1e9 else { return nil }
            points.append(InkPoint(x: x, y: y, pressure: Double(p) / 255))
        }
        guard at == b.count else { return nil }
        self.init(id: BoardStrokeID(client: client, number: number),
                  style: StrokeStyle(tool: tool == 1 ? .highlighter : .pen, color: RGBA(r: r, g: g, b: bl, a: a), width: width),
                  points: points, ended: flags & 1 != 0)
    }
}

/// Other people's strokes in progress, as one replica sees them: deltas appended in arrival order, a stroke
/// dropped when it ends, when the board's copy arrives, or when nothing came for `timeout` seconds.
public struct LiveStrokes: Sendable {
    public static let timeout = 2.0
    private var strokes: [BoardStrokeID: (stroke: Stroke, seen: Double)] = [:]
    /// Live strokes get display ids far above any stored stroke's.
    private var nextID: StrokeID = 1 << 62

    public init() {}

    public var isEmpty: Bool { strokes.isEmpty }

    /// Applies a message received at `now` (seconds).
    public mutating func receive(_ m: LiveStroke, at now: Double) {
        if m.ended { strokes[m.id] = nil; return }
        var entry = strokes[m.id] ?? {
            defer { nextID += 1 }
            return (Stroke(id: nextID, style: m.style), now)
        }()
        guard entry.stroke.points.count + m.points.count <= LiveStroke.maxPoints * 10 else { return }
        for p in m.points { entry.stroke.append(p) }
        entry.seen = now
        strokes[m.id] = entry
    }

    public mutating func forget(_ id: BoardStrokeID) { strokes[id] = nil }

    /// Drops strokes silent for `timeout`; true if any went.
    public mutating func expire(at now: Double) -> Bool {
        let before = strokes.count
        strokes = strokes.filter { now - $0.value.seen < Self.timeout }
        return strokes.count != before
    }

    /// In the order they started.
    public var shown: [Stroke] { strokes.values.map(\.stroke).sorted { $0.id < $1.id } }
}
