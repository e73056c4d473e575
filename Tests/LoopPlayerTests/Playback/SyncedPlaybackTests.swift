@testable import LoopPlayer
import XCTest

/// A real engine on a shared timeline, in-process, on clocks the test drives (`ManualClock`,
/// `ManualSystemClock`): a real clip decoded by FFmpeg, shown offscreen. Time moves only to the
/// engine's next deadline, and only once the frame due then is decoded, so every frame is shown
/// exactly when the timeline says, however slow the machine; the checks are exact.
final class SyncedPlaybackTests: XCTestCase {
    /// 1 s at 30 fps, one keyframe: a join decodes from the start of the pass.
    private func clip() throws -> String { try TestMedia.testPattern("sync-inprocess-30.mp4", frames: 30, codec: TestMedia.h264) }

    /// A frame shown, and the system time it was shown at.
    private struct Shown {
        var pass: Int
        var position: Double
        var generation: Int
        var system: Double
    }

    /// An engine on manual clocks and the frames it showed.
    private final class Rig {
        let monotonic = ManualClock(start: 5_000)
        let system: ManualSystemClock
        let controller = TestController()
        let engine: PlaybackEngine
        private(set) var shown: [Shown] = []

        init(epoch: Double, systemStart: Double, looping: Bool = true) throws {
            system = ManualSystemClock(start: systemStart)
            var configuration = EngineConfiguration(output: .offscreen, looping: looping)
            configuration.syncTimeline = SharedTimeline(epoch: epoch)
            configuration.clocks = EngineClocks(monotonic: monotonic, system: system)
            engine = try PlaybackEngine(configuration: configuration)
            engine.onFramePresented = { [unowned self] frame in
                shown.append(Shown(pass: frame.pass, position: frame.positionInPass, generation: frame.generation, system: system.now))
            }
        }

        /// The frame at the head of the queue, if it is of the current seek.
        private var decodedHead: ObjectIdentifier? {
            guard let item = engine.item, let presenter = item.presenter, case let .frame(frame)? = item.pipeline.frames.peek(),
                  frame.generation == presenter.generation else { return nil }
            return ObjectIdentifier(frame)
        }

        /// Iterates until `done`. Both clocks move to the engine's deadline only when the same
        /// decoded frame was at the head of the queue before and after the iteration: the deadline
        /// was computed with it in view (its due time or an earlier one), never while waiting for
        /// the decoder. Otherwise the test waits, in real time, for the decoder's wakeup.
        func drive(until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
            let hangGuard = MonotonicCondition.now + 120  // a hang, not a bound on how long it takes
            while !done() {
                guard MonotonicCondition.now < hangGuard else { return XCTFail("no progress: \(shown.count) frames", file: file, line: line) }
                let headBefore = decodedHead
                switch engine.iterate(controller) {
                case .again: continue
                case .finished: return
                case let .wait(deadline):
                    let headAfter = decodedHead
                    if let deadline, let headAfter, headAfter == headBefore {
                        advance(by: max(0, deadline - monotonic.now))
                    } else if headAfter == nil {
                        _ = engine.waiter.wait(until: MonotonicCondition.now + 1)
                    }  // else a frame came during the iteration: the next one sees it
                }
            }
        }

        func advance(by seconds: Double) {
            monotonic.advanceTime(by: seconds)
            system.advanceTime(by: seconds)
        }

        var syncEvents: [SyncStatus] {
            controller.playerEvents.compactMap { if case let .sync(status) = $0 { status } else { nil } }
        }
    }

    /// Where a frame shown at `system` belongs on a 1 s timeline from `epoch`.
    private func timelinePosition(_ system: Double, epoch: Double) -> Double {
        (system - epoch).truncatingRemainder(dividingBy: 1)
    }

    /// Every frame is shown at the system time its place on the timeline is due (modulo one pass).
    private func assertOnTheTimeline(_ frames: some Collection<Shown>, epoch: Double, file: StaticString = #filePath, line: UInt = #line) {
        for frame in frames {
            var gap = abs(frame.position - timelinePosition(frame.system, epoch: epoch))
            gap = min(gap, 1 - gap)
            XCTAssertLessThan(gap, 1e-6, "frame at \(frame.position) of pass \(frame.pass) shown at \(frame.system)", file: file, line: line)
        }
    }

