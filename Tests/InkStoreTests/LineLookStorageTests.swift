import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Xournal++'s fill, dash patterns and caps: read from `.xopp` as Xournal++ writes them, written back the same way,
/// kept by `.oekaki` (format 12; older files open with solid, unfilled, round-capped ink), refused when damaged.
final class LineLookStorageTests: TempDirTestCase {
    static let xml = """
    <?xml version="1.0" standalone="no"?>
    <xournal creator="Xournal++ 1.2.2" fileversion="4">
    <page width="400" height="300"><background type="solid" color="#ffffffff" style="plain"/><layer>
    <stroke tool="pen" color="#64baffff" width="2" fill="128" capStyle="round">10 10 100 10 100 100 10 10</stroke>
    <stroke tool="pen" color="#808080ff" width="3" capStyle="round" style="dash">10 120 200 120</stroke>
    <stroke tool="pen" color="#ed5353ff" width="3" capStyle="round" style="dashdot">10 140 200 140</stroke>
    <stroke tool="pen" color="#ffa154ff" width="3" capStyle="butt" style="dot">10 160 200 160</stroke>
    <stroke tool="pen" color="#000000ff" width="2" capStyle="square" style="cust: 1.50 2.00 4.00 2.00">10 180 200 180</stroke>
    <stroke tool="highlighter" color="#ffe16b7f" width="12" fill="255" capStyle="butt">10 200 100 260 200 200</stroke>
    <stroke tool="pen" color="#000000ff" width="2" fill="-1" style="zigzag">10 280 200 280</stroke>
    <stroke tool="pen" color="#000000ff" width="2" fill="900" style="cust: -1 2">10 290 200 290</stroke>
    </layer></page></xournal>
    """

    func imported() throws -> [Stroke] {
        let file = path("look.xopp")
        try Data(try Deflate.gzip(Array(Self.xml.utf8), level: 3)).write(to: URL(fileURLWithPath: file))
        return try XoppImport.read(path: file).drawing.strokes
    }

    func testXournalppAttributesAreRead() throws {
        let s = try imported()
        XCTAssertEqual(s.map(\.style.fill), [128, nil, nil, nil, nil, 255, nil, 255])
        XCTAssertEqual(s.map(\.style.line), [.solid, .dash, .dashDot, .dot, LineStyle(dashes: [1.5, 2, 4, 2])!, .solid, .solid, .solid])
        XCTAssertEqual(s.map(\.style.cap), [.round, .round, .round, .butt, .square, .butt, .round, .round])
        XCTAssertEqual(s.map { $0.style.line.name }, [nil, "dash", "dashdot", "dot", "cust: 1.50 2.00 4.00 2.00", nil, nil, nil])
    }

    func testXoppExportWritesThemAsXournalppDoesAndRoundTrips() throws {
        let strokes = try imported()
        let out = path("back.xopp")
        try XoppExport.write(Drawing(pageSize: Size(width: 400, height: 300), strokes: strokes), to: out)
        let xml = String(decoding: try Deflate.inflate(Array(try Data(contentsOf: URL(fileURLWithPath: out))), container: .gzip, limit: 1 << 24), as: UTF8.self)
        XCTAssertTrue(xml.contains(#"fill="128" capStyle="round" trace"#), xml)
        XCTAssertTrue(xml.contains(#"capStyle="round" style="dash" trace"#), xml)
        XCTAssertTrue(xml.contains(#"capStyle="butt" style="dot" trace="polyline">"#), xml)
        XCTAssertTrue(xml.contains(#"capStyle="square" style="cust: 1.50 2.00 4.00 2.00""#), xml)
        XCTAssertTrue(xml.contains(#"fill="255" capStyle="butt""#), xml)
        let again = try XoppImport.read(path: out).drawing.strokes
        XCTAssertEqual(again.map(\.style.fill), strokes.map(\.style.fill))
        XCTAssertEqual(again.map(\.style.line), strokes.map(\.style.line))
        XCTAssertEqual(again.map(\.style.cap), strokes.map(\.style.cap))
    }

    func testOekakiKeepsThemAndRefusesDamagedWords() throws {
        let strokes = try imported()
        let file = path("look.oekaki")
        try DocumentFile.create(path: file, drawing: Drawing(pageSize: Size(width: 400, height: 300), strokes: strokes)).close()
        let back = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(back.drawing.strokes.map(\.style), strokes.map(\.style))
        back.close()
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        // Plain ink costs nothing: NULL.
        XCTAssertEqual(try db.integer("SELECT count(*) FROM strokes WHERE line IS NULL"), 1)
        try db.execute("UPDATE strokes SET line = 'fill=300' WHERE id = 1")
        db.close()
        XCTAssertThrowsError(try DocumentFile.open(path: file, readOnly: true)) {
            XCTAssertTrue("\($0)".contains("stroke 1 has a fill '300' outside 0…255"), "\($0)")
        }
    }

    func testFilesOfFormat11OpenWithPlainInkAndUpgrade() throws {
        let file = path("v11.oekaki")
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(11) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = 11")
        try db.execute("INSERT INTO pages(id, position, width, height, style, paper, line, spacing) VALUES(1, 0, 800, 600, 'plain', \(RGBA.white.packed), \(RGBA.black.packed), 20)")
        let blob = try PointCodec.encode([InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
        try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(1, 'pen', 255, 32, ?, 1)").bind(1, blob).run()
        db.close()
        let ro = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(ro.drawing.strokes.map(\.style.isPlainLine), [true])
        XCTAssertEqual(ro.drawing.strokes.first?.style.width, 2)
        ro.close()
        let rw = try DocumentFile.open(path: file)
        rw.close()
        let check = try SQLiteDatabase(path: file, mode: .readWrite(create: false))
        XCTAssertEqual(try check.integer("PRAGMA user_version"), Int64(Schema.currentVersion))
        check.close()
    }

    func testLineStyleNamesAndLimits() {
        XCTAssertEqual(LineStyle(name: "dash"), .dash)
        XCTAssertEqual(LineStyle(name: "plain"), .solid)
        XCTAssertNil(LineStyle(name: "cust: "))
        XCTAssertNil(LineStyle(name: "cust: 0 0"))
        XCTAssertNil(LineStyle(name: "cust: 1 nan"))
        XCTAssertNil(LineStyle(name: "cust: 1 1e9"))
        XCTAssertNil(LineStyle(name: "wavy"))
        XCTAssertEqual(LineStyle(name: "cust: 6 3")?.name, "dash")
        XCTAssertEqual(LineStyle(name: "cust: 0.125 3")?.name, "cust: 0.13 3.00")
    }
}
