import LoopPlayer
import XCTest

final class LayoutTests: XCTestCase {
    private let wide = VideoGeometry(width: 640, height: 360)

    func testAspectLetterboxesInsideATallerArea() {
        let layout = VideoLayout(geometry: wide, gravity: .resizeAspect, areaWidth: 640, areaHeight: 640)
        XCTAssertEqual(layout.destination, Rect(x: 0, y: 140, width: 640, height: 360))
        XCTAssertEqual(layout.source, Rect(x: 0, y: 0, width: 640, height: 360))
    }

    func testAspectPillarboxesInsideAWiderArea() {
        let layout = VideoLayout(geometry: wide, gravity: .resizeAspect, areaWidth: 1000, areaHeight: 360)
        XCTAssertEqual(layout.destination, Rect(x: 180, y: 0, width: 640, height: 360))
    }

    func testFillCropsTheSourceAndCoversTheArea() {
        let layout = VideoLayout(geometry: wide, gravity: .resizeAspectFill, areaWidth: 360, areaHeight: 360)
        XCTAssertEqual(layout.destination, Rect(x: 0, y: 0, width: 360, height: 360))
        XCTAssertEqual(layout.source, Rect(x: 140, y: 0, width: 360, height: 360))
    }

    func testStretchUsesEverything() {
        let layout = VideoLayout(geometry: wide, gravity: .resize, areaWidth: 100, areaHeight: 700)
        XCTAssertEqual(layout.destination, Rect(x: 0, y: 0, width: 100, height: 700))
        XCTAssertEqual(layout.source, Rect(x: 0, y: 0, width: 640, height: 360))
    }

    func testAnamorphicPixelsWidenThePicture() {
        // 720x576 with 16:15 pixels shows as 768x576 (4:3).
        let pal = VideoGeometry(width: 720, height: 576, sampleAspectRatio: 16.0 / 15.0)
        XCTAssertEqual(pal.displaySize.width, 768, accuracy: 1e-9)
        let layout = VideoLayout(geometry: pal, gravity: .resizeAspect, areaWidth: 1024, areaHeight: 576)
        XCTAssertEqual(layout.destination.width, 768, accuracy: 1e-9)
        XCTAssertEqual(layout.destination.x, 128, accuracy: 1e-9)
    }

    func testQuarterTurnShowsAPortraitPicture() {
        let phone = VideoGeometry(width: 640, height: 360, rotation: 90)
        XCTAssertEqual(phone.displaySize.width, 360)
        XCTAssertEqual(phone.displaySize.height, 640)
        let layout = VideoLayout(geometry: phone, gravity: .resizeAspect, areaWidth: 640, areaHeight: 640)
        XCTAssertEqual(layout.destination, Rect(x: 140, y: 0, width: 360, height: 640))
    }

    func testFillWithAQuarterTurnCropsTheCodedHeight() {
        // Upright 360x640 in a 360x360 area: the screen's vertical axis is the coded horizontal one.
        let phone = VideoGeometry(width: 640, height: 360, rotation: 270)
        let layout = VideoLayout(geometry: phone, gravity: .resizeAspectFill, areaWidth: 360, areaHeight: 360)
        XCTAssertEqual(layout.source, Rect(x: 140, y: 0, width: 360, height: 360))
    }

    func testRotationIsNormalised() {
        XCTAssertEqual(VideoGeometry(width: 2, height: 2, rotation: -90).rotation, 270)
        XCTAssertEqual(VideoGeometry(width: 2, height: 2, rotation: 450).rotation, 90)
    }

    func testGravityParsesModelAndShortNamesAndRejectsOthers() throws {
        XCTAssertEqual(try VideoGravity(parsing: "resizeAspectFill"), .resizeAspectFill)
        XCTAssertEqual(try VideoGravity(parsing: "stretch"), .resize)
        XCTAssertEqual(try VideoGravity(parsing: "aspect"), .resizeAspect)
        XCTAssertThrowsError(try VideoGravity(parsing: "sideways")) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "invalidSetting")
        }
    }
}
