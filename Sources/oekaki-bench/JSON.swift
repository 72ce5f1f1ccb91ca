import InkCore
import Foundation

/// A JSON value that keeps its keys in the order they were added (the report reads top-down).
indirect enum JSON {
    case number(Double?)
    case integer(Int)
    case string(String)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    func text(indent: String = "") -> String {
        switch self {
        case .number(let v):
            guard let v, v.isFinite else { return "null" }
            // Three significant decimals are plenty for timings; whole numbers print without ".0".
            if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
            return String(format: "%.3f", v).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        case .integer(let i): return String(i)
        case .string(let s): return Self.quote(s)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            guard !items.isEmpty else { return "[]" }
            return "[" + items.map { $0.text(indent: indent) }.joined(separator: ", ") + "]"
        case .object(let pairs):
            guard !pairs.isEmpty else { return "{}" }
            let inner = indent + "  "
            return "{\n" + pairs.map { "\(inner)\(Self.quote($0.0)): \($0.1.text(indent: inner))" }.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    static func quote(_ s: String) -> String { JSONText.string(s) }
}
