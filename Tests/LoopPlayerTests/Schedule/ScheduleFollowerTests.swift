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
            }
        }
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
}
