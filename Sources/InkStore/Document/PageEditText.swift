import InkCore

/// What a page edit did to pages, as the short text stored in `history.pages` (format 5). Stroke ids stay in the
/// `strokes` blob (`EditStrokes`); this holds the rest:
///
///     add or delete page:  "ID AT FORMAT"            e.g. "3 2 595.276 841.89 ruled #ffffffff #40a0ffff 24"
///     move page:           "FROM TO"
///     set format:          "ID FORMAT FORMAT;…"      (before, after; one group per page)
///
/// A FORMAT is "WIDTH HEIGHT STYLE PAPER LINE SPACING MARGIN PDF PICTURE", with "- -" for the size of an endless page
/// (format 5 files have no MARGIN: it is 0; before format 9 there is no PDF, before 14 no PICTURE), PDF "-" or
/// "HASH:PAGE" (`ContentCodec.pdf`) and PICTURE "-" or the picture's hash. Numbers are in Swift's shortest round-trip form, so a format reads back exactly.
enum PageEditText {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func encode(_ e: Edit) -> String? {
        switch e {
        case .add, .remove, .replace, .clear, .transform, .layers: return nil
        case .addPage(let p, let at), .deletePage(let p, let at): return "\(p.id) \(at) \(format(p.format))"
        case .movePage(let from, let to): return "\(from) \(to)"
        case .setFormat(let changes): return changes.map { "\($0.page) \(format($0.from)) \(format($0.to))" }.joined(separator: ";")
        }
    }

    static func format(_ f: PageFormat) -> String {
        let size = f.size.map { "\(number($0.width)) \(number($0.height))" } ?? "- -"
        let b = f.background
        return "\(size) \(b.style.rawValue) \(b.paper.hex) \(b.line.hex) \(number(b.spacing)) \(number(b.margin)) \(b.pdf.map(ContentCodec.pdfText) ?? "-") \(b.picture?.hex ?? "-")"
    }

    private static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)" }

    /// One FORMAT alone (a shared board's page format, `board_pages.format`).
    static func readFormat(_ text: String) throws -> PageFormat {
        try format(try tokens(text, counts: [9, 8])[...])
    }

    /// A page added or deleted: its id, place and format.
    static func page(_ text: String) throws -> (id: PageID, at: Int, format: PageFormat) {
        let t = try tokens(text, counts: [11, 10, 9, 8])
        return (try id(t[0]), try place(t[1]), try format(t[2...]))
    }

    static func move(_ text: String) throws -> (from: Int, to: Int) {
        let t = try tokens(text, counts: [2])
        return (try place(t[0]), try place(t[1]))
    }

    static func formats(_ text: String) throws -> [(page: PageID, from: PageFormat, to: PageFormat)] {
        // Each group is under 500 characters; this bounds the work before anything is split.
        guard text.utf8.count <= Schema.maxPages * 500 else { throw Failure(description: "page formats are \(text.utf8.count) bytes long") }
        return try text.split(separator: ";", omittingEmptySubsequences: false).map { group in
            let t = try tokens(String(group), counts: [19, 17, 15, 13])
            let n = (t.count - 1) / 2
            return (try id(t[0]), try format(t[1...n]), try format(t[(n + 1)...]))
        }
    }

    /// The fields of `text`, whose count must be one of `counts` (the first is the current form).
    private static func tokens(_ text: String, counts: [Int]) throws -> [Substring] {
        guard text.utf8.count <= 40 * counts[0] else { throw Failure(description: "page edit text is too long") }
        let t = text.split(separator: " ", omittingEmptySubsequences: false)
        guard counts.contains(t.count) else { throw Failure(description: "page edit '\(text.prefix(80))' has \(t.count) fields, not \(counts[0])") }
        return t
    }

    private static func id(_ s: Substring) throws -> PageID {
        guard let v = Int64(s), v > 0 else { throw Failure(description: "page id '\(s.prefix(20))' is not a positive number") }
        return PageID(v)
    }

    private static func place(_ s: Substring) throws -> Int {
        guard let v = Int(s), v >= 0, v < Schema.maxPages else { throw Failure(description: "page place '\(s.prefix(20))' is outside 0…\(Schema.maxPages - 1)") }
        return v
    }

    private static func format(_ t: ArraySlice<Substring>) throws -> PageFormat {
        let t = Array(t)
        let size: Size?
        if t[0] == "-" && t[1] == "-" {
            size = nil
        } else {
            guard let w = Double(t[0]), let h = Double(t[1]) else { throw Failure(description: "page size '\(t[0].prefix(20)) \(t[1].prefix(20))' is not two numbers") }
            size = Size(width: w, height: h)
            if let problem = DocumentRows.problem(with: Size(width: w, height: h)) { throw Failure(description: problem) }
        }
        guard let style = Background.Style(rawValue: String(t[2])) else { throw Failure(description: "unknown background '\(t[2].prefix(20))'") }
        guard let paper = RGBA(hex: String(t[3])), let line = RGBA(hex: String(t[4])) else {
            throw Failure(description: "background colours '\(t[3].prefix(12))' '\(t[4].prefix(12))' are not #rrggbbaa")
        }
        guard let spacing = Double(t[5]), Background.spacingRange.contains(spacing) else {
            throw Failure(description: "background spacing '\(t[5].prefix(20))' is outside \(Background.spacingRange)")
        }
        var margin = 0.0
        if t.count > 6 {
            guard let m = Double(t[6]), m >= 0, m <= Background.spacingRange.upperBound else {
                throw Failure(description: "background margin '\(t[6].prefix(20))' is outside 0…\(Background.spacingRange.upperBound)")
            }
            margin = m
        }
        var pdf: PDFPageRef?
        if t.count > 7, t[7] != "-" {
            do { pdf = try ContentCodec.pdf(t[7]) } catch let e as ContentCodec.Failure { throw Failure(description: e.description) }
        }
        var picture: ContentHash?
        if t.count > 8, t[8] != "-" {
            do { picture = try ContentCodec.picture(t[8]) } catch let e as ContentCodec.Failure { throw Failure(description: e.description) }
        }
        return PageFormat(size: size, background: Background(style: style, paper: paper, line: line, spacing: spacing, margin: margin,
                                                             pdf: pdf, picture: picture))
    }
}
