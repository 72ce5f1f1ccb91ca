import Foundation
import XCTest

/// `oekaki replay` of logs placing the ruler, set square and compass, and the laser: the snapped items come out
/// of the binary, and their stored points (read back from a `.xopp` export) lie on the guide.
final class GuideCommandTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("guides-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func testRulerCompassAndLaserReplay() throws {
        // A ruler at 0° and one at 90°, a 270° compass arc, a freehand stroke once the guides are gone, laser
        // ink, and an undo that takes back the freehand stroke (the laser is not in the history).
        let r = try OekakiBinary.run(["replay", "guides.jsonl"], in: Fixtures.directory)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, ##"{"strokes":3,"points":80,"texts":0,"images":0,"bounds":[150,200,500,500],"items":[{"kind":"stroke","tool":"pen","color":"#1a5fb4ff","width":3,"points":2,"bounds":[150,200,400,200],"shape":"line","page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#1a5fb4ff","width":3,"points":2,"bounds":[500,250,500,450],"shape":"line","page":1,"layer":1},{"kind":"stroke","tool":"pen","color":"#1a5fb4ff","width":3,"points":76,"bounds":[200,300,400,500],"page":1,"layer":1}],"pages":[{"width":800,"height":600,"background":"plain","strokes":3,"texts":0,"images":0,"layers":[{"name":"Layer 1","visible":true,"strokes":3}]}],"selected":0}"## + "\n")
    }

    func testBadGuideLinesExitOneWithFileAndLine() throws {
        for (fixture, message) in [
            ("bad-compass.jsonl", #"bad-compass.jsonl:2: "radius" 0 is outside 0..1000000000 (must be more than 0)"#),
            ("bad-ruler.jsonl", #"bad-ruler.jsonl:2: "degrees" must be a number, not a string"#),
        ] {
            let r = try OekakiBinary.run(["replay", fixture], in: Fixtures.directory)
            XCTAssertEqual(r.status, 1, fixture)
            XCTAssertEqual(r.stderr, "oekaki: \(message)\n")
            XCTAssertEqual(r.stdout, "")
        }
    }

    /// Every stored point, read back from the `.xopp` the drawing exports to (plain coordinates per stroke).
    func storedStrokes(_ log: String) throws -> [[(Double, Double)]] {
        let logURL = tmp.appendingPathComponent("log.jsonl"), doc = tmp.appendingPathComponent("d.oekaki")
        let xopp = tmp.appendingPathComponent("d.xopp")
        try log.write(to: logURL, atomically: true, encoding: .utf8)
        var r = try OekakiBinary.run(["replay", logURL.path, "-o", doc.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try OekakiBinary.run(["export", doc.path, xopp.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let gunzip = Process()
        gunzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gunzip.arguments = ["-dc", xopp.path]
        let pipe = Pipe()
        gunzip.standardOutput = pipe
        try gunzip.run()
        let xml = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        gunzip.waitUntilExit()
        var out: [[(Double, Double)]] = []
        for part in xml.components(separatedBy: "<stroke ").dropFirst() {
            guard let open = part.firstIndex(of: ">"), let close = part.range(of: "</stroke>") else { continue }
            let numbers = part[part.index(after: open)..<close.lowerBound].split(separator: " ").compactMap { Double($0) }
            out.append(stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) })
        }
        return out
    }

    func testStoredPointsLieOnTheRulerAndTheCircle() throws {
        let strokes = try storedStrokes("""
        {"type":"canvas","width":800,"height":600}
        {"type":"ruler","op":"place","x":100,"y":500,"degrees":45}
        {"type":"touch","phase":"began","id":1,"x":160,"y":452,"device":"pen","pressure":0.6}
        {"type":"touch","phase":"moved","id":1,"x":230,"y":360,"device":"pen","pressure":0.6}
        {"type":"touch","phase":"moved","id":1,"x":300,"y":318,"device":"pen","pressure":0.6}
        {"type":"touch","phase":"ended","id":1,"x":380,"y":210,"device":"pen","pressure":0.6}
        {"type":"ruler","op":"remove"}
        {"type":"compass","op":"place","x":400,"y":300,"radius":120}
        {"type":"touch","phase":"began","id":2,"x":530,"y":300}
        {"type":"touch","phase":"moved","id":2,"x":400,"y":410}
        {"type":"touch","phase":"moved","id":2,"x":290,"y":310}
        {"type":"touch","phase":"moved","id":2,"x":390,"y":190}
        {"type":"touch","phase":"ended","id":2,"x":515,"y":280}

        """)
        XCTAssertEqual(strokes.count, 2)
        // The 45° line through (100, 500): x + y = 600, from the foot of (160, 452) to the foot of (380, 210).
        let line = strokes[0]
        XCTAssertEqual(line.count, 2)
        for (x, y) in line { XCTAssertLessThanOrEqual(abs(x + y - 600) / 2.squareRoot(), 0.5) }
        XCTAssertEqual(line[0].0, 154, accuracy: 0.01); XCTAssertEqual(line[1].0, 385, accuracy: 0.01)
        // Nearly a full turn round (400, 300) at radius 120.
        let arc = strokes[1]
        XCTAssertGreaterThan(arc.count, 50)
        for (x, y) in arc { XCTAssertEqual(((x - 400) * (x - 400) + (y - 300) * (y - 300)).squareRoot(), 120, accuracy: 0.5) }
        XCTAssertTrue(arc.contains { $0.0 < 285 } && arc.contains { $0.1 < 185 }, "swept past 180° the way the pen went")
    }
}
