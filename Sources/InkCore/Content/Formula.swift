/// A LaTeX formula an image shows (Xournal++'s `<teximage>`): its source and the PDF LaTeX made of it. Kept so a
/// notebook's formulas go back to Xournal++ as formulas it can edit, drawn as they were made; the picture the
/// image holds is what Oekaki draws.
public struct Formula: Hashable, Sendable {
    /// The LaTeX source, as Xournal++ wrote it.
    public var source: String
    /// The PDF LaTeX made (Xournal++ 1.1 on), in `Document.files`; nil when the formula came as a picture.
    public var pdf: ContentHash?

    /// Most UTF-8 bytes of source kept (a formula is a line or a few; as much as a text box holds).
    public static let maxSourceBytes = TextBox.maxTextBytes

    public init(source: String, pdf: ContentHash? = nil) {
        self.source = source; self.pdf = pdf
    }

    public var problem: String? {
        if source.isEmpty { return "formula has no source" }
        return source.utf8.count > Self.maxSourceBytes ? "formula source of \(source.utf8.count) bytes is over the \(Self.maxSourceBytes)-byte limit" : nil
    }
}
