/// The event log's pen lines (see `LogEvent`):
///
///     {"type":"proximity","phase":"in|out","device":"pen","t":MS}
///     {"type":"tool","tool":"pen","pressureCurve":"soft|linear|firm|constant"}
///     {"type":"tool","tool":"pen","pressureCurve":[[0,0],[0.4,0.2],[1,1]]}
///     {"type":"tool","tool":"pen","stabilizer":"off|low|high"}
///
/// `proximity` says the pen came near the screen or left it; from a log's first `proximity` line, or first touch
/// line naming `"device":"touch"`, its touches (`"device":"touch"`, the default) are judged by palm rejection on the
/// `t` clock (`PalmRejection`; a pen without proximity lines is near while it moves): a refused touch makes no item. `device` may be left out; only the pen has proximity. A curve's points are [pressure in,
/// pressure out] pairs in 0…1, pressure in strictly increasing, pressure out never decreasing (2 to 16 points).
extension EventLog {
    static func proximity(_ f: Fields) throws -> LogEvent {
        let phase = try f.string("phase")
        guard phase == "in" || phase == "out" else { throw LineError("unknown proximity phase {0} (in or out)", quoted(phase)) }
        if let d = try f.optionalString("device"), d != "pen" {
            throw LineError("proximity is the pen's, not {0} (\"device\" must be \"pen\")", quoted(d))
        }
        return .proximity(near: phase == "in", time: try f.optionalNumber("t") ?? 0)
    }

    static func pressureCurve(_ f: Fields) throws -> PressureCurve? {
        guard let v = f.raw("pressureCurve"), v != .null else { return nil }
        switch v {
        case .string(let name):
            guard let preset = PressureCurve.Preset(rawValue: name) else {
                throw LineError("unknown pressure curve {0} (soft, linear, firm, constant, or [[x,y],…] points)", quoted(name))
            }
            return PressureCurve(preset)
        case .array(let items):
            var points: [Point] = []
            for (k, item) in items.enumerated() {
                guard case .array(let pair) = item, pair.count == 2,
                      case .number(let x, _) = pair[0], case .number(let y, _) = pair[1] else {
                    throw LineError("pressure curve point {0} is not a pair of numbers [x,y]", k + 1)
                }
                points.append(Point(x, y))
            }
            do {
                return try PressureCurve(points: points)
            } catch let e as PressureCurveError {
                throw LineError(e.wording)
            }
        default:
            throw LineError("\"{0}\" must be a string or an array, not {1}", "pressureCurve", v.kind)
        }
    }

    static func stabilizer(_ f: Fields) throws -> Stabilizer.Level? {
        guard let name = try f.optionalString("stabilizer") else { return nil }
        guard let level = Stabilizer.Level(rawValue: name) else {
            throw LineError("unknown stabilizer {0} (off, low or high)", quoted(name))
        }
        return level
    }
}
