import Foundation
@testable import LoopPlayer
import Synchronization
import XCTest

/// A player on a schedule, untimed: the wall clock the schedule reads is the engine's virtual clock
/// from a fixed instant, so every change comes at a known virtual time and the frames around it can
/// be checked exactly — no black, no held frame, the next entry's first frame one frame interval
/// after the last of the entry before. Real media, real decoding; no wall-clock waits.
final class ScheduledPlaybackTests: XCTestCase {
    private struct Shown {
        let width: Int
        let at: Double
    }

    private final class EventLog: Sendable {
        let list = Mutex<[PlayerEvent]>([])
        var scheduleChanges: [String] {
            list.withLock { $0 }.compactMap { if case let .scheduleChanged(entry) = $0 { entry } else { nil } }
        }
        var errorKinds: [String] {
            list.withLock { $0 }.compactMap { if case let .error(error) = $0 { error.kind } else { nil } }
        }
    }

    /// The wall clock as `base` plus the engine's (virtual) time.
    private final class FollowingSystemClock: SystemClock, @unchecked Sendable {
        private let base: Double
        private let source = Mutex<VirtualClockReader?>(nil)
        init(base: Date) { self.base = base.timeIntervalSince1970 }
        func follow(_ clock: any PlaybackClock) { source.withLock { $0 = VirtualClockReader(clock: clock) } }
        var now: Double { base + (source.withLock { $0?.clock.now } ?? 0) }
    }

    private struct VirtualClockReader: @unchecked Sendable {
        let clock: any PlaybackClock
    }

