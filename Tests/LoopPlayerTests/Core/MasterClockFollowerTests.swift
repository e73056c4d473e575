@testable import LoopPlayer
import XCTest

/// `MasterClockFollower`: one row per reading (locked or not before it) → the anchor shift, the
/// offset sample and whether it follows afterwards; then closed-loop runs with the scheduler.
final class MasterClockFollowerTests: XCTestCase {

    struct Row {
        var locked: Bool
        var picture: Double
        var frameTime: Double
        var heard: Double?
        var speed: Double
        var shift: Double
        var offsetMs: Double?
        var lockedAfter: Bool
        var line: UInt
    }

    private static func row(locked: Bool, picture: Double, frame: Double? = nil, heard: Double?, speed: Double = 1,
                            shift: Double, offsetMs: Double?, lockedAfter: Bool, line: UInt = #line) -> Row {
        Row(locked: locked, picture: picture, frameTime: frame ?? picture, heard: heard, speed: speed, shift: shift,
            offsetMs: offsetMs, lockedAfter: lockedAfter, line: line)
    }

    static let rows: [Row] = [
        // Nothing heard, or speed 0: the picture leads, and the next reading joins again.
        row(locked: false, picture: 1, heard: nil, shift: 0, offsetMs: nil, lockedAfter: false),
        row(locked: true, picture: 1, heard: nil, shift: 0, offsetMs: nil, lockedAfter: false),
        row(locked: true, picture: 1.05, heard: 1, speed: 0, shift: 0, offsetMs: nil, lockedAfter: false),
        // Joining: the whole difference at once, no offset sample (it is not following yet).
        row(locked: false, picture: 1.05, heard: 1, shift: 0.05, offsetMs: nil, lockedAfter: true),
        row(locked: false, picture: 1, heard: 1.3, shift: -0.3, offsetMs: nil, lockedAfter: true),
        row(locked: false, picture: 1.0002, heard: 1, shift: 0.0002, offsetMs: nil, lockedAfter: true),  // no dead band
        row(locked: false, picture: 1.05, heard: 1, speed: 2, shift: 0.025, offsetMs: nil, lockedAfter: true),
        row(locked: false, picture: 1.05, heard: 1, speed: 0.5, shift: 0.1, offsetMs: nil, lockedAfter: true),
        // Following: the dead band (0.5 ms, inclusive; exact binary values at the edges).
        row(locked: true, picture: 1.0004, heard: 1, shift: 0, offsetMs: 0.4, lockedAfter: true),
        row(locked: true, picture: 0.0005, heard: 0, shift: 0, offsetMs: 0.5, lockedAfter: true),
        row(locked: true, picture: 0, heard: 0.0005, shift: 0, offsetMs: -0.5, lockedAfter: true),
        // A tenth of the drift…
        row(locked: true, picture: 1.002, heard: 1, shift: 0.0002, offsetMs: 2, lockedAfter: true),
        row(locked: true, picture: 1, heard: 1.006, shift: -0.0006, offsetMs: -6, lockedAfter: true),
        row(locked: true, picture: 1.01, heard: 1, shift: 0.001, offsetMs: 10, lockedAfter: true),
        // …at most 1 ms of media time per frame…
        row(locked: true, picture: 1.05, heard: 1, shift: 0.001, offsetMs: 50, lockedAfter: true),
        row(locked: true, picture: 1, heard: 1.05, shift: -0.001, offsetMs: -50, lockedAfter: true),
        row(locked: true, picture: 0.2, heard: 0, shift: 0.001, offsetMs: 200, lockedAfter: true),  // 200 ms: still slews
        // …in clock time at the current speed.
        row(locked: true, picture: 1.002, heard: 1, speed: 2, shift: 0.0001, offsetMs: 2, lockedAfter: true),
        row(locked: true, picture: 1.05, heard: 1, speed: 2, shift: 0.0005, offsetMs: 50, lockedAfter: true),
        row(locked: true, picture: 1.05, heard: 1, speed: 0.5, shift: 0.002, offsetMs: 50, lockedAfter: true),
        // More than 200 ms apart: join again (the offset is still sampled).
        row(locked: true, picture: 1.25, heard: 1, shift: 0.25, offsetMs: 250, lockedAfter: true),
        row(locked: true, picture: 1, heard: 1.3, shift: -0.3, offsetMs: -300, lockedAfter: true),
        row(locked: true, picture: 1.25, heard: 1, speed: 2, shift: 0.125, offsetMs: 250, lockedAfter: true),
        // The offset is the frame's time against what is heard, not the picture's clock.
        row(locked: true, picture: 1.01, frame: 1, heard: 1.005, shift: 0.0005, offsetMs: -5, lockedAfter: true),
    ]

