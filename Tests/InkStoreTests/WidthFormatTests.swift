import XCTest
import Foundation
@testable import InkCore
@testable import InkStore

/// Format step 11: `strokes.width` in sixteenths, so the fine pen's 1.5 is stored as a small integer (SQLite keeps a
/// whole REAL in an integer's bytes) instead of eight bytes; every width reads back exactly, older files upgrade.
final class WidthFormatTests: TempDirTestCase {
    private func line(_ id: StrokeID, width: Double) -> Stroke {
        Stroke(id: id, style: StrokeStyle(color: RGBA(r: 9, g: 9, b: 9), width: width), points: [InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
    }

    private let widths = [1.5, 3, 0.1, 1.41, 0.85, 7.123456789, Schema.maxStrokeWidth, 0.0001]

    private func storedWidth(_ file: String, id: Int) throws -> Double? {
        let db = try SQLiteDatabase(path: file, mode: .readOnly)
        defer { db.close() }
        let q = try db.statement("SELECT width FROM strokes WHERE id = \(id)")
        defer { q.reset() }
        return try q.step() ? q.double(0) : nil
    }

    func testWidthsRoundTripBitForBit() throws {
        let file = path("w.oekaki")
        let d = Drawing(strokes: widths.enumerated().map { line(StrokeID($0.offset + 1), width: $0.element) })
        try DocumentFile.create(path: file, drawing: d).close()
        let back = try DocumentFile.open(path: file)
        defer { back.close() }
        XCTAssertEqual(back.drawing.strokes.map(\.style.width.bitPattern), widths.map(\.bitPattern))
        XCTAssertEqual(try storedWidth(file, id: 1), 24, "1.5 is stored as 24 sixteenths")
    }

    /// Bytes of the `strokes` table's records in a file of 20 equal strokes of `width`.
    private func strokeRecordBytes(width: Double) throws -> Int64 {
        let file = path("w\(width).oekaki")
        try DocumentFile.create(path: file, drawing: Drawing(strokes: (1...20).map { line(StrokeID($0), width: width) })).close()
        let db = try SQLiteDatabase(path: file, mode: .readOnly)
        defer { db.close() }
        return try XCTUnwrap(try db.integer("SELECT sum(payload) FROM dbstat WHERE name = 'strokes'"))
    }

    func testFinePenRowIsNoLargerThanAMediumOne() throws {
        // Before format 11 a 1.5 row took 7 bytes more than a 3 row (an 8-byte REAL against a 1-byte integer).
        let fine = try strokeRecordBytes(width: 1.5), medium = try strokeRecordBytes(width: 3)
        XCTAssertGreaterThan(medium, 20 * 10)
        XCTAssertEqual(fine, medium)
        XCTAssertEqual(try strokeRecordBytes(width: 1.41) - medium, 20 * 7, "a width that is not whole in sixteenths still takes 8 bytes")
    }

    func testFormat10FileUpgradesItsWidths() throws {
        let file = path("v10.oekaki")
        let old = Schema.widthSixteenthsVersion - 1
        let db = try SQLiteDatabase(path: file, mode: .readWrite(create: true))
        for step in Schema.steps.prefix(old) { try db.execute(step) }
        try db.execute("PRAGMA application_id = \(Schema.applicationID); PRAGMA user_version = \(old)")
        try db.execute("INSERT INTO pages(id, position, width, height, style, paper, line, spacing) VALUES(1, 0, 800, 600, 'plain', \(RGBA.white.packed), \(RGBA.black.packed), 20)")
        let blob = try PointCodec.encode([InkPoint(x: 1, y: 2), InkPoint(x: 30, y: 40)])
        for (i, w) in widths.enumerated() {
            try db.statement("INSERT INTO strokes(id, tool, rgba, width, points, present) VALUES(?, 'pen', 255, ?, ?, 1)")
                .bind(1, Int64(i + 1)).bind(2, w).bind(3, blob).run()
        }
        db.close()
        // Read-only first (no upgrade), then for writing (upgraded): the same widths.
        let peek = try DocumentFile.open(path: file, readOnly: true)
        XCTAssertEqual(peek.foundVersion, old)
        XCTAssertEqual(peek.drawing.strokes.map(\.style.width), widths)
        peek.close()
        let doc = try DocumentFile.open(path: file)
        XCTAssertEqual(doc.drawing.strokes.map(\.style.width), widths)
        doc.close()
        let back = try DocumentFile.open(path: file)
        defer { back.close() }
        XCTAssertEqual(back.foundVersion, Schema.currentVersion)
        XCTAssertEqual(back.drawing.strokes.map(\.style.width.bitPattern), widths.map(\.bitPattern))
        XCTAssertEqual(try storedWidth(file, id: 1), 24, "the upgrade rewrote the widths in sixteenths")
    }
}
