@testable import LoopPlayer
import XCTest

/// `TimelineFollower`'s decisions as tables: times in, what the engine does out. No clock runs:
/// every time is a number in the table.
final class TimelineFollowerTests: XCTestCase {
    private final class Item {}
    private let item = Item()
    private let timeline = SharedTimeline(epoch: 1_000)
    private static let interval = 1.0 / 30

    /// The engine's view: system time `system`, monotonic `monotonic` (the offset is their
    /// difference), a 1 s loop unless said.
    private func moment(system: Double, monotonic: Double = 50, length: Double? = 1, exact: Bool = true,
                        generation: Int = 0, paused: Bool = false, playerPass: Int = 0,
                        onScreen: (pass: Int, position: Double)? = nil, location: String = "/a.mp4") -> TimelineFollower.Moment {
        TimelineFollower.Moment(item: ObjectIdentifier(item), location: .file(location), systemNow: system, monotonicNow: monotonic,
                                length: length, lengthIsExact: exact, generation: generation, isPaused: paused,
                                frameInterval: Self.interval, playerPass: playerPass, onScreen: onScreen)
    }

    private func plan(_ step: TimelineFollower.Step, file: StaticString = #filePath, line: UInt = #line) -> TimelineFollower.JoinPlan? {
        guard case let .join(plan) = step else {
            XCTFail("a join, not \(step)", file: file, line: line)
            return nil
        }
        return plan
    }

    /// A follower joined at system time 1002.3 (monotonic 50), its seek's generation 1.
    private func joined() throws -> TimelineFollower {
        var follower = TimelineFollower()
        let plan = try XCTUnwrap(plan(follower.step(moment(system: 1_002.3), on: timeline, schedule: nil)))
        _ = follower.joined(plan, generation: 1)
        return follower
    }

    func testTheJoinSeeksWhereTheTimelineWillBeAndPinsItsPass() throws {
        var follower = TimelineFollower()
        // 2.3 s after the epoch, 0.4 s ahead: pass 2 at 0.7 s; the player is in its pass 5.
        let plan = try XCTUnwrap(plan(follower.step(moment(system: 1_002.3, playerPass: 5), on: timeline, schedule: nil)))
        XCTAssertEqual(plan.seek?.position ?? -1, 0.7, accuracy: 1e-9)
        XCTAssertEqual(plan.seek?.pass, 5)
        XCTAssertNil(plan.epochIn)
        let joined = follower.joined(plan, generation: 1)
        // The player's pass 5 starts when the timeline's pass 2 does: 1002 on the system clock,
        // 1002 − (1002.3 − 50) on the monotonic one.
        XCTAssertEqual(joined.pin.media, 5, accuracy: 1e-9)
        XCTAssertEqual(joined.pin.clock, 49.7, accuracy: 1e-9)
        XCTAssertEqual(joined.soundRate, 1)
        XCTAssertTrue(follower.isJoined)
    }

    func testTheJoinHoldsWhileTheClocksSlewAndFollowsTheirOffset() throws {
        var follower = try joined()
        // 10 s later, the system clock 0.1 s ahead of where the monotonic one says (NTP slewing).
        let step = follower.step(moment(system: 1_012.4, monotonic: 60, generation: 1), on: timeline, schedule: nil)
        XCTAssertEqual(step, .pin(.init(media: 0, clock: 1_002 - (1_012.4 - 60))))
    }

    /// Table: what makes a joined player join again, and what does not.
    func testWhatMakesItJoinAgain() throws {
        let cases: [(String, TimelineFollower.Moment, joinsAgain: Bool)] = [
            ("the same clocks", moment(system: 1_003.3, monotonic: 51, generation: 1), false),
            ("a slew under the step limit", moment(system: 1_003.54, monotonic: 51, generation: 1), false),
            ("the system clock stepped 3 s", moment(system: 1_006.3, monotonic: 51, generation: 1), true),
            ("stepped back 0.3 s", moment(system: 1_003.0, monotonic: 51, generation: 1), true),
            ("another seek (an audio track's)", moment(system: 1_003.3, monotonic: 51, generation: 2), true),
            ("the measured length differs", moment(system: 1_003.3, monotonic: 51, length: 1.2, generation: 1), true),
        ]
        for (name, moment, joinsAgain) in cases {
            var follower = try joined()
            let step = follower.step(moment, on: timeline, schedule: nil)
            if case .join = step { XCTAssertTrue(joinsAgain, name) } else { XCTAssertFalse(joinsAgain, "\(name): \(step)") }
        }
        // Another item (a replaced file's new content) joins anew.
        var follower = try joined()
        let other = Item()
        var next = moment(system: 1_003.3, monotonic: 51, generation: 1)
        next.item = ObjectIdentifier(other)
        guard case .join = follower.step(next, on: timeline, schedule: nil) else { return XCTFail("another item joins") }
    }

