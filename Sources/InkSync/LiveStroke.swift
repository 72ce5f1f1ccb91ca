import InkCore
import InkStore

/// A stroke still being drawn, sent outside the log on the board's core subject every ~30 ms: only the points
/// added since the last message, then one message when the pen lifts (or the stroke is cancelled). Nothing is
/// stored; a live stroke that stops arriving is dropped by the receivers after `LiveStrokes.timeout`.
///
/// The laser pointer's ink travels the same way (tool 2): its end means the pen lifted, and the receivers let it
/// fade as the sender's does (`LaserPointer`); it is never in the log, a document or a history.
///
/// Layout: "OL" version | flags (1 = ended) | varint client | varint number | version 2: varint page client,
/// varint page number | tool (0 pen, 1 highlighter, 2 laser) | RGBA (4 bytes) | width (float32) | varint count |
/// count × (x float32, y float32, pressure byte). Version 1 (no page) is still read: its ink shows on every page.
public struct LiveStroke: Hashable, Sendable {
    public var id: BoardStrokeID
    /// The board page the ink is on, so receivers show it only there (nil: the sender did not say).
    public var page: BoardPageID?
    public var style: StrokeStyle
    public var points: [InkPoint]
    public var ended: Bool

    public init(id: BoardStrokeID, page: BoardPageID? = nil, style: StrokeStyle, points: [InkPoint], ended: Bool) {
        self.id = id; self.page = page; self.style = style; self.points = points; self.ended = ended
    }

    public static let maxPoints = 10_000

    public func encoded() -> [UInt8] {
        var out = ByteWriter([0x4F, 0x4C, page == nil ? 1 : 2, ended ? 1 : 0])
        out.varint(id.client); out.varint(id.number)
        if let page { out.varint(page.client); out.varint(page.number) }
        out.append(style.tool == .highlighter ? 1 : style.tool == .laser ? 2 : 0)
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
        guard let head = try? [r.byte(), r.byte(), r.byte()], head == [0x4F, 0x4C, 1] || head == [0x4F, 0x4C, 2], let flags = try? r.byte(),
              let client = try? r.varint(), let number = try? r.varint() else { return nil }
        var page: BoardPageID?
        if head[2] == 2 {
            guard let c = try? r.varint(), let n = try? r.varint() else { return nil }
            page = BoardPageID(client: c, number: n)
        }
        guard let tool = try? r.byte(), tool <= 2, let c = try? [r.byte(), r.byte(), r.byte(), r.byte()],
              let width = try? f32(), width > 0, width <= 10_000, let n = try? r.varint(), n <= UInt64(Self.maxPoints), n * 9 <= UInt64(b.count)
        else { return nil }
        var points: [InkPoint] = []
        points.reserveCapacity(Int(n))
        for _ in 0..<n {
            guard let x = try? f32(), let y = try? f32(), let p = try? r.byte(), abs(x) < 1e9, abs(y) < 1e9 else { return nil }
            points.append(InkPoint(x: x, y: y, pressure: Double(p) / 255))
        }
        guard r.atEnd else { return nil }
        self.init(id: BoardStrokeID(client: client, number: number), page: page,
                  style: StrokeStyle(tool: [Tool.pen, .highlighter, .laser][Int(tool)], color: RGBA(r: c[0], g: c[1], b: c[2], a: c[3]), width: width),
                  points: points, ended: flags & 1 != 0)
    }
}

/// Other people's strokes in progress, as one replica sees them: deltas appended in arrival order, a stroke
/// dropped when it ends, when the board's copy arrives, or when nothing came for `timeout` seconds. Laser ink
/// stays after its end and fades as on the sender's screen (held `LaserPointer.hold`, gone at `lifetime`).
public struct LiveStrokes: Sendable {
    public static let timeout = 2.0
    private var strokes: [BoardStrokeID: (stroke: Stroke, seen: Double)] = [:]
    /// Laser ink by sender: the trail (lifted at, in ms of the receiver's clock) and when it was last heard of.
    private var lasers: [BoardStrokeID: (trail: LaserPointer.Trail, seen: Double)] = [:]
    /// Live strokes get display ids far above any stored stroke's.
    private var nextID: StrokeID = 1 << 62

    public init() {}

    public var isEmpty: Bool { strokes.isEmpty && lasers.isEmpty }

    /// The page of ink whose sender did not say (an older version): shown on whatever page the receiver is on.
    public static let anyPage: PageID = 0

