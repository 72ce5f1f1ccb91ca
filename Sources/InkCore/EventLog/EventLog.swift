/// The event log: JSON Lines that drive an `Editor` headlessly, one event per line.
///
///     {"type":"touch","phase":"began|moved|ended|cancelled","id":INT,"x":NUM,"y":NUM,
///      "pressure":0..1?,"device":"touch|pen|mouse"?,"t":MS?}
///     {"type":"tool","tool":"pen|highlighter|stroke-eraser|area-eraser|line|arrow|rectangle|ellipse|lasso|select-rect|text|laser",
///      "color":"#RRGGBB[AA]"?,"width":NUM?,"recognize":BOOL?,"fill":-1..255?,"style":"solid|dash|dashdot|dot|cust: L…"?,
///      "pressureCurve":"soft|linear|firm|constant"|[[X,Y],…]?,"stabilizer":"off|low|high"?}
///     {"type":"proximity","phase":"in|out","device":"pen"?,"t":MS?}   (see `PenEvents.swift`)
///     {"type":"undo"}  {"type":"redo"}  {"type":"clear"}  {"type":"canvas","width":NUM,"height":NUM}
///     {"type":"selection","op":"translate|scale|rotate|delete|duplicate|style|front|back|copy|cut|paste|all|none",…}
///      (`style` takes "color", "width", "fill" and "style" as the tool line does; fill and style restyle ink only)
///     {"type":"page","op":"add|delete|next|prev|goto","index":K?,"width":NUM?,"height":NUM?,
///      "background":"plain|ruled|lined|graph|dotted"?}
///     {"type":"ruler|setsquare|compass","op":"place|remove",…}   (see `GuideCommand`)
///     {"type":"layer","op":"add","name":"…"?,"allPages":BOOL?}  {"type":"layer","op":"select","index":K}
///     {"type":"layer","op":"hide|show|delete|up|down","index":K|"name":"…"}  {"type":"layer","op":"rename","index":K,"name":"…"}
///     {"type":"layer","op":"move","index":K}   (the selection to this page's layer K)
///
/// Rules, chosen to catch broken logs rather than guess:
/// - Unknown keys are ignored; a repeated key is an error. `null` for an optional key means "absent".
/// - `device` defaults to touch. A touch has real pressure exactly when `pressure` is given; otherwise it is
///   simulated from speed (using `t` when present). `pressure` outside 0…1 is an error, not clamped.
/// - `id` must be an integer; `x`, `y`, `t`, `width`, `height` finite numbers; coordinates within ±1e15.
/// - `width` of a tool: 0 < width ≤ 1e6 page units (the eraser's diameter for the erasers).
/// - A highlighter colour given as `#RRGGBB` keeps the highlighter's translucency (alpha 0x66);
///   `#RRGGBBAA` sets alpha explicitly. Pen colours without alpha are opaque.
/// - `fill` (Xournal++'s: the area inside the stroke filled at that alpha, -1 for none) and `style` (Xournal++'s dash
///   patterns, or `cust: ` and on/off lengths in page units) set the pen's (for the pen and shape tools) or the
///   highlighter's; other tools have neither. They stay as set until changed.
/// - `recognize` turns "always recognize shapes" on or off (it stays as set until changed). Shape tools draw in
///   the pen's style; their `color` and `width` set the pen's. A hold is the last sample repeated at (almost)
///   the same place at least 500 ms (`t`) later, before `ended`.
/// - Selection ops: `translate` dx, dy; `scale` sx, sy (not 0), about x, y, keepWidths?; `rotate` degrees
///   (counter-clockwise on screen) about x, y; `duplicate` dx?, dy? (20, 20); `style` color?, width?; `paste` x?, y?
///   (the centre of the pasted ink goes there; default the copied place + (20, 20)). An op with no selection does
///   nothing; one that would move ink beyond ±1e9 is refused with the line's number.
/// - Touches go to the current page; the first `canvas` sizes page 1 (a log without one draws on an endless page).
///   `page` `add` puts a page after the current one (its size and background unless given; `width` with `height`)
///   and makes it current; `delete` deletes the current page (or page `index`); `next`, `prev` and `goto` (to
///   `index`, 1-based, required) change the current page and stop at either end.
/// - While a guide is placed, a pen or highlighter stroke whose first sample lies within 20 units of its edge or
///   circle is drawn exactly along it (`Editor+Teaching.swift`). Laser touches draw no item and leave undo alone.
/// - Layers are numbered from 1 at the bottom of the current page. `add` puts a layer above the current one and
///   makes it current (`allPages`: a notebook layer, above the current layer of every page and on pages added
///   later); `select` makes layer `index` current; the others act on the current page's layer `index`, or with
///   `name` on every page's layers of that name (exactly one of the two). Deleting a page's only layer leaves one
///   empty layer. A layer that is not there is an error with the line's number.
/// - Blank lines are skipped. Lines longer than `EventLog.maxLineBytes` are an error.
public enum LogEvent: Hashable, Sendable {
    case touch(InputEvent)
    /// `fill`: -1 takes the fill away, 0…255 fills at that alpha; nil leaves it as it is (as for every member).
    /// `pressureCurve` and `stabilizer` are the pen's feel (whatever the tool line names); nil leaves them as set.
    case tool(Tool, color: RGBA?, width: Double?, recognize: Bool? = nil, fill: Int? = nil, line: LineStyle? = nil,
              pressureCurve: PressureCurve? = nil, stabilizer: Stabilizer.Level? = nil)
    /// The pen came near the screen (`near`) or left it, at `time` (ms, the touches' clock).
    case proximity(near: Bool, time: Double)
    case undo
    case redo
    case clear
    case canvas(Size)
    case selection(SelectionOp)
    case page(PageCommand)
    case guide(GuideCommand)
    case layer(LayerCommand)
}

