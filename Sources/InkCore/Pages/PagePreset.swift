/// Named page sizes for notebooks, in page units (1 unit = 1 pt in PDF).
public enum PagePreset: Hashable, Sendable, CaseIterable {
    case a4, a5, letter, widescreen

    public var size: Size {
        switch self {
        case .a4: return Size(width: 595.276, height: 841.89)
        case .a5: return Size(width: 419.528, height: 595.276)
        case .letter: return Size(width: 612, height: 792)
        // 16:9, the size of today's canvas: slides and screens.
        case .widescreen: return Size(width: 1920, height: 1080)
        }
    }

    /// The name users see and type (`a4`, `a5`, `letter`, `16:9`).
    public var name: String {
        switch self {
        case .a4: return "a4"
        case .a5: return "a5"
        case .letter: return "letter"
        case .widescreen: return "16:9"
        }
    }

    public init?(name: String) {
        guard let p = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = p
    }
}