    /// Applies a message received at `now` (seconds); `page` is the local page its board page is (nil: unknown
    /// here yet, or not said), which the ink's `page` carries (`anyPage` when nil).
    public mutating func receive(_ m: LiveStroke, at now: Double, page: PageID? = nil) {
        if m.style.tool == .laser { return receiveLaser(m, at: now, page: page) }
        if m.ended { strokes[m.id] = nil; return }
        var entry = strokes[m.id] ?? {
            defer { nextID += 1 }
            return (Stroke(id: nextID, style: m.style, page: page ?? Self.anyPage), now)
        }()
        guard entry.stroke.points.count + m.points.count <= LiveStroke.maxPoints * 10 else { return }
        for p in m.points { entry.stroke.append(p) }
        entry.seen = now
        strokes[m.id] = entry
    }

    /// Laser ink: points add up; an end starts the fade, more ink (the sender held it with a new stroke) stops it.
    private mutating func receiveLaser(_ m: LiveStroke, at now: Double, page: PageID?) {
        var entry = lasers[m.id] ?? {
            defer { nextID += 1 }
            return (LaserPointer.Trail(stroke: Stroke(id: nextID, style: m.style, page: page ?? Self.anyPage), liftedAt: nil), now)
        }()
        guard entry.trail.stroke.points.count + m.points.count <= LiveStroke.maxPoints * 10 else { return }
        for p in m.points { entry.trail.stroke.append(p) }
        entry.trail.liftedAt = m.ended ? now * 1000 : nil
        entry.seen = now
        lasers[m.id] = entry
    }

    public mutating func forget(_ id: BoardStrokeID) { strokes[id] = nil }

    /// Drops strokes silent for `timeout` and laser ink faded away; true if any went. Laser ink whose sender went
    /// silent without lifting fades from the last message heard.
    public mutating func expire(at now: Double) -> Bool {
        let before = strokes.count + lasers.count
        strokes = strokes.filter { now - $0.value.seen < Self.timeout }
        for (id, e) in lasers where e.trail.liftedAt == nil && now - e.seen >= Self.timeout { lasers[id]?.trail.liftedAt = e.seen * 1000 }
        lasers = lasers.filter { e in e.value.trail.liftedAt.map { now * 1000 - $0 < LaserPointer.lifetime } ?? true }
        return strokes.count + lasers.count != before
    }

    /// In the order they started.
    public var shown: [Stroke] { strokes.values.map(\.stroke).sorted { $0.id < $1.id } }
    /// Whether someone's ink (its `page`, from `receive`) shows on local page `page`.
    public static func isShown(_ ink: Stroke, on page: PageID) -> Bool { ink.page == page || ink.page == anyPage }
    /// Other people's laser ink, oldest first; `opacity(at:)` takes the receiver's clock in ms (`now` × 1000).
    public var laserTrails: [LaserPointer.Trail] { lasers.values.map(\.trail).sorted { $0.stroke.id < $1.stroke.id } }
    /// True while some laser ink is showing: the view redraws it as it fades.
    public var hasLaser: Bool { !lasers.isEmpty }
}

/// This user's strokes in progress as the board hears of them: each tick sends only the points added since the
/// last, and an end for strokes that are no longer drawn (the board's copy follows through the log). Laser ink
/// goes out the same way; its end is sent when the sender's trail lifts, and again if a new stroke holds it.
public struct LiveSender: Sendable {
    private var sent: [StrokeID: (points: Int, lifted: Bool)] = [:]

    public init() {}

    /// The messages for one tick: `strokes` being drawn (pen and highlighter only) and the laser's `trails`. Their
    /// `page` is left for the caller, which knows the board's name for it (the replica, on the save queue).
    public mutating func messages(client: UInt64, strokes: [Stroke], laser trails: [LaserPointer.Trail]) -> [LiveStroke] {
        var out: [LiveStroke] = []
        var still: [StrokeID: (points: Int, lifted: Bool)] = [:]
        func send(_ s: Stroke, lifted: Bool) {
            let before = sent[s.id]
            let done = min(before?.points ?? 0, s.points.count)
            still[s.id] = (s.points.count, lifted)
            if s.points.count > done || (before != nil && before!.lifted != lifted) || (before == nil && lifted) {
                out.append(LiveStroke(id: BoardStrokeID(client: client, number: s.id), style: s.style, points: Array(s.points[done...]), ended: lifted))
            }
        }
        for s in strokes where s.style.tool == .pen || s.style.tool == .highlighter { send(s, lifted: false) }
        for t in trails { send(t.stroke, lifted: t.liftedAt != nil) }
        for (id, _) in sent where still[id] == nil {
            // Faded laser ink needs no end: the receivers' fade has run out with the sender's.
            if let e = sent[id], e.lifted { continue }
            out.append(LiveStroke(id: BoardStrokeID(client: client, number: id), style: StrokeStyle(), points: [], ended: true))
        }
        sent = still
        return out
    }
}
