@testable import LoopPlayer
@testable import LoopPlayerCore
import XCTest

/// The engine's small owners that decide from values alone: what was said of a source (each change
/// once), and which OSD messages show for how long.
final class EngineOwnersTests: XCTestCase {
    func testAnItemSaysItsLengthOnceAndAgainWhenTheMeasuredOneDiffers() {
        var said = ItemAnnouncements(underrunsBefore: 0)
        XCTAssertNil(said.duration(nil))
        XCTAssertEqual(said.duration(10), .duration(10))  // announced by the container
        XCTAssertNil(said.duration(10 + 1e-9))  // the measured pass: the same length
        XCTAssertEqual(said.duration(9.96), .duration(9.96))
        XCTAssertNil(said.duration(9.96))
    }

    func testUnderrunsOfEarlierSourcesAreNotAnItemsOwn() {
        var said = ItemAnnouncements(underrunsBefore: 3)
        XCTAssertNil(said.underruns(3))
        XCTAssertEqual(said.underruns(4), .waitingToPlayAtSpecifiedRate)
        XCTAssertNil(said.underruns(4))
        said.takesOver(underruns: 7)  // the items before it underran meanwhile
        XCTAssertNil(said.underruns(7))
        XCTAssertEqual(said.underruns(8), .waitingToPlayAtSpecifiedRate)
    }

    func testBoundsAreSaidWhenTheyChange() {
        var said = ItemAnnouncements(underrunsBefore: 0)
        let full = Rect(x: 0, y: 0, width: 640, height: 360)
        XCTAssertEqual(said.bounds(full), .boundsChanged(full))
        XCTAssertNil(said.bounds(full))
        let boxed = Rect(x: 0, y: 60, width: 640, height: 240)
        XCTAssertEqual(said.bounds(boxed), .boundsChanged(boxed))
    }

    func testMessagesFollowTheWindowsLevelAndDuration() {
        var options = WindowOptions()
        options.osdLevel = 2
        options.osdDuration = 3
        let window = OnScreenMessages(.window(options))
        XCTAssertTrue(window.shows(level: 2))
        XCTAssertFalse(window.shows(level: 3))
        XCTAssertEqual(window.message("Paused", duration: nil, at: 5), OnScreenMessage("Paused", shownAt: 5, duration: 3))
        XCTAssertEqual(window.message("Hi", duration: 0.5, at: 5), OnScreenMessage("Hi", shownAt: 5, duration: 0.5))
        XCTAssertNil(window.message("", duration: nil, at: 5), "an empty text removes the message")

        let offscreen = OnScreenMessages(.offscreen)
        XCTAssertTrue(offscreen.shows(level: 1))
        XCTAssertFalse(offscreen.shows(level: 2))
        XCTAssertEqual(offscreen.duration, WindowOptions.defaultOSDDuration)
    }
}
