import Foundation
import InkCore
import InkRender
import XCTest

/// Small drawings whose pixels are easy to predict.
enum Fixture {
    static let red = RGBA(r: 220, g: 20, b: 30)

    /// A horizontal red pen line across a 200×100 white page at y = 50, 8 units wide, x from 20 to 180.
    static func line(color: RGBA = red, width: Double = 8, tool: Tool = .pen, background: RGBA = .white) -> Drawing {
        let pts = stride(from: 20.0, through: 180.0, by: 4).map { InkPoint(x: $0, y: 50, pressure: 0.5) }
        return Drawing(pageSize: Size(width: 200, height: 100), background: background,
                       strokes: [Stroke(id: 1, style: StrokeStyle(tool: tool, color: color, width: width), points: pts)])
    }

    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inkrender-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// Full path of a tool on PATH, nil when it is not installed.
    static func tool(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }

    @discardableResult
    static func run(_ exe: String, _ args: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        try p.run(); p.waitUntilExit()
        return p.terminationStatus
    }
}

func XCTAssertColor(_ c: RGBA, near e: RGBA, tolerance: Int = 6, _ msg: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let d = [abs(Int(c.r) - Int(e.r)), abs(Int(c.g) - Int(e.g)), abs(Int(c.b) - Int(e.b)), abs(Int(c.a) - Int(e.a))].max()!
    XCTAssertLessThanOrEqual(d, tolerance, "\(c.hex) is not near \(e.hex) \(msg)", file: file, line: line)
}