    func testHeldItLeavesTheTimelineAndJoinsAfreshWhenItPlays() throws {
        var follower = try joined()
        XCTAssertEqual(follower.step(moment(system: 1_003.3, monotonic: 51, generation: 1, paused: true), on: timeline, schedule: nil), .hold)
        XCTAssertFalse(follower.isJoined)
        guard case .join = follower.step(moment(system: 1_004.3, monotonic: 52, generation: 1), on: timeline, schedule: nil) else {
            return XCTFail("joins when it plays")
        }
    }

    /// A clock stepping again within a second of the last step's join (it runs at another rate) is
    /// followed without a join, and said once.
    func testARunawayClockIsFollowedWithoutJoiningAgainAndAgain() throws {
        var follower = try joined()
        let first = try XCTUnwrap(plan(follower.step(moment(system: 1_006.3, monotonic: 51, generation: 1), on: timeline, schedule: nil)))
        _ = follower.joined(first, generation: 2)
        let step = follower.step(moment(system: 1_007.0, monotonic: 51.2, generation: 2), on: timeline, schedule: nil)
        guard case let .pin(pin) = step else { return XCTFail("followed, not \(step)") }
        XCTAssertEqual(pin.clock, first.join.pin(clockOffset: 1_007.0 - 51.2).clock, accuracy: 1e-9)
        XCTAssertTrue(follower.saidRunawayClock)
        // A step a while later is a step again: it joins.
        guard case .join = follower.step(moment(system: 1_012.0, monotonic: 55, generation: 2), on: timeline, schedule: nil) else {
            return XCTFail("a later step joins")
        }
    }

    /// Offsets of shown frames (seconds, positive: late) → what is said: out of step past one frame
    /// interval, back in step under half of one, nothing in between or when unchanged.
    func testOutOfStepAndBackInStep() throws {
        var follower = try joined()
        let table: [(Double, SyncStatus?)] = [
            (0.004, .inStep(offsetMs: 4)), (0.010, nil), (0.040, .outOfStep(offsetMs: 40)), (0.050, nil),
            (0.020, nil), (-0.040, nil), (0.012, .inStep(offsetMs: 12)), (-0.0351, .outOfStep(offsetMs: -35.1)),
        ]
        for (offset, said) in table {
            XCTAssertEqual(follower.frameShown(offset: offset, frameInterval: Self.interval), said, "\(offset)")
        }
    }

    func testNothingIsSaidBeforeTheLengthIsMeasured() throws {
        var follower = TimelineFollower()
        let plan = try XCTUnwrap(plan(follower.step(moment(system: 1_002.3, exact: false), on: timeline, schedule: nil)))
        _ = follower.joined(plan, generation: 1)
        XCTAssertNil(follower.frameShown(offset: 0.2, frameInterval: Self.interval))
        // Measured, equal to the announced one: the join stands, and offsets count from now on.
        XCTAssertEqual(follower.step(moment(system: 1_002.4, monotonic: 50.1, generation: 1), on: timeline, schedule: nil),
                       .pin(plan.join.pin(clockOffset: 1_002.3 - 50)))
        XCTAssertEqual(follower.frameShown(offset: 0.2, frameInterval: Self.interval), .outOfStep(offsetMs: 200))
    }

    /// Frames over a second late: it joins again, each time with twice the lead (up to its limit),
    /// and a join that came in step brings the lead back.
    func testALateJoinJoinsAgainWithALongerLead() throws {
        var follower = try joined()
        var leads: [Double] = []
        for _ in 0..<6 {
            XCTAssertEqual(follower.frameShown(offset: 1.5, frameInterval: Self.interval), .outOfStep(offsetMs: 1_500))
            XCTAssertFalse(follower.isJoined)
            leads.append(follower.lead)
            let plan = try XCTUnwrap(plan(follower.step(moment(system: 1_002.3, generation: 1), on: timeline, schedule: nil)))
            // The seek goes the lead ahead of now (modulo the 1 s loop).
            let ahead = (2.3 + follower.lead).truncatingRemainder(dividingBy: 1)
            XCTAssertEqual(plan.seek?.position ?? -1, ahead < 1 - Self.interval ? ahead : 0, accuracy: 1e-9)
            _ = follower.joined(plan, generation: 1)
        }
        XCTAssertEqual(leads, [0.8, 1.6, 3.2, 6.4, 6.4, 6.4])
        XCTAssertEqual(follower.frameShown(offset: 0, frameInterval: Self.interval), .inStep(offsetMs: 0))
        XCTAssertEqual(follower.lead, TimelineFollower.joinLead)
    }

