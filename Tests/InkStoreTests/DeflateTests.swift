import XCTest
@testable import InkStore

/// The gzip reader takes libdeflate's whole-buffer path when the trailer can be trusted, and zlib's bounded
/// stream otherwise; both must give the same bytes, and neither may exceed the limit.
final class DeflateTests: XCTestCase {
    let text = Array((0..<20_000).map { "\($0 * 7 % 1000).\($0 % 97) " }.joined().utf8)

    func testRoundTripThroughTheFastPath() throws {
        let gz = try Deflate.gzip(text)
        XCTAssertEqual(try Deflate.inflate(gz, container: .gzip, limit: text.count), text)
        XCTAssertThrowsError(try Deflate.inflate(gz, container: .gzip, limit: text.count - 1)) { e in
            XCTAssertEqual(e as? Deflate.Failure, .tooLarge(limit: text.count - 1))
        }
    }

    func testALyingTrailerIsDamageNotAnOverflow() throws {
        var gz = try Deflate.gzip(text)
        // ISIZE claims 10 bytes: the fast path's 10-byte buffer is too small, so it declines; zlib's stream
        // then reads within the limit and reports the mismatch.
        let n = gz.count
        gz[n - 4] = 10; gz[n - 3] = 0; gz[n - 2] = 0; gz[n - 1] = 0
        XCTAssertThrowsError(try Deflate.inflate(gz, container: .gzip, limit: 1 << 24)) { e in
            guard case .corrupt = e as? Deflate.Failure else { return XCTFail("\(e)") }
        }
    }

    func testTwoMembersAreBothRead() throws {
        let half = text.count / 2
        let gz = try Deflate.gzip(Array(text[..<half])) + Deflate.gzip(Array(text[half...]))
        XCTAssertEqual(try Deflate.inflate(gz, container: .gzip, limit: 1 << 24), Array(text[..<half]),
                       "zlib's stream stops after the first member, as before; the fast path must not differ")
    }

    func testTruncatedDataIsAnError() throws {
        let gz = try Deflate.gzip(text)
        XCTAssertThrowsError(try Deflate.inflate(Array(gz[..<(gz.count / 2)]), container: .gzip, limit: 1 << 24))
    }
}
