@testable import LoopPlayer
import XCTest

final class LoopTimelineTests: XCTestCase {
    /// 90 kHz ticks, 30 fps, a start time of 1.4 s as MPEG-TS has.
    private func makeTimeline() -> LoopTimeline {
        LoopTimeline(tick: 1.0 / 90_000, origin: 126_000, nominalFrameInterval: 1.0 / 30)
    }

    func testLoopDurationIsMeasuredFromTheStartToTheEndOfTheLastPacket() {
        var timeline = makeTimeline()
        for frame in 0..<120 { timeline.observeFirstPass(pts: 126_000 + Int64(frame) * 3000, duration: 3000) }
        XCTAssertNil(timeline.loopDuration)
        XCTAssertEqual(timeline.wrap(), 360_000)
        XCTAssertEqual(timeline.loopDurationSeconds!, 4.0, accuracy: 1e-9)
        XCTAssertEqual(timeline.wrap(), 720_000)
    }

    func testPacketsWithoutDurationUseTheNominalInterval() {
        var timeline = makeTimeline()
        for frame in [2, 0, 1] { timeline.observeFirstPass(pts: 126_000 + Int64(frame) * 3000, duration: 0) }
        _ = timeline.wrap()
        XCTAssertEqual(timeline.loopDuration, 9000)
    }

    func testPassAndSecondsFollowTheTimeline() {
        var timeline = makeTimeline()
        timeline.observeFirstPass(pts: 126_000 + 357_000, duration: 3000)
        _ = timeline.wrap()
        XCTAssertEqual(timeline.pass(of: 126_000), 0)
        XCTAssertEqual(timeline.pass(of: 126_000 + 359_999), 0)
        XCTAssertEqual(timeline.pass(of: 126_000 + 360_000), 1)
        XCTAssertEqual(timeline.pass(of: 100), 0)
        XCTAssertEqual(timeline.seconds(126_000 + 90_000), 1.0, accuracy: 1e-12)
    }

    func testPassesAfterObservationDoNotChangeTheDuration() {
        var timeline = makeTimeline()
        timeline.observeFirstPass(pts: 126_000, duration: 3000)
        _ = timeline.wrap()
        timeline.observeFirstPass(pts: 999_999_999, duration: 3000)
        XCTAssertEqual(timeline.loopDuration, 3000)
    }

    func testBeforeThePassIsMeasuredEverythingIsPassZero() {
        var timeline = makeTimeline()
        timeline.observeFirstPass(pts: 126_000 + 6000, duration: 3000)
        timeline.observeFirstPass(pts: 126_000, duration: 3000)  // out of order: the furthest end counts
        XCTAssertEqual(timeline.firstPassEndSeconds ?? 0, 0.1, accuracy: 1e-12)
        XCTAssertEqual(timeline.pass(of: 126_000 + 10_000_000), 0)
        XCTAssertEqual(timeline.offset(forPass: 5), 0)
        XCTAssertNil(timeline.loopDurationSeconds)
        timeline.resume(inPass: 3)  // nothing to resume in yet
        XCTAssertEqual(timeline.wraps, 0)
    }

    /// A pass that held no packet is one nominal frame long, not zero (no division by zero, no spin).
    func testAWrapWithoutPacketsLastsOneFrame() {
        var timeline = makeTimeline()
        XCTAssertEqual(timeline.wrap(), 3000)
        XCTAssertEqual(timeline.loopDuration, 3000)
        XCTAssertEqual(timeline.nominalFrameInterval, 1.0 / 30, accuracy: 1e-12)
    }

    /// A decode stage's copy learns the length from the demuxer once, and follows a seek's pass.
    func testLearnAndResume() {
        var timeline = makeTimeline()
        timeline.learn(loopDuration: 360_000)
        timeline.learn(loopDuration: 1)
        XCTAssertEqual(timeline.loopDuration, 360_000)
        XCTAssertEqual(timeline.pass(of: 126_000 + 720_000), 2)
        timeline.resume(inPass: 4)
        XCTAssertEqual(timeline.wraps, 4)
        XCTAssertEqual(timeline.wrap(), 5 * 360_000, "the next pass after the one resumed in")
    }

    func testTheNominalFrameIsRoundedToTicksAndAtLeastOne() {
        XCTAssertEqual(LoopTimeline(tick: 1.0 / 1000, origin: 0, nominalFrameInterval: 1.0 / 30).nominalFrameTicks, 33)
        XCTAssertEqual(LoopTimeline(tick: 1.0 / 25, origin: 0, nominalFrameInterval: 0.001).nominalFrameTicks, 1)
    }
}