/// A layer operation of an event log (see `LogEvent`). Layers are numbered from 1 at the bottom, as the layers
/// list shows them from its bottom.
public enum LayerCommand: Hashable, Sendable {
    case add(name: String?, allPages: Bool)
    case select(index: Int)
    case hide(LayerRef)
    case show(LayerRef)
    case delete(LayerRef)
    case up(LayerRef)
    case down(LayerRef)
    case rename(index: Int, name: String)
    /// The selected items to layer `index` of the current page, which becomes current.
    case move(index: Int)
}

/// Layer `index` (1-based) of the current page, or the layers of a name on every page.
public enum LayerRef: Hashable, Sendable {
    case index(Int)
    case name(String)

    /// The editor's target (0-based places).
    public var target: LayerTarget {
        switch self {
        case .index(let k): return .index(k - 1)
        case .name(let n): return .name(n)
        }
    }
}

/// A page operation of an event log (see `LogEvent`). Pages are numbered from 1, as users count them.
public enum PageCommand: Hashable, Sendable {
    case add(size: Size?, background: Background.Style?)
    case delete(index: Int?)
    case next
    case previous
    case goTo(index: Int)
}

/// A bad log line: where and why. `description` is `line N: message`; `message(file:)` is `FILE:N: message`.
/// Two errors are equal when they say the same (in English) about the same line.
public struct EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    /// Why, translatable (see `Wording`).
    public var wording: Wording
    /// Why, in English.
    public var message: String { wording.description }
    public init(line: Int, wording: Wording) { self.line = line; self.wording = wording }
    public init(line: Int, message: String) { self.init(line: line, wording: .verbatim(message)) }
    public var description: String { "line \(line): \(message)" }
    public func message(file: String) -> String { "\(file):\(line): \(message)" }
    public static func == (a: EventLogError, b: EventLogError) -> Bool { a.line == b.line && a.message == b.message }
    public func hash(into h: inout Hasher) { h.combine(line); h.combine(message) }
}

public enum EventLog {
    /// Longest accepted line; longer ones are refused before they are buffered whole.
    public static let maxLineBytes = 1 << 20
    /// Largest accepted coordinate magnitude.
    public static let maxCoordinate = 1e15
    public static let maxToolWidth = 1e6
    public static let maxPageSide = 1e9

    /// Parses one line (without its newline). Nil for a blank line. Errors carry only the message;
    /// `EventLogReplay` adds the line number.
    public static func event(fromLine bytes: [UInt8]) throws -> LogEvent? {
        try event(bytes, 0..<bytes.count)
    }

    public static func event(fromLine text: String) throws -> LogEvent? {
        try event(fromLine: Array(text.utf8))
    }

