@testable import LoopPlayer
import Synchronization
import XCTest

/// A playlist plays its items one after the other with the next one already open: the switch is one
/// frame interval of the outgoing item (like a loop wrap), every frame of every item is shown, items
/// of other sizes, rates and codecs work, and a failing item is skipped with its error event.
final class GaplessPlaylistTests: XCTestCase {
    private struct Shown: Equatable {
        var time: Double
        var at: Double
        var width: Int
    }

    /// Plays `first` with `queued` queued behind it on the virtual clock; every frame shown, with when.
    private func playQueued(_ first: String, then queued: String, clock timing: Bool = false)
        throws -> (shown: [Shown], engine: PlaybackEngine, advanced: [MediaLocation]) {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: false, untimed: !timing, stop: StopCondition(exitAtEnd: true),
            audio: AudioOptions(track: .none)))
        var shown: [Shown] = []
        var advanced: [MediaLocation] = []
        let realClock = MonotonicClock()
        engine.onFramePresented = { [unowned engine] frame in
            shown.append(Shown(time: frame.time, at: timing ? realClock.now : engine.clock.now, width: frame.width))
        }
        let controller = TestController()
        controller.onEvent = { if case let .advanced(location, _) = $0 { advanced.append(location) } }
        try engine.load(first)
        engine.queueNext(.file(queued))
        XCTAssertEqual(engine.run(controller: controller), .finished)
        return (shown, engine, advanced)
    }

    func testEveryFrameOfBothItemsIsShownOneIntervalApart() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (shown, engine, advanced) = try playQueued(first, then: second)
        XCTAssertEqual(advanced, [.file(second)])
        XCTAssertEqual(shown.count, 55, "30 + 25 frames")
        XCTAssertEqual(shown.prefix(30).map(\.width), Array(repeating: 320, count: 30))
        XCTAssertEqual(shown.suffix(25).map(\.width), Array(repeating: 240, count: 25))
        for (index, frame) in shown.prefix(30).enumerated() {
            XCTAssertEqual(frame.time, Double(index) / 30, accuracy: 1e-6, "item 0 frame \(index)")
        }
        for (index, frame) in shown.suffix(25).enumerated() {
            XCTAssertEqual(frame.time, Double(index) / 25, accuracy: 1e-6, "item 1 starts at its own 0")
        }
        let intervals = zip(shown.dropFirst(), shown).map { $0.at - $1.at }
        for (index, interval) in intervals.enumerated() {
            // Up to the switch: 1/30 s; the switch itself is item 0's last frame's duration (1/30 s); then 1/25 s.
            let expected = index < 30 ? 1.0 / 30 : 1.0 / 25
            XCTAssertEqual(interval, expected, accuracy: 1e-6, "interval \(index)")
        }
        let statistics = engine.statistics
        XCTAssertEqual(statistics.framesPresented, 55, "the counters go on across items")
        XCTAssertEqual(statistics.seamIntervalsMs.count, 1, "the switch is measured as a seam")
        XCTAssertEqual(statistics.seamIntervalsMs.first ?? 0, 1000.0 / 30, accuracy: 1e-3)
    }

    func testAnotherContainerAndCodecFollowsToo() throws {
        try require(TestMedia.hasEncoder("libvpx"), "ffmpeg with libvpx")
        let (shown, _, _) = try playQueued(try PlaylistMedia.third(), then: try PlaylistMedia.first())
        XCTAssertEqual(shown.map(\.width), Array(repeating: 160, count: 15) + Array(repeating: 320, count: 30))
    }

    /// In real time the switch is one frame interval too, with nothing dropped.
    func testRealTimeSwitchIsOneFrameInterval() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (shown, engine, _) = try playQueued(first, then: second, clock: true)
        XCTAssertEqual(shown.count, 55)
        XCTAssertEqual(engine.statistics.framesDropped, 0)
        let switchInterval = shown[30].at - shown[29].at
        XCTAssertEqual(switchInterval, 1.0 / 30, accuracy: 0.008, "the switch took \(switchInterval * 1000) ms")
    }

    func testQueuedItemThatFailsIsReportedAndTheRunEnds() throws {
        let engine = try PlaybackEngine(configuration: EngineConfiguration(
            output: .offscreen, looping: false, untimed: true, stop: StopCondition(exitAtEnd: true),
            audio: AudioOptions(track: .none)))
        var failures: [PlayerError] = []
        var frames = 0
        let controller = TestController()
        controller.onEvent = { if case let .queuedItemFailed(_, error) = $0 { failures.append(error) } }
        engine.onFramePresented = { _ in frames += 1 }
        try engine.load(try PlaylistMedia.first())
        engine.queueNext(.file("/nonexistent/clip.mp4"))
        XCTAssertEqual(engine.run(controller: controller), .finished)
        XCTAssertEqual(frames, 30)
        XCTAssertEqual(failures.map(\.kind), ["sourceNotFound"], "\(failures)")
        XCTAssertNil(engine.queuedLocation)
    }

    // MARK: Through the player and its settings

    private final class EventLog: Sendable {
        let list = Mutex<[PlayerEvent]>([])
        var all: [PlayerEvent] { list.withLock { $0 } }
        var playlist: [PlayerEvent] {
            all.filter {
                switch $0 {
                case .playlistItemChanged, .playlistEnded, .error: true
                default: false
                }
            }
        }
    }

    private func player(_ settings: VideoSettings) -> (ExtVideoPlayer, EventLog) {
        let player = ExtVideoPlayer(settings: settings)
        player.audioOutput = AudioOptions(track: .none)
        let events = EventLog()
        player.onPlayerEventChange { batch in events.list.withLock { $0 += batch } }
        return (player, events)
    }

    func testPlaylistSettingPlaysInOrderAndSkipsAMissingItem() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (player, events) = player(VideoSettings {
            Playlist { SourceName(first); SourceName("/nonexistent/missing.mp4"); SourceName(second) }
            Events()
        })
        var widths: [Int] = []
        let outcome = player.runFrames(timing: .untimed, until: StopCondition(exitAtEnd: true)) { widths.append($0.width) }
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(widths, Array(repeating: 320, count: 30) + Array(repeating: 240, count: 25))
        let playlistEvents = events.playlist
        XCTAssertEqual(playlistEvents.first, .playlistItemChanged(index: 0))
        XCTAssertTrue(playlistEvents.contains(.playlistItemChanged(index: 2)), "\(playlistEvents)")
        XCTAssertFalse(playlistEvents.contains(.playlistItemChanged(index: 1)), "the missing item never played")
        XCTAssertTrue(playlistEvents.contains { if case .error(.sourceNotFound) = $0 { true } else { false } },
                      "the missing item is an error event: \(playlistEvents)")
        XCTAssertEqual(playlistEvents.last, .playlistEnded)
    }

    /// A missing first item: the list starts with the second.
    func testFailingFirstItemIsSkipped() throws {
        let first = try PlaylistMedia.first()
        let (player, events) = player(VideoSettings {
            Playlist(["/nonexistent/missing.mp4", first])
            Events()
        })
        var frames = 0
        let outcome = player.runFrames(timing: .untimed, until: StopCondition(exitAtEnd: true, exitOnFailure: true)) { _ in
            frames += 1
        }
        XCTAssertEqual(outcome, .finished, "a skipped failure does not end the run")
        XCTAssertEqual(frames, 30)
        XCTAssertEqual(events.playlist.filter { $0 != .playlistEnded }.map(\.filter),
                       [.playlistItemChangedAny, .errorAny, .playlistItemChangedAny])
    }

    /// The queued item fails only after the current one ended (a server that answers 404 late):
    /// the list goes on with the item after it; the end of the current item is not the run's.
    func testAQueuedItemFailingAfterTheCurrentEndedIsSkipped() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("late-404-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let server = try FaultServer(root: root)
        defer { server.stop() }
        try server.setFaults([FaultRule(pattern: "gone", status: 404, delay: 0.5)])
        let (player, events) = player(VideoSettings {
            Playlist([first, server.url("/gone.mp4"), second])
            Events()
        })
        var frames = 0
        let outcome = player.runFrames(timing: .untimed, until: StopCondition(exitAtEnd: true, exitOnFailure: true)) { _ in
            frames += 1
        }
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(frames, 30 + 25, "the first and the third item")
        XCTAssertEqual(events.playlist.map(\.filter),
                       [.playlistItemChangedAny, .errorAny, .playlistItemChangedAny, .playlistEnded], "\(events.all)")
    }

    /// Passes of a list are counted when an item of it is missing: two passes of [first, missing]
    /// play the first item twice and end (they never ended).
    func testPassesOfAListWithAMissingItemEnd() throws {
        let first = try PlaylistMedia.first()
        let (player, _) = player(VideoSettings {
            Playlist([first, "/nonexistent/missing.mp4"])
            LoopPlaylist(passes: 2)
        })
        var frames = 0
        // Bounded: a list that never ends stops at 300 frames (and fails the count).
        let outcome = player.runFrames(timing: .untimed, until: StopCondition(frames: 300, exitAtEnd: true, exitOnFailure: true)) { _ in
            frames += 1
        }
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(frames, 2 * 30)
    }

    /// Every item failing ends a looping list instead of cycling forever.
    func testEveryItemFailingEndsTheRun() throws {
        let (player, _) = player(VideoSettings {
            Playlist(["/nonexistent/a.mp4", "/nonexistent/b.mp4"])
            LoopPlaylist()
        })
        let outcome = player.runFrames(timing: .untimed, until: StopCondition(exitAtEnd: true, exitOnFailure: true)) { _ in }
        guard case .failed(.sourceNotFound) = outcome else { return XCTFail("\(outcome)") }
    }

    /// After every item failed, `retry()` plays the item that failed last again (it used to start
    /// the list over at item 0), and a failure after that skips on as usual.
    func testRetryPlaysTheFailedItemAgain() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("retry-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (a, b) = (directory.appendingPathComponent("a.mp4").path, directory.appendingPathComponent("b.mp4").path)
        let (player, events) = player(VideoSettings {
            Playlist([a, b])
            Events([.playlistItemChangedAny, .errorAny, .playing])
        })
        let finished = expectation(description: "run returned")
        Thread { player.runFrames { _ in }; finished.fulfill() }.start()
        // Item 0 fails, the list skips to item 1, which fails too: the list stops there.
        XCTAssertTrue(waitFor {
            guard case .failed = player.state, let last = events.all.last, case .error = last else { return false }
            return events.all.contains(.playlistItemChanged(index: 1))
        }, "\(events.all)")
        let before = events.all
        XCTAssertFalse(before.contains(.playing))
        try FileManager.default.copyItem(atPath: try PlaylistMedia.first(), toPath: a)
        try FileManager.default.copyItem(atPath: try PlaylistMedia.second(), toPath: b)
        player.retry()
        _ = waitFor { events.all.count >= before.count + 2 }
        player.stop()
        wait(for: [finished], timeout: 5)
        XCTAssertEqual(Array(events.all.dropFirst(before.count).prefix(2)), [.playlistItemChanged(index: 1), .playing],
                       "\(events.all)")
    }

    func testLoopPlaylistStartsAgainAfterTheLast() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (player, events) = player(VideoSettings {
            Playlist([first, second])
            LoopPlaylist()
            Events([.playlistItemChangedAny, .playlistEnded])
        })
        var widths: [Int] = []
        player.runFrames(timing: .untimed, until: StopCondition(frames: 30 + 25 + 30 + 5)) { widths.append($0.width) }
        XCTAssertEqual(widths, [Int](repeating: 320, count: 30) + [Int](repeating: 240, count: 25)
                       + [Int](repeating: 320, count: 30) + [Int](repeating: 240, count: 5))
        XCTAssertEqual(events.all, [.playlistItemChanged(index: 0), .playlistItemChanged(index: 1),
                                    .playlistItemChanged(index: 0), .playlistItemChanged(index: 1)])
    }

    /// `Loop()` loops the current item: no switch while it is on.
    func testLoopKeepsTheCurrentItem() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (player, _) = player(VideoSettings {
            Playlist([first, second])
            Loop()
        })
        var widths = Set<Int>()
        player.runFrames(timing: .untimed, until: StopCondition(frames: 100)) { widths.insert($0.width) }
        XCTAssertEqual(widths, [320])
    }

    func testNextPreviousInsertAndRemoveWhilePlaying() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let (player, events) = player(VideoSettings {
            Playlist([first, second])
            Events([.playlistItemChangedAny, .playlistEnded, .errorAny])
        })
        var widths: [Int] = []
        var sent = Set<Int>()
        func once(_ at: Int, _ command: PlaybackCommand) {
            if widths.count == at, sent.insert(at).inserted { player.send(command) }
        }
        player.runFrames(timing: .untimed, until: StopCondition(exitAtEnd: true)) { frame in
            widths.append(frame.width)
            once(5, .next)                      // item 0 → item 1 after 5 frames
            once(10, .previous)                 // back to item 0
            once(15, .insert(second, at: 0))    // item 0 is now index 1
            once(16, .remove(at: 1))            // removes the item playing: the one after (index 1) plays
            once(20, .playItem(at: 7))          // outside the list: an error, nothing changes
        }
        // On the virtual clock each command takes effect at the next frame: 5 frames of item 0, 5 of
        // item 1 (next), 6 of item 0 (previous; the insert keeps it playing), then all 25 of the item
        // the removal plays.
        XCTAssertEqual(widths, [Int](repeating: 320, count: 5) + [Int](repeating: 240, count: 5)
                       + [Int](repeating: 320, count: 6) + [Int](repeating: 240, count: 25))
        // next, previous, the insert moving the item playing to 1, the removal playing the new 1.
        let expected: [PlayerEvent] = [.playlistItemChanged(index: 0), .playlistItemChanged(index: 1),
                                       .playlistItemChanged(index: 0), .playlistItemChanged(index: 1),
                                       .playlistItemChanged(index: 1)]
        XCTAssertEqual(events.all.filter { $0.filter == .playlistItemChangedAny }, expected)
        XCTAssertEqual(events.all.filter { $0.filter == .errorAny }.count, 1, "playItem(at: 7): \(events.all)")
        XCTAssertEqual(events.all.last, .playlistEnded)
    }
}

