@testable import LoopPlayer
import XCTest

/// The playlist's order rules, without media: what comes next and before, and what inserting,
/// removing and failing do to the item playing.
final class PlaylistStateTests: XCTestCase {
    private func list(_ count: Int, current: Int = 0, loops: Bool = false) -> PlaylistState {
        var state = PlaylistState(items: (0..<count).map { "item\($0)" }, loops: loops)
        state.move(to: current)
        return state
    }

    func testNextAndPreviousWithAndWithoutLooping() {
        // (count, current, loops) → (next, previous)
        let rows: [(Int, Int, Bool, Int?, Int, UInt)] = [
            (3, 0, false, 1, 0, #line),    // before the first: the first again
            (3, 1, false, 2, 0, #line),
            (3, 2, false, nil, 1, #line),  // after the last: nothing
            (3, 0, true, 1, 2, #line),     // before the first: the last
            (3, 2, true, 0, 1, #line),     // after the last: the first
            (1, 0, true, 0, 0, #line),     // one item looping: itself
            (1, 0, false, nil, 0, #line),
        ]
        for (count, current, loops, next, previous, line) in rows {
            let state = list(count, current: current, loops: loops)
            XCTAssertEqual(state.nextIndex, next, "next", line: line)
            XCTAssertEqual(state.previousIndex, previous, "previous", line: line)
        }
    }

    /// A looping list with a number of passes ends after its last item of the last pass.
    func testPassesOfALoopingList() {
        var state = PlaylistState(items: ["a", "b"], loops: true, passes: 2)
        state.move(to: 0)
        XCTAssertEqual(state.nextIndex, 1)
        state.move(to: 1)
        XCTAssertEqual(state.nextIndex, 0, "the second pass")
        state.move(to: 0)
        XCTAssertEqual(state.passesBegun, 2)
        state.move(to: 1)
        XCTAssertNil(state.nextIndex, "two passes played")
        var one = PlaylistState(items: ["a"], loops: true, passes: 3)
        for _ in 0..<3 {
            XCTAssertEqual(one.nextIndex, 0)
            one.move(to: 0, inOrder: true)
        }
        // A retry of the one item, or a jump to it, is no new pass.
        one.move(to: 0)
        XCTAssertEqual(one.passesBegun, 3)
        XCTAssertEqual(one.passesBegun, 3)
        XCTAssertNil(one.nextIndex)
    }

    /// A list whose last item fails goes from the item before it straight back to the first:
    /// that is a new pass all the same (it used to count none, and `passes` never ended it).
    func testPassesCountWhenTheListWrapsPastAFailedItem() {
        var state = PlaylistState(items: ["a", "missing"], loops: true, passes: 2)
        state.move(to: 0)
        XCTAssertEqual(state.nextIndex, 1)
        // "missing" failed while queued: the item after it (a, again) takes over in order.
        XCTAssertEqual(state.index(after: 1), 0)
        state.move(to: 0, inOrder: true)
        XCTAssertEqual(state.passesBegun, 2)
        XCTAssertNil(state.index(after: 1), "two passes begun: the list ends after this one")
        // A jump the user asks for back to the first item is no new pass.
        var jumped = PlaylistState(items: ["a", "b", "c"], loops: true)
        jumped.move(to: 0)
        jumped.move(to: 1, inOrder: true)
        jumped.move(to: 0)
        XCTAssertEqual(jumped.passesBegun, 1)
    }

    func testMoveOutsideTheListIsRefused() {
        var state = list(2, current: 1)
        XCTAssertFalse(state.move(to: 2))
        XCTAssertFalse(state.move(to: -1))
        XCTAssertEqual(state.current, 1)
    }

    func testInsertKeepsTheCurrentItemCurrent() {
        var state = list(3, current: 1)
        XCTAssertEqual(state.insert("new", at: 0), 0)
        XCTAssertEqual(state.current, 2, "inserted before: the current item moved down")
        XCTAssertEqual(state.items[state.current], "item1")
        XCTAssertEqual(state.insert("after", at: 3), 3)
        XCTAssertEqual(state.current, 2, "inserted after: nothing moved")
        XCTAssertEqual(state.nextIndex, 3, "the inserted item plays next")
        XCTAssertEqual(state.insert("end", at: 99), 5, "clamped to the end")
        XCTAssertEqual(state.insert("start", at: -4), 0, "clamped to the start")
        XCTAssertEqual(state.items[state.current], "item1")
    }

    func testRemoveOtherAndCurrentItems() {
        var state = list(4, current: 2)
        XCTAssertEqual(state.remove(at: 7), .outside)
        XCTAssertEqual(state.remove(at: 0), .other)
        XCTAssertEqual(state.items[state.current], "item2", "the item playing is still current")
        XCTAssertEqual(state.remove(at: 2), .other, "after the current one")
        XCTAssertEqual(state.items, ["item1", "item2"])
        XCTAssertEqual(state.remove(at: 1), .current(next: nil), "the last item, not looping: nothing follows")
        XCTAssertEqual(state.current, 0, "still a valid index")

        var looping = list(3, current: 2, loops: true)
        XCTAssertEqual(looping.remove(at: 2), .current(next: 0), "looping: the first follows the last")
        var middle = list(3, current: 1)
        XCTAssertEqual(middle.remove(at: 1), .current(next: 1), "the one after takes its place")
        XCTAssertEqual(middle.items[1], "item2")
        var only = list(1)
        XCTAssertEqual(only.remove(at: 0), .current(next: nil))
        XCTAssertTrue(only.items.isEmpty)
        XCTAssertNil(only.nextIndex)
    }

    func testEveryItemFailingInARowStopsTheList() {
        var state = list(3, loops: true)
        XCTAssertTrue(state.failed())
        XCTAssertTrue(state.failed())
        XCTAssertFalse(state.failed(), "three of three failed: stop")
        state.played()
        XCTAssertTrue(state.failed(), "a played item ends the streak")
    }
}