    static func event(_ bytes: [UInt8], _ range: Range<Int>) throws -> LogEvent? {
        let members: [(key: String, value: JSONObjectReader.Value)]
        do {
            guard let m = try JSONObjectReader.members(of: bytes, in: range) else { return nil }
            members = m
        } catch let f as JSONObjectReader.Failure {
            throw LineError(f.wording)
        }
        let fields = Fields(members: members)
        let type = try fields.string("type")
        switch type {
        case "touch":
            let phaseName = try fields.string("phase")
            guard let phase = InputEvent.Phase(rawValue: phaseName) else { throw LineError("unknown phase {0}", quoted(phaseName)) }
            let id = try fields.integer("id")
            let x = try fields.coordinate("x"), y = try fields.coordinate("y")
            var device = InputEvent.Device.touch
            if let d = try fields.optionalString("device") {
                guard let dev = InputEvent.Device(rawValue: d) else { throw LineError("unknown device {0}", quoted(d)) }
                device = dev
            }
            let pressure = try fields.optionalNumber("pressure")
            if let p = pressure, !(0...1).contains(p) { throw LineError("\"pressure\" {0} is outside 0..1", format(p)) }
            let t = try fields.optionalNumber("t") ?? 0
            let point = InkPoint(x: x, y: y, pressure: pressure ?? 0.5, time: t)
            return .touch(InputEvent(pointer: id, phase: phase, point: point, device: device, hasPressure: pressure != nil))
        case "tool":
            let name = try fields.string("tool")
            guard let tool = Tool(rawValue: name) else { throw LineError("unknown tool {0}", quoted(name)) }
            var color: RGBA?
            if let hex = try fields.optionalString("color") {
                guard var c = RGBA(hex: hex) else {
                    throw LineError("bad colour {0} (expected #RRGGBB or #RRGGBBAA)", quoted(hex))
                }
                if tool == .highlighter && hex.utf8.count == 7 { c.a = RGBA.highlighterYellow.a }
                color = c
            }
            let width = try fields.optionalNumber("width")
            if let w = width, !(w > 0 && w <= maxToolWidth) {
                throw LineError("\"{0}\" {1} is outside 0..{2} (must be more than 0)", "width", format(w), format(maxToolWidth))
            }
            let (fill, line) = try fillAndLine(fields)
            if fill != nil || line != nil, !(tool == .pen || tool == .highlighter || tool.isShape) {
                throw LineError("\"fill\" and \"style\" are for the pen, highlighter and shape tools, not {0}", quoted(name))
            }
            return .tool(tool, color: color, width: width, recognize: try fields.optionalBool("recognize"), fill: fill, line: line,
                         pressureCurve: try pressureCurve(fields), stabilizer: try stabilizer(fields))
        case "selection": return .selection(try selectionOp(fields))
        case "undo": return .undo
        case "redo": return .redo
        case "clear": return .clear
        case "canvas":
            let w = try fields.number("width"), h = try fields.number("height")
            for (k, v) in [("width", w), ("height", h)] where !(v > 0 && v <= maxPageSide) {
                throw LineError("\"{0}\" {1} is outside 0..{2} (must be more than 0)", k, format(v), format(maxPageSide))
            }
            return .canvas(Size(width: w, height: h))
        case "page":
            func index(required: Bool) throws -> Int? {
                guard required || (fields.raw("index").map { $0 != .null } ?? false) else { return nil }
                let k = try fields.integer("index")
                guard k >= 1, k <= 1_000_000 else { throw LineError("\"index\" {0} is not a page number (1 or more)", k) }
                return Int(k)
            }
            let op = try fields.string("op")
            switch op {
            case "add":
                let w = try fields.optionalNumber("width"), h = try fields.optionalNumber("height")
                guard (w == nil) == (h == nil) else { throw LineError("a page needs both \"width\" and \"height\", or neither") }
                for (k, v) in [("width", w), ("height", h)] {
                    if let v, !(v > 0 && v <= maxPageSide) {
                        throw LineError("\"{0}\" {1} is outside 0..{2} (must be more than 0)", k, format(v), format(maxPageSide))
                    }
                }
                var style: Background.Style?
                if let b = try fields.optionalString("background") {
                    guard let s = Background.Style(rawValue: b) else {
                        throw LineError("unknown background {0} (plain, ruled, lined, graph or dotted)", quoted(b))
                    }
                    style = s
                }
                return .page(.add(size: w.flatMap { w in h.map { Size(width: w, height: $0) } }, background: style))
            case "delete": return .page(.delete(index: try index(required: false)))
            case "next": return .page(.next)
            case "prev": return .page(.previous)
            case "goto": return .page(.goTo(index: try index(required: true)!))
            default: throw LineError("unknown page op {0} (add, delete, next, prev or goto)", quoted(op))
            }
        case "ruler", "setsquare", "compass":
            return .guide(try guide(type, fields))
        case "layer": return .layer(try layerCommand(fields))
        case "proximity": return try proximity(fields)
        default:
            throw LineError("unknown type {0}", quoted(type))
        }
    }