/// `NotAutoPlay` holds the first item only: `next` while it is held plays the next one.
final class PlaylistHoldTests: XCTestCase {
    func testNextWhileTheFirstItemIsHeldPlaysTheNextItem() throws {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let player = ExtVideoPlayer { VideoSettings { Playlist([first, second]); NotAutoPlay() } }
        player.audioOutput = AudioOptions(track: .none)
        var widths: [Int] = []
        player.runFrames(timing: .untimed, until: StopCondition(duration: 5, exitAtEnd: true)) { frame in
            widths.append(frame.width)
            if widths.count == 1 { player.send(.next) }
        }
        XCTAssertEqual(widths.first, 320, "the first item's first frame is shown and held")
        XCTAssertEqual(widths.filter { $0 == 240 }.count, 25, "the next item plays all its frames: \(widths)")
    }
}

/// Removing the only item leaves an empty list: the status says so (it trapped reading item 0).
final class PlaylistEmptiedTests: XCTestCase {
    func testRemovingTheOnlyItemLeavesAnEmptyListInTheStatus() throws {
        let only = try PlaylistMedia.first()
        let player = ExtVideoPlayer { VideoSettings { Playlist([only]); Loop() } }
        player.audioOutput = AudioOptions(track: .none)
        // Nothing plays after the removal (no frame moves the virtual clock): the status ends the run.
        player.onStatusChange { status in if status.playlistCount == 0 { player.stop() } }
        var frames = 0
        player.runFrames(timing: .untimed) { _ in
            frames += 1
            if frames == 3 { player.send(.remove(at: 0)) }
        }
        XCTAssertGreaterThanOrEqual(frames, 3)
        XCTAssertEqual(player.status.playlistCount, 0)
        XCTAssertNil(player.status.playlistIndex)
    }
}
