import InkCore
import XCTest

final class ImagePlacementTests: XCTestCase {
    func testSmallPictureKeepsOneUnitPerPixelCentred() {
        let f = ImagePlacement.frame(pixelWidth: 100, pixelHeight: 50, visible: Rect(minX: 0, minY: 0, maxX: 600, maxY: 800))
        XCTAssertEqual(f, Rect(minX: 250, minY: 375, maxX: 350, maxY: 425))
    }

    func testLargePictureFitsWithinTheVisibleAreaKeepingItsShape() {
        let visible = Rect(minX: 100, minY: 200, maxX: 700, maxY: 600)
        let f = ImagePlacement.frame(pixelWidth: 3000, pixelHeight: 1000, visible: visible)
        XCTAssertEqual(f.width, 480, accuracy: 1e-9)   // 80 % of 600 wide
        XCTAssertEqual(f.height, 160, accuracy: 1e-9)  // same aspect ratio
        XCTAssertEqual(f.minX + f.width / 2, 400, accuracy: 1e-9)
        XCTAssertEqual(f.minY + f.height / 2, 400, accuracy: 1e-9)
        let tall = ImagePlacement.frame(pixelWidth: 500, pixelHeight: 4000, visible: visible)
        XCTAssertEqual(tall.height, 320, accuracy: 1e-9)
        XCTAssertEqual(tall.width, 40, accuracy: 1e-9)
    }

    func testDroppedPictureCentresOnTheDropPoint() {
        let f = ImagePlacement.frame(pixelWidth: 10, pixelHeight: 20, visible: Rect(minX: 0, minY: 0, maxX: 600, maxY: 800), centre: Point(x: 5, y: 5))
        XCTAssertEqual(f, Rect(minX: 0, minY: -5, maxX: 10, maxY: 15))
    }
}
