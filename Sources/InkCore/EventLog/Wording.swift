/// A message for a person, kept translatable: English text with `{0}`, `{1}`, … where its values go. The engine
/// links no gettext, so it words its errors this way and a layer that translates (the `oekaki` command) renders
/// them with `rendered(_:)`; `description` is the English. A value may itself be a wording (a phrase inside a
/// message), translated in turn. The texts are plain literals at the call sites (`Wording("…")`,
/// `LineError("…")`, `SelectionError("…")`), which `make pot` extracts.
public struct Wording: Hashable, Sendable, CustomStringConvertible {
    public indirect enum Value: Hashable, Sendable {
        /// Shown as it is: a number, a quoted name from the input.
        case verbatim(String)
        case wording(Wording)
    }

    public let text: String
    public let values: [Value]

    /// `values` that are wordings stay wordings; anything else is shown as its description.
    public init(_ text: String, _ values: CustomStringConvertible...) {
        self.init(text, values)
    }

    public init(_ text: String, _ values: [CustomStringConvertible]) {
        self.text = text
        self.values = values.map { ($0 as? Wording).map(Value.wording) ?? .verbatim($0.description) }
    }

    /// A message that is not to be translated (a value from elsewhere).
    public static func verbatim(_ s: String) -> Wording { Wording(whole, s) }
    /// Not a literal at the call, so `make pot` does not offer it for translation.
    private static let whole = "{0}"

    public var description: String { rendered { $0 } }

    /// The message with `translate` applied to this text and to every nested wording's, then the values filled in
    /// (in one pass, so a value that happens to contain `{1}` stays as it is).
    public func rendered(_ translate: (String) -> String) -> String {
        let filled = values.map { v -> String in
            switch v {
            case .verbatim(let s): return s
            case .wording(let w): return w.rendered(translate)
            }
        }
        var out = ""
        // gettext answers "" with its catalogue header.
        var rest = Substring(text.isEmpty ? "" : translate(text))
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let i = Int(after[..<close]), filled.indices.contains(i) {
                out += filled[i]
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}
