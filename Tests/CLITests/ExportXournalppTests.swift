import Foundation
import XCTest
import TestSupport

/// The `.xopp` we write opens in Xournal++ and looks like our own PNG of the same drawing: Xournal++ renders
/// it under a private Xvfb, and the two images must put ink in the same places. Skipped where Xournal++,
/// Xvfb or ImageMagick are not installed.
final class ExportXournalppTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws {
        for tool in ["/usr/bin/xournalpp", "/usr/bin/Xvfb", "/usr/bin/convert"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed")
        }
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("xpp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws {
        if let tmp, ProcessInfo.processInfo.environment["OEKAKI_KEEP_TMP"] == nil { try? FileManager.default.removeItem(at: tmp) }
    }

    /// Smooth pen curves with real pressure, and a highlighter, on a 400 × 300 page.
    func eventLog() -> String {
        var lines = [#"{"type":"canvas","width":400,"height":300}"#]
        for k in 0..<4 {
            if k == 3 { lines.append(##"{"type":"tool","tool":"highlighter","color":"#ffcc0080","width":16}"##) }
            else { lines.append(##"{"type":"tool","tool":"pen","color":"#1030a0ff","width":\##(2 + k * 2)}"##) }
            let n = 80
            for i in 0..<n {
                let u = Double(i) / Double(n - 1)
                let x = 30 + 340 * u, y = 50 + Double(k) * 65 + 25 * sin(u * 2 * .pi + Double(k))
                let p = 0.2 + 0.6 * sin(u * .pi)
                let phase = i == 0 ? "began" : (i == n - 1 ? "ended" : "moved")
                lines.append(#"{"type":"touch","phase":"\#(phase)","id":1,"x":\#(x),"y":\#(y),"pressure":\#(p),"device":"pen","t":\#(i * 8)}"#)
            }
        }
        // Shapes too: Xournal++ must show the same rectangle, ellipse and arrow.
        lines.append(##"{"type":"tool","tool":"pen","color":"#a01010ff","width":3}"##)
        for (tool, a, b) in [("rectangle", (40, 20), (120, 45)), ("ellipse", (150, 15), (260, 48)), ("arrow", (280, 45), (380, 18))] {
            lines.append(#"{"type":"tool","tool":"\#(tool)"}"#)
            lines.append(#"{"type":"touch","phase":"began","id":1,"x":\#(a.0),"y":\#(a.1),"device":"mouse","t":0}"#)
            lines.append(#"{"type":"touch","phase":"ended","id":1,"x":\#(b.0),"y":\#(b.1),"device":"mouse","t":16}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func run(_ exe: String, _ args: [String], env: [String: String] = [:]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        p.environment = e
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Runs Xournal++ with `args` on a private X display (its settings in the test's folder), and skips the test
    /// when it wrote no `output`.
    func xournalpp(_ args: [String], writing output: String) throws {
        let x = try XCTUnwrap(PrivateXvfb.start(width: 800, height: 600), "could not start Xvfb")
        defer { PrivateXvfb.stop(x.process) }
        _ = try run("/usr/bin/xournalpp", args, env: ["DISPLAY": x.display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "HOME": tmp.path])
        try XCTSkipUnless(FileManager.default.fileExists(atPath: output), "Xournal++ could not run here")
    }

    /// `xoppIn` imported into a `.oekaki` and written back out as a `.xopp` by us: the path of that `.xopp`.
    func reexported(_ xoppIn: String) throws -> String {
        let doc = tmp.appendingPathComponent("reexported.oekaki").path, xopp = tmp.appendingPathComponent("out.xopp").path
        XCTAssertEqual(try OekakiBinary.run(["export", xoppIn, doc]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", doc, xopp]).status, 0)
        return xopp
    }

    /// Text boxes we write as `<text>` are text in Xournal++ too: its own PDF of our `.xopp` holds the words.
    func testXournalppShowsOurText() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext"), "pdftotext is not installed")
        let src = tmp.appendingPathComponent("t.xml")
        try Data("""
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="400" height="300">
        <background type="solid" color="#ffffffff" style="plain"/><layer>
        <text font="Sans" size="20" x="40" y="60" color="#000000ff">Bandicoot notes</text></layer></page></xournal>
        """.utf8).write(to: src)
        let xoppIn = tmp.appendingPathComponent("in.xopp").path
        XCTAssertEqual(try run("/bin/sh", ["-c", "gzip -n -c '\(src.path)' > '\(xoppIn)'"]), 0)
        let pdf = tmp.appendingPathComponent("xpp.pdf").path
        try xournalpp(["--create-pdf=\(pdf)", try reexported(xoppIn)], writing: pdf)
        XCTAssertEqual(try run("/usr/bin/pdftotext", [pdf, pdf + ".txt"]), 0)
        let text = try String(contentsOfFile: pdf + ".txt", encoding: .utf8)
        XCTAssertTrue(text.contains("Bandicoot notes"), text)
    }

    /// A JPEG picture in our `.xopp` is drawn by Xournal++ (1.1 draws PNG `<image>`s only: we write the JPEG's pixels
    /// as PNG).
    func testXournalppShowsOurJPEGPicture() throws {
        let jpg = tmp.appendingPathComponent("halves.jpg").path
        XCTAssertEqual(try run("/usr/bin/convert", ["-size", "40x30", "xc:#dc141e", "-fill", "#1e50dc", "-draw", "rectangle 20,0 39,29", jpg]), 0)
        let b64 = try Data(contentsOf: URL(fileURLWithPath: jpg)).base64EncodedString()
        let xoppIn = tmp.appendingPathComponent("in.xopp").path
        try Data("""
        <?xml version="1.0" standalone="no"?>
        <xournal creator="Xournal++ 1.1.3" fileversion="4"><page width="200" height="100">
        <background type="solid" color="#ffffffff" style="plain"/><layer>
        <image left="20" top="10" right="100" bottom="70">\(b64)</image></layer></page></xournal>
        """.utf8).write(to: URL(fileURLWithPath: xoppIn))
        let theirs = tmp.appendingPathComponent("xpp.png").path
        try xournalpp(["--export-png-dpi=72", "--create-img=\(theirs)", try reexported(xoppIn)], writing: theirs)
        // At 72 dpi a unit is a pixel: the red half around (40, 40), the blue one around (80, 40).
        let rgb = tmp.appendingPathComponent("xpp.rgb").path
        XCTAssertEqual(try run("/usr/bin/convert", [theirs, "-background", "white", "-flatten", "-resize", "200x100!", "-depth", "8", "rgb:\(rgb)"]), 0)
        let px = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rgb)))
        XCTAssertEqual(px.count, 200 * 100 * 3)
        func at(_ x: Int, _ y: Int) -> [UInt8] { Array(px[(y * 200 + x) * 3..<(y * 200 + x) * 3 + 3]) }
        let red = at(40, 40), blue = at(80, 40)
        XCTAssertTrue(red[0] > 180 && red[1] < 80 && red[2] < 80, "Xournal++ shows the red half: \(red)")
        XCTAssertTrue(blue[0] < 80 && blue[2] > 180, "and the blue half: \(blue)")
    }

    /// 8-bit grey pixels of an image flattened on white and scaled to w × h.
    func grey(_ png: String, _ w: Int, _ h: Int) throws -> [UInt8] {
        let raw = tmp.appendingPathComponent(UUID().uuidString + ".gray").path
        XCTAssertEqual(try run("/usr/bin/convert", [png, "-background", "white", "-flatten", "-resize", "\(w)x\(h)!",
                                                   "-colorspace", "gray", "-depth", "8", "gray:\(raw)"]), 0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
    }

    func testXournalppRendersOurXoppLikeOurPNG() throws {
        let log = tmp.appendingPathComponent("d.jsonl")
        try Data(eventLog().utf8).write(to: log)
        let doc = tmp.appendingPathComponent("d.oekaki").path, xopp = tmp.appendingPathComponent("d.xopp").path
        let ours = tmp.appendingPathComponent("ours.png").path, theirs = tmp.appendingPathComponent("xpp.png").path
        XCTAssertEqual(try OekakiBinary.run(["replay", log.path, "-o", doc]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", doc, xopp]).status, 0)
        XCTAssertEqual(try OekakiBinary.run(["export", doc, ours]).status, 0)
        try xournalpp(["--export-png-dpi=72", "--create-img=\(theirs)", xopp], writing: theirs)

        let w = 400, h = 300
        let a = try grey(ours, w, h), b = try grey(theirs, w, h)
        XCTAssertEqual(a.count, w * h); XCTAssertEqual(b.count, w * h)
        let inkA = a.filter { $0 < 200 }.count, inkB = b.filter { $0 < 200 }.count
        XCTAssertGreaterThan(inkA, 2000, "our PNG has ink")
        XCTAssertGreaterThan(inkB, 2000, "Xournal++ drew our strokes")
        let ratio = Double(inkA) / Double(max(inkB, 1))
        XCTAssertTrue(ratio > 0.6 && ratio < 1.6, "ink amounts differ: ours \(inkA) px, Xournal++ \(inkB) px")
        // The same 8 × 8 tiles hold ink in both.
        let t = 8
        var agree = 0, total = 0
        for ty in 0..<(h / t) {
            for tx in 0..<(w / t) {
                var inA = false, inB = false
                for y in (ty * t)..<(ty * t + t) {
                    for x in (tx * t)..<(tx * t + t) { inA = inA || a[y * w + x] < 200; inB = inB || b[y * w + x] < 200 }
                }
                if inA || inB { total += 1; if inA == inB { agree += 1 } }
            }
        }
        print("xournalpp comparison: ink ours \(inkA) px, Xournal++ \(inkB) px; \(agree) of \(total) inked tiles agree")
        XCTAssertGreaterThan(Double(agree) / Double(max(total, 1)), 0.85, "\(agree) of \(total) inked tiles agree")
    }
}