    /// Plays `yaml` (`FIRST` and `SECOND` stand for the two clips) from the wall instant `base` until
    /// the virtual clock reaches `seconds`; `onEvent` may change the settings (on the run's thread).
    private func play(_ yaml: String, from base: Date, until seconds: Double,
                      onEvent: (@Sendable (PlayerEvent, ExtVideoPlayer) -> Void)? = nil)
        throws -> (shown: [Shown], events: EventLog, status: PlayerStatus) {
        let (first, second) = (try PlaylistMedia.first(), try PlaylistMedia.second())
        let text = yaml.replacingOccurrences(of: "FIRST", with: first).replacingOccurrences(of: "SECOND", with: second)
        var settings = VideoSettings { Events() }
        settings.schedule = try ScheduleFixture.schedule(text)
        let player = ExtVideoPlayer(settings: settings)
        player.audioOutput = AudioOptions(track: .none)
        let events = EventLog()
        player.onEachEvent { [unowned player] event in
            events.list.withLock { $0.append(event) }
            onEvent?(event, player)
        }
        let wall = FollowingSystemClock(base: base)
        let session = try PlayerSession(player: player, output: .offscreen, timing: .untimed,
                                        stop: StopCondition(exitAtEnd: false, exitOnFailure: false),
                                        clocks: EngineClocks(system: wall))
        let engine = session.engine
        wall.follow(engine.clock)
        var shown: [Shown] = []
        engine.onFramePresented = { [unowned engine] frame in
            shown.append(Shown(width: frame.width, at: engine.clock.now))
            if engine.clock.now >= seconds { engine.requestQuit() }
        }
        // A failure bound, not a measure: a run that stops showing frames (a regression) ends the test
        // instead of hanging it.
        let stalled = Mutex(false)
        let watchdog = DispatchWorkItem { [weak player] in
            stalled.withLock { $0 = true }
            player?.stop()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        defer { watchdog.cancel() }
        XCTAssertEqual(session.run(), .quit)
        XCTAssertFalse(stalled.withLock { $0 }, "the run stopped showing frames before \(seconds) s of its clock")
        return (shown, events, player.status)
    }

    private static let morning = """
        timezone: UTC
        default: {playlist: ["FIRST"]}
        entries:
          - {name: morning, from: "07:00:00", to: "07:00:05", playlist: ["SECOND"]}
        """

    /// Where the frames' width changes to `width`: the index of the first such frame from `start`.
    private func change(to width: Int, in shown: [Shown], after start: Int = 0) -> Int? {
        shown.indices.dropFirst(start).first { shown[$0].width == width && shown[$0 - 1].width != width }
    }

    /// Proof of play across the schedule's changes: the default's play is cut (switched) at 07:00:00,
    /// the entry's plays from then to 07:00:05, each record naming its entry, on the wall clock.
    func testPlayRecordsFollowTheScheduleTransitions() throws {
        let (_, events, _) = try play(Self.morning, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 10)
        let records = events.list.withLock { $0 }.compactMap { if case let .played(record) = $0 { record } else { nil } }
        let entries = records.map { $0.scheduleEntry ?? "-" }
        let runs = entries.enumerated().filter { $0.offset == 0 || entries[$0.offset - 1] != $0.element }.map(\.element)
        XCTAssertEqual(runs, ["default", "morning", "default"], "\(entries)")
        let change = ScheduleFixture.instant("2027-01-04T07:00:00Z"), back = ScheduleFixture.instant("2027-01-04T07:00:05Z")
        let morning = records.filter { $0.scheduleEntry == "morning" }
        let beforeChange = try XCTUnwrap(records.last { $0.scheduleEntry == "default" && $0.ended <= change.addingTimeInterval(0.1) })
        XCTAssertEqual(beforeChange.ended.timeIntervalSince(change), 0, accuracy: 1.0 / 25, "\(records)")
        XCTAssertEqual(try XCTUnwrap(morning.first).started.timeIntervalSince(change), 0, accuracy: 1.0 / 25)
        XCTAssertEqual(try XCTUnwrap(morning.last).ended.timeIntervalSince(back), 0, accuracy: 1.0 / 25)
        XCTAssertEqual(morning.last?.ending, .switched, "cut by the change back to the default")
        XCTAssertEqual(morning.reduce(0) { $0 + $1.framesShown }, 125, accuracy: 1, "5 s of the 25 fps clip")
        XCTAssertEqual(records.last?.ending, .interrupted, "the run's end")
    }

    /// The entry's first frame is the one due at its instant, one frame interval of the default's
    /// after the default's last; back to the default at the entry's end the same way. Every interval
    /// in the run is one frame interval of the item shown before it: nothing is held, nothing black.
    func testEachChangeIsOneFrameIntervalAtItsInstant() throws {
        let (shown, events, status) = try play(Self.morning, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 10)
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default"])
        let toMorning = try XCTUnwrap(change(to: 240, in: shown))
        XCTAssertEqual(shown[toMorning].at, 3, accuracy: 1e-6, "07:00:00 is virtual 3 s")
        XCTAssertEqual(shown[toMorning].at - shown[toMorning - 1].at, 1.0 / 30, accuracy: 1e-6)
        let back = try XCTUnwrap(change(to: 320, in: shown, after: toMorning))
        XCTAssertEqual(shown[back].at, 8, accuracy: 1e-6, "07:00:05 is virtual 8 s")
        XCTAssertEqual(shown[back].at - shown[back - 1].at, 1.0 / 25, accuracy: 1e-6)
        for index in shown.indices.dropFirst() {
            let interval = shown[index].at - shown[index - 1].at
            let expected = shown[index - 1].width == 320 ? 1.0 / 30 : 1.0 / 25
            XCTAssertEqual(interval, expected, accuracy: 1e-6, "frame \(index) at \(shown[index].at)")
        }
        XCTAssertEqual(shown.filter { $0.width == 240 }.count, 125, "5 s of the 25 fps clip")
        XCTAssertEqual(status.schedule?.entry, "default")
        XCTAssertEqual(status.schedule?.transitions, 2)
        XCTAssertEqual(status.schedule?.nextEntry, "morning")
        XCTAssertEqual(status.schedule?.nextChangeText, "2027-01-05T07:00:00+00:00")
    }

    /// An entry of two items, taken over at its change, plays them in order from its first, item
    /// after item without a gap, until the default takes over again.
    func testAnEntryOfSeveralItemsPlaysThemInOrder() throws {
        let yaml = Self.morning.replacingOccurrences(of: "[\"SECOND\"]", with: "[\"SECOND\", \"FIRST\"]")
        let (shown, events, _) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 9)
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default"])
        var segments: [(width: Int, count: Int, from: Double)] = []
        for frame in shown where (3.0 - 1e-6..<8.0 - 1e-6).contains(frame.at) {
            if segments.last?.width == frame.width { segments[segments.count - 1].count += 1 } else {
                segments.append((frame.width, 1, frame.at))
            }
        }
        XCTAssertEqual(segments.map(\.width), [240, 320, 240, 320, 240], "\(segments)")
        XCTAssertEqual(segments.map(\.count), [25, 30, 25, 30, 25])
        XCTAssertEqual(segments.first?.from ?? 0, 3, accuracy: 1e-6)
        let indexes = events.list.withLock { $0 }.compactMap { if case let .playlistItemChanged(index) = $0 { index } else { nil } }
        XCTAssertEqual(indexes, [0, 1, 0, 1, 0], "the list's items as they played")
    }