    /// The `op` of a `layer` line and its members.
    private static func layerCommand(_ f: Fields) throws -> LayerCommand {
        func index() throws -> Int {
            let k = try f.integer("index")
            guard k >= 1, k <= 1_000_000 else { throw LineError("\"index\" {0} is not a layer number (1 or more, from the bottom)", k) }
            return Int(k)
        }
        func name() throws -> String {
            let n = try f.string("name")
            guard Editor.layerName(n) != nil else { throw LineError("\"name\" is empty") }
            return n
        }
        func ref() throws -> LayerRef {
            let hasIndex = f.raw("index").map { $0 != .null } ?? false, hasName = f.raw("name").map { $0 != .null } ?? false
            if hasIndex && hasName { throw LineError("give \"index\" or \"name\", not both") }
            if hasName { return .name(try name()) }
            guard hasIndex else { throw LineError("missing \"index\" or \"name\"") }
            return .index(try index())
        }
        let op = try f.string("op")
        switch op {
        case "add":
            let n = try f.optionalString("name")
            if let n, Editor.layerName(n) == nil { throw LineError("\"name\" is empty") }
            return .add(name: n, allPages: try f.optionalBool("allPages") ?? false)
        case "select": return .select(index: try index())
        case "hide": return .hide(try ref())
        case "show": return .show(try ref())
        case "delete": return .delete(try ref())
        case "up": return .up(try ref())
        case "down": return .down(try ref())
        case "rename": return .rename(index: try index(), name: try name())
        case "move": return .move(index: try index())
        default:
            throw LineError("unknown layer op {0} (add, select, hide, show, delete, up, down, rename or move)", quoted(op))
        }
    }

    /// The `op` of a `selection` line and its members. Scales of 0 and non-finite numbers are refused here, so a
    /// bad log stops at the line that says so.
    /// `fill` (-1 none, 0…255) and `style` (a line style's name), as the tool line and the selection's `style` take them.
    private static func fillAndLine(_ fields: Fields) throws -> (fill: Int?, line: LineStyle?) {
        var fill: Int?
        if let f = try fields.optionalNumber("fill") {
            guard f == f.rounded(), f >= -1, f <= 255 else {
                throw LineError("\"fill\" {0} is not an alpha of 0..255 (or -1 for none)", format(f))
            }
            fill = Int(f)
        }
        var line: LineStyle?
        if let name = try fields.optionalString("style") {
            guard let l = LineStyle(name: name) else {
                throw LineError("unknown line style {0} (solid, dash, dashdot, dot, or \"cust: \" and up to {1} lengths of 0..{2}, not all 0)",
                                quoted(name), LineStyle.maxDashes, format(LineStyle.maxLength))
            }
            line = l
        }
        return (fill, line)
    }

