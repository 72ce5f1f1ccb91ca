import Foundation
import XCTest

/// Inputs that once crashed, hung or misbehaved (most found by `make fuzz`), replayed through the CLI on every
/// `make test`. Each file under Fixtures/regressions must be listed here with what the CLI must now do;
/// raw point BLOBs (`.bin`) are replayed by InkStoreTests.FaultRegressionInputTests.
final class RegressionTests: XCTestCase {
    enum Outcome {
        /// Exit 1 with one line on stderr containing this.
        case refused(String)
        /// Exit 0 with this in the JSON summary on stdout.
        case summary(String)
    }

    static let expected: [String: (why: String, outcome: Outcome)] = [
        "blob-first-point-int64-min.oekaki": (
            "fuzz (pointcodec): a stroke whose first x is Int64.min trapped in abs() while loading",
            .refused("point data is invalid: first point out of range")),
        "empty-input.xopp": (
            "fuzz (xopp): reading a 0-byte .xopp leaked Foundation's read buffer",
            .refused("the file is empty")),
        "undo-eraser-while-pen-is-down.jsonl": (
            "fuzz (eventlog) seed: repeated began/ended for one id, an eraser gesture ending while a pen is down, then undo",
            .summary("\"strokes\":2,\"points\":3")),
    ]

    func testEveryRegressionInput() throws {
        let dir = Fixtures.directory.appendingPathComponent("regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasSuffix(".bin") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, Self.expected.count)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("regression-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        for name in names {
            guard let (why, outcome) = Self.expected[name] else {
                XCTFail("\(name): add what the CLI must do with it to RegressionTests.expected")
                continue
            }
            let file = dir.appendingPathComponent(name).path
            let commands: [[String]] = name.hasSuffix(".jsonl") ? [["replay", file]] : [["info", file], ["export", file, out]]
            for args in commands {
                let start = Date()
                let r = try OekakiBinary.run(args, timeout: 30)
                let secs = Date().timeIntervalSince(start)
                XCTAssertLessThan(secs, 10, "\(name) \(args[0]) took \(secs) s (\(why))")
                switch outcome {
                case .refused(let fragment):
                    XCTAssertEqual(r.status, 1, "\(name) \(args[0]): \(r.stderr) (\(why))")
                    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(name): one line, got \(r.stderr)")
                    XCTAssertTrue(r.stderr.hasPrefix("oekaki: ") && r.stderr.contains(fragment), "\(name): expected '\(fragment)' in \(r.stderr)")
                case .summary(let fragment):
                    XCTAssertEqual(r.status, 0, "\(name) \(args[0]): \(r.stderr) (\(why))")
                    XCTAssertTrue(r.stdout.contains(fragment), "\(name): expected '\(fragment)' in \(r.stdout)")
                }
            }
        }
    }
}
