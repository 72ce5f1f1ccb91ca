/// A line's dash pattern, as Xournal++ keeps it: on and off lengths in page units, starting with a dash, repeated
/// along the line from its first point (empty: solid). Xournal++ hands the pattern to cairo as it is, so the lengths
/// do not grow with the line's width, and a round or square cap adds half the width to both ends of every dash
/// (`dot`'s half-unit dashes become round dots as wide as the line).
public struct LineStyle: Hashable, Sendable {
    public private(set) var dashes: [Double]

    public static let solid = LineStyle(uncheckedDashes: [])
    /// Xournal++'s three named patterns (`src/core/model/StrokeStyle.cpp`).
    public static let dash = LineStyle(uncheckedDashes: [6, 3])
    public static let dashDot = LineStyle(uncheckedDashes: [6, 3, 0.5, 3])
    public static let dot = LineStyle(uncheckedDashes: [0.5, 3])
    public static let named: [(name: String, style: LineStyle)] = [("dash", .dash), ("dashdot", .dashDot), ("dot", .dot)]

    /// Most lengths a custom pattern may have, and the longest length (page units).
    public static let maxDashes = 32
    public static let maxLength = 10_000.0

    private init(uncheckedDashes: [Double]) { dashes = uncheckedDashes }

    /// A pattern of on/off lengths, or nil when cairo would refuse it (a length negative, not finite or over
    /// `maxLength`, all lengths 0, more than `maxDashes`). An empty list is solid.
    public init?(dashes: [Double]) {
        guard dashes.count <= Self.maxDashes,
              dashes.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= Self.maxLength }),
              dashes.isEmpty || dashes.contains(where: { $0 > 0 }) else { return nil }
        self.dashes = dashes
    }

    public var isSolid: Bool { dashes.isEmpty }

    /// Xournal++'s `style` attribute: `dash`, `dashdot`, `dot`, or `cust: ` and the lengths; `plain` and `solid`
    /// (what Xournal++ would write for no pattern) are solid. Nil for anything else.
    public init?(name: String) {
        if name == "plain" || name == "solid" || name.isEmpty { self = .solid; return }
        if let n = Self.named.first(where: { $0.name == name }) { self = n.style; return }
        guard name.hasPrefix("cust:") else { return nil }
        var values: [Double] = []
        for word in name.dropFirst(5).split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard let v = Double(word) else { return nil }
            values.append(v)
        }
        guard !values.isEmpty else { return nil }
        self.init(dashes: values)
    }

    /// The `style` attribute Xournal++ writes (nil for solid: it writes none): a named pattern by its name, any other
    /// as `cust: ` and the lengths with two decimals.
    public var name: String? {
        if isSolid { return nil }
        if let n = Self.named.first(where: { $0.style == self }) { return n.name }
        return "cust: " + dashes.map(Self.twoDecimals).joined(separator: " ")
    }

    static func twoDecimals(_ v: Double) -> String {
        let hundredths = Int64((v * 100).rounded())
        let frac = hundredths % 100
        return "\(hundredths / 100)." + (frac < 10 ? "0\(frac)" : "\(frac)")
    }
}

/// How a line's ends (and every dash's) are drawn, as Xournal++'s `capStyle`.
public enum CapStyle: String, Hashable, Sendable, CaseIterable {
    /// Half a circle as wide as the line.
    case round
    /// Cut square at the point.
    case butt
    /// Cut square half the line's width beyond the point.
    case square
}
