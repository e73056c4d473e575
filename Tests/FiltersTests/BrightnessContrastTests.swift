import Filters
import XCTest

/// Brightness and contrast through the player's libavfilter chain, against the documented math
/// (`ColorAdjustment.adjust(luma:)`), within ±1 code value.
final class BrightnessContrastTests: XCTestCase {
    func testGreyLevelsFollowTheDocumentedMath() throws {
        for (brightness, contrast) in [(Float(0), Float(1)), (0.2, 1), (-0.3, 1), (0, 2), (0, 0.5), (0.1, 1.5), (-0.2, 3), (0.5, 0)] {
            let adjustment = ColorAdjustment(brightness: brightness, contrast: contrast)
            for level in [0, 16, 64, 100, 128, 180, 235, 255] {
                let out = try filter(TestFrame(grey: UInt8(level)), brightness: brightness, contrast: contrast)
                let expected = Int(adjustment.adjust(luma: UInt8(level)))
                XCTAssertLessThanOrEqual(abs(Int(out.y[5][5]) - expected), 1,
                                         "Y \(level), brightness \(brightness), contrast \(contrast): \(out.y[5][5]) vs \(expected)")
                XCTAssertEqual(out.u[2][2], 128, "chroma is left alone")
            }
        }
    }

    func testRampFollowsTheDocumentedMath() throws {
        let ramp = TestFrame(width: 256, height: 4, luma: { x, _ in UInt8(x) })
        let adjustment = ColorAdjustment(brightness: 0.1, contrast: 1.3)
        let out = try filter(ramp, brightness: 0.1, contrast: 1.3)
        let worst = (0..<256).map { abs(Int(out.y[1][$0]) - Int(adjustment.adjust(luma: UInt8($0)))) }.max()!
        XCTAssertLessThanOrEqual(worst, 1)
    }

    func testValuesAreClampedAndSurviveRemovingTheFilters() throws {
        var stack = FilterStack([.invert], adjustment: ColorAdjustment(brightness: 9, contrast: -1))
        XCTAssertEqual(stack.adjustment, ColorAdjustment(brightness: 1, contrast: 0))
        stack.removeAll()
        XCTAssertTrue(stack.stages.isEmpty)
        XCTAssertEqual(stack.adjustment.brightness, 1, "brightness/contrast live outside the list")
        XCTAssertEqual(try filter(TestFrame(grey: 40), stack).y[3][3], 255)
    }

    /// `setAdjustment` changes the running chain by command (the graph itself is not rebuilt: the
    /// chain keeps its graphs; see FilterChain.setAdjustment).
    func testChangingTheAdjustmentTakesEffectOnTheRunningChain() throws {
        let chain = FilterChain(stack: FilterStack([.denoise(strength: 4)]), timeBase: .init(num: 1, den: 30))
        let frame = TestFrame(grey: 100)
        let before = try pictures(chain, frame, time: 0)[0]
        chain.setAdjustment(ColorAdjustment(brightness: 0.2))
        let after = try pictures(chain, frame, time: 0)[0]
        XCTAssertEqual(Int(before.y[4][4]), 100, accuracy: 1)
        XCTAssertEqual(Int(after.y[4][4]), 151, accuracy: 1, "the running lut took the command")
    }
}
