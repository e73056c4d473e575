@testable import LoopPlayer
import XCTest

/// `ItemEnd` as a table: what is queued, held and settling in, the engine's action out.
final class ItemEndTests: XCTestCase {
    func testTheQueuedItemFollowsWhateverElseIsPending() {
        for holds in [false, true] {
            for settling in [false, true] {
                XCTAssertEqual(ItemEnd(queued: true, holdsLastFrame: holds, settling: settling), .advance)
            }
        }
    }

    func testAReplacedFileHoldsTheLastFrameUntilItsNewContentIsQueued() {
        XCTAssertEqual(ItemEnd(queued: false, holdsLastFrame: true, settling: true), .holdLastFrame)
        XCTAssertEqual(ItemEnd(queued: false, holdsLastFrame: true, settling: false), .holdLastFrame)
    }

    func testAShortItemSettlesItsSwitchBeforeTheEnd() {
        XCTAssertEqual(ItemEnd(queued: false, holdsLastFrame: false, settling: true), .settleThenAdvance)
        XCTAssertEqual(ItemEnd(queued: false, holdsLastFrame: false, settling: false), .end)
    }
}
