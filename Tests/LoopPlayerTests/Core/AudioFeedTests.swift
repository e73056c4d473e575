import LoopPlayerCore
import XCTest

/// `AudioFeed`'s plan for each device buffer, as tables: the state going in (`buffered` frames in a
/// ring of 1000, buffers of 100), the plan coming out, and the state it leaves. A prefill of 200.
final class AudioFeedTests: XCTestCase {
    typealias Plan = AudioFeed.Plan

    private func feed(_ change: (inout AudioFeed) -> Void = { _ in }) -> AudioFeed {
        var feed = AudioFeed(prefill: 200)
        feed.paused = false
        change(&feed)
        return feed
    }

    /// Runs `rows` (buffered frames, expected plan) on `feed`, one buffer of 100 frames each.
    private func run(_ feed: inout AudioFeed, _ rows: [(buffered: Int, plan: Plan)], file: StaticString = #filePath,
                     line: UInt = #line) {
        for (index, row) in rows.enumerated() {
            XCTAssertEqual(feed.plan(frames: 100, buffered: row.buffered, capacity: 1000), row.plan, "row \(index)",
                           file: file, line: line)
        }
    }

    func testSoundStartsOnlyOncePrefilledAndFadesInOverOneBuffer() {
        var feed = feed()
        run(&feed, [
            (0, Plan(idle: true)),
            (199, Plan(idle: true)),  // below the prefill: not yet
            (200, Plan(take: 100, gainFrom: 0, gainTo: 1, heard: true)),  // fades in from silence
            (100, Plan(take: 100, gainFrom: 1, gainTo: 1, heard: true)),
        ])
        XCTAssertTrue(feed.started)
    }

    func testAnEndedWriterStartsWithLessThanThePrefillAndNeverUnderruns() {
        var feed = feed { $0.ended = true }
        run(&feed, [
            (30, Plan(take: 30, gainFrom: 0, gainTo: 1, heard: true)),  // the last 30 frames, then silence
            (0, Plan(take: 0, gainFrom: 1, gainTo: 1)),  // not an underrun: the sound ended
        ])
        XCTAssertTrue(feed.started)
    }

    func testARingThatRunsDryIsAnUnderrunAndBuffersUpAgain() {
        var feed = feed { $0.started = true; $0.gain = 1 }
        run(&feed, [
            (60, Plan(take: 60, gainFrom: 1, gainTo: 1, underrun: true, heard: true)),
            (150, Plan(idle: true)),  // below the prefill again
            (250, Plan(take: 100, gainFrom: 0, gainTo: 1, heard: true)),
        ])
    }

    func testAPauseFadesOutOverOneBufferThenIsIdle() {
        var feed = feed { $0.started = true; $0.gain = 1 }
        feed.paused = true
        run(&feed, [
            (500, Plan(take: 100, gainFrom: 1, gainTo: 0)),  // not heard: the clock stops
            (400, Plan(idle: true)),
        ])
        XCTAssertEqual(feed.gain, 0)
    }

    func testMutedSoundPlaysOnAtZeroGain() {
        var feed = feed { $0.started = true; $0.gain = 1; $0.muted = true }
        run(&feed, [
            (500, Plan(take: 100, gainFrom: 1, gainTo: 0, heard: true)),
            (400, Plan(take: 100, gainFrom: 0, gainTo: 0, heard: true)),  // still the clock
        ])
    }

    func testStaleSoundFadesOutAloneThenTheNewSoundWaitsForItsPrefill() {
        var feed = feed { $0.started = false; $0.gain = 0.8; $0.fading = 100 }
        run(&feed, [
            (100, Plan(fadeOut: 100, gainFrom: 0.8)),
            (150, Plan(idle: true)),
            (200, Plan(take: 100, gainFrom: 0, gainTo: 1, heard: true)),
        ])
    }

    func testARealignedSoundThatRanAheadStartsLaterBySilence() {
        var feed = feed { $0.started = true; $0.gain = 1; $0.delay = 150 }
        run(&feed, [
            (500, Plan(leadingSilence: 100, take: 0, gainFrom: 1, gainTo: 1)),  // all of this buffer
            (500, Plan(leadingSilence: 50, take: 50, gainFrom: 1, gainTo: 1, heard: true)),
            (450, Plan(take: 100, gainFrom: 1, gainTo: 1, heard: true)),
        ])
        XCTAssertEqual(feed.delay, 0)
    }

    func testAHeldDeviceQueuesWithoutPlayingUntilReleased() {
        var feed = feed { $0.held = true }
        run(&feed, [(800, Plan(idle: true)), (900, Plan(idle: true))])
        feed.held = false
        run(&feed, [(900, Plan(take: 100, gainFrom: 0, gainTo: 1, heard: true))])
    }

    func testAClosedDeviceFadesWhatItPlayedAndStops() {
        var feed = feed { $0.started = true; $0.gain = 1; $0.closed = true }
        run(&feed, [(500, Plan(take: 100, gainFrom: 1, gainTo: 0)), (400, Plan(idle: true))])
    }
}
