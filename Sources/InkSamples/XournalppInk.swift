import Foundation
import InkCore
import InkStore

/// Ink as Xournal++ 1.2 saves it, for the benchmarks and tests that read what Xournal++ users bring: a `.xopp`
/// (gzip of XML) laid out line for line as Xournal++ 1.2.8 writes it (see `/work/shared/corpus/xournalpp`):
///
///     <?xml version="1.0" standalone="no"?>
///     <xournal creator="xournalpp 1.2.8" fileversion="4">
///     <title>Xournal++ document - see https://xournalpp.github.io/</title>
///     <preview>…base64 PNG…</preview>
///     <page width="2000" height="3000">
///     <background type="solid" color="#ffffffff" style="plain"/>
///     <layer>
///     <stroke tool="pen" color="#000000ff" width="1.41 0.70833432 0.72012341 …" capStyle="round">x y x y …</stroke>
///     …
///     </layer>
///     </page>
///     </xournal>
///
/// Pen strokes carry pressure as Xournal++ does: the nominal width, then the width at each point but the last
/// (nominal × pressure), so as many widths as points. Highlighters have one width. Numbers are printed as
/// Xournal++ prints them (`%.8g`: 8 significant digits, no trailing zeros). The ink is `SampleInk`'s wandering
/// strokes, seeded, so every run reads the same file.
public enum XournalppInk {
    /// The page the benchmarks use: tall enough for 10,000 strokes of 100 points to stay legible.
    public static let pageSize = Size(width: 2000, height: 3000)

    /// Xournal++'s own tool widths (fine, medium, thick) for the sample's thin, medium and thick strokes.
    static let penWidths = [0.85, 1.41, 2.26], highlighterWidths = [2.83, 8.5, 19.84]

    /// The document's XML: `strokes` strokes of `pointsPerStroke` points on one page.
    public static func xml(strokes: Int = 10_000, pointsPerStroke: Int = 100, pageSize: Size = pageSize, seed: UInt64 = 1) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512 + strokes * pointsPerStroke * 28)
        func put(_ s: String) { out.append(contentsOf: s.utf8) }
        put("<?xml version=\"1.0\" standalone=\"no\"?>\n<xournal creator=\"xournalpp 1.2.8\" fileversion=\"4\">\n")
        put("<title>Xournal++ document - see https://xournalpp.github.io/</title>\n<preview>\(preview)</preview>\n")
        put("<page width=\""); number(pageSize.width, &out); put("\" height=\""); number(pageSize.height, &out); put("\">\n")
        put("<background type=\"solid\" color=\"#ffffffff\" style=\"plain\"/>\n<layer>\n")
        var rng = SampleInk.Generator(seed: seed)
        for i in 0..<max(strokes, 0) {
            let s = SampleInk.stroke(id: StrokeID(i + 1), points: pointsPerStroke, pageSize: pageSize, rng: &rng)
            let highlighter = s.style.tool == .highlighter
            // SampleInk's widths, thinnest first, as Xournal++'s fine, medium and thick.
            let size = highlighter ? [8.0, 16, 28].firstIndex(of: s.style.width) ?? 1 : [1.5, 3, 6].firstIndex(of: s.style.width) ?? 1
            let width = (highlighter ? highlighterWidths : penWidths)[size]
            let color = highlighter ? RGBA(r: s.style.color.r, g: s.style.color.g, b: s.style.color.b, a: 0x7f) : s.style.color
            put("<stroke tool=\"\(highlighter ? "highlighter" : "pen")\" color=\"\(color.hex)\" width=\"")
            number(width, &out)
            if !highlighter {
                for p in s.points.dropLast() { out.append(0x20); number(width * p.pressure, &out) }
            }
            put("\" capStyle=\"round\">")
            for (k, p) in s.points.enumerated() {
                if k > 0 { out.append(0x20) }
                number(p.x, &out); out.append(0x20); number(p.y, &out)
            }
            put("</stroke>\n")
        }
        put("</layer>\n</page>\n</xournal>\n")
        return out
    }

    /// The `.xopp` file's bytes (the XML gzipped).
    public static func file(strokes: Int = 10_000, pointsPerStroke: Int = 100, pageSize: Size = pageSize, seed: UInt64 = 1) throws -> [UInt8] {
        try Deflate.gzip(xml(strokes: strokes, pointsPerStroke: pointsPerStroke, pageSize: pageSize, seed: seed))
    }

    /// Writes the `.xopp` to `path`.
    public static func write(to path: String, strokes: Int = 10_000, pointsPerStroke: Int = 100, pageSize: Size = pageSize, seed: UInt64 = 1) throws {
        try Data(file(strokes: strokes, pointsPerStroke: pointsPerStroke, pageSize: pageSize, seed: seed)).write(to: URL(fileURLWithPath: path))
    }

    /// `v` as C's `%.8g` prints it (what Xournal++ writes numbers with), without going through `String(format:)`,
    /// which would take seconds for a million points. Fixed notation for exponents -4…7, as `%g` chooses.
    static func number(_ v: Double, _ out: inout [UInt8]) {
        guard v.isFinite, v != 0 else { out.append(0x30); return }
        let a = abs(v)
        var e = Int((log10(a)).rounded(.down))
        func digits(_ e: Int) -> Double { e <= 7 ? (a * power[7 - e]).rounded() : (a / power[e - 7]).rounded() }
        guard (-4...7).contains(e) else { out.append(contentsOf: String(format: "%.8g", v).utf8); return }
        var d = digits(e)
        // log10 can land a step off near powers of ten, and rounding can carry into a ninth digit.
        if d < 1e7 { e -= 1; d = digits(e) }
        if d >= 1e8 { e += 1; d = digits(e) }
        guard (-4...7).contains(e) else { out.append(contentsOf: String(format: "%.8g", v).utf8); return }
        var n = Int64(d), decimals = 7 - e
        while decimals > 0 && n % 10 == 0 { n /= 10; decimals -= 1 }
        if v < 0 { out.append(0x2D) }
        var text: [UInt8] = []
        repeat { text.append(UInt8(0x30 + n % 10)); n /= 10 } while n > 0
        while text.count <= decimals { text.append(0x30) }   // a leading "0." and the zeros after it
        for (k, c) in text.enumerated().reversed() {
            out.append(c)
            if k == decimals && k > 0 { out.append(0x2E) }
        }
    }

    private static let power: [Double] = (0...11).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// A 1×1 white PNG where Xournal++ puts its first page's thumbnail (readers skip it).
    static let preview = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC"
}