    /// `switch: after-pass`: the default's pass running at 07:00 ends first (passes start at virtual
    /// 0, 1, 2…; 07:00 is virtual 2.5 s), and the entry follows it without a gap.
    func testAnAfterPassEntryStartsWhenThePassEnds() throws {
        let yaml = Self.morning.replacingOccurrences(of: "to: \"07:00:05\"", with: "to: \"07:00:05\", switch: after-pass")
        let (shown, events, _) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z").addingTimeInterval(0.5), until: 5)
        XCTAssertEqual(events.scheduleChanges, ["default", "morning"], "\(events.list.withLock { $0 })")
        let toMorning = try XCTUnwrap(change(to: 240, in: shown))
        XCTAssertEqual(shown[toMorning].at, 3, accuracy: 1e-6, "the end of the pass that began at 2 s")
        XCTAssertEqual(shown[toMorning].at - shown[toMorning - 1].at, 1.0 / 30, accuracy: 1e-6)
    }

    /// A reread schedule that changes only a later entry leaves the entry on alone — no event, no
    /// frame out of its interval — and its next change is the new file's.
    func testAReloadOfALaterEntryLeavesTheEntryOnAlone() throws {
        let later = Self.morning + "\n  - {name: noon, from: \"12:00\", to: \"13:00\", playlist: [\"FIRST\"]}"
        let reread = try ScheduleFixture.schedule(later.replacingOccurrences(of: "FIRST", with: try PlaylistMedia.first())
            .replacingOccurrences(of: "SECOND", with: try PlaylistMedia.second()))
        let reloaded = Mutex(false)
        let (shown, events, status) = try play(Self.morning, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 6) { event, player in
            guard case .scheduleChanged("morning") = event, !reloaded.withLock({ $0 }) else { return }
            reloaded.withLock { $0 = true }
            player.updateSettings { $0.schedule = reread }
        }
        XCTAssertTrue(reloaded.withLock { $0 })
        XCTAssertEqual(events.scheduleChanges, ["default", "morning"], "the reload is no change")
        let toMorning = try XCTUnwrap(change(to: 240, in: shown))
        for index in (toMorning + 1)..<shown.count {
            XCTAssertEqual(shown[index].at - shown[index - 1].at, 1.0 / 25, accuracy: 1e-6, "frame \(index)")
        }
        XCTAssertEqual(status.schedule?.nextEntry, "default")
        XCTAssertEqual(status.schedule?.nextChangeText, "2027-01-04T07:00:05+00:00")
    }

