@testable import LoopPlayer
import XCTest

/// Scripted runs of `FrameScheduler`: each row hands in the clock time and checks the decision, and
/// the script performs it as the presenter does (pops what is shown, dropped or discarded). Frames
/// last 1/16 s and the clock starts at 100 s, so every time below is exact in binary.
final class FrameSchedulerTests: XCTestCase {
    typealias Decision = FrameScheduler.Decision
    typealias Head = FrameScheduler.Head

    static let d = 0.0625

    /// Frame `index` of a clip of `perPass` frames, on the loop's timeline.
    static func frame(_ index: Int, perPass: Int = 1000, generation: Int = 0) -> FrameScheduler.Frame {
        FrameScheduler.Frame(time: Double(index) * d, duration: d, pass: index / perPass,
                             positionInPass: Double(index % perPass) * d, generation: generation)
    }

    static func frames(_ range: Range<Int>, perPass: Int = 1000, generation: Int = 0) -> [Head] {
        range.map { .frame(frame($0, perPass: perPass, generation: generation)) }
    }

    /// One line of a script.
    enum Row {
        /// Decide at `now`, expect `decision`, perform it (a shown frame appears at `shownAt`, default `now`).
        case decide(now: Double, expect: Decision, shownAt: Double?, line: UInt)
        /// Decide at `now` and expect a wait for some later time.
        case decideWaits(now: Double, line: UInt)
        case push([Head])
        case pause(at: Double)
        case resume(at: Double)
        case speed(Double, at: Double)
        case looping(Bool)
        case restart(generation: Int)
        case shiftAnchor(Double)

        static func at(_ now: Double, _ decision: Decision, shownAt: Double? = nil, line: UInt = #line) -> Row {
            .decide(now: now, expect: decision, shownAt: shownAt, line: line)
        }

        static func waits(at now: Double, line: UInt = #line) -> Row { .decideWaits(now: now, line: line) }
    }

    /// The presenter's side: a queue and what it does with each decision.
    struct Script {
        var scheduler = FrameScheduler(nominalFrameInterval: FrameSchedulerTests.d)
        var queue: [Head] = []
        var stop = StopCondition()
        var virtualClock = false
        /// What `shown` returned for each frame shown, in order.
        var wraps: [Int?] = []
        /// What `countWrap` returned on `finishedAtWrap`.
        var finalWrap: Int?

        init(_ queue: [Head] = [], stop: StopCondition = StopCondition(), virtualClock: Bool = false) {
            self.queue = queue
            self.stop = stop
            self.virtualClock = virtualClock
        }

        mutating func run(_ rows: [Row], file: StaticString = #filePath) {
            for row in rows {
                switch row {
                case let .decide(now, expected, shownAt, line):
                    let decision = decide(now: now, shownAt: shownAt)
                    XCTAssertTrue(Self.same(decision, expected), "at \(now): \(decision), expected \(expected)",
                                  file: file, line: line)
                case let .decideWaits(now, line):
                    let decision = decide(now: now)
                    guard case let .waitUntil(time) = decision, time > now else {
                        XCTFail("at \(now): \(decision), expected a wait", file: file, line: line)
                        continue
                    }
                case let .push(heads): queue += heads
                case let .pause(now): scheduler.setPaused(true, at: now)
                case let .resume(now): scheduler.setPaused(false, at: now)
                case let .speed(speed, now): scheduler.setSpeed(speed, at: now)
                case let .looping(looping): scheduler.setLooping(looping)
                case let .restart(generation): scheduler.restart(generation: generation)
                case let .shiftAnchor(seconds): scheduler.shiftAnchor(by: seconds)
                }
            }
        }

        mutating func decide(now: Double, shownAt: Double? = nil) -> Decision {
            let decision = scheduler.decide(head: queue.first, following: queue.dropFirst().first, now: now, stop: stop,
                                            virtualClock: virtualClock)
            switch decision {
            case .discard, .drop:
                queue.removeFirst()
            case .show:
                if case let .frame(frame) = queue.removeFirst() { wraps.append(scheduler.shown(frame, at: shownAt ?? now)) }
            case .end:
                if case .endOfStream? = queue.first { queue.removeFirst() }
            case .finishedAtWrap:
                if case let .frame(frame)? = queue.first { finalWrap = scheduler.countWrap(to: frame) }
            case .waitUntil, .waitForFrames, .idle, .finished:
                break
            }
            return decision
        }

        static func same(_ a: Decision, _ b: Decision) -> Bool {
            if case let .waitUntil(x) = a, case let .waitUntil(y) = b { return abs(x - y) < 1e-9 }
            return a == b
        }
    }

    // MARK: Anchoring