    func testAnEpochAheadIsWaitedForFromThePassStart() throws {
        var follower = TimelineFollower()
        let plan = try XCTUnwrap(plan(follower.step(moment(system: 997, monotonic: 50), on: timeline, schedule: nil)))
        XCTAssertEqual(plan.seek?.position, 0)
        XCTAssertEqual(plan.join.timelinePass, 0)
        XCTAssertEqual(plan.epochIn, 3)
        let joined = follower.joined(plan, generation: 1)
        XCTAssertEqual(joined.pin.clock, 53, "pass 0 starts at the epoch: 3 s from now on the monotonic clock")
        XCTAssertEqual(follower.status, .waitingForEpoch(seconds: 3))
    }

    func testASourceWithoutALengthIsRefusedOnce() {
        var follower = TimelineFollower()
        guard case .refuse = follower.step(moment(system: 1_002, length: nil), on: timeline, schedule: nil) else {
            return XCTFail("refused")
        }
        XCTAssertEqual(follower.step(moment(system: 1_003, length: .infinity), on: timeline, schedule: nil), .hold)
        XCTAssertTrue(follower.refused(.file("/a.mp4")))
        XCTAssertFalse(follower.refused(.file("/b.mp4")))
        guard case .refuse = follower.step(moment(system: 1_003, length: nil, location: "/b.mp4"), on: timeline, schedule: nil) else {
            return XCTFail("another source is refused again")
        }
    }

    // MARK: A playlist on the timeline: items of 2, 1 and 1.5 s from the epoch 1000 (a 4.5 s cycle)

    private let schedule = TimelineSchedule(lengths: [2, 1, 1.5])!

    /// Item `index` at system time `system`, with what is on screen.
    private func onSchedule(_ follower: inout TimelineFollower, item index: Int, system: Double,
                            onScreen: (pass: Int, position: Double)?) -> TimelineFollower.Step {
        follower.step(moment(system: system, length: schedule.lengths[index], onScreen: onScreen), on: timeline,
                      schedule: (schedule, index))
    }

    /// Table: an item at its start is pinned to its slot's start (now, to come, or in the next
    /// cycle); one in the middle of its slot seeks into it; one whose slot this is not asks for the
    /// item that is on (once).
    func testScheduleDecisions() throws {
        enum Expected: Equatable { case waitsFor(Double), seeks(Double, slot: Double), wants(Int) }
        let cases: [(String, item: Int, system: Double, onScreen: (pass: Int, position: Double)?, Expected)] = [
            ("the first item before the epoch", 0, 998, nil, .waitsFor(1_000)),
            ("the next item, switched to just before its slot", 1, 1_001.98, (0, 0), .waitsFor(1_002)),
            ("switched to a little after its slot began", 1, 1_002.05, (0, 0), .waitsFor(1_002)),
            ("at its start after its slot: the next cycle's", 0, 1_002.5, nil, .waitsFor(1_004.5)),
            ("late in its slot, mid-item", 1, 1_002.3, (0, 0.4), .seeks(0.7, slot: 1_002)),
            ("its slot begun long ago, at its start", 2, 1_003.5, (0, 0), .seeks(0.9, slot: 1_003)),
            ("the timeline in the next item", 0, 1_002.5, (0, 1.0), .wants(1)),
            ("its slot ends within the lead", 1, 1_002.7, (0, 0.5), .wants(2)),
            ("the last item's slot over: the list again", 2, 1_004.4, (0, 1.2), .wants(0)),
        ]
        for (name, index, system, onScreen, expected) in cases {
            var follower = TimelineFollower()
            let step = onSchedule(&follower, item: index, system: system, onScreen: onScreen)
            let got: Expected?
            switch step {
            case let .join(plan) where plan.seek == nil: got = plan.join.slotStart.map(Expected.waitsFor)
            case let .join(plan): got = plan.seek.map { .seeks($0.position, slot: plan.join.slotStart ?? -1) }
            case let .wantItem(wanted): got = .wants(wanted)
            default: got = nil
            }
            guard case let .seeks(position, slot)? = got, case let .seeks(expectedPosition, expectedSlot) = expected else {
                XCTAssertEqual(got, expected, name)
                continue
            }
            XCTAssertEqual(position, expectedPosition, accuracy: 1e-9, name)
            XCTAssertEqual(slot, expectedSlot, accuracy: 1e-9, name)
        }
    }

