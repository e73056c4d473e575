import Foundation
import XCTest
@testable import LoopPlayerCore

/// The follower on a simulated clock: what it asks for at the start, ahead of each change and at it,
/// after a clock step, for an after-pass entry and across reloads — a week of steps in one loop.
final class ScheduleFollowerTests: XCTestCase {
    private let week = """
        timezone: Europe/Berlin
        default: {playlist: [idle.mp4]}
        entries:
          - {name: breakfast, days: [mon, tue, wed, thu, fri], from: "07:00", to: "11:00", playlist: [am.mp4, promo.mp4]}
          - {name: lunch, from: "11:00", to: "15:00", playlist: [noon.mp4]}
          - {name: late, days: [fri, sat], from: "22:00", to: "02:00", playlist: [night.mp4]}
          - {name: alert, dates: ["2027-03-24", "2027-03-24"], from: "12:00", to: "12:05", priority: 5, playlist: [alert.mp4]}
        """

    private func names(_ actions: [ScheduleFollower.Action]) -> [String] {
        actions.map { action in
            switch action {
            case let .play(run): "play \(run.name)"
            case let .prepare(run, _, afterPass): "prepare \(run.name)\(afterPass ? " after pass" : "")"
            case let .switchNow(run, _): "switch \(run.name)"
            case .cancelPrepare: "cancel"
            case let .retry(run): "retry \(run.name)"
            case .cancelRetry: "cancel retry"
            case let .reload(run): "reload \(run.name)"
            }
        }
    }

    /// Steps `follower` at each wake it asks for, from `start` while the wake is at or before `end`
    /// (each later than the last, at most `limit`): what each step asked, with its time; `answer`
    /// runs after each step (a retry's outcome). Returns the last step's time too.
    private func stepThroughWakes(_ follower: inout ScheduleFollower, from start: Date, through end: Date, limit: Int = 1000,
                                  answer: (inout ScheduleFollower, Date) -> Void = { _, _ in }) -> (log: [(Date, String)], last: Date) {
        var (log, at) = ([(Date, String)](), start)
        for _ in 0..<limit {
            guard let wake = follower.wakeAt, wake <= end else { break }
            XCTAssertGreaterThan(wake, at, "the wake moves on")
            at = wake
            log += names(follower.step(at: at)).map { (at, $0) }
            answer(&follower, at)
        }
        return (log, at)
    }

    /// A week stepped at every wake the follower asks for:
    /// each change of the evaluator's is prepared `lead` ahead and switched `switchAhead` before its
    /// instant, in order, and nothing else happens.
    func testAWeekOfChangesIsPreparedAndSwitchedOnTime() throws {
        let schedule = try ScheduleFixture.schedule(week)
        let start = ScheduleFixture.instant("2027-03-22T00:00:00+01:00")  // a Monday; the clocks change on the 28th
        let end = start.addingTimeInterval(7 * 86_400)
        // Checked for clock steps once an hour (a player: every 5 s; the checks have their own test).
        var follower = ScheduleFollower(schedule, lead: 3, switchAhead: 0.002, checkInterval: 3600)
        let expected = ScheduleEvaluator(schedule).transitions(from: start, to: end).filter { $0.instant > start }
        XCTAssertEqual(expected.count, 25, "the week's changes (the evaluator's own tests check them)")

        var now = start
        var log: [(Date, String)] = names(follower.step(at: now)).map { (now, $0) }
        while now < end {
            let wake = try XCTUnwrap(follower.wakeAt, "a wake is always planned")
            XCTAssertGreaterThan(wake, now.addingTimeInterval(-1e-9))
            now = wake
            log += names(follower.step(at: now)).map { (now, $0) }
        }
        XCTAssertEqual(log.first?.1, "play default")
        let changes = Array(log.dropFirst())
        XCTAssertEqual(changes.count, expected.count * 2, "a prepare and a switch per change: \(changes.map(\.1))")
        for (index, transition) in expected.enumerated() where 2 * index + 1 < changes.count {
            let (prepared, switched) = (changes[2 * index], changes[2 * index + 1])
            XCTAssertEqual(prepared.1, "prepare \(transition.name)")
            XCTAssertEqual(prepared.0.timeIntervalSince(transition.instant), -3, accuracy: 1e-6)
            XCTAssertEqual(switched.1, "switch \(transition.name)")
            XCTAssertEqual(switched.0.timeIntervalSince(transition.instant), -0.002, accuracy: 1e-6)
        }
        XCTAssertEqual(follower.transitions, expected.count)
    }