    /// The anchor is set when the first frame is decided and moved to when it really appears: a slow
    /// first upload does not shorten the next intervals.
    func testTheAnchorMovesToWhenTheFirstFrameReallyAppears() {
        var script = Script(Self.frames(0..<4))
        XCTAssertEqual(script.scheduler.decide(head: script.queue.first, following: script.queue[1], now: 100,
                                               stop: script.stop, virtualClock: false), .show)
        XCTAssertFalse(script.scheduler.isAnchored, "provisional until shown")
        XCTAssertEqual(script.scheduler.anchor?.clock, 100)
        script.queue.removeFirst()
        script.scheduler.shown(Self.frame(0), at: 100.5)
        XCTAssertTrue(script.scheduler.isAnchored)
        XCTAssertEqual(script.scheduler.anchor?.clock, 100.5)
        XCTAssertEqual(script.scheduler.startedAt, 100.5)
        script.run([
            .at(100.5, .waitUntil(100.5625)),
            .at(100.5625, .show),
            .at(100.6, .waitUntil(100.625)),
            .at(100.625, .show),
            .at(100.6875, .show),
            .at(100.7, .waitForFrames),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesPresented, 4)
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
        XCTAssertEqual(script.scheduler.lastShownAt, 100.6875)
        XCTAssertEqual(script.scheduler.current, Self.frame(3))
        XCTAssertEqual(script.scheduler.mediaTime(at: 100.75), 0.25)
    }

    func testMediaTimeBeforeTheAnchorIsTheFrameOnScreen() {
        var script = Script(Self.frames(0..<2))
        XCTAssertEqual(script.scheduler.mediaTime(at: 5), 0)
        script.run([.at(100, .show), .at(100.0625, .show), .restart(generation: 1)])
        XCTAssertNil(script.scheduler.anchor)
        XCTAssertEqual(script.scheduler.mediaTime(at: 200), Self.d, "the frame on screen")
    }

    // MARK: Dropping and re-anchoring

    /// A frame later than its duration is dropped only when a newer frame waits behind it.
    func testLateFramesAreDroppedOnlyWhenANewerFrameIsQueued() {
        var script = Script(Self.frames(0..<4))
        script.run([
            .at(100, .show),
            .at(100.2, .drop),  // frame 1: 137.5 ms late, frame 2 queued
            .at(100.2, .drop),  // frame 2: 75 ms late, frame 3 queued
            .at(100.2, .show),  // frame 3: 12.5 ms late, not over its duration
            .push(Self.frames(4..<5)),
            .at(100.33, .show),  // frame 4: 80 ms late but the last one: shown, no re-anchor
            .push(Self.frames(5..<6)),
            .at(100.33, .show),  // frame 5 is due at 100.3125 on the old anchor (re-anchored: 100.3925)
            .push(Self.frames(6..<7) + [.endOfStream(generation: 0)]),
            .at(100.5, .show),  // frame 6: 125 ms late, but only the end follows it
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 2)
        XCTAssertEqual(script.scheduler.statistics.framesPresented, 5)
        XCTAssertEqual(script.scheduler.anchor?.clock, 100)
        XCTAssertEqual(script.scheduler.anchor?.media, 0)
    }

    /// Exactly one frame late is not late enough to drop.
    func testAFrameExactlyOneDurationLateIsShown() {
        var script = Script(Self.frames(0..<3))
        script.run([.at(100, .show), .at(100.125, .show), .at(100.125, .show)])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
    }

    /// After a stall longer than `stallThreshold` with nothing to drop, the clock re-anchors on the
    /// late frame instead of rushing through what comes next.
    func testAStallReanchorsInsteadOfRushing() {
        var script = Script(Self.frames(0..<2))
        script.run([
            .at(100, .show),
            .at(101, .show, shownAt: 101.01),  // 937.5 ms late, alone: re-anchored, then moved to its show time
            .push(Self.frames(2..<3)),
            .at(101.02, .waitUntil(101.0725)),
        ])
        XCTAssertEqual(script.scheduler.anchor?.media, Self.d)
        XCTAssertEqual(script.scheduler.anchor?.clock, 101.01)
        XCTAssertTrue(script.scheduler.isAnchored)
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
    }

    /// A backlog after a stall: the late frames with a newer one behind are dropped, the last re-anchors.
    func testAStallWithABacklogDropsThenReanchors() {
        var script = Script(Self.frames(0..<4))
        script.run([
            .at(100, .show),
            .at(101, .drop),
            .at(101, .drop),
            .at(101, .show),
            .push(Self.frames(4..<5)),
            .at(101, .waitUntil(101.0625)),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 2)
        XCTAssertEqual(script.scheduler.current, Self.frame(3))
    }

    /// The source stalled (the queue ran dry, as in a network outage) and frames come back in a
    /// burst: nothing is dropped, the first re-anchors and the rest follow one frame apart.
    func testASourceStallResumesWhereItStoppedWithoutDropping() {
        var script = Script(Self.frames(0..<1))
        script.run([
            .at(100, .show),
            .at(100.0625, .waitForFrames),
            .push(Self.frames(1..<4)),
            .at(101, .show),                     // 937.5 ms late with newer frames behind: shown, re-anchored
            .at(101, .waitUntil(101.0625)),
            .at(101.0625, .show),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
        XCTAssertEqual(script.scheduler.anchor?.clock, 101)
        XCTAssertEqual(script.scheduler.current, Self.frame(2))
    }

    /// A queue that ran dry only briefly (less than `stallThreshold`) still catches up by dropping.
    func testAShortSourceHiccupStillCatchesUp() {
        var script = Script(Self.frames(0..<1))
        script.run([
            .at(100, .show),
            .at(100.0625, .waitForFrames),
            .push(Self.frames(1..<4)),
            .at(100.2, .drop),                   // frame 1 due 100.0625: 137.5 ms late, frame 2 behind
            .at(100.2, .drop),                   // frame 2 due 100.125: 75 ms late, frame 3 behind
            .at(100.2, .show),                   // frame 3 due 100.1875: on time
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 2)
        XCTAssertEqual(script.scheduler.anchor?.clock, 100, "no re-anchoring for a hiccup")
    }

    /// Lateness of exactly `stallThreshold` keeps the anchor (the rule is "more than").
    func testALatenessOfExactlyTheThresholdKeepsTheAnchor() {
        var script = Script(Self.frames(0..<2))
        script.run([.at(100, .show), .at(100.3125, .show)])  // frame 1 due 100.0625: 250 ms late
        XCTAssertEqual(script.scheduler.anchor?.clock, 100)
        XCTAssertEqual(script.scheduler.anchor?.media, 0)
    }

    // MARK: Time going backwards

    /// A frame whose time does not move forward (same pass and generation) is shown one frame after
    /// the previous one, and never dropped for being late.
    func testAFrameGoingBackwardsIsShownOneFrameAfterThePreviousOne() {
        let backwards = FrameScheduler.Frame(time: Self.d, duration: Self.d, pass: 0, positionInPass: Self.d, generation: 0)
        var script = Script(Self.frames(0..<3) + [.frame(backwards)] + Self.frames(3..<5))
        script.run([
            .at(100, .show),
            .at(100.0625, .show),
            .at(100.125, .show),
            .at(100.13, .waitUntil(100.1875)),  // its own time was due at 100.0625
            .at(100.26, .show),  // 72.5 ms late with a newer frame queued: still shown
            .at(100.26, .drop),  // frame 3 (due 100.1875 on the anchor) is late itself, frame 4 waits
            .at(100.26, .show),  // frame 4, due 100.25
            .at(100.26, .waitForFrames),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 1)
        XCTAssertEqual(script.scheduler.statistics.framesPresented, 5)
    }

    /// A repeated timestamp counts as going backwards.
    func testARepeatedTimestampIsShownOneFrameLater() {
        var script = Script(Self.frames(0..<2) + Self.frames(1..<2))
        script.run([
            .at(100, .show),
            .at(100.0625, .show),
            .at(100.07, .waitUntil(100.125)),
            .at(100.125, .show),
        ])
    }

    /// Only the same pass and generation compare: a new pass or a seek's frame follows the anchor.
    func testOnlyTheSamePassAndGenerationCountAsBackwards() {
        XCTAssertEqual(Self.dueAfter(current: Self.frame(4, perPass: 4), next: Self.frame(3, perPass: 4)), 100.1875)
        var otherPass = Self.frame(3, perPass: 4)
        otherPass.pass = 2
        XCTAssertEqual(Self.dueAfter(current: Self.frame(4, perPass: 4), next: otherPass), 100.1875)
        var otherGeneration = Self.frame(3, perPass: 4)
        otherGeneration.generation = 1
        XCTAssertEqual(Self.dueAfter(current: Self.frame(4, perPass: 4), next: otherGeneration), 100.1875)
        XCTAssertEqual(Self.dueAfter(current: Self.frame(4), next: Self.frame(3)), 100.3125)
    }

    /// The due time of `next` with the anchor at (0, 100) and `current` shown when it was due.
    private static func dueAfter(current: FrameScheduler.Frame, next: FrameScheduler.Frame) -> Double? {
        var script = Script([.frame(frame(0))])
        script.run([.at(100, .show)])
        script.scheduler.shown(current, at: 100 + current.time)
        return script.scheduler.dueTime(of: next)
    }

    // MARK: Generations

    /// Frames and ends of older generations are discarded; a seek's first frame anchors anew.
    func testARestartDiscardsOlderGenerationsAndAnchorsAgain() {
        var script = Script(Self.frames(0..<2))
        script.run([
            .at(100, .show),
            .restart(generation: 2),
            .push([.endOfStream(generation: 0)] + Self.frames(1..<2, generation: 1) + Self.frames(40..<42, generation: 2)),
            .at(100.5, .discard),  // frame 1 of generation 0
            .at(100.5, .discard),  // its end
            .at(100.5, .discard),  // generation 1
            .at(100.5, .show),  // frame 40 of generation 2, anchored now
            .at(100.5, .waitUntil(100.5625)),
            .at(100.5625, .show),
        ])
        XCTAssertEqual(script.scheduler.generation, 2)
        XCTAssertEqual(script.scheduler.anchor?.media, 40 * Self.d)
        XCTAssertEqual(script.scheduler.anchor?.clock, 100.5)
        XCTAssertTrue(script.scheduler.showsCurrentGeneration)
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0, "discards are not drops")
    }

    // MARK: Pause and resume

    /// Paused: nothing is due; on resume the anchor moves by the paused time.
    func testResumeShiftsTheAnchorByThePausedTime() {
        var script = Script(Self.frames(0..<3))
        script.run([
            .at(100, .show),
            .pause(at: 100.03),
            .at(100.1, .idle),
            .at(101, .idle),
            .pause(at: 101),  // a second pause changes nothing
        ])
        XCTAssertEqual(script.scheduler.mediaTime(at: 105), 0.03, accuracy: 1e-12, "frozen while paused")
        script.run([
            .resume(at: 102.03),
            .at(102.03, .waitUntil(102.0625)),
            .at(102.0625, .show),
            .resume(at: 103),  // not paused: nothing moves
            .at(102.1, .waitUntil(102.125)),
        ])
        XCTAssertEqual(script.scheduler.anchor?.clock ?? 0, 102, accuracy: 1e-12)
        XCTAssertFalse(script.scheduler.isPaused)
    }

    /// Paused before anything is shown: the first frame still appears, and the pause counts from then.
    func testAPauseBeforeTheFirstFrameStillShowsIt() {
        var script = Script(Self.frames(0..<2))
        script.run([
            .pause(at: 99),
            .at(100, .show),
            .at(100.5, .idle),
        ])
        XCTAssertEqual(script.scheduler.mediaTime(at: 100.5), 0, "the picture's time, not before it")
        script.run([
            .resume(at: 101),
            .at(101, .waitUntil(101.0625)),
        ])
    }

    /// Paused, a seek shows its new picture, then holds it; the pause counts from that picture.
    func testASeekWhilePausedShowsTheNewPicture() {
        var script = Script(Self.frames(0..<2))
        script.run([
            .at(100, .show),
            .pause(at: 100.03),
            .restart(generation: 1),
            .push(Self.frames(2..<4, generation: 1)),
            .at(101, .discard),
            .at(101, .show),
            .at(101.5, .idle),
        ])
        XCTAssertEqual(script.scheduler.mediaTime(at: 101.5), 0.125, "the new picture's time")
        script.run([
            .resume(at: 102),
            .at(102, .waitUntil(102.0625)),
        ])
        XCTAssertEqual(script.scheduler.current, Self.frame(2, generation: 1))
    }

    /// A paused player holds even a queued end.
    func testAPausedPlayerHoldsTheEnd() {
        var script = Script(Self.frames(0..<1) + [.endOfStream(generation: 0)])
        script.run([.at(100, .show), .pause(at: 100.01), .at(200, .idle)])
        XCTAssertFalse(script.scheduler.ended)
    }

    /// A speed change during a pause re-anchors; only the pause after it shifts the anchor.
    func testASpeedChangeDuringAPauseCountsOnlyThePauseAfterIt() {
        var script = Script(Self.frames(0..<3))
        script.run([
            .at(100, .show),
            .pause(at: 100.03),
            .speed(2, at: 101),
            .resume(at: 102),
        ])
        XCTAssertEqual(script.scheduler.anchor?.media ?? 0, 0.03, accuracy: 1e-12)
        XCTAssertEqual(script.scheduler.anchor?.clock ?? 0, 102, accuracy: 1e-12)
        script.run([.at(102, .waitUntil(102 + (0.0625 - 0.03) / 2))])
    }

    // MARK: Speed

    /// Double speed: frames come twice as often and "late" means half a frame of clock time.
    func testSpeedScalesDueTimesAndTheDropThreshold() {
        var script = Script(Self.frames(0..<4))
        script.run([
            .at(100, .show),
            .speed(2, at: 100),
            .at(100.01, .waitUntil(100.03125)),
            .at(100.1, .drop),  // frame 1: 68.75 ms late > 31.25 ms
            .at(100.1, .drop),  // frame 2: 37.5 ms late
            .at(100.1, .show),  // frame 3: 6.25 ms late
        ])
        XCTAssertEqual(script.scheduler.speed, 2)
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 2)
        XCTAssertEqual(script.scheduler.mediaTime(at: 100.25), 0.5)
    }

    /// Speed 0 holds the picture: nothing is due, the media time stands; speed 1 goes on from it.
    func testSpeedZeroHoldsThePicture() {
        var script = Script(Self.frames(0..<3))
        script.run([
            .at(100, .show),
            .speed(0, at: 100.03),
            .at(200, .idle),
        ])
        XCTAssertEqual(script.scheduler.mediaTime(at: 300), 0.03, accuracy: 1e-12)
        script.run([
            .speed(1, at: 200),
            .at(200.01, .waitUntil(200 + 0.0625 - 0.03)),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
    }

    func testNegativeSpeedIsZeroAndASpeedBeforeTheAnchorOnlySetsTheRate() {
        var script = Script(Self.frames(0..<2))
        script.run([.speed(-3, at: 50)])
        XCTAssertEqual(script.scheduler.speed, 0)
        XCTAssertNil(script.scheduler.anchor)
        script.run([.speed(4, at: 50), .at(100, .show), .at(100, .waitUntil(100.015625))])
    }

    // MARK: Looping off

    /// Looping switched off while the next pass is already queued: the last frame of the pass has
    /// its full time, then the media ends and holds (or finishes with `exitAtEnd`).
    func testLoopingOffEndsAtTheNextPass() {
        var script = Script(Self.frames(0..<5, perPass: 4))
        script.run([
            .looping(false),
            .at(100, .show),
            .at(100.0625, .show),
            .at(100.125, .show),
            .at(100.1875, .show),
            .waits(at: 100.2),  // the exact end is in testTheLastFrameIsHeldForItsDurationOnly
            .at(100.5, .end),
            .at(100.6, .idle),
        ])
        XCTAssertTrue(script.scheduler.ended)
        XCTAssertEqual(script.queue.count, 1, "the next pass's frame stays queued")
        XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 0)
        script.stop.exitAtEnd = true
        script.run([.at(100.7, .finished)])
    }

    /// The end of the stream (a non-looping pipeline): it waits for the last frame, then ends;
    /// an empty queue after the end waits, or finishes with `exitAtEnd`.
    func testTheEndOfStreamEndsAfterTheLastFrame() {
        var script = Script(Self.frames(0..<2) + [.endOfStream(generation: 0)])
        script.run([
            .looping(false),
            .at(100, .show),
            .at(100.0625, .show),
            .waits(at: 100.07),
            .at(100.5, .end),
            .at(100.6, .waitForFrames),
        ])
        XCTAssertTrue(script.queue.isEmpty)
        script.stop.exitAtEnd = true
        script.run([.at(100.7, .finished)])
    }

    /// Looping switched on again after the end: the next pass starts now, not when it was due.
    func testLoopingOnAfterTheEndStartsTheNextPassNow() {
        var script = Script(Self.frames(0..<6, perPass: 4))
        script.run([
            .looping(false),
            .at(100, .show), .at(100.0625, .show), .at(100.125, .show), .at(100.1875, .show),
            .at(100.5, .end),
            .looping(true),
        ])
        XCTAssertFalse(script.scheduler.ended)
        XCTAssertNil(script.scheduler.anchor)
        script.run([
            .at(105, .show),
            .at(105, .waitUntil(105.0625)),
        ])
        XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 1)
        XCTAssertEqual(script.wraps, [nil, nil, nil, nil, 1])
        // The hold is not a seam: no interval is recorded for this wrap (nor a period).
        XCTAssertEqual(script.scheduler.statistics.seamIntervalsMs, [])
        XCTAssertEqual(script.scheduler.statistics.loopPeriodsMs, [])
    }

    /// Looping switched on before the end was shown, after the demuxer had sent it: the next pass's
    /// frames follow the end, which is skipped, and the wrap is a seam like any other (it used to
    /// end, say `ended`, then play on). An end with nothing after it still ends (looping stopped).
    func testLoopingOnBeforeAStaleEndIsShownSkipsIt() {
        var script = Script(Self.frames(0..<4, perPass: 4) + [.endOfStream(generation: 0, resumable: true)]
                            + Self.frames(4..<6, perPass: 4))
        script.run([
            .looping(false),
            .at(100, .show), .at(100.0625, .show),
            .looping(true),
            .at(100.125, .show), .at(100.1875, .show),
            .at(100.25, .discard),
            .at(100.25, .show),
            .at(100.3125, .show),
        ])
        XCTAssertFalse(script.scheduler.ended)
        XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 1)
        XCTAssertEqual(script.scheduler.statistics.seamIntervalsMs, [62.5])

        var stopped = Script(Self.frames(0..<1) + [.endOfStream(generation: 0)])
        stopped.run([.at(100, .show), .at(100.0625, .end)])
        XCTAssertTrue(stopped.scheduler.ended)
        // Switched on just before the end was shown, with nothing decoded after it yet: waits for it.
        var early = Script(Self.frames(0..<1) + [.endOfStream(generation: 0, resumable: true)])
        early.run([.looping(false), .at(100, .show), .looping(true), .at(100.0625, .waitForFrames)])
        XCTAssertFalse(early.scheduler.ended)
    }

    /// Switching looping on while nothing ended changes nothing else.
    func testLoopingOnWhilePlayingKeepsTheAnchor() {
        var script = Script(Self.frames(0..<2))
        script.run([.at(100, .show), .looping(true), .at(100.01, .waitUntil(100.0625))])
        XCTAssertEqual(script.scheduler.anchor?.clock, 100)
    }

    /// A restart after the end plays the seek's frames.
    func testASeekAfterTheEndPlaysAgain() {
        var script = Script(Self.frames(0..<1) + [.endOfStream(generation: 0)])
        script.run([
            .looping(false),
            .at(100, .show),
            .at(100.5, .end),
            .restart(generation: 1),
            .push(Self.frames(0..<2, generation: 1)),
            .at(101, .show),
            .at(101, .waitUntil(101.0625)),
        ])
        XCTAssertFalse(script.scheduler.ended)
    }

    // MARK: Stop conditions

    /// `--loops 2`: the first frame of the third pass is not shown; its wrap counts, when it is due.
    func testLoopsFinishAtTheWrapThatCompletesThem() {
        for virtualClock in [false, true] {
            var script = Script(Self.frames(0..<5, perPass: 2), stop: StopCondition(loops: 2), virtualClock: virtualClock)
            script.run([
                .at(100, .show),
                .at(100.0625, .show),
                .at(100.125, .show),
                .at(100.1875, .show),
                .at(100.2, .waitUntil(100.25)),
                .at(100.25, .finishedAtWrap),
            ])
            XCTAssertEqual(script.finalWrap, 2)
            XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 2)
            XCTAssertEqual(script.scheduler.statistics.framesPresented, 4)
            XCTAssertEqual(script.scheduler.statistics.seamIntervalsMs, [62.5], "the unshown wrap has no seam")
            XCTAssertEqual(script.scheduler.statistics.loopPeriodsMs, [125])
        }
    }

    func testOneLoopFinishesAtTheFirstWrapEvenWhenLate() {
        var script = Script(Self.frames(0..<4, perPass: 2), stop: StopCondition(loops: 1))
        script.run([.at(100, .show), .at(100.0625, .show), .at(100.5, .finishedAtWrap)])  // not dropped
        XCTAssertEqual(script.finalWrap, 1)
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
    }

    /// `--frames 3`: finished once three were shown, whatever is queued.
    func testFramesFinishAfterThatManyShown() {
        var script = Script(Self.frames(0..<5), stop: StopCondition(frames: 3))
        script.run([
            .at(100, .show),
            .at(100.0625, .show),
            .at(100.125, .show),
            .at(100.125, .finished),
            .at(100.2, .finished),
        ])
        XCTAssertEqual(script.queue.count, 2)
        script.queue.removeAll()
        script.run([.at(100.3, .finished)])
    }

    /// `--duration 0.2`: counted from the first frame shown; a frame due at or after the deadline
    /// is not shown, and the deadline finishes the run even with an empty queue.
    func testDurationFinishesAtItsDeadline() {
        var script = Script(Self.frames(0..<6), stop: StopCondition(duration: 0.2))
        XCTAssertNil(script.scheduler.deadline(for: script.stop), "no deadline before the first frame")
        script.run([
            .at(100, .show, shownAt: 100.5),  // a slow first upload: the run starts when it appears
            .at(100.5, .waitUntil(100.5625)),
            .at(100.5625, .show),
            .at(100.625, .show),
            .at(100.6875, .show),
            .at(100.69, .waitUntil(100.7)),  // frame 4 is due at 100.75
            .at(100.7, .finished),
        ])
        XCTAssertEqual(script.scheduler.deadline(for: script.stop) ?? 0, 100.7, accuracy: 1e-9)
        XCTAssertEqual(script.scheduler.statistics.framesPresented, 4)
        var empty = Script(Self.frames(0..<1), stop: StopCondition(duration: 0.2))
        empty.run([.at(100, .show), .at(100.1, .waitForFrames), .at(100.2, .finished)])
    }

    /// Stop conditions come before everything, stale heads included.
    func testAStopConditionComesBeforeDiscarding() {
        var script = Script(Self.frames(0..<1), stop: StopCondition(frames: 1))
        script.run([.at(100, .show), .restart(generation: 1), .push(Self.frames(1..<2)), .at(100.1, .finished)])
        XCTAssertEqual(script.queue.count, 1)
    }

    // MARK: Seams and loop periods

    /// Three passes of four frames: each wrap counts once, its seam interval and the pass period
    /// are measured as shown; a late seam frame shows in the deviation.
    func testSeamsAndLoopPeriodsAreMeasuredAtEveryWrap() {
        var script = Script(Self.frames(0..<12, perPass: 4))
        var rows: [Row] = []
        for index in 0..<12 {
            let due = 100 + Double(index) * Self.d
            rows.append(.at(due, .show, shownAt: index == 8 ? due + 0.01 : due))
        }
        script.run(rows)
        let statistics = script.scheduler.statistics
        XCTAssertEqual(statistics.loopsCompleted, 2)
        XCTAssertEqual(script.wraps, [nil, nil, nil, nil, 1, nil, nil, nil, 2, nil, nil, nil])
        XCTAssertEqual(statistics.seamIntervalsMs.count, 2)
        XCTAssertEqual(statistics.seamIntervalsMs[0], 62.5, accuracy: 1e-6)
        XCTAssertEqual(statistics.seamIntervalsMs[1], 72.5, accuracy: 1e-6)
        XCTAssertEqual(statistics.seamMaxDeviationMs, 10, accuracy: 1e-6)
        XCTAssertEqual(statistics.loopPeriodsMs.count, 2)
        XCTAssertEqual(statistics.loopPeriodsMs[0], 250, accuracy: 1e-6)
        XCTAssertEqual(statistics.loopPeriodsMs[1], 260, accuracy: 1e-6)
        XCTAssertEqual(statistics.framesPresented, 12)
        XCTAssertEqual(statistics.nominalFrameIntervalMs, 62.5)
    }

    /// A drop across the wrap: the wrap still counts once, between the frames really shown.
    func testADroppedSeamFrameStillCountsTheWrap() {
        var script = Script(Self.frames(0..<6, perPass: 4))
        script.run([
            .at(100, .show), .at(100.0625, .show), .at(100.125, .show),
            .at(100.33, .drop),  // frame 3 (due 100.1875)
            .at(100.33, .drop),  // frame 4, the first of pass 1 (due 100.25)
            .at(100.33, .show),  // frame 5 (due 100.3125)
        ])
        XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 1)
        XCTAssertEqual(script.wraps.last, 1)
        XCTAssertEqual(script.scheduler.statistics.seamIntervalsMs.first ?? 0, 205, accuracy: 1e-6)
    }

    /// Several passes skipped at once (short passes) count as several wraps.
    func testAWrapOverSeveralPassesCountsEach() {
        var scheduler = FrameScheduler()
        scheduler.shown(Self.frame(1, perPass: 2), at: 100)
        XCTAssertEqual(scheduler.shown(Self.frame(6, perPass: 2), at: 100.0625), 3)
        XCTAssertEqual(scheduler.statistics.loopsCompleted, 3)
        XCTAssertNil(scheduler.countWrap(to: Self.frame(7, perPass: 2)), "same pass")
    }

    /// After a seek into the middle of a pass, that partial pass gives no period; the next does.
    func testAPartialPassAfterASeekGivesNoLoopPeriod() {
        var script = Script(Self.frames(0..<1, perPass: 4))
        script.run([
            .at(100, .show),
            .restart(generation: 1),
            .push(Self.frames(2..<10, perPass: 4, generation: 1)),
            .at(101, .show),  // frame 2 of pass 0, generation 1
            .at(101.0625, .show),
            .at(101.125, .show),  // pass 1: a wrap, its seam, but no period
        ])
        XCTAssertEqual(script.scheduler.statistics.loopsCompleted, 1)
        XCTAssertEqual(script.scheduler.statistics.seamIntervalsMs, [62.5])
        XCTAssertEqual(script.scheduler.statistics.loopPeriodsMs, [])
        script.run([.at(101.1875, .show), .at(101.25, .show), .at(101.3125, .show), .at(101.375, .show)])
        XCTAssertEqual(script.scheduler.statistics.loopPeriodsMs, [250])
    }

    /// A frame of a new generation in a later pass is no wrap (the seek moved it).
    func testANewGenerationIsNoWrap() {
        var scheduler = FrameScheduler()
        scheduler.shown(Self.frame(3, perPass: 4), at: 100)
        scheduler.restart(generation: 1)
        XCTAssertNil(scheduler.countWrap(to: Self.frame(5, perPass: 4, generation: 1)))
        XCTAssertNil(scheduler.shown(Self.frame(5, perPass: 4, generation: 1), at: 101))
        XCTAssertEqual(scheduler.statistics.loopsCompleted, 0)
        XCTAssertEqual(scheduler.statistics.seamIntervalsMs, [])
    }

    // MARK: Virtual clock

    /// A virtual clock shows every frame, however late, and never moves the anchor.
    func testAVirtualClockNeitherDropsNorReanchors() {
        var script = Script(Self.frames(0..<4), virtualClock: true)
        script.run([
            .at(100, .show),
            .at(100, .waitUntil(100.0625)),
            .at(101, .show),
            .at(101, .show),
            .at(101, .show),
        ])
        XCTAssertEqual(script.scheduler.statistics.framesDropped, 0)
        XCTAssertEqual(script.scheduler.statistics.framesPresented, 4)
        XCTAssertEqual(script.scheduler.anchor?.clock, 100)
    }

    // MARK: Following the sound

    func testShiftingTheAnchorMovesDueTimes() {
        var script = Script(Self.frames(0..<2))
        script.run([.shiftAnchor(5)])
        XCTAssertNil(script.scheduler.anchor, "nothing to shift before the anchor")
        script.run([
            .at(100, .show),
            .shiftAnchor(0.015625),
            .at(100.05, .waitUntil(100.078125)),
            .shiftAnchor(-0.03125),
            .at(100.05, .show),
        ])
    }

    func testAVOffsetsAreAveraged() {
        var scheduler = FrameScheduler()
        for ms in [2.0, -4.0, 8.0] { scheduler.recordAVOffset(ms: ms) }
        XCTAssertEqual(scheduler.statistics.avOffsetSamples, 3)
        XCTAssertEqual(scheduler.statistics.avOffsetMeanMs ?? 0, 2, accuracy: 1e-12)
        XCTAssertEqual(scheduler.statistics.avOffsetMaxMs, 8)
    }

    // MARK: Fixed bugs (found by these tests)

    /// The last frame is held for its own duration, then the end comes (it once came a frame late:
    /// the frame on screen compared with itself counted as going backwards).
    func testTheLastFrameIsHeldForItsDurationOnly() {
        var endOfStream = Script(Self.frames(0..<2) + [.endOfStream(generation: 0)])
        endOfStream.run([
            .looping(false),
            .at(100, .show),
            .at(100.0625, .show),
            .at(100.07, .waitUntil(100.125)),
            .at(100.125, .end),
        ])
        var nextPass = Script(Self.frames(0..<5, perPass: 4))
        nextPass.run([
            .looping(false),
            .at(100, .show), .at(100.0625, .show), .at(100.125, .show), .at(100.1875, .show),
            .at(100.2, .waitUntil(100.25)),
            .at(100.25, .end),
        ])
        // At double speed, half a frame.
        var fast = Script(Self.frames(0..<1) + [.endOfStream(generation: 0)])
        fast.run([
            .looping(false),
            .at(100, .show),
            .speed(2, at: 100),
            .at(100, .waitUntil(100.03125)),
            .at(100.03125, .end),
        ])
        // A last frame shown late keeps its whole duration from when it appeared.
        var late = Script(Self.frames(0..<4) + [.endOfStream(generation: 0)])
        late.run([
            .looping(false),
            .at(100, .show), .at(100.0625, .show), .at(100.125, .show),
            .at(100.3, .show),  // frame 3 (due 100.1875): only the end follows, shown late
            .at(100.31, .waitUntil(100.3625)),
            .at(100.3625, .end),
        ])
        // A last frame shown a little late (the wake-up's lateness) ends on the grid, as a next frame
        // would be due: a playlist's next item follows one interval after it was due.
        var slightlyLate = Script(Self.frames(0..<2) + [.endOfStream(generation: 0)])
        slightlyLate.run([
            .looping(false),
            .at(100, .show),
            .at(100.0635, .show),  // due 100.0625, 1 ms late
            .at(100.07, .waitUntil(100.125)),
            .at(100.125, .end),
        ])
    }

    /// At speed 0 a seek shows its picture, as paused playback does (testASeekWhilePausedShowsTheNewPicture).
    func testASeekAtSpeedZeroShowsTheNewPicture() {
        var script = Script(Self.frames(0..<2))
        script.run([
            .at(100, .show),
            .speed(0, at: 100.01),
            .restart(generation: 1),
            .push(Self.frames(40..<42, generation: 1)),
            .at(101, .discard),
            .at(101, .show),
            .at(102, .idle),
        ])
        XCTAssertEqual(script.scheduler.current?.generation, 1, "the seek's picture is shown at speed 0")
    }

    /// At speed 0 a queued end of stream (looping off) is not reached: the picture is held.
    func testSpeedZeroHoldsTheEndOfStream() {
        var script = Script(Self.frames(0..<1) + [.endOfStream(generation: 0)])
        script.run([
            .looping(false),
            .at(100, .show),
            .speed(0, at: 100.01),
            .at(1000, .idle),
        ])
        XCTAssertFalse(script.scheduler.ended, "speed 0 holds the picture")
    }
}
