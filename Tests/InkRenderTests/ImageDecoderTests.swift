import Foundation
import InkCore
@testable import InkRender
import TestSupport
import XCTest

/// Test pictures made with ImageMagick: 40×30, left half red, right half blue.
enum TestImages {
    static let red = RGBA(r: 220, g: 20, b: 30), blue = RGBA(r: 30, g: 80, b: 220)

    static func make(_ format: String, quality: Int = 95) throws -> [UInt8] {
        let path = Fixture.tempPath("halves.\(format)")
        guard let convert = Fixture.tool("convert") else { throw XCTSkip("ImageMagick's convert is not installed") }
        let status = try Fixture.run(convert, ["-size", "40x30", "xc:\(red.hex.prefix(7))", "-fill", String(blue.hex.prefix(7)),
                                               "-draw", "rectangle 20,0 39,29", "-quality", "\(quality)", "\(format):\(path)"])
        XCTAssertEqual(status, 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

final class ImageDecoderTests: XCTestCase {
    func testPNGAndJPEGDecodeToTheirPixels() throws {
        for format in ["png", "jpg"] {
            let s = try ImageDecoder.decode(try TestImages.make(format))
            XCTAssertEqual([s.width, s.height], [40, 30], format)
            let tolerance = format == "png" ? 0 : 12
            XCTAssertColor(s.pixel(x: 5, y: 15), near: TestImages.red, tolerance: tolerance, format)
            XCTAssertColor(s.pixel(x: 35, y: 15), near: TestImages.blue, tolerance: tolerance, format)
        }
    }

    /// A phone photo stored landscape with EXIF orientation 6 is shown portrait, and every orientation turns the
    /// pixels as ImageMagick's -auto-orient does (the reference), with the header's size.
    func testEXIFOrientationIsApplied() throws {
        guard let convert = Fixture.tool("convert") else { throw XCTSkip("ImageMagick's convert is not installed") }
        // 40×30: top-left quarter red, bottom-left green, right half blue: every turn and mirror looks different.
        let path = Fixture.tempPath("quarters.jpg")
        XCTAssertEqual(try Fixture.run(convert, ["-size", "40x30", "xc:#1e50dc", "-fill", "#dc141e", "-draw", "rectangle 0,0 19,14",
                                                 "-fill", "#14b41e", "-draw", "rectangle 0,15 19,29", "-quality", "95", "jpg:" + path]), 0)
        let plain = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let red = RGBA(r: 220, g: 20, b: 30), green = RGBA(r: 20, g: 180, b: 30), blue = RGBA(r: 30, g: 80, b: 220)

        // Orientation 6 (the camera held upright): 30×40, the stored left edge on top, the right (blue) at the bottom,
        // the stored top (red) on the right.
        let upright = try ImageDecoder.decode(ImageBytes.inserting(ImageBytes.exifSegment(orientation: 6), into: plain))
        XCTAssertEqual([upright.width, upright.height], [30, 40])
        XCTAssertColor(upright.pixel(x: 25, y: 5), near: red, tolerance: 16, "top right")
        XCTAssertColor(upright.pixel(x: 5, y: 5), near: green, tolerance: 16, "top left")
        XCTAssertColor(upright.pixel(x: 15, y: 35), near: blue, tolerance: 16, "bottom")

        for o in 1...8 {
            let bytes = ImageBytes.inserting(ImageBytes.exifSegment(orientation: o, littleEndian: o % 2 == 0), into: plain)
            let turned = Fixture.tempPath("turned-\(o).jpg"), reference = Fixture.tempPath("reference-\(o).png")
            try Data(bytes).write(to: URL(fileURLWithPath: turned))
            XCTAssertEqual(try Fixture.run(convert, [turned, "-auto-orient", "png:" + reference]), 0)
            let want = try ImageSurface.load(png: reference)
            let got = try ImageDecoder.decode(bytes)
            XCTAssertEqual([got.width, got.height], [want.width, want.height], "orientation \(o)")
            XCTAssertEqual([got.width, got.height], [try ImageHeader(reading: bytes).width, try ImageHeader(reading: bytes).height])
            for (x, y) in [(4, 4), (want.width - 5, 4), (4, want.height - 5), (want.width - 5, want.height - 5)] {
                XCTAssertColor(got.pixel(x: x, y: y), near: want.pixel(x: x, y: y), tolerance: 16, "orientation \(o) at (\(x), \(y))")
            }
        }
    }

    func testHostileBytesAreOneLineErrors() throws {
        let jpeg = try TestImages.make("jpg"), png = try TestImages.make("png")
        let cases: [(String, [UInt8])] = [
            ("bomb", ImageBytes.pngHeader(width: 100_000, height: 100_000)),
            ("truncated JPEG", Array(jpeg[..<(jpeg.count * 2 / 3)])),
            ("truncated PNG", Array(png[..<(png.count * 2 / 3)])),
            ("junk", Array(repeating: 0x5A, count: 300)),
            ("PNG header, junk after", Array(png[..<33]) + Array(repeating: 0x5A, count: 300)),
            ("JPEG markers, junk scan", [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0, 10, 0, 10, 1, 1, 0x11, 0, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 1, 2, 3, 0xFF, 0xD9]),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try ImageDecoder.decode(bytes), name) { e in
                XCTAssertTrue(e is ImageError, "\(name): \(e)")
                XCTAssertFalse("\(e)".contains("\n"), "\(name): \(e)")
            }
        }
    }

    func testFramesDrawFromTheCacheAndZoomedOutUsesASmallerLevel() throws {
        let painter = ImagePainter()
        let halves = ContentHash(of: Array("halves".utf8))
        painter.provide(hash: halves, bytes: try TestImages.make("png"))
        XCTAssertNil(painter.prepare(halves), "decodes")
        XCTAssertEqual(painter.decodeCount, 1)
        let target = try ImageSurface(width: 80, height: 60)
        for _ in 0..<3 {
            let ctx = CairoContext(drawingInto: target)
            ctx.setTransform(scale: 2, dx: 0, dy: 0)
            painter.draw(hash: halves, pixelWidth: 40, rect: Rect(minX: 0, minY: 0, maxX: 40, maxY: 30), transform: .identity,
                         in: ctx, deviceScale: 2)
        }
        XCTAssertEqual(painter.decodeCount, 1, "frames reuse the decoded surface")
        XCTAssertColor(target.pixel(x: 10, y: 30), near: TestImages.red, tolerance: 0)
        XCTAssertColor(target.pixel(x: 70, y: 30), near: TestImages.blue, tolerance: 0)
        XCTAssertEqual(ImagePainter.level(pixels: 4000, deviceSize: 4000), 0)
        XCTAssertEqual(ImagePainter.level(pixels: 4000, deviceSize: 1000), 2)
        XCTAssertEqual(ImagePainter.level(pixels: 4000, deviceSize: 999), 2)
        XCTAssertEqual(ImagePainter.level(pixels: 4000, deviceSize: 1001), 1)
        XCTAssertEqual(painter.surface(halves, level: 1)?.width, 20)
        XCTAssertEqual(painter.decodeCount, 1, "a level is made from the decoded one")
    }

    func testUndecodableImageDrawsAPlaceholderNotNothing() throws {
        let painter = ImagePainter()
        let junk = ContentHash(of: Array("junk".utf8))
        painter.provide(hash: junk, bytes: Array(repeating: 7, count: 100))
        let target = try ImageSurface(width: 50, height: 50)
        let ctx = CairoContext(drawingInto: target)
        ctx.setTransform(scale: 1, dx: 0, dy: 0)
        painter.draw(hash: junk, pixelWidth: 50, rect: Rect(minX: 0, minY: 0, maxX: 50, maxY: 50), transform: .identity, in: ctx, deviceScale: 1)
        XCTAssertEqual(target.pixel(x: 40, y: 10).a, 255)
        XCTAssertEqual(painter.failure(junk), .notAnImage)
        XCTAssertEqual(painter.prepare(junk), .notAnImage, "what inserting it would say")
        XCTAssertEqual(painter.prepare(ContentHash(of: [1, 2, 3])), .notAnImage, "bytes never given")
    }
}