    func testAPlayerJoiningLateShowsEachFrameAtItsTimeOnTheTimeline() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch + 12.345)
        try rig.engine.load(clip())
        rig.drive { rig.shown.count >= 90 }
        // The join seeks 0.4 s ahead (decoding takes no time here: the clocks wait for it): the first
        // frame shown is the one on the timeline then, frame 22 (0.745 s is in it).
        let first = try XCTUnwrap(rig.shown.first)
        XCTAssertEqual(first.position, 22.0 / 30, accuracy: 1e-6, "the frame due 0.4 s after the join")
        XCTAssertEqual(first.system, epoch + 12.0 + first.position, accuracy: 1e-6)
        assertOnTheTimeline(rig.shown, epoch: epoch)
        XCTAssertEqual(Set(rig.shown.map(\.generation)).count, 1, "one join")
        guard case .inStep? = rig.syncEvents.first else { return XCTFail("said in step: \(rig.syncEvents)") }
        XCTAssertFalse(rig.syncEvents.contains { if case .outOfStep = $0 { true } else { false } }, "\(rig.syncEvents)")
        XCTAssertEqual(rig.engine.statistics.syncOffsetMaxMs ?? .infinity, 0, accuracy: 1e-3)
    }

    /// An epoch 3 s ahead: said at the join (exactly 3 s: the clocks waited for the source to open),
    /// the first frame decoded and waiting, and shown at the epoch.
    func testAFutureEpochIsWaitedForAndSaid() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch - 3)
        try rig.engine.load(clip())
        var waited = false
        rig.drive {
            waited = waited || rig.engine.isWaitingForEpoch
            return rig.shown.count >= 3
        }
        XCTAssertTrue(waited, "isWaitingForEpoch while the first frame waited")
        XCTAssertEqual(rig.syncEvents.first, .waitingForEpoch(seconds: 3))
        let first = try XCTUnwrap(rig.shown.first)
        XCTAssertEqual(first.position, 0)
        XCTAssertEqual(first.system, epoch, accuracy: 1e-6)
        assertOnTheTimeline(rig.shown, epoch: epoch)
        XCTAssertFalse(rig.engine.isWaitingForEpoch)
    }

    /// The system clock stepped 3.25 s forward (as `date -s` would) while the monotonic one ran on:
    /// the player joins again (a seek), and the frames are on the stepped clock's timeline.
    func testAClockStepIsFollowedByAJoin() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch + 5)
        try rig.engine.load(clip())
        rig.drive { rig.shown.count >= 45 }
        let before = rig.shown.count
        let generation = try XCTUnwrap(rig.shown.last?.generation)
        rig.system.step(by: 3.25)
        rig.drive { rig.shown.count >= before + 45 }
        let after = rig.shown[before...]
        XCTAssertEqual(Set(after.map(\.generation)), [generation + 1], "one join after the step")
        assertOnTheTimeline(rig.shown, epoch: epoch)
        // Stepped by a quarter pass: the first frame after is not the next frame of the pass.
        let jump = try XCTUnwrap(after.first).position - (rig.shown[before - 1].position + 1 / 30)
        XCTAssertGreaterThan(abs(jump), 0.1, "the picture moved with the clock")
        XCTAssertEqual(rig.engine.statistics.syncOffsetMaxMs ?? .infinity, 0, accuracy: 1e-3)
        guard case .inStep? = rig.syncEvents.last else { return XCTFail("in step at the end: \(rig.syncEvents)") }
    }

    /// A step under the limit (NTP slewing, 0.2 s) is followed without a join.
    func testASmallClockMoveIsFollowedWithoutAJoin() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch + 5)
        try rig.engine.load(clip())
        rig.drive { rig.shown.count >= 30 }
        let before = rig.shown.count
        rig.system.step(by: -0.2)
        rig.drive { rig.shown.count >= before + 30 }
        XCTAssertEqual(Set(rig.shown.map(\.generation)).count, 1, "no join")
        // Once the frames caught up with the moved pin, they are on its timeline again.
        assertOnTheTimeline(rig.shown.suffix(20), epoch: epoch)
    }

    // MARK: A playlist item on a schedule of three 1 s items from the epoch

    private let schedule = TimelineSchedule(lengths: [1, 1, 1])!

    /// Item 1 loaded 0.3 s into its slot: it seeks 0.4 s further and shows each frame in its slot.
    func testAScheduledItemJoinsItsSlot() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch + 3 + 1.3, looping: false)
        rig.engine.timelineSync.follow(schedule: schedule, item: 1)
        try rig.engine.load(clip())
        rig.drive { rig.shown.count >= 5 }
        let first = try XCTUnwrap(rig.shown.first)
        XCTAssertEqual(first.position, 0.7, accuracy: 1e-6, "frame 21, due 0.4 s after the join")
        XCTAssertEqual(first.system, epoch + 4 + first.position, accuracy: 1e-6, "item 1's slot of cycle 1 starts at epoch + 4")
        assertOnTheTimeline(rig.shown, epoch: epoch)
    }

    /// Item 0 playing in its slot when the system clock steps 1 s forward: the join is gone, the
    /// item is not at its start, so the engine asks for the item the timeline is in (once).
    func testAScheduledItemOutOfItsSlotAsksForTheItemOnNow() throws {
        let epoch = 1_800_000_000.0
        let rig = try Rig(epoch: epoch, systemStart: epoch + 0.2, looping: false)
        rig.engine.timelineSync.follow(schedule: schedule, item: 0)
        try rig.engine.load(clip())
        func wanted() -> [Int] { rig.controller.events.compactMap { if case let .scheduleWantsItem(index) = $0 { index } else { nil } } }
        rig.drive { rig.shown.count >= 3 }
        assertOnTheTimeline(rig.shown, epoch: epoch)
        XCTAssertEqual(wanted(), [])
        rig.system.step(by: 1)
        let expected = schedule.place(at: rig.system.now + TimelineFollower.joinLead, epoch: epoch).item
        rig.drive { !wanted().isEmpty }
        XCTAssertEqual(wanted(), [expected])
        XCTAssertNotEqual(expected, 0)
        let shown = rig.shown.count
        rig.drive { rig.shown.count >= shown + 3 || rig.engine.state == .ended }
        XCTAssertEqual(wanted(), [expected], "asked once")
    }
}
