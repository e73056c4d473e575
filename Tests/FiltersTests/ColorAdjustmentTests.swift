import Filters
import XCTest

final class ColorAdjustmentTests: XCTestCase {
    func testIdentityLeavesEveryLevelAlone() {
        let identity = ColorAdjustment()
        XCTAssertTrue(identity.isIdentity)
        for level in 0...255 { XCTAssertEqual(identity.adjust(luma: UInt8(level)), UInt8(level)) }
    }

    func testValuesAreClampedToTheirRanges() {
        let adjustment = ColorAdjustment(brightness: 3, contrast: -2)
        XCTAssertEqual(adjustment.brightness, 1)
        XCTAssertEqual(adjustment.contrast, 0)
        var changed = ColorAdjustment()
        changed.contrast = .nan
        XCTAssertEqual(changed.contrast, 1)
    }

    func testContrastPivotsOnMidGreyAndBrightnessShifts() {
        XCTAssertEqual(ColorAdjustment(contrast: 2).adjust(luma: 192), 255)
        XCTAssertEqual(ColorAdjustment(contrast: 2).adjust(luma: 128), 128)
        XCTAssertEqual(ColorAdjustment(contrast: 0.5).adjust(luma: 0), 64)
        XCTAssertEqual(ColorAdjustment(brightness: 0.1).adjust(luma: 100), 126)
    }
}
