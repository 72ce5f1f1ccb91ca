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
        var out = ByteWriter([0x4F, 0x4C, 1, ended ? 1 : 0])
        out.varint(id.client); out.varint(id.number)
        out.append(style.tool == .highlighter ? 1 : 0)
        out.append(contentsOf: [style.color.r, style.color.g, style.color.b, style.color.a])
        out.littleEndian(Float(style.width).bitPattern)
        let pts = points.prefix(Self.maxPoints)
        out.varint(UInt64(pts.count))
        for p in pts {
            out.littleEndian(Float(p.x).bitPattern); out.littleEndian(Float(p.y).bitPattern)
            out.append(UInt8((min(max(p.pressure, 0), 1) * 255).rounded()))
        }
        return out.bytes
    }

    /// Nil for anything malformed: live strokes are cosmetic, a bad one is simply not shown.
    public init?(_ b: [UInt8]) {
        struct Malformed: Error {}
        var r = ByteReader(b, endsEarly: Malformed(), tooLarge: Malformed())
        func f32() throws -> Double? {
            let v = Double(Float(bitPattern: try r.littleEndian(UInt32.self)))
            return v.isFinite ? v : nil
        }
        guard let head = try? [r.byte(), r.byte(), r.byte()], head == [0x4F, 0x4C, 1], let flags = try? r.byte(),
              let client = try? r.varint(), let number = try? r.varint(),
              let tool = try? r.byte(), tool <= 1, let c = try? [r.byte(), r.byte(), r.byte(), r.byte()],
              let width = try? f32(), width > 0, width <= 10_000, let n = try? r.varint(), n <= UInt64(Self.maxPoints), n * 9 <= UInt64(b.count)
        else { return nil }
        var points: [InkPoint] = []
        points.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let x = try? f32(), let y = try? f32(), let p = try? r.byte(), abs(x) < 1e9, abs(y) < 1e9 else { return nil }
            points.append(InkPoint(x: x, y: y, pressure: Double(p) / 255))
        }
        guard r.atEnd else { return nil }
        self.init(id: BoardStrokeID(client: client, number: number),
                  style: StrokeStyle(tool: tool == 1 ? .highlighter : .pen, color: RGBA(r: c[0], g: c[1], b: c[2], a: c[3]), width: width),
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
