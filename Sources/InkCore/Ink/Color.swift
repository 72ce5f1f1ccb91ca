/// 8-bit straight (non-premultiplied) RGBA, the precision of every file format we read or write.
public struct RGBA: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    public static let black = RGBA(r: 0, g: 0, b: 0)
    public static let white = RGBA(r: 255, g: 255, b: 255)
    /// The highlighter's default: a yellow marker at about 40 % opacity.
    public static let highlighterYellow = RGBA(r: 255, g: 230, b: 0, a: 102)
    /// The laser pointer's glow.
    public static let laserRed = RGBA(r: 255, g: 40, b: 40, a: 255)

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive); nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s = s.dropFirst()
        guard s.count == 6 || s.count == 8, s.allSatisfy(\.isHexDigit) else { return nil }
        guard let v = UInt32(s, radix: 16) else { return nil }
        if s.count == 6 {
            self.init(r: UInt8(v >> 16 & 0xff), g: UInt8(v >> 8 & 0xff), b: UInt8(v & 0xff), a: 255)
        } else {
            self.init(r: UInt8(v >> 24), g: UInt8(v >> 16 & 0xff), b: UInt8(v >> 8 & 0xff), a: UInt8(v & 0xff))
        }
    }

    /// `#rrggbbaa`, lower case.
    public var hex: String {
        func h(_ v: UInt8) -> String { let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }
        return "#" + h(r) + h(g) + h(b) + h(a)
    }

    /// Components as 0…1 doubles, for cairo.
    public var unit: (r: Double, g: Double, b: Double, a: Double) {
        (Double(r) / 255, Double(g) / 255, Double(b) / 255, Double(a) / 255)
    }
}
