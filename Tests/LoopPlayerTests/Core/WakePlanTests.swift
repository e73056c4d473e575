@testable import LoopPlayer
import XCTest

/// When the engine's loop comes back, for every kind of step, in real time and on a virtual clock.
final class WakePlanTests: XCTestCase {
    private struct Row {
        let plan: WakePlan
        let decision: WakePlan.Decision
        let line: UInt
    }

    private func row(_ step: WakePlan.Step, _ deadlines: [Double?] = [], stop: Double? = nil, starving: Double? = nil,
                     exitAtEnd: Bool = false, virtual: Bool = false, loading: Bool = false,
                     expect decision: WakePlan.Decision, line: UInt = #line) -> Row {
        Row(plan: WakePlan(step: step, deadlines: deadlines, stopDeadline: stop, starvationDeadline: starving,
                           exitAtEnd: exitAtEnd, virtualClock: virtual, loading: loading),
            decision: decision, line: line)
    }

    func testEveryStep() {
        let rows = [
            // A frame was shown: the next may be due at once, whatever else waits.
            row(.shown, [1], stop: 2, expect: .again),
            row(.shown, virtual: true, expect: .again),
            row(.finished, [1], expect: .finished),
            row(.finished, virtual: true, expect: .finished),
            // Real time: sleep until the earliest of the frame's time and the other deadlines.
            row(.waitUntil(5), [3], expect: .wait(3)),
            row(.waitUntil(5), [nil, 7], stop: 4, expect: .wait(5)),
            // Waiting for frames: the stop time or the moment an empty queue is buffering.
            row(.waitForFrames, [6], stop: 9, starving: 4, expect: .wait(4)),
            row(.waitForFrames, stop: 9, expect: .wait(9)),
            row(.waitForFrames, expect: .wait(nil)),
            // Idle, ended or nothing to present: only the stop time and the other deadlines; starvation
            // is not a reason to wake.
            row(.idle, stop: 2, starving: 1, expect: .wait(2)),
            row(.idle, expect: .wait(nil)),
            row(.nothing, [nil], stop: 8, expect: .wait(8)),
            row(.ended, [3], expect: .wait(3)),
            row(.ended, [3], exitAtEnd: true, expect: .finished),
            row(.ended, exitAtEnd: true, virtual: true, expect: .finished),
            // A virtual clock jumps to the next deadline when nothing else can move.
            row(.idle, [3, 2], virtual: true, expect: .advanceClock(to: 2)),
            row(.waitUntil(5), [7], virtual: true, expect: .advanceClock(to: 5)),
            row(.ended, stop: 4, virtual: true, expect: .advanceClock(to: 4)),
            row(.idle, virtual: true, expect: .wait(nil)),
            // ...but waiting for the source or the decoder sleeps until they wake the loop.
            row(.waitForFrames, [1], stop: 2, virtual: true, expect: .wait(nil)),
            row(.nothing, [1], virtual: true, loading: true, expect: .wait(nil)),
        ]
        for row in rows {
            XCTAssertEqual(row.plan.decision, row.decision, "\(row.plan.step)", line: row.line)
        }
    }

    func testEarliest() {
        XCTAssertEqual(earliest(nil, nil), nil)
        XCTAssertEqual(earliest(3, nil), 3)
        XCTAssertEqual(earliest(nil, 2), 2)
        XCTAssertEqual(earliest(3, 2), 2)
    }
}
