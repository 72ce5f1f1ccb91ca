import Foundation
import XCTest

/// The pen's feel through the `oekaki` binary: logs with a pressure curve, a stabilizer and proximity lines are
/// replayed into a document and exported to PNG, and the pixels and items show what the issue's contract says.
final class PenCommandTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    /// Replays `log` into a document and exports it to PNG; returns the PNG's path and the replay's summary.
    private func render(_ log: String, name: String) throws -> (png: String, summary: String) {
        let logURL = tmp.appendingPathComponent("\(name).jsonl"), doc = tmp.appendingPathComponent("\(name).oekaki")
        let png = tmp.appendingPathComponent("\(name).png")
        try log.write(to: logURL, atomically: true, encoding: .utf8)
        var r = try OekakiBinary.run(["replay", logURL.path, "-o", doc.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = r.stdout
        r = try OekakiBinary.run(["export", doc.path, png.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (png.path, summary)
    }

    /// A light (0.15) and a heavy (0.9) horizontal stroke, 20 units wide at nominal, under `curve`.
    private func strokes(_ curve: String) throws -> (light: Int, heavy: Int) {
        let log = """
        {"type":"canvas","width":200,"height":200}
        {"type":"tool","tool":"pen","width":20,"pressureCurve":\(curve)}
        {"type":"touch","phase":"began","id":1,"x":20,"y":60,"pressure":0.15,"device":"pen","t":0}
        {"type":"touch","phase":"moved","id":1,"x":100,"y":60,"pressure":0.15,"device":"pen","t":20}
        {"type":"touch","phase":"ended","id":1,"x":180,"y":60,"pressure":0.15,"device":"pen","t":40}
        {"type":"touch","phase":"began","id":2,"x":20,"y":140,"pressure":0.9,"device":"pen","t":100}
        {"type":"touch","phase":"moved","id":2,"x":100,"y":140,"pressure":0.9,"device":"pen","t":120}
        {"type":"touch","phase":"ended","id":2,"x":180,"y":140,"pressure":0.9,"device":"pen","t":140}
        """
        let (png, summary) = try render(log, name: "curve")
        // The items keep the base width whatever the curve.
        XCTAssertTrue(summary.contains(#""width":20,"points":3"#), summary)
        // The column at x = 100: the light stroke above y = 100, the heavy one below.
        return (try rowsBetween(png, x: 100, 0..<100), try rowsBetween(png, x: 100, 100..<200))
    }

    /// Inked rows (darker than mid grey) of column `x` of a 200×200 PNG within `rows`, read through ImageMagick.
    private func rowsBetween(_ png: String, x: Int, _ rows: Range<Int>) throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
        p.arguments = [png, "-background", "white", "-flatten", "-colorspace", "gray", "-depth", "8", "gray:-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let bytes = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        p.waitUntilExit()
        guard bytes.count == 200 * 200 else { XCTFail("size \(bytes.count)"); return 0 }
        return rows.filter { bytes[$0 * 200 + x] < 128 }.count
    }

    func testSoftMakesLightStrokesWiderThanFirmAndConstantMakesAllAlike() throws {
        let soft = try strokes("\"soft\""), firm = try strokes("\"firm\""), linear = try strokes("\"linear\"")
        let constant = try strokes("\"constant\""), custom = try strokes("[[0,0],[0.4,0.2],[1,1]]")
        XCTAssertGreaterThan(soft.light, firm.light + 2, "soft \(soft) firm \(firm)")
        XCTAssertGreaterThan(soft.light, linear.light)
        XCTAssertLessThan(firm.light, linear.light)
        XCTAssertLessThan(custom.light, linear.light)
        XCTAssertEqual(constant.light, constant.heavy, "constant: \(constant)")
        XCTAssertEqual(Double(constant.light), 20, accuracy: 1, "constant is the base width")
        XCTAssertLessThan(linear.light, linear.heavy)
    }

    func testPalmRejectionInAReplay() throws {
        let log = """
        {"type":"touch","phase":"began","id":7,"x":10,"y":10,"t":900}
        {"type":"touch","phase":"moved","id":7,"x":40,"y":12,"t":950}
        {"type":"proximity","phase":"in","device":"pen","t":1000}
        {"type":"touch","phase":"moved","id":7,"x":60,"y":14,"t":1010}
        {"type":"touch","phase":"began","id":8,"x":10,"y":150,"device":"touch","t":1020}
        {"type":"touch","phase":"ended","id":8,"x":60,"y":150,"device":"touch","t":1040}
        {"type":"touch","phase":"began","id":1,"x":20,"y":100,"pressure":0.5,"device":"pen","t":1100}
        {"type":"touch","phase":"ended","id":1,"x":180,"y":100,"pressure":0.5,"device":"pen","t":1200}
        {"type":"proximity","phase":"out","device":"pen","t":1300}
        {"type":"touch","phase":"ended","id":7,"x":80,"y":14,"t":1310}
        {"type":"touch","phase":"began","id":9,"x":10,"y":180,"t":1700}
        {"type":"touch","phase":"ended","id":9,"x":60,"y":180,"t":1750}
        {"type":"touch","phase":"began","id":10,"x":10,"y":190,"t":1800}
        {"type":"touch","phase":"ended","id":10,"x":60,"y":190,"t":1850}
        """
        let (_, summary) = try render(log, name: "palm")
        // Only the pen's line and the touch after the delay: the palm before the pen, the touch beside it and the
        // one within 500 ms of the pen leaving make no item.
        XCTAssertTrue(summary.hasPrefix(#"{"strokes":2,"#), summary)
        XCTAssertTrue(summary.contains(#""bounds":[20,100,180,100]"#), summary)
        XCTAssertTrue(summary.contains(#""bounds":[10,190,60,190]"#), summary)
    }

    func testBadPenValuesExitOneWithFileAndLine() throws {
        for (line, message) in [
            (#"{"type":"tool","tool":"pen","stabilizer":"extreme"}"#, #"unknown stabilizer "extreme" (off, low or high)"#),
            (#"{"type":"tool","tool":"pen","pressureCurve":[[0,0],[0.4,0.6],[0.3,1]]}"#,
             "pressure curve point 3 does not lie right of the one before (x must increase)"),
            (#"{"type":"proximity","phase":"sideways","t":3}"#, #"unknown proximity phase "sideways" (in or out)"#),
        ] {
            let url = tmp.appendingPathComponent("bad.jsonl")
            try ("{\"type\":\"clear\"}\n" + line + "\n").write(to: url, atomically: true, encoding: .utf8)
            let r = try OekakiBinary.run(["replay", "bad.jsonl"], in: tmp)
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderr, "oekaki: bad.jsonl:2: \(message)\n")
            XCTAssertEqual(r.stdout, "")
        }
    }
}
