@testable import LoopPlayer
import XCTest

final class EventBatcherTests: XCTestCase {
    func testOneBatchPerSecondOnAFixedGridAndNothingForEmptySeconds() {
        var batcher = EventBatcher(selection: .all)
        batcher.start(at: 10)
        batcher.record(.playing, at: 10.2)
        batcher.record(.paused, at: 10.999)
        batcher.record(.loopCompleted(1), at: 11.0)
        batcher.record(.ended, at: 13.5)
        XCTAssertEqual(batcher.flush(at: 10.99), [])
        XCTAssertEqual(batcher.nextDeadline, 11)
        XCTAssertEqual(batcher.flush(at: 11), [[.playing, .paused]])
        XCTAssertEqual(batcher.nextDeadline, 12)
        XCTAssertEqual(batcher.flush(at: 15), [[.loopCompleted(1)], [.ended]], "second 12 had nothing")
        XCTAssertNil(batcher.nextDeadline)
    }

    func testFilterAdmitsOnlySelectedCases() {
        var batcher = EventBatcher(selection: .only([.errorAny, .loopCompletedAny]))
        batcher.start(at: 0)
        batcher.record(.playing, at: 0.1)
        batcher.record(.loopCompleted(3), at: 0.2)
        batcher.record(.error(.emptyFile(source: "x")), at: 0.3)
        XCTAssertEqual(batcher.flush(at: 1), [[.loopCompleted(3), .error(.emptyFile(source: "x"))]])
        var silent = EventBatcher(selection: .none)
        silent.record(.playing, at: 0)
        XCTAssertNil(silent.nextDeadline)
    }

    func testTimePublisherTicksOnceAndSkipsMissedTicks() {
        var publisher = TimePublisher(interval: nil)
        publisher.start(at: 5, interval: 0.5)
        XCTAssertFalse(publisher.isDue(at: 5.4))
        XCTAssertTrue(publisher.isDue(at: 5.5))
        XCTAssertFalse(publisher.isDue(at: 5.6))
        XCTAssertTrue(publisher.isDue(at: 7.2), "a stall delivers one tick, not four")
        XCTAssertEqual(publisher.nextDeadline, 7.5)
        publisher.stop()
        XCTAssertFalse(publisher.isDue(at: 100))
    }
}