    func testEveryRow() {
        for row in Self.rows {
            var follower = MasterClockFollower()
            if row.locked { _ = follower.follow(picture: 0, frameTime: 0, heard: 0, speed: 1) }
            XCTAssertEqual(follower.locked, row.locked, line: row.line)
            let correction = follower.follow(picture: row.picture, frameTime: row.frameTime, heard: row.heard, speed: row.speed)
            XCTAssertEqual(correction.anchorShift, row.shift, accuracy: 1e-9, "shift", line: row.line)
            if let expected = row.offsetMs {
                XCTAssertEqual(correction.offsetMs ?? .nan, expected, accuracy: 1e-6, "offset", line: row.line)
            } else {
                XCTAssertNil(correction.offsetMs, "offset", line: row.line)
            }
            XCTAssertEqual(follower.locked, row.lockedAfter, "locked after", line: row.line)
        }
    }

    func testReleaseMakesTheNextReadingJoin() {
        var follower = MasterClockFollower()
        _ = follower.follow(picture: 1, frameTime: 1, heard: 1, speed: 1)
        XCTAssertEqual(follower.follow(picture: 1.05, frameTime: 1.05, heard: 1, speed: 1).anchorShift, 0.001, accuracy: 1e-12)
        follower.release()
        XCTAssertFalse(follower.locked)
        let join = follower.follow(picture: 1.05, frameTime: 1.05, heard: 1, speed: 1)
        XCTAssertEqual(join.anchorShift, 0.05, accuracy: 1e-12)
        XCTAssertNil(join.offsetMs)
    }

    /// Closed loop: a picture 30 ms ahead of a locked sound closes by 1 ms a frame, then by a tenth,
    /// and stops inside the dead band; the picture moves evenly (no step over 1 ms).
    func testADriftClosesEvenlyAndSettlesInTheDeadBand() {
        var follower = MasterClockFollower()
        _ = follower.follow(picture: 0, frameTime: 0, heard: 0, speed: 1)
        var drift = 0.03
        var shifts: [Double] = []
        for _ in 0..<100 {
            let shift = follower.follow(picture: 10 + drift, frameTime: 10 + drift, heard: 10, speed: 1).anchorShift
            shifts.append(shift)
            drift -= shift  // moving the anchor later by `shift` makes the picture that much earlier
        }
        XCTAssertEqual(shifts.prefix(20).filter { $0 == 0.001 }.count, 20, "capped at 1 ms while ≥ 10 ms apart")
        XCTAssertTrue(shifts.allSatisfy { $0 >= 0 && $0 <= 0.001 + 1e-15 })
        XCTAssertLessThanOrEqual(abs(drift), MasterClockFollower.deadBand)
        XCTAssertGreaterThan(abs(drift), 0.0004, "it stops at the band's edge, not at zero")
        XCTAssertEqual(shifts.suffix(10), Array(repeating: 0, count: 10), "settled")
    }

    /// With the scheduler: a correction moves the next frame's due time by exactly the shift.
    func testACorrectionMovesTheNextFramesDueTime() {
        var scheduler = FrameScheduler()
        let first = FrameScheduler.Frame(time: 0, duration: 0.0625, pass: 0, positionInPass: 0, generation: 0)
        let second = FrameScheduler.Frame(time: 0.0625, duration: 0.0625, pass: 0, positionInPass: 0.0625, generation: 0)
        XCTAssertEqual(scheduler.decide(head: .frame(first), following: nil, now: 100, stop: StopCondition(), virtualClock: false), .show)
        scheduler.shown(first, at: 100)
        var follower = MasterClockFollower()
        // The sound is heard 40 ms behind the picture: joining moves the anchor 40 ms later.
        let join = follower.follow(picture: scheduler.mediaTime(at: 100), frameTime: 0, heard: -0.04, speed: scheduler.speed)
        scheduler.shiftAnchor(by: join.anchorShift)
        XCTAssertEqual(scheduler.dueTime(of: second) ?? 0, 100.1025, accuracy: 1e-9)
        XCTAssertEqual(scheduler.mediaTime(at: 100.04), 0, accuracy: 1e-9)
        // Following: 5 ms ahead moves it 0.5 ms more.
        let step = follower.follow(picture: 0.005, frameTime: 0, heard: 0, speed: 1)
        scheduler.shiftAnchor(by: step.anchorShift)
        XCTAssertEqual(scheduler.dueTime(of: second) ?? 0, 100.103, accuracy: 1e-9)
        scheduler.recordAVOffset(ms: step.offsetMs ?? .nan)
        XCTAssertEqual(scheduler.statistics.avOffsetSamples, 1)
        XCTAssertEqual(scheduler.statistics.avOffsetMeanMs ?? .nan, 0, accuracy: 1e-9)
    }
}