    /// An entry whose item is missing: its error at the change, and the default, the run below it,
    /// plays at once, until the window closes.
    func testAMissingItemIsAnErrorAndTheDefaultPlaysMeanwhile() throws {
        let yaml = Self.morning.replacingOccurrences(of: "[\"SECOND\"]", with: "[\"/nonexistent/missing.mp4\"]")
        let (shown, events, status) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 10)
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default"], "the entry's close is no change then")
        XCTAssertEqual(events.errorKinds.first, "sourceNotFound", "said when the schedule is read: \(events.errorKinds)")
        let during = shown.filter { (3.0..<10).contains($0.at) }
        XCTAssertFalse(during.isEmpty)
        XCTAssertTrue(during.allSatisfy { $0.width == 320 }, "the default plays while the entry's item is missing")
        XCTAssertLessThanOrEqual(Self.longestGap(in: shown), 2.0 / 30 + 1e-6, "no gap but the default's reopening")
        XCTAssertEqual(status.schedule?.entry, "default")
    }

    /// An entry whose item appears later (a copy still on its way): the default plays meanwhile; the
    /// entry's file is tried in the background 30 s after it failed (still missing: an error event),
    /// then 60 s after that, when it is there and plays; the default is not interrupted before.
    func testAnEntryThatFailedIsRetriedLessOftenAndPlaysOnceItOpens() throws {
        let directory = try TemporaryDirectory()
        let late = directory.url.appendingPathComponent("late.mp4").path
        let second = try PlaylistMedia.second()
        let yaml = Self.morning.replacingOccurrences(of: "07:00:05", with: "07:10:00")
            .replacingOccurrences(of: "[\"SECOND\"]", with: "[\"\(late)\"]")
        let failures = Mutex(0)
        let (shown, events, status) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 100) { event, _ in
            guard case let .error(error) = event, error.kind == "sourceNotFound" else { return }
            // Said when the schedule was read, opened ahead of the change, loaded at it, tried 30 s
            // later: the file arrives after that.
            if failures.withLock({ $0 += 1; return $0 }) == 4 { try? FileManager.default.copyItem(atPath: second, toPath: late) }
        }
        XCTAssertEqual(failures.withLock { $0 }, 4, "the schedule read's, the prepare's, the change's and the first retry's")
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default", "morning"])
        let taken = try XCTUnwrap(change(to: 240, in: shown), "the entry plays")
        XCTAssertEqual(shown[taken].at, 93, accuracy: 0.1, "90 s after the failure at 07:00:00: retried at 30 s, then 60 s later")
        XCTAssertTrue(shown[..<taken].allSatisfy { $0.width == 320 }, "the default until then")
        XCTAssertTrue(shown[taken...].allSatisfy { $0.width == 240 }, "the entry from then on")
        let defaultFrames = shown[..<taken].filter { $0.at > 3.1 }
        for (before, after) in zip(defaultFrames, defaultFrames.dropFirst()) {
            XCTAssertEqual(after.at - before.at, 1.0 / 30, accuracy: 1e-6, "the default untouched by the retries")
        }
        XCTAssertEqual(status.schedule?.entry, "morning")
    }

    /// An entry's list whose every item goes while it plays (files removed): the list cannot go on,
    /// and the default plays; the entry is no longer on the screen.
    func testAListWhoseItemsAllGoFallsToTheDefault() throws {
        let directory = try TemporaryDirectory()
        let (one, two) = (directory.url.appendingPathComponent("one.mp4").path, directory.url.appendingPathComponent("two.mp4").path)
        try FileManager.default.copyItem(atPath: try PlaylistMedia.second(), toPath: one)
        try FileManager.default.copyItem(atPath: try PlaylistMedia.second(), toPath: two)
        let yaml = Self.morning.replacingOccurrences(of: "07:00:05", with: "07:10:00")
            .replacingOccurrences(of: "[\"SECOND\"]", with: "[\"\(one)\", \"\(two)\"]")
        let (shown, events, status) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 12) { event, _ in
            guard case .playlistItemChanged(index: 1) = event else { return }
            try? FileManager.default.removeItem(atPath: one)
            try? FileManager.default.removeItem(atPath: two)
        }
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default"])
        let back = try XCTUnwrap(change(to: 320, in: shown, after: 1), "the default again")
        XCTAssertGreaterThan(shown[back].at, 4, "after the entry's two items played")
        XCTAssertTrue(shown[back...].allSatisfy { $0.width == 320 })
        XCTAssertEqual(status.schedule?.entry, "default")
    }

    /// `loop: no`: the entry's list plays once, then the default plays until the window closes; its
    /// close is no change.
    func testAnEntryThatPlaysOnceFallsToTheDefault() throws {
        let yaml = Self.morning.replacingOccurrences(of: "07:00:05", with: "07:01:00")
            .replacingOccurrences(of: "playlist: [\"SECOND\"]", with: "loop: no, playlist: [\"SECOND\"]")
        let (shown, events, _) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 8)
        XCTAssertEqual(events.scheduleChanges, ["default", "morning", "default"])
        let entry = shown.filter { $0.width == 240 }
        XCTAssertEqual(entry.count, 25, "its 25 frames once")
        let back = try XCTUnwrap(change(to: 320, in: shown, after: 1))
        XCTAssertEqual(shown[back].at - shown[back - 1].at, 0.04, accuracy: 2.0 / 30, "the default after its last frame")
        XCTAssertTrue(shown[back...].allSatisfy { $0.width == 320 })
    }

    /// A timed override given 4 s ahead, for 2 s: its first frame at its start and the default's at
    /// its end, each one frame interval after the last before; the status says `override` meanwhile.
    func testATimedOverrideGivenAheadStartsAndEndsOnItsInstants() throws {
        try require(TestMedia.hasEncoder("libvpx"), "ffmpeg with libvpx")
        let third = try PlaylistMedia.third()
        let base = ScheduleFixture.instant("2027-01-04T10:00:00Z")
        let sent = Mutex(false)
        let (shown, events, status) = try play("timezone: UTC\ndefault: {playlist: [\"FIRST\"]}", from: base, until: 7) { event, player in
            guard case .scheduleChanged("default") = event, !sent.withLock({ $0 }) else { return }
            sent.withLock { $0 = true }
            player.send(.scheduleOverride([third], seconds: 2, from: base.addingTimeInterval(4)))
        }
        XCTAssertEqual(events.scheduleChanges, ["default", "override", "default"])
        let start = try XCTUnwrap(change(to: 160, in: shown), "the override played")
        XCTAssertEqual(shown[start].at, 4, accuracy: 1e-6, "at its start")
        let end = try XCTUnwrap(change(to: 320, in: shown, after: start))
        XCTAssertEqual(shown[end].at, 6, accuracy: 1e-6, "the default again at its end")
        // (The WebM's times are whole milliseconds.)
        for index in 1..<shown.count {
            XCTAssertEqual(shown[index].at - shown[index - 1].at, 1.0 / 30, accuracy: 0.0011, "frame \(index)")
        }
        XCTAssertEqual(status.schedule?.entry, "default")
        XCTAssertEqual(status.schedule?.transitions, 2)
    }

    /// The library's `PlaySchedule` reads the file when the settings are made: a good one is the
    /// schedule played; a broken one refuses the settings with its line and key; a missing one says so.
    func testPlayScheduleReadsTheFileAndABrokenOneRefusesTheSettings() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("menu.yaml").path
        try Self.morning.replacingOccurrences(of: "FIRST", with: "idle.mp4").replacingOccurrences(of: "SECOND", with: "am.mp4")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let good = VideoSettings { PlaySchedule(file) }
        XCTAssertNoThrow(try good.validate())
        XCTAssertEqual(good.schedule?.entries.map(\.name), ["morning"])
        XCTAssertEqual(good.schedule?.defaultPlaylist.map(\.resolved), [directory.url.appendingPathComponent("idle.mp4").path],
                       "items next to the file")
        try "timezone: UTC\ndefault: {playlist: [a.mp4]}\nentries: [{name: x, from: \"25:00\", to: \"26:00\", playlist: [b.mp4]}]\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try VideoSettings { PlaySchedule(file) }.validate()) { error in
            guard case let .invalidSetting(name, _, reason)? = error as? PlayerError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "schedule")
            XCTAssertTrue(reason.hasPrefix(file + ":3: entries[0].from:"), reason)
        }
        XCTAssertThrowsError(try VideoSettings { PlaySchedule(file + ".missing") }.validate()) { error in
            XCTAssertTrue("\(error)".contains("No such file or directory"), "\(error)")
        }
    }

    /// The longest interval between two frames shown.
    private static func longestGap(in shown: [Shown]) -> Double {
        zip(shown, shown.dropFirst()).map { $1.at - $0.at }.max() ?? 0
    }

    /// A source given while a schedule plays (a remote control's `loadfile`) plays at once, until the
    /// schedule's next change; the status says `override` meanwhile.
    func testASourceGivenMeanwhilePlaysUntilTheNextChange() throws {
        try require(TestMedia.hasEncoder("libvpx"), "ffmpeg with libvpx")
        let third = try PlaylistMedia.third()
        let yaml = Self.morning.replacingOccurrences(of: "[\"FIRST\"]", with: "[\"SWAP\"]")
            .replacingOccurrences(of: "[\"SECOND\"]", with: "[\"FIRST\"]").replacingOccurrences(of: "SWAP", with: "SECOND")
        let told = Mutex<String?>(nil)
        let (shown, events, _) = try play(yaml, from: ScheduleFixture.instant("2027-01-04T06:59:57Z"), until: 4) { event, player in
            if case .loopCompleted(1) = event { player.updateSettings { $0.sourceName = third } }
            if case .playing = event, player.status.source == third { told.withLock { $0 = player.status.schedule?.entry } }
        }
        XCTAssertEqual(events.scheduleChanges, ["default", "morning"])
        let override = shown.filter { $0.width == 160 }
        XCTAssertFalse(override.isEmpty, "the source given plays")
        XCTAssertTrue(override.allSatisfy { (1.0..<3.0).contains($0.at) }, "\(override.map(\.at))")
        XCTAssertEqual(shown.first { $0.width == 320 }?.at ?? 0, 3, accuracy: 1.0 / 30, "the entry at its change")
        XCTAssertEqual(told.withLock { $0 }, "override")
    }

    /// Loop or a shared timeline beside a schedule is refused: the schedule does both itself.
    func testLoopBesideAScheduleIsRefused() throws {
        var settings = VideoSettings { Loop() }
        settings.schedule = try ScheduleFixture.schedule("default: {playlist: [a.mp4]}")
        XCTAssertThrowsError(try settings.validate()) { error in
            XCTAssertEqual((error as? PlayerError)?.kind, "invalidSetting")
        }
    }
}