    func testAStartJoinsWhatTheClockSaysWithItsEpoch() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week))
        let actions = follower.step(at: ScheduleFixture.instant("2027-03-22T08:30:00+01:00"))
        guard case let .play(run)? = actions.first, actions.count == 1 else { return XCTFail("\(actions)") }
        XCTAssertEqual(run.name, "breakfast")
        XCTAssertEqual(run.epoch, ScheduleFixture.instant("2027-03-22T07:00:00+01:00"))
        XCTAssertEqual(follower.next?.name, "lunch")
        XCTAssertEqual(follower.transitions, 0, "the start is no change")
    }

    /// The wall clock stepped (set by hand, a first NTP sync): what it says is on plays at once, by
    /// the next check at the latest; a step within the run playing changes nothing.
    func testAClockStepPlaysWhatTheClockSays() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week))
        _ = follower.step(at: ScheduleFixture.instant("2027-03-22T08:30:00+01:00"))
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T08:40:00+01:00"))), [],
                       "forward within the run")
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T06:00:00+01:00"))), ["play default"],
                       "back before it")
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T13:00:00+01:00"))), ["play lunch"],
                       "forward past a change the loop never saw")
        XCTAssertEqual(follower.transitions, 2)
    }

    /// A loop that slept through a change's instant (a stalled machine) plays the run the clock says.
    func testALateWakePlaysInsteadOfSwitching() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week))
        _ = follower.step(at: ScheduleFixture.instant("2027-03-22T10:00:00+01:00"))
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T11:00:01+01:00"))), ["play lunch"])
    }

    func testAnAfterPassEntryWaitsForTheEndOfThePass() throws {
        let schedule = try ScheduleFixture.schedule("""
            timezone: UTC
            default: {playlist: [idle.mp4]}
            entries:
              - {name: show, from: "10:00", to: "11:00", switch: after-pass, playlist: [show.mp4]}
            """)
        var follower = ScheduleFollower(schedule)
        _ = follower.step(at: ScheduleFixture.instant("2027-01-04T09:59:00Z"))
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-01-04T09:59:58Z"))), [],
                       "not opened ahead: it would take over at a pass that ends before its time")
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-01-04T10:00:00Z"))), ["prepare show after pass"])
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-01-04T10:00:20Z"))), [], "the pass runs on")
        XCTAssertEqual(follower.current?.name, "default")
        XCTAssertEqual(names(follower.passEnded(at: ScheduleFixture.instant("2027-01-04T10:00:31Z"))), ["switch show"])
        XCTAssertEqual(follower.current?.name, "show")
        XCTAssertEqual(names(follower.passEnded(at: ScheduleFixture.instant("2027-01-04T10:01:31Z"))), [], "once")
    }

    /// A reload that changes only a later entry leaves the run on alone; one that changes the run on
    /// plays the new one at once; one removing it plays what is on instead.
    func testAReloadKeepsAnUnchangedRun() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week))
        let now = ScheduleFixture.instant("2027-03-22T08:30:00+01:00")
        _ = follower.step(at: now)
        let laterChanged = try ScheduleFixture.schedule(week.replacingOccurrences(of: "noon.mp4", with: "noon2.mp4"))
        XCTAssertEqual(names(follower.replace(laterChanged, at: now)), [])
        XCTAssertEqual(follower.next?.playlist.map(\.written), ["noon2.mp4"], "the next change is the new file's")
        let currentChanged = try ScheduleFixture.schedule(week.replacingOccurrences(of: "am.mp4, promo.mp4", with: "am.mp4"))
        XCTAssertEqual(names(follower.replace(currentChanged, at: now)), ["play breakfast"])
        let removed = try ScheduleFixture.schedule("""
            timezone: Europe/Berlin
            default: {playlist: [idle.mp4]}
            """)
        XCTAssertEqual(names(follower.replace(removed, at: now)), ["play default"])
        XCTAssertNil(follower.next)
        XCTAssertNotNil(follower.wakeAt, "the clock is still checked")
    }

    /// The default on, a later entry's item changed: the default plays on (its epoch, the last close
    /// before it, is the same in both files).
    func testAReloadOfALaterEntryLeavesTheDefaultAlone() throws {
        let yaml = """
            timezone: UTC
            default: {playlist: [long5.mp4]}
            entries:
              - {name: m, from: "10:01:40", to: "10:02:00", playlist: [c.mp4]}
            """
        var follower = ScheduleFollower(try ScheduleFixture.schedule(yaml))
        let now = ScheduleFixture.instant("2027-01-04T10:00:00Z")
        XCTAssertEqual(names(follower.step(at: now)), ["play default"])
        let edited = try ScheduleFixture.schedule(yaml.replacingOccurrences(of: "c.mp4", with: "b.mp4"))
        XCTAssertEqual(names(follower.replace(edited, at: now.addingTimeInterval(3))), [])
        XCTAssertEqual(follower.next?.playlist.map(\.written), ["b.mp4"])
    }

    /// In the 3 s before a change: a reload that keeps the change keeps it prepared; one that moves
    /// it cancels the prepare (the item playing plays on as before), and the new change is prepared.
    func testAReloadInThePrepareWindow() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week))
        _ = follower.step(at: ScheduleFixture.instant("2027-03-22T10:50:00+01:00"))
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T10:59:58+01:00"))), ["prepare lunch"])
        let now = ScheduleFixture.instant("2027-03-22T10:59:59+01:00")
        XCTAssertEqual(names(follower.replace(try ScheduleFixture.schedule(week + "\n"), at: now)), [], "nothing changed")
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(0.999))), ["switch lunch"], "still prepared")
        var moved = ScheduleFollower(try ScheduleFixture.schedule(week))
        _ = moved.step(at: ScheduleFixture.instant("2027-03-22T10:50:00+01:00"))
        _ = moved.step(at: ScheduleFixture.instant("2027-03-22T10:59:58+01:00"))
        let later = try ScheduleFixture.schedule(week.replacingOccurrences(of: "to: \"11:00\"", with: "to: \"11:30\"")
            .replacingOccurrences(of: "from: \"11:00\"", with: "from: \"11:30\""))
        XCTAssertEqual(names(moved.replace(later, at: now)), ["cancel"])
        XCTAssertEqual(moved.next?.instant, ScheduleFixture.instant("2027-03-22T11:30:00+01:00"))
        XCTAssertEqual(names(moved.step(at: ScheduleFixture.instant("2027-03-22T11:29:57+01:00"))), ["prepare lunch"])
    }

    // MARK: An entry that cannot play, and one that played once

    /// Lunch (11:00–15:00) cannot play: the default plays, and lunch is tried in the background after
    /// 30 s, 60 s, 120 s… up to 300 s; once its item opens it takes over at once.
    func testAFailedEntryFallsToTheDefaultAndIsRetriedLessOften() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        var now = ScheduleFixture.instant("2027-03-22T11:30:00+01:00")
        XCTAssertEqual(names(follower.step(at: now)), ["play lunch"])
        XCTAssertEqual(names(follower.runFailed(at: now)), ["play default"])
        XCTAssertEqual(follower.current?.name, "default")
        XCTAssertEqual(follower.next?.instant, ScheduleFixture.instant("2027-03-23T07:00:00+01:00"),
                       "lunch's close changes nothing now: breakfast tomorrow is next")
        var delays: [Double] = []
        for _ in 0..<6 {
            let wake = try XCTUnwrap(follower.wakeAt)
            XCTAssertEqual(names(follower.step(at: wake.addingTimeInterval(-0.5))), [], "not before its time")
            delays.append(wake.timeIntervalSince(now))
            now = wake
            XCTAssertEqual(names(follower.step(at: now)), ["retry lunch"])
            XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(1))), [], "one retry at a time")
            XCTAssertEqual(names(follower.retried(opened: false, at: now)), [], "the default plays on")
        }
        XCTAssertEqual(delays, [30, 60, 120, 240, 300, 300])
        now = try XCTUnwrap(follower.wakeAt)
        XCTAssertEqual(names(follower.step(at: now)), ["retry lunch"])
        let before = follower.transitions
        XCTAssertEqual(names(follower.retried(opened: true, at: now)), ["play lunch"])
        XCTAssertEqual(follower.current?.name, "lunch")
        XCTAssertEqual(follower.transitions, before + 1)
        XCTAssertEqual(follower.next?.instant, ScheduleFixture.instant("2027-03-22T15:00:00+01:00"), "its own close again")
        XCTAssertEqual(names(follower.runFailed(at: now)), ["play default"], "failing before it showed a picture")
        XCTAssertEqual(try XCTUnwrap(follower.wakeAt).timeIntervalSince(now), 300, accuracy: 1e-6, "the delays go on")
        now = try XCTUnwrap(follower.wakeAt)
        XCTAssertEqual(names(follower.step(at: now)), ["retry lunch"])
        XCTAssertEqual(names(follower.retried(opened: true, at: now)), ["play lunch"])
        follower.runPlays()
        XCTAssertEqual(names(follower.runFailed(at: now)), ["play default"], "failing after it played")
        XCTAssertEqual(try XCTUnwrap(follower.wakeAt).timeIntervalSince(now), 30, accuracy: 1e-6, "the delays start over")
    }

    /// The alert (priority 5) during lunch cannot play: lunch, the entry below it, plays; when the
    /// alert's five minutes are over its retry is not made (it would not be on), and lunch plays on.
    func testAFailedEntryFallsToTheEntryBelowIt() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-24T12:00:00+01:00")
        XCTAssertEqual(names(follower.step(at: now)), ["play alert"])
        XCTAssertEqual(names(follower.runFailed(at: now)), ["play lunch"])
        XCTAssertEqual(follower.current?.epoch, ScheduleFixture.instant("2027-03-24T11:00:00+01:00"), "lunch at its own epoch")
        XCTAssertEqual(follower.next?.instant, ScheduleFixture.instant("2027-03-24T15:00:00+01:00"),
                       "the alert's close is no change any more")
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(30))), ["retry alert"])
        XCTAssertEqual(names(follower.retried(opened: false, at: now.addingTimeInterval(31))), [])
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(400))), [], "over: no retry")
        XCTAssertEqual(follower.current?.name, "lunch")
    }

    /// A retry gives way to a change: none starts within 10 s of a prepare, and one in flight is
    /// cancelled by it (the change is prepared and made as usual).
    func testARetryGivesWayToAChange() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let failedAt = ScheduleFixture.instant("2027-03-22T10:59:20+01:00")
        _ = follower.step(at: failedAt)
        XCTAssertEqual(names(follower.runFailed(at: failedAt)), ["play default"])
        XCTAssertEqual(follower.next?.name, "lunch")
        XCTAssertEqual(names(follower.step(at: failedAt.addingTimeInterval(30))), [], "lunch is prepared in 7 s")
        XCTAssertEqual(follower.wakeAt, ScheduleFixture.instant("2027-03-22T10:59:57+01:00"), "no wake for the retry meanwhile")
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T10:59:57+01:00"))), ["prepare lunch"])
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-03-22T11:00:00+01:00").addingTimeInterval(-0.002))), ["switch lunch"])

        var inFlight = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let early = ScheduleFixture.instant("2027-03-22T10:58:00+01:00")
        _ = inFlight.step(at: early)
        _ = inFlight.runFailed(at: early)
        XCTAssertEqual(names(inFlight.step(at: early.addingTimeInterval(30))), ["retry breakfast"])
        XCTAssertEqual(names(inFlight.step(at: ScheduleFixture.instant("2027-03-22T10:59:57+01:00"))), ["cancel retry", "prepare lunch"])
        XCTAssertEqual(names(inFlight.retried(opened: true, at: ScheduleFixture.instant("2027-03-22T10:59:58+01:00"))), [],
                       "the retry's answer after it was cancelled changes nothing")
        XCTAssertEqual(names(inFlight.step(at: ScheduleFixture.instant("2027-03-22T11:00:00+01:00").addingTimeInterval(-0.002))), ["switch lunch"])
    }

    /// The default has nothing below it: it is played again after 30 s, then 60 s.
    func testAFailedDefaultIsPlayedAgainLater() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-22T16:00:00+01:00")
        XCTAssertEqual(names(follower.step(at: now)), ["play default"])
        XCTAssertEqual(names(follower.runFailed(at: now)), [])
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(29))), [])
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(30))), ["reload default"])
        XCTAssertEqual(names(follower.runFailed(at: now.addingTimeInterval(31))), [])
        XCTAssertEqual(try XCTUnwrap(follower.wakeAt).timeIntervalSince(now.addingTimeInterval(31)), 60, accuracy: 1e-6)
    }

    /// `loop: no`: the list played once, what is below plays until the window closes, with no retry;
    /// the next day's window plays it again.
    func testAnEntryThatPlayedOnceFallsUntilItsWindowCloses() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule("""
            timezone: UTC
            default: {playlist: [idle.mp4]}
            entries:
              - {name: intro, from: "10:00", to: "11:00", loop: no, playlist: [intro.mp4]}
            """), checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-01-04T10:00:00Z")
        XCTAssertEqual(names(follower.step(at: now)), ["play intro"])
        XCTAssertEqual(names(follower.runFinished(at: now.addingTimeInterval(20))), ["play default"])
        XCTAssertEqual(follower.next?.instant, ScheduleFixture.instant("2027-01-05T10:00:00Z"), "tomorrow's window")
        let (log, at) = stepThroughWakes(&follower, from: now.addingTimeInterval(20), through: ScheduleFixture.instant("2027-01-05T09:59:00Z"))
        XCTAssertEqual(log.map(\.1), [], "no retry, no change")
        XCTAssertGreaterThan(at, now.addingTimeInterval(3600), "stepped past the window's close")
        XCTAssertEqual(names(follower.step(at: ScheduleFixture.instant("2027-01-05T09:59:57Z"))), ["prepare intro"])
    }

    /// A reload keeps what was skipped (a failed entry still in the file is tried again at once, in the
    /// background); one whose items changed plays at once.
    func testAReloadTriesASkippedEntryAgainInTheBackground() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-22T11:30:00+01:00")
        _ = follower.step(at: now)
        _ = follower.runFailed(at: now)
        let reloaded = now.addingTimeInterval(5)
        XCTAssertEqual(names(follower.replace(try ScheduleFixture.schedule(week + "\n"), at: reloaded)), [], "the default plays on")
        XCTAssertEqual(names(follower.step(at: reloaded)), ["retry lunch"])
        let fixed = try ScheduleFixture.schedule(week.replacingOccurrences(of: "noon.mp4", with: "noon2.mp4"))
        XCTAssertEqual(names(follower.replace(fixed, at: reloaded.addingTimeInterval(1))), ["cancel retry", "play lunch"],
                       "another item: not the run that failed")
    }

    // MARK: A timed override

    /// An override given ahead (10:59:00–11:02:00, across lunch's start): prepared 3 s ahead and
    /// switched at its start, lunch's start under it is no change, and lunch follows at its end,
    /// prepared and switched the same way, at lunch's own epoch.
    func testATimedOverrideGivenAheadIsAChangeAtEachEnd() throws {
        let schedule = try ScheduleFixture.schedule(week)
        var follower = ScheduleFollower(schedule, checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-22T10:58:00+01:00")
        XCTAssertEqual(names(follower.step(at: now)), ["play breakfast"])
        var overridden = schedule
        overridden.entries.append(.override([ScheduleItem(written: "/news.mp4", relativeTo: "")],
                                            from: ScheduleFixture.instant("2027-03-22T10:59:00+01:00"),
                                            until: ScheduleFixture.instant("2027-03-22T11:02:00+01:00")))
        XCTAssertEqual(names(follower.replace(overridden, at: now)), [], "breakfast plays on")
        let log = stepThroughWakes(&follower, from: now, through: ScheduleFixture.instant("2027-03-22T11:05:00+01:00")).log
        XCTAssertEqual(log.map(\.1), ["prepare override", "switch override", "prepare lunch", "switch lunch"])
        let instants = ["10:58:57", "10:59:00", "11:01:57", "11:02:00"].map { ScheduleFixture.instant("2027-03-22T\($0)+01:00") }
        let expected: [Double] = [instants[0].timeIntervalSince1970, instants[1].timeIntervalSince1970 - 0.002,
                                  instants[2].timeIntervalSince1970, instants[3].timeIntervalSince1970 - 0.002]
        XCTAssertEqual(log.count, expected.count)
        for (entry, instant) in zip(log, expected) {
            XCTAssertEqual(entry.0.timeIntervalSince1970, instant, accuracy: 1e-6, entry.1)
        }
        XCTAssertEqual(follower.current?.epoch, ScheduleFixture.instant("2027-03-22T11:00:00+01:00"), "lunch's own epoch")
    }

    /// An override for now plays at once; the file without it (a clear) plays what is on.
    func testAnOverrideForNowPlaysAtOnceAndItsClearEndsIt() throws {
        let schedule = try ScheduleFixture.schedule(week)
        var follower = ScheduleFollower(schedule, checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-22T12:00:00+01:00")
        _ = follower.step(at: now)
        var overridden = schedule
        overridden.entries.append(.override([ScheduleItem(written: "/news.mp4", relativeTo: "")], from: now,
                                            until: now.addingTimeInterval(600)))
        XCTAssertEqual(names(follower.replace(overridden, at: now)), ["play override"])
        XCTAssertEqual(follower.current?.epoch, now)
        XCTAssertEqual(follower.next?.instant, now.addingTimeInterval(600))
        XCTAssertEqual(names(follower.replace(schedule, at: now.addingTimeInterval(5))), ["play lunch"])
    }

    /// An override's window is whole seconds, at least one and at most a day.
    func testAnOverridesWindowIsBounded() {
        let start = Date(timeIntervalSince1970: 1_000.7)
        let items = [ScheduleItem(written: "/a.mp4", relativeTo: "")]
        XCTAssertEqual(ScheduleEntry.override(items, from: start, until: start.addingTimeInterval(1e9)).window,
                       Date(timeIntervalSince1970: 1_000)..<Date(timeIntervalSince1970: 87_400))
        XCTAssertEqual(ScheduleEntry.override(items, from: start, until: start).window,
                       Date(timeIntervalSince1970: 1_000)..<Date(timeIntervalSince1970: 1_001))
    }

    /// The run below failing while a retry is tried: the retry is cancelled and the failure handled
    /// (the default, below both, plays); a reload keeps the skips (a failed entry is retried at once,
    /// in the background; one that played once stays skipped).
    func testAFailureDuringARetryAndAReloadKeepTheSkips() throws {
        var follower = ScheduleFollower(try ScheduleFixture.schedule(week), checkInterval: 3600)
        let now = ScheduleFixture.instant("2027-03-24T12:00:00+01:00")
        _ = follower.step(at: now)
        XCTAssertEqual(names(follower.runFailed(at: now)), ["play lunch"], "the alert fell")
        XCTAssertEqual(names(follower.step(at: now.addingTimeInterval(30))), ["retry alert"])
        XCTAssertEqual(names(follower.runFailed(at: now.addingTimeInterval(31))), ["cancel retry", "play default"], "lunch fell too")
        let reloaded = now.addingTimeInterval(40)
        XCTAssertEqual(names(follower.replace(try ScheduleFixture.schedule(week + "\n"), at: reloaded)), [], "the default plays on")
        XCTAssertEqual(names(follower.step(at: reloaded)), ["retry alert"], "retried at once, the highest first")
    }

    /// A skipped run whose window closes is forgotten at its close: on an unsynced schedule the
    /// default plays on untouched (its epoch moved, nothing is in step by it); on a synced one it plays
    /// again at the close, where every other screen's default starts.
    func testASkippedRunIsForgottenAtItsClose() throws {
        let yaml = """
            timezone: UTC
            default: {playlist: [idle.mp4]}
            entries:
              - {name: show, from: "10:00", to: "11:00", playlist: [show.mp4]}
            """
        for synced in [false, true] {
            var follower = ScheduleFollower(try ScheduleFixture.schedule(yaml + (synced ? "\nsync: true" : "")), checkInterval: 3600)
            let now = ScheduleFixture.instant("2027-01-04T10:30:00Z")
            _ = follower.step(at: now)
            XCTAssertEqual(names(follower.runFailed(at: now)), ["play default"])
            let (log, at) = stepThroughWakes(&follower, from: now, through: ScheduleFixture.instant("2027-01-04T11:00:00Z")) { follower, at in
                guard let run = follower.retrying else { return }
                XCTAssertEqual(run.name, "show")
                _ = follower.retried(opened: false, at: at)  // still failing
            }
            XCTAssertEqual(at, ScheduleFixture.instant("2027-01-04T11:00:00Z"), "woken at the close")
            XCTAssertEqual(log.map(\.1).filter { !$0.hasPrefix("retry") }, synced ? ["play default"] : [], "synced: \(synced)")
            XCTAssertEqual(follower.current?.epoch, ScheduleFixture.instant("2027-01-04T11:00:00Z"))
        }
    }
}
