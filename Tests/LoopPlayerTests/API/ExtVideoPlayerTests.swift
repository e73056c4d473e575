import Foundation
import LoopPlayer
import Synchronization
import XCTest

/// The façade end to end, headless on the virtual clock (exact and fast) unless said otherwise.
final class ExtVideoPlayerTests: XCTestCase {
    /// Collects what a player delivers; callbacks come from the run thread.
    final class Recorder: Sendable {
        let batches = Mutex<[[PlayerEvent]]>([])
        let times = Mutex<[Double]>([])
        var allEvents: [PlayerEvent] { batches.withLock { $0.flatMap { $0 } } }

        func attach(to player: ExtVideoPlayer) {
            player.onPlayerEventChange { batch in self.batches.withLock { $0.append(batch) } }
                .onPlayerTimeChange { time in self.times.withLock { $0.append(time) } }
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    private func player(_ build: @escaping () -> [any Setting]) throws -> (ExtVideoPlayer, Recorder) {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); build() } }
        let recorder = Recorder()
        recorder.attach(to: player)
        return (player, recorder)
    }

    func testEventsArriveInOneBatchPerSecondAndLoopsAreCounted() throws {
        let (player, recorder) = try player { [Loop(), Events()] }
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(duration: 10)), .finished)
        let batches = recorder.batches.withLock { $0 }
        // Each pass is a play record after its loop; stopping mid-pass records the interrupted play.
        XCTAssertEqual(batches.count, 4, "\(batches)")
        // Headless, the player area is the picture's display size: the picture fills it.
        XCTAssertEqual(batches[0], [.currentItemChanged, .itemStatusChanged(.readyToPlay), .duration(4), .playing,
                                    .boundsChanged(Rect(x: 0, y: 0, width: 320, height: 180))])
        XCTAssertEqual(batches[1].first, .loopCompleted(1))
        XCTAssertEqual(batches[2].first, .loopCompleted(2))
        let plays = batches.flatMap { $0 }.compactMap { event -> PlayRecord? in
            if case let .played(record) = event { record } else { nil }
        }
        XCTAssertEqual(plays.map(\.ending), [.completedPass, .completedPass, .interrupted], "\(plays)")
        XCTAssertEqual(plays.prefix(2).map(\.framesShown), [120, 120])
        XCTAssertEqual(batches.map(\.count), [5, 2, 2, 1], "a play record goes out in its pass's batch")
        XCTAssertEqual(player.statistics.loopsCompleted, 2)
        XCTAssertEqual(player.state, .idle, "a finished run closes the player")
    }

    func testWithoutEventsSettingNothingIsDeliveredAndFiltersSelect() throws {
        let (silent, silentRecorder) = try player { [Loop()] }
        silent.runHeadless(timing: .untimed, until: StopCondition(duration: 5))
        XCTAssertEqual(silentRecorder.batches.withLock { $0.count }, 0)

        let (filtered, recorder) = try player { [Loop(), Events([.loopCompletedAny])] }
        filtered.runHeadless(timing: .untimed, until: StopCondition(duration: 9))
        XCTAssertEqual(recorder.batches.withLock { $0 }, [[.loopCompleted(1)], [.loopCompleted(2)]])
    }

    func testTimePublishingFollowsThePositionAcrossWraps() throws {
        let (player, recorder) = try player { [Loop(), TimePublishing(1)] }
        player.runHeadless(timing: .untimed, until: StopCondition(duration: 9.5))
        let times = recorder.times.withLock { $0 }
        let expected: [Double] = [1, 2, 3, 0, 1, 2, 3, 0, 1]
        XCTAssertEqual(times.count, expected.count, "\(times)")
        for (time, value) in zip(times, expected) { XCTAssertEqual(time, value, accuracy: 1e-6) }
    }

    /// The time is published while paused too (the same position each tick), and a seek publishes
    /// where it landed at once, as the model does (publishing stopped at a pause).
    func testTimeIsPublishedWhilePausedAndAtASeek() throws {
        let (player, recorder) = try player { [Loop(), TimePublishing(0.2)] }
        let asked = Counter()
        player.onPlayerTimeChange { time in
            guard time >= 0.6, asked.value == 0 else { return }
            asked.increment()
            player.send(.pause)
            player.send(.seek(to: 3, play: false))
        }
        player.runHeadless(until: StopCondition(duration: 2.5))
        let times = recorder.times.withLock { $0 }
        let seekAt = try XCTUnwrap(times.firstIndex { abs($0 - 3) < 1e-6 }, "the seek's position published: \(times)")
        let after = times[seekAt...]
        XCTAssertGreaterThanOrEqual(after.count, 4, "published while paused: \(times)")
        XCTAssertTrue(after.allSatisfy { abs($0 - 3) < 1e-6 }, "paused at the seek's position: \(times)")
    }

    func testCommandsSentBeforeReadyAreAppliedInOrder() throws {
        let (player, recorder) = try player { [Events([.seekAny, .paused])] }
        player.send(.seek(to: 2, play: false))
        player.send(.seek(to: 2, play: false))  // identical: applied again, not de-duplicated
        player.send(.seek(to: -3))
        player.send(.seek(to: 99, play: false))
        var shown: [Double] = []
        player.runFrames(timing: .untimed, until: StopCondition(frames: 1)) { frame in shown.append(frame.positionInPass) }
        XCTAssertEqual(recorder.allEvents, [
            .seek(true, currentTime: 2), .paused, .seek(true, currentTime: 2), .seek(true, currentTime: 0),
            .seek(true, currentTime: 4 - 1.0 / 30), .paused,
        ])
        XCTAssertEqual(shown.count, 1)
        XCTAssertEqual(shown[0], 4 - 1.0 / 30, accuracy: 1e-6, "the last seek decides the first frame")
    }

    func testBeginEndAndSpeed() throws {
        let (player, recorder) = try player { [Loop(), Events([.seekAny, .paused, .playing])] }
        var positions: [Double] = []
        player.send(.playbackSpeed(2))
        player.runFrames(timing: .untimed, until: StopCondition(duration: 1)) { frame in positions.append(frame.positionInPass) }
        XCTAssertEqual(positions.count, 60, "double speed shows two seconds of media in one")

        player.send(.end)
        player.runHeadless(timing: .untimed, until: StopCondition(frames: 1))
        XCTAssertEqual(recorder.allEvents.suffix(2), [.seek(true, currentTime: 4 - 1.0 / 30), .paused])
        player.send(.begin)
        player.runHeadless(timing: .untimed, until: StopCondition(frames: 1))
        XCTAssertEqual(recorder.allEvents.suffix(2), [.seek(true, currentTime: 0), .paused])
    }

    func testZeroSpeedHoldsThePicture() throws {
        let (player, _) = try player { [Loop()] }
        player.send(.playbackSpeed(-3))  // clamped to 0
        let shown = Counter()
        let finished = expectation(description: "run returned")
        let thread = Thread { player.runFrames { _ in shown.increment() }; finished.fulfill() }
        thread.start()
        // Once the first frame is shown (however long the start took), the loop goes on for 30
        // passes (a third of a second at least) without showing another.
        try waitFor(timeout: 20) { shown.value >= 1 }
        try waitForLoopPasses(player, 30)
        player.stop()
        wait(for: [finished], timeout: 20)
        XCTAssertEqual(shown.value, 1, "speed 0 shows the first frame and holds it")
    }

    func testLiveSettingsChangeTheSourceAndLooping() throws {
        let first = try TestMedia.loopClip()
        let second = try TestMedia.testPattern("small-24.mp4", frames: 24, size: "160x90", codec: TestMedia.h264)
        let player = ExtVideoPlayer { VideoSettings { SourceName(first); Loop(); Events([.currentItemChangedAny, .currentItemRemoved, .ended]) } }
        let recorder = Recorder()
        recorder.attach(to: player)
        var sizes: [Int] = []
        player.runFrames(timing: .untimed, until: StopCondition(frames: 40, exitAtEnd: true)) { frame in
            sizes.append(frame.width)
            if sizes.count == 10 {
                var changed = player.settings
                changed.sourceName = second
                changed.loop = false
                player.settings = changed
            }
        }
        XCTAssertEqual(sizes.prefix(10).allSatisfy { $0 == 320 }, true)
        XCTAssertEqual(sizes.count, 34, "10 frames of the first source, then all 24 of the second, which does not loop")
        XCTAssertEqual(sizes.suffix(24).allSatisfy { $0 == 160 }, true)
        XCTAssertEqual(recorder.allEvents, [.currentItemChanged, .currentItemRemoved, .currentItemChanged, .ended])
    }

    func testFailureThenRetryRecovers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("late.mp4").path
        let player = ExtVideoPlayer { VideoSettings { SourceName(path); Loop(); Events([.errorAny, .playing]) } }
        let recorder = Recorder()
        recorder.attach(to: player)
        let finished = expectation(description: "run returned")
        let thread = Thread { player.runHeadless(); finished.fulfill() }
        thread.start()
        try waitFor { if case .failed(.sourceNotFound) = player.state { true } else { false } }
        try FileManager.default.copyItem(atPath: TestMedia.loopClip(), toPath: path)
        player.retry()
        try waitFor { player.state == .playing }
        player.stop()
        wait(for: [finished], timeout: 5)
        let events = recorder.allEvents
        XCTAssertEqual(events.count, 2, "\(events)")
        if case .error(.sourceNotFound) = events.first {} else { XCTFail("\(events)") }
        XCTAssertEqual(events.last, .playing)
        XCTAssertEqual(player.statistics.errors["sourceNotFound"], 1)
    }

    func testNotAutoPlayShowsTheFirstFrameAndWaits() throws {
        let (player, _) = try player { [NotAutoPlay()] }
        let shown = Counter()
        let finished = expectation(description: "run returned")
        let thread = Thread { player.runFrames { _ in shown.increment() }; finished.fulfill() }
        thread.start()
        try waitFor { player.state == .ready }
        // Nothing is awaited here: it must go on holding the first frame. Thirty passes of its loop
        // (a third of a second at least, however slow the machine) give it the chance to do otherwise.
        try waitForLoopPasses(player, 30)
        XCTAssertEqual(player.state, .ready)
        XCTAssertEqual(shown.value, 1, "only the first frame is shown before play")
        player.send(.play)
        try waitFor { player.state == .playing }
        try waitFor { shown.value > 1 }
        player.stop()
        wait(for: [finished], timeout: 5)
        XCTAssertGreaterThan(shown.value, 1)
    }

    func testExclusiveGroupPausesTheOthers() throws {
        let clip = try TestMedia.loopClip()
        let first = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); ExclusivePlayback(group: "lobby") } }
        let second = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); NotAutoPlay(); ExclusivePlayback(group: "lobby") } }
        let other = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop() } }
        let done = [expectation(description: "1"), expectation(description: "2"), expectation(description: "3")]
        for (player, finished) in zip([first, second, other], done) {
            Thread { player.runHeadless(); finished.fulfill() }.start()
        }
        try waitFor { first.state == .playing && second.state == .ready && other.state == .playing }
        second.send(.play)
        try waitFor { second.state == .playing && first.state == .paused }
        XCTAssertEqual(other.state, .playing, "players outside the group are independent")
        [first, second, other].forEach { $0.stop() }
        wait(for: done, timeout: 5)
    }

    func testAsyncStreamsDeliverTheSameBatches() async throws {
        let clip = try TestMedia.loopClip()
        let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Events([.loopCompletedAny]); TimePublishing(2) } }
        let batches = player.eventBatches()
        let times = player.times()
        let thread = Thread { player.runHeadless(timing: .untimed, until: StopCondition(duration: 8.5)) }
        thread.start()
        var received: [[PlayerEvent]] = []
        for await batch in batches {
            received.append(batch)
            if received.count == 2 { break }
        }
        XCTAssertEqual(received, [[.loopCompleted(1)], [.loopCompleted(2)]])
        var published: [Double] = []
        for await time in times {
            published.append(time)
            if published.count == 4 { break }
        }
        XCTAssertEqual(published.map { ($0 * 1000).rounded() / 1000 }, [2, 0, 2, 0])
    }

    func testStateChangesAreObservableAndUnloopEndsAtThePassEnd() throws {
        let (player, recorder) = try player { [Loop(), NotAutoPlay(), Events([.ended, .loopCompletedAny])] }
        let states = Mutex<[PlayerState]>([])
        player.onStateChange { state in states.withLock { $0.append(state) } }
        player.send(.play)
        player.send(.unloop)
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(exitAtEnd: true)), .finished)
        XCTAssertEqual(states.withLock { $0 }, [.loading, .playing, .ended, .idle])
        XCTAssertEqual(recorder.allEvents, [.ended], "unlooped before the first wrap: one pass, no loop")
        XCTAssertEqual(player.statistics.framesPresented, 120)
    }

    func testSeekWhilePausedShowsTheNewPictureAndStaysPaused() throws {
        // The time published every 50 ms, while paused too: the player's own ticks.
        let (player, recorder) = try player { [Loop(), TimePublishing(0.05)] }
        let shown = Mutex<[Double]>([])
        let finished = expectation(description: "run returned")
        Thread { player.runFrames { frame in shown.withLock { $0.append(frame.positionInPass) } }; finished.fulfill() }.start()
        try waitFor { shown.withLock { $0.count } >= 2 }
        player.send(.pause)
        try waitFor { player.state == .paused }
        player.send(.seek(to: 3, play: false))
        try waitFor { abs((shown.withLock { $0.last } ?? 0) - 3) < 1e-6 }
        try waitFor { abs(player.currentTime - 3) < 0.001 }  // taken at the player's next loop iteration
        XCTAssertEqual(player.state, .paused)
        XCTAssertEqual(player.currentTime, 3, accuracy: 0.001, "the position is the new picture's, frozen")
        let count = shown.withLock { $0.count }
        // A fifth of a second of the player's own time goes by, paused (four more publications).
        let published = recorder.times.withLock { $0.count }
        try waitFor { recorder.times.withLock { $0.count } >= published + 4 }
        XCTAssertEqual(shown.withLock { $0.count }, count, "still paused after the seek")
        player.stop()
        wait(for: [finished], timeout: 5)
    }

    func testInvalidSettingsFailWithoutRunning() throws {
        let player = ExtVideoPlayer { VideoSettings { SourceName("x"); TimePublishing(-1); Events() } }
        let recorder = Recorder()
        recorder.attach(to: player)
        guard case .failed(.invalidSetting) = player.runHeadless(timing: .untimed) else { return XCTFail() }
        if case .failed(.invalidSetting) = player.state {} else { XCTFail("\(player.state)") }
        XCTAssertEqual(recorder.allEvents.count, 1)
        // The failed set-up released the player: the next run fails for the same reason, not as "already running".
        guard case let .failed(.invalidSetting(name, _, _)) = player.runHeadless(timing: .untimed) else { return XCTFail() }
        XCTAssertEqual(name, "TimePublishing")
    }

    /// A second run of a running player, alone or in a group, fails with `alreadyRunning` and leaves
    /// the running one alone (no event, still playing); once that run ends the player runs again.
    func testOneRunAtATime() throws {
        let (player, recorder) = try player { [Loop(), Events([.errorAny, .playing])] }
        let finished = expectation(description: "run returned")
        Thread { player.runHeadless(); finished.fulfill() }.start()
        try waitFor { player.state == .playing }
        guard case let .failed(.invalidSetting(name, _, reason)) = player.runHeadless(timing: .untimed) else {
            return XCTFail("a second run must be refused")
        }
        XCTAssertEqual(name, "run")
        XCTAssertTrue(reason.contains("already running"), reason)
        guard case .failed(.invalidSetting(name: "run", _, _))? = ExtVideoPlayer.runAll([player], timing: .untimed).first else {
            return XCTFail("a group run must be refused")
        }
        XCTAssertEqual(player.state, .playing)
        player.stop()
        wait(for: [finished], timeout: 5)
        XCTAssertEqual(recorder.allEvents, [.playing], "the refused runs sent nothing")
        XCTAssertEqual(player.runHeadless(timing: .untimed, until: StopCondition(frames: 2)), .finished)
    }

    struct Timeout: Error {}

    /// Waits until `condition` holds (the shared `pollFor`), failing the test if it never does.
    private func waitFor(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line,
                         _ condition: () -> Bool) throws {
        if pollFor(timeout: timeout, { condition() ? true : nil }) != nil { return }
        XCTFail("condition not met in \(timeout) s", file: file, line: line)
        throw Timeout()
    }

    /// Waits until `player`'s run loop made `count` more passes (each probe, 10 ms apart, wakes it
    /// for one): what it does meanwhile is what it does with nothing asked of it, on any machine.
    private func waitForLoopPasses(_ player: ExtVideoPlayer, _ count: Int, file: StaticString = #filePath,
                                   line: UInt = #line) throws {
        let start = player.probeRunLoop()
        try waitFor(timeout: 20, file: file, line: line) { player.probeRunLoop() >= start + count }
    }
}

/// The length is said once: the container's announced length and the one measured from the first
/// pass are the same number, also when a seek to the end cut the first pass short.
final class DurationEventTests: XCTestCase {
    func testDurationIsReportedOnceAfterASeekToTheEnd() throws {
        // MP4 gives each track's length; Matroska only the file's (here the sound's, 21 ms longer).
        for clip in [try TestMedia.loopClip(), try AudioTestMedia.sine(), try AudioTestMedia.twoLanguages()] {
            let player = ExtVideoPlayer { VideoSettings { SourceName(clip); Loop(); Events() } }
            let recorder = ExtVideoPlayerTests.Recorder()
            recorder.attach(to: player)
            player.send(.seek(to: 1_000))
            XCTAssertEqual(player.runHeadless(until: StopCondition(loops: 2)), .finished)
            let durations = recorder.allEvents.compactMap { if case let .duration(length) = $0 { length } else { nil } }
            XCTAssertEqual(durations.count, 1, "\(clip): \(durations)")
            XCTAssertEqual(durations.first, player.statistics.loopDurationMs.map { $0 / 1000 }, "\(clip)")
        }
    }
}
