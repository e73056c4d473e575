import LoopPlayerCore
import XCTest

/// A playlist of 4 s, 2 s and 3 s on a timeline from t = 1000: a 9 s cycle.
final class TimelineScheduleTests: XCTestCase {
    private let schedule = TimelineSchedule(lengths: [4, 2, 3])!

    func testItemsFollowEachOtherCycleAfterCycle() {
        XCTAssertEqual(schedule.cycle, 9)
        XCTAssertEqual(schedule.offset(of: 2), 6)
        XCTAssertTrue(schedule.place(at: 990, epoch: 1000) == (0, 0, 0), "before the epoch: the first item's start")
        XCTAssertTrue(schedule.place(at: 1000, epoch: 1000) == (0, 0, 0))
        XCTAssertTrue(schedule.place(at: 1005.5, epoch: 1000) == (0, 1, 1.5))
        XCTAssertTrue(schedule.place(at: 1006, epoch: 1000) == (0, 2, 0), "an item starts where the one before ends")
        let later = schedule.place(at: 1000 + 9 * 1000 + 8.25, epoch: 1000)
        XCTAssertEqual(later.cycle, 1000)
        XCTAssertEqual(later.item, 2)
        XCTAssertEqual(later.position, 2.25, accuracy: 1e-6)
        XCTAssertEqual(schedule.start(of: 1, inCycle: 3, epoch: 1000), 1031)
    }

    func testTheCurrentOrNextStartOfAnItem() {
        // Item 1 (2 s at offset 4): playing at 1005, over at 1006.5 (the next cycle's at 1013).
        XCTAssertTrue(schedule.currentOrNextStart(of: 1, at: 1005, epoch: 1000) == (0, 1004))
        XCTAssertTrue(schedule.currentOrNextStart(of: 1, at: 1006.5, epoch: 1000) == (1, 1013))
        XCTAssertTrue(schedule.currentOrNextStart(of: 0, at: 1008.9, epoch: 1000) == (1, 1009), "the next cycle's, just ahead")
        XCTAssertTrue(schedule.currentOrNextStart(of: 2, at: 990, epoch: 1000) == (0, 1006), "before the epoch")
    }

    func testLengthsThatCannotMakeASchedule() {
        XCTAssertNil(TimelineSchedule(lengths: []))
        XCTAssertNil(TimelineSchedule(lengths: [4, 0]))
        XCTAssertNil(TimelineSchedule(lengths: [4, .infinity]))
        XCTAssertNil(TimelineSchedule(lengths: [.nan]))
    }
}
