import CCairo
import InkCore

public enum ExportFormat: String, CaseIterable, Sendable {
    case png, svg, pdf
    /// The format named by a path's extension, case-insensitive.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

public struct ExportOptions: Sendable {
    /// Pixels per page unit (PNG only).
    public var scale: Double = 1
    /// No background fill (PNG only).
    public var transparent = false
    public init(scale: Double = 1, transparent: Bool = false) { self.scale = scale; self.transparent = transparent }
}

public enum RenderError: Error, CustomStringConvertible {
    case pageTooLarge(String)
    case cannotWrite(path: String, reason: String)
    public var description: String {
        switch self {
        case .pageTooLarge(let m): return m
        case .cannotWrite(let p, let r): return "cannot write \(p): \(r)"
        }
    }
}

/// Writes a drawing as PNG, SVG or PDF.
public enum Exporter {
    public static func write(_ drawing: Drawing, to path: String, format: ExportFormat, options: ExportOptions = ExportOptions()) throws {
        throw RenderError.cannotWrite(path: path, reason: "export is not implemented yet")
    }
}
