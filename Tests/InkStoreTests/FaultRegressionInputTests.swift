import XCTest
import Foundation
import InkCore
@testable import InkStore

/// Raw point BLOBs that once crashed the decoder (found by `make fuzz`), kept under
/// Tests/CLITests/Fixtures/regressions/*.bin: each must now be refused with a `PointCodec.Failure`.
final class FaultRegressionInputTests: XCTestCase {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CLITests/Fixtures/regressions")

    func testEveryCrashingBlobIsRefused() throws {
        let blobs = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter { $0.hasSuffix(".bin") }.sorted()
        XCTAssertGreaterThanOrEqual(blobs.count, 1, "the regression BLOBs are there")
        for name in blobs {
            let bytes = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name)))
            XCTAssertThrowsError(try PointCodec.decode(bytes), name) { XCTAssertNotNil($0 as? PointCodec.Failure, "\(name): \($0)") }
        }
    }

    /// The first point is range-checked before use, whatever its sign, including the extremes.
    func testExtremeFirstPointsAreRefusedNotTrapped() throws {
        for v in [Int64.min, Int64.min + 1, Int64.max, -Int64(PointCodec.maxCoordinate * PointCodec.coordinateScale) - 1] {
            var blob = ByteWriter([PointCodec.version, 1])
            blob.signedVarint(v)                        // x
            blob.varint(0); blob.varint(0)              // y, t
            blob.append(contentsOf: [128, 0, 0, 0, 0])  // pressure, Rice parameters
            XCTAssertThrowsError(try PointCodec.decode(blob.bytes), "x = \(v)") {
                XCTAssertEqual($0 as? PointCodec.Failure, .invalid("first point out of range"))
            }
        }
    }
}