    func testTheWantedItemIsAskedForOnceAndTheJoinHoldsItsSlot() throws {
        var follower = TimelineFollower()
        // Item 0 near its end: 0.4 s ahead the timeline is in item 1.
        XCTAssertEqual(onSchedule(&follower, item: 0, system: 1_001.7, onScreen: (0, 1.7)), .wantItem(1))
        XCTAssertEqual(onSchedule(&follower, item: 0, system: 1_001.75, onScreen: (0, 1.75)), .hold, "asked once")
        // The playlist plays item 1, which comes at its start before its slot: pinned to the slot's start.
        let plan = try XCTUnwrap(plan(onSchedule(&follower, item: 1, system: 1_001.8, onScreen: nil)))
        XCTAssertNil(plan.seek)
        XCTAssertEqual(plan.scheduleItem, 1)
        XCTAssertEqual(plan.join.slotStart, 1_002)
        let joined = follower.joined(plan, generation: 0)
        XCTAssertEqual(joined.pin.media, 0)
        XCTAssertEqual(joined.pin.clock, 1_002 - (1_001.8 - 50), accuracy: 1e-9)
        // It holds while it plays (its first frame shown), following the clocks' offset.
        guard case let .pin(pin) = onSchedule(&follower, item: 1, system: 1_001.9, onScreen: (0, 0)) else {
            return XCTFail("the join holds")
        }
        XCTAssertEqual(pin.clock, 1_002 - (1_001.9 - 50), accuracy: 1e-9)
    }

    func testAListChangedUnderItsScheduleDropsTheScheduleAndIsRefusedOnce() {
        var follower = TimelineFollower()
        let beyond = TimelineFollower.Moment(item: ObjectIdentifier(item), location: .file("/a.mp4"), systemNow: 1_001, monotonicNow: 50,
                                             length: 1, lengthIsExact: true, generation: 0, isPaused: false,
                                             frameInterval: Self.interval, playerPass: 0, onScreen: nil)
        guard case let .dropSchedule(refusal) = follower.step(beyond, on: timeline, schedule: (schedule, 3)) else {
            return XCTFail("dropped")
        }
        XCTAssertNotNil(refusal)
        XCTAssertEqual(follower.step(beyond, on: timeline, schedule: (schedule, 3)), .dropSchedule(refusal: nil))
    }

    // MARK: The sound

    /// After a join the sound is moved once, then resampled: the system clock running 0.1 % fast
    /// against the sound card makes the sound fall behind, and the rate goes up to follow.
    func testTheSoundIsMovedAfterTheJoinThenResampledTheClocksWay() throws {
        var follower = try joined()
        XCTAssertEqual(follower.soundHeard(offset: 0.02, moveAfterJoin: true, at: 50), .moveAfterJoin(by: -0.02))
        XCTAssertEqual(follower.soundHeard(offset: 0.003, moveAfterJoin: true, at: 50), .moveAfterJoin(by: nil), "under 5 ms: left")
        XCTAssertEqual(follower.soundHeard(offset: nil, moveAfterJoin: false, at: 50.1), .hold)
        var offset = 0.0, rate = 1.0, now = 50.0
        for _ in 0..<(60 * 30) {
            now += 1.0 / 30
            // The timeline moves 1.001 s per second of the card's; the sound at `rate`.
            offset += (rate - 1.001) / 30
            switch follower.soundHeard(offset: offset, moveAfterJoin: false, at: now) {
            case let .resample(newRate, offsetMs):
                rate = newRate
                XCTAssertEqual(offsetMs, offset * 1000, accuracy: 1e-9)
            case let .realign(seconds, _): offset += seconds
            case .hold, .moveAfterJoin: break
            }
        }
        XCTAssertGreaterThan(rate, 1.0005, "the rate follows the clock")
        XCTAssertLessThan(abs(offset), 0.005, "and the sound stays on the timeline")
    }
}
