/// The event log's guide lines (see `LogEvent`): placing and removing the ruler, set square and compass.
///
///     {"type":"ruler","op":"place","x":X,"y":Y,"degrees":A}        {"type":"ruler","op":"remove"}
///     {"type":"setsquare","op":"place","x":X,"y":Y,"degrees":A,"size":S?}   {"type":"setsquare","op":"remove"}
///     {"type":"compass","op":"place","x":X,"y":Y,"radius":R}       {"type":"compass","op":"remove"}
///
/// A ruler's drawing edge is the line through (X, Y) at A degrees, counter-clockwise on screen. A set square's
/// long edge runs through its middle (X, Y) at A degrees, S long (16 cm = 453.5 units unless given), its right
/// angle below the long edge at 0°. A compass has its point at (X, Y) and draws at radius R. Placing a guide
/// again moves it. Coordinates are the current page's.
public enum GuideCommand: Hashable, Sendable {
    case placeRuler(Ruler)
    case removeRuler
    case placeSetSquare(SetSquare)
    case removeSetSquare
    case placeCompass(Compass)
    case removeCompass
}

extension EventLog {
    static func guide(_ type: String, _ f: Fields) throws -> GuideCommand {
        let op = try f.string("op")
        switch op {
        case "remove":
            switch type {
            case "ruler": return .removeRuler
            case "setsquare": return .removeSetSquare
            default: return .removeCompass
            }
        case "place":
            let at = Point(try f.coordinate("x"), try f.coordinate("y"))
            switch type {
            case "ruler":
                return .placeRuler(Ruler(origin: at, degrees: try f.number("degrees")))
            case "setsquare":
                let size = try f.optionalNumber("size") ?? SetSquare.standardSize
                try within(size, "size")
                return .placeSetSquare(SetSquare(centre: at, degrees: try f.number("degrees"), size: size))
            default:
                let r = try f.number("radius")
                try within(r, "radius")
                return .placeCompass(Compass(centre: at, radius: r))
            }
        default:
            throw LineError("unknown {0} op {1} (place or remove)", type, quoted(op))
        }
    }

    /// A length of a guide: more than 0, at most a page's largest side.
    private static func within(_ v: Double, _ key: String) throws {
        guard v > 0, v <= maxPageSide else {
            throw LineError("\"{0}\" {1} is outside 0..{2} (must be more than 0)", key, format(v), format(maxPageSide))
        }
    }
}

extension Editor {
    /// Places or removes a guide, as the app's guide menu does.
    public func apply(_ command: GuideCommand) {
        switch command {
        case .placeRuler(let r): guides.ruler = r
        case .removeRuler: guides.ruler = nil
        case .placeSetSquare(let s): guides.setSquare = s
        case .removeSetSquare: guides.setSquare = nil
        case .placeCompass(let c): guides.compass = c
        case .removeCompass: guides.compass = nil
        }
    }
}