    private static func selectionOp(_ f: Fields) throws -> SelectionOp {
        let op = try f.string("op")
        func point() throws -> Point { Point(try f.coordinate("x"), try f.coordinate("y")) }
        switch op {
        case "translate": return .translate(dx: try f.coordinate("dx"), dy: try f.coordinate("dy"))
        case "scale":
            let sx = try f.number("sx"), sy = try f.number("sy")
            for (k, v) in [("sx", sx), ("sy", sy)] where v == 0 { throw LineError("\"{0}\" is 0 (a scale must not flatten the selection)", k) }
            return .scale(sx: sx, sy: sy, about: try point(), keepWidths: try f.optionalBool("keepWidths"))
        case "rotate": return .rotate(degrees: try f.number("degrees"), about: try point())
        case "delete": return .delete
        case "duplicate":
            return .duplicate(dx: try f.optionalNumber("dx") ?? Editor.pasteOffset, dy: try f.optionalNumber("dy") ?? Editor.pasteOffset)
        case "style":
            var color: RGBA?
            var keepsAlpha = false
            if let hex = try f.optionalString("color") {
                guard let c = RGBA(hex: hex) else { throw LineError("bad colour {0} (expected #RRGGBB or #RRGGBBAA)", quoted(hex)) }
                color = c; keepsAlpha = hex.utf8.count == 7
            }
            let width = try f.optionalNumber("width")
            if let w = width, !(w > 0 && w <= maxToolWidth) {
                throw LineError("\"{0}\" {1} is outside 0..{2} (must be more than 0)", "width", format(w), format(maxToolWidth))
            }
            let (fill, line) = try fillAndLine(f)
            return .style(color: color, keepsAlpha: keepsAlpha, width: width, fill: fill, line: line)
        case "front": return .front
        case "back": return .back
        case "copy": return .copy
        case "cut": return .cut
        case "paste":
            let x = try f.optionalNumber("x"), y = try f.optionalNumber("y")
            guard (x == nil) == (y == nil) else { throw LineError("paste needs both \"x\" and \"y\", or neither") }
            if x != nil { return .paste(at: try point()) }
            return .paste(at: nil)
        case "all": return .all
        case "none": return .none
        default:
            throw LineError("unknown selection op {0} (expected translate, scale, rotate, delete, duplicate, style, front, back, copy, cut, paste, all or none)", quoted(op))
        }
    }

    /// A value shown in a message: quoted, escaped, and cut short so the message stays one readable line.
    static func quoted(_ s: String) -> String {
        var out = "\""
        var n = 0
        for ch in s.unicodeScalars {
            n += 1
            if n > 40 { out += "…"; break }
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where ch.value < 0x20 || ch.value == 0x7F:
                let h = String(ch.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    static func format(_ v: Double) -> String { JSONText.number(v) }

    /// A bad line's message, without the line's number (the replay adds it).
    struct LineError: Error {
        var wording: Wording
        var message: String { wording.description }
        init(_ w: Wording) { wording = w }
        init(_ text: String, _ values: CustomStringConvertible...) { wording = Wording(text, values) }
    }

    /// Typed access to an object's members with messages that name the key.
    struct Fields {
        var members: [(key: String, value: JSONObjectReader.Value)]

        func raw(_ key: String) -> JSONObjectReader.Value? {
            for m in members where m.key == key { return m.value }
            return nil
        }
        func string(_ key: String) throws -> String {
            guard let v = raw(key), v != .null else { throw LineError("missing \"{0}\"", key) }
            guard case .string(let s) = v else { throw LineError("\"{0}\" must be a string, not {1}", key, v.kind) }
            return s
        }
        func optionalString(_ key: String) throws -> String? {
            guard let v = raw(key), v != .null else { return nil }
            guard case .string(let s) = v else { throw LineError("\"{0}\" must be a string, not {1}", key, v.kind) }
            return s
        }
        func optionalBool(_ key: String) throws -> Bool? {
            guard let v = raw(key), v != .null else { return nil }
            guard case .bool(let b) = v else { throw LineError("\"{0}\" must be true or false, not {1}", key, v.kind) }
            return b
        }
        func optionalNumber(_ key: String) throws -> Double? {
            guard let v = raw(key), v != .null else { return nil }
            guard case .number(let d, _) = v else { throw LineError("\"{0}\" must be a number, not {1}", key, v.kind) }
            guard d.isFinite else { throw LineError("\"{0}\" is not a finite number", key) }
            return d
        }
        func number(_ key: String) throws -> Double {
            guard let d = try optionalNumber(key) else { throw LineError("missing \"{0}\"", key) }
            return d
        }
        func coordinate(_ key: String) throws -> Double {
            let d = try number(key)
            guard abs(d) <= EventLog.maxCoordinate else {
                throw LineError("\"{0}\" {1} is too large (limit ±{2})", key, EventLog.format(d), EventLog.format(EventLog.maxCoordinate))
            }
            return d
        }
        func integer(_ key: String) throws -> Int64 {
            guard let v = raw(key), v != .null else { throw LineError("missing \"{0}\"", key) }
            guard case .number(let d, let i) = v else { throw LineError("\"{0}\" must be an integer, not {1}", key, v.kind) }
            guard d.isFinite else { throw LineError("\"{0}\" is not a finite number", key) }
            guard let n = i else { throw LineError("\"{0}\" must be an integer, not {1}", key, EventLog.format(d)) }
            return n
        }
    }
}

