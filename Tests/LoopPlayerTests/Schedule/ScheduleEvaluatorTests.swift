import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// The evaluator's rules, in UTC (no daylight saving; see ScheduleDaylightSavingTests for that).
/// 2027-06-07 is a Monday.
final class ScheduleEvaluatorTests: XCTestCase {
    private func schedule(_ entries: String, timezone: String = "UTC") throws -> Schedule {
        try ScheduleFixture.schedule("timezone: \(timezone)\ndefault: {playlist: [idle.mp4]}\nentries:\n" + entries)
    }

    private func lines(_ schedule: Schedule, _ from: String, _ to: String) -> [String] {
        ScheduleFixture.lines(schedule, from: from, to: to)
    }

    func testWeekdaysOpenOnlyOnTheirDays() throws {
        let schedule = try schedule("""
              - {name: gym, days: [mon, wed], from: "09:00", to: "10:00", playlist: [a.mp4, b.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-14T00:00:00Z"), [
            "2027-06-07T09:00:00+00:00 gym a.mp4 b.mp4",
            "2027-06-07T10:00:00+00:00 default idle.mp4",
            "2027-06-09T09:00:00+00:00 gym a.mp4 b.mp4",
            "2027-06-09T10:00:00+00:00 default idle.mp4",
        ])
    }

    func testAnOvernightWindowBelongsToTheDayItOpens() throws {
        let schedule = try schedule("""
              - {name: late, days: [fri], from: "22:00", to: "02:00", playlist: [night.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-14T00:00:00Z"), [
            "2027-06-11T22:00:00+00:00 late night.mp4",
            "2027-06-12T02:00:00+00:00 default idle.mp4",
        ])
        let state = ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-06-12T01:00:00Z"))
        XCTAssertEqual(state.current.name, "late")
        XCTAssertEqual(state.current.epoch, ScheduleFixture.instant("2027-06-11T22:00:00Z"))
        XCTAssertEqual(state.next?.instant, ScheduleFixture.instant("2027-06-12T02:00:00Z"))
        XCTAssertEqual(state.next?.name, "default")
    }

    func testAnOvernightWindowAcrossTheWeeksEnd() throws {
        let schedule = try schedule("""
              - {name: sunday-night, days: [sun], from: "23:00", to: "01:30", playlist: [n.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-21T00:00:00Z"), [
            "2027-06-07T01:30:00+00:00 default idle.mp4",   // the night of Sunday the 6th
            "2027-06-13T23:00:00+00:00 sunday-night n.mp4",
            "2027-06-14T01:30:00+00:00 default idle.mp4",
            "2027-06-20T23:00:00+00:00 sunday-night n.mp4",
        ])
        // Monday 00:30 is Sunday's window, though Monday is not one of its days.
        let state = ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-06-14T00:30:00Z"))
        XCTAssertEqual(state.current.name, "sunday-night")
        XCTAssertEqual(state.current.epoch, ScheduleFixture.instant("2027-06-13T23:00:00Z"))
    }

    func testADateRangeIsInclusiveAndAnOvernightWindowCountsItsStartDate() throws {
        let schedule = try schedule("""
              - {name: fair, dates: ["2027-06-08", "2027-06-09"], from: "18:00", to: "01:00", playlist: [f.mp4]}
              - {name: one-day, dates: "2027-06-11", from: "12:00", to: "13:00", playlist: [o.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-14T00:00:00Z"), [
            "2027-06-08T18:00:00+00:00 fair f.mp4",
            "2027-06-09T01:00:00+00:00 default idle.mp4",
            "2027-06-09T18:00:00+00:00 fair f.mp4",
            "2027-06-10T01:00:00+00:00 default idle.mp4",   // the 10th is not in the range, but its night is the 9th's
            "2027-06-11T12:00:00+00:00 one-day o.mp4",
            "2027-06-11T13:00:00+00:00 default idle.mp4",
        ])
    }

    func testTheHigherPriorityWinsAndTheLowerResumesAtItsOwnEpoch() throws {
        let schedule = try schedule("""
              - {name: day, days: [mon], from: "08:00", to: "18:00", playlist: [d.mp4]}
              - {name: news, days: [mon], from: "12:00", to: "13:00", priority: 5, playlist: [n.mp4]}
              - {name: quiet, days: [mon], from: "07:00", to: "19:00", priority: -1, playlist: [q.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-08T00:00:00Z"), [
            "2027-06-07T07:00:00+00:00 quiet q.mp4",
            "2027-06-07T08:00:00+00:00 day d.mp4",
            "2027-06-07T12:00:00+00:00 news n.mp4",
            "2027-06-07T13:00:00+00:00 day d.mp4",
            "2027-06-07T18:00:00+00:00 quiet q.mp4",
            "2027-06-07T19:00:00+00:00 default idle.mp4",
        ])
        let changes = ScheduleEvaluator(schedule).transitions(
            from: ScheduleFixture.instant("2027-06-07T00:00:00Z"), to: ScheduleFixture.instant("2027-06-08T00:00:00Z"))
        XCTAssertEqual(changes[3].run.epoch, ScheduleFixture.instant("2027-06-07T08:00:00Z"), "day resumes where the clock says")
        XCTAssertEqual(changes[4].run.epoch, ScheduleFixture.instant("2027-06-07T07:00:00Z"))
        XCTAssertEqual(changes[5].run.epoch, changes[5].instant, "the default's epoch is its transition")
    }

    func testAHigherPriorityThatOpenedFirstIsNotInterrupted() throws {
        let schedule = try schedule("""
              - {name: big, days: [mon], from: "08:00", to: "18:00", priority: 3, playlist: [b.mp4]}
              - {name: small, days: [mon], from: "12:00", to: "13:00", playlist: [s.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-08T00:00:00Z"), [
            "2027-06-07T08:00:00+00:00 big b.mp4",
            "2027-06-07T18:00:00+00:00 default idle.mp4",
        ])
    }

    /// Equal priorities: the window that opened later interrupts; opened together, the one listed first.
    func testEqualPrioritiesTheLaterOpenWinsThenTheFirstListed() throws {
        let interrupt = try schedule("""
              - {name: long, days: [mon], from: "08:00", to: "18:00", playlist: [l.mp4]}
              - {name: short, days: [mon], from: "12:00", to: "13:00", playlist: [s.mp4]}
            """)
        XCTAssertEqual(lines(interrupt, "2027-06-07T00:00:00Z", "2027-06-08T00:00:00Z"), [
            "2027-06-07T08:00:00+00:00 long l.mp4",
            "2027-06-07T12:00:00+00:00 short s.mp4",
            "2027-06-07T13:00:00+00:00 long l.mp4",
            "2027-06-07T18:00:00+00:00 default idle.mp4",
        ])
        let together = try schedule("""
              - {name: first, days: [mon], from: "10:00", to: "11:00", playlist: [f.mp4]}
              - {name: second, days: [mon], from: "10:00", to: "12:00", playlist: [s.mp4]}
            """)
        XCTAssertEqual(lines(together, "2027-06-07T00:00:00Z", "2027-06-08T00:00:00Z"), [
            "2027-06-07T10:00:00+00:00 first f.mp4",
            "2027-06-07T11:00:00+00:00 second s.mp4",
            "2027-06-07T12:00:00+00:00 default idle.mp4",
        ])
        let state = ScheduleEvaluator(together).state(at: ScheduleFixture.instant("2027-06-07T11:30:00Z"))
        XCTAssertEqual(state.current.epoch, ScheduleFixture.instant("2027-06-07T10:00:00Z"))
    }

    func testMidnightAsTheEndOfTheDay() throws {
        let schedule = try schedule("""
              - {name: evening, days: [mon], from: "20:00", to: "24:00", playlist: [e.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-09T00:00:00Z"), [
            "2027-06-07T20:00:00+00:00 evening e.mp4",
            "2027-06-08T00:00:00+00:00 default idle.mp4",
        ])
    }

    func testAdjacentWindowsSwitchWithNoDefaultBetween() throws {
        let schedule = try schedule("""
              - {name: breakfast, days: [mon], from: "07:00", to: "11:00", playlist: [am.mp4]}
              - {name: lunch, days: [mon], from: "11:00", to: "15:00", playlist: [pm.mp4]}
              - {name: evening, days: [mon], from: "15:00", to: "24:00", playlist: [ev.mp4]}
              - {name: night, days: [tue], from: "00:00", to: "02:00", playlist: [ni.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-09T00:00:00Z"), [
            "2027-06-07T07:00:00+00:00 breakfast am.mp4",
            "2027-06-07T11:00:00+00:00 lunch pm.mp4",
            "2027-06-07T15:00:00+00:00 evening ev.mp4",
            "2027-06-08T00:00:00+00:00 night ni.mp4",
            "2027-06-08T02:00:00+00:00 default idle.mp4",
        ])
    }

    /// 00:00–24:00 on consecutive days is one run: no transition at midnight, one epoch.
    func testWholeDaysOnConsecutiveDaysAreOneRun() throws {
        let weekend = try schedule("""
              - {name: weekend, days: [sat, sun], from: "00:00", to: "24:00", playlist: [w.mp4]}
            """)
        XCTAssertEqual(lines(weekend, "2027-06-07T00:00:00Z", "2027-06-21T00:00:00Z"), [
            "2027-06-07T00:00:00+00:00 default idle.mp4",   // the weekend before ends as the span starts
            "2027-06-12T00:00:00+00:00 weekend w.mp4",
            "2027-06-14T00:00:00+00:00 default idle.mp4",
            "2027-06-19T00:00:00+00:00 weekend w.mp4",
        ])
        let sunday = ScheduleEvaluator(weekend).state(at: ScheduleFixture.instant("2027-06-13T20:00:00Z"))
        XCTAssertEqual(sunday.current.epoch, ScheduleFixture.instant("2027-06-12T00:00:00Z"))

        let christmas = try schedule("""
              - {name: christmas, dates: ["2027-12-20", "2028-01-06"], from: "00:00", to: "24:00", playlist: [x.mp4]}
            """)
        XCTAssertEqual(lines(christmas, "2027-12-01T00:00:00Z", "2028-02-01T00:00:00Z"), [
            "2027-12-20T00:00:00+00:00 christmas x.mp4",
            "2028-01-07T00:00:00+00:00 default idle.mp4",
        ])
        let state = ScheduleEvaluator(christmas).state(at: ScheduleFixture.instant("2028-01-03T12:00:00Z"))
        XCTAssertEqual(state.current.epoch, ScheduleFixture.instant("2027-12-20T00:00:00Z"), "a long run keeps its first open")
        XCTAssertEqual(state.next?.instant, ScheduleFixture.instant("2028-01-07T00:00:00Z"))

        let always = try schedule("""
              - {name: always, from: "00:00", to: "24:00", playlist: [a.mp4]}
            """)
        XCTAssertEqual(lines(always, "2027-06-07T00:00:00Z", "2027-07-07T00:00:00Z"), [])
        let forever = ScheduleEvaluator(always).state(at: ScheduleFixture.instant("2027-06-09T08:00:00Z"))
        XCTAssertEqual(forever.current.name, "always")
        XCTAssertEqual(forever.current.epoch, ScheduleEvaluator.origin, "no first window: the origin")
        XCTAssertNil(forever.next)
    }

    func testAWindowOnTopOfAWholeDayRunInterruptsItOnlyItsOwnSpan() throws {
        // The night window opened later than the always-on run: it plays on past midnight.
        let schedule = try schedule("""
              - {name: always, from: "00:00", to: "24:00", playlist: [a.mp4]}
              - {name: night, days: [mon], from: "22:00", to: "02:00", playlist: [n.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T00:00:00Z", "2027-06-09T00:00:00Z"), [
            "2027-06-07T22:00:00+00:00 night n.mp4",
            "2027-06-08T02:00:00+00:00 always a.mp4",
        ])
    }

    func testTheDefaultsEpochIsTheLastClose() throws {
        let schedule = try schedule("""
              - {name: lunch, days: [mon, tue, wed, thu, fri], from: "11:00", to: "15:00", playlist: [l.mp4]}
              - {name: past, dates: "2020-12-24", from: "10:00", to: "12:00", playlist: [p.mp4]}
            """)
        let evaluator = ScheduleEvaluator(schedule)
        let afternoon = evaluator.state(at: ScheduleFixture.instant("2027-06-07T16:00:00Z"))
        XCTAssertEqual(afternoon.current.name, "default")
        XCTAssertEqual(afternoon.current.epoch, ScheduleFixture.instant("2027-06-07T15:00:00Z"))
        XCTAssertEqual(afternoon.next?.instant, ScheduleFixture.instant("2027-06-08T11:00:00Z"))
        XCTAssertEqual(afternoon.next?.run.entry, 0)
        let monday = evaluator.state(at: ScheduleFixture.instant("2027-06-14T09:00:00Z"))
        XCTAssertEqual(monday.current.epoch, ScheduleFixture.instant("2027-06-11T15:00:00Z"), "over the weekend")

        let onlyPast = try self.schedule("""
              - {name: past, dates: "2020-12-24", from: "10:00", to: "12:00", playlist: [p.mp4]}
            """)
        let later = ScheduleEvaluator(onlyPast).state(at: ScheduleFixture.instant("2027-06-07T16:00:00Z"))
        XCTAssertEqual(later.current.epoch, ScheduleFixture.instant("2020-12-24T12:00:00Z"), "years back")
        XCTAssertNil(later.next)

        let empty = try ScheduleFixture.schedule("default: {playlist: [idle.mp4]}")
        let idle = ScheduleEvaluator(empty).state(at: ScheduleFixture.instant("2027-06-07T16:00:00Z"))
        XCTAssertEqual(idle.current, ScheduledRun(entry: nil, name: "default", playlist: empty.defaultPlaylist,
                                                 epoch: ScheduleEvaluator.origin))
        XCTAssertNil(idle.next)
    }

    func testTheNextTransitionMayBeFarAhead() throws {
        let schedule = try schedule("""
              - {name: christmas, dates: "2028-12-24", from: "16:00", to: "23:00", playlist: [x.mp4]}
            """)
        let state = ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-06-07T16:00:00Z"))
        XCTAssertEqual(state.next?.instant, ScheduleFixture.instant("2028-12-24T16:00:00Z"))
        XCTAssertEqual(state.next?.name, "christmas")
        XCTAssertEqual(state.next?.run.epoch, state.next?.instant)
    }

    func testATransitionAtTheSpansStartIsIncludedAndItsEndIsNot() throws {
        let schedule = try schedule("""
              - {name: a, days: [mon], from: "08:00", to: "09:00", playlist: [a.mp4]}
            """)
        XCTAssertEqual(lines(schedule, "2027-06-07T08:00:00Z", "2027-06-07T09:00:00Z"), ["2027-06-07T08:00:00+00:00 a a.mp4"])
        XCTAssertEqual(lines(schedule, "2027-06-07T08:00:01Z", "2027-06-07T09:00:01Z"), ["2027-06-07T09:00:00+00:00 default idle.mp4"])
    }

    func testLinesUseTheZonesOffsetNeverZ() throws {
        let newYork = try schedule("""
              - {name: a, days: [mon], from: "08:00", to: "09:00:30", playlist: [a.mp4, "http://cdn/b.mp4"]}
            """, timezone: "America/New_York")
        XCTAssertEqual(lines(newYork, "2027-06-07T00:00:00-04:00", "2027-06-08T00:00:00-04:00"), [
            "2027-06-07T08:00:00-04:00 a a.mp4 http://cdn/b.mp4",
            "2027-06-07T09:00:30-04:00 default idle.mp4",
        ])
        let kolkata = try schedule("""
              - {name: a, days: [mon], from: "08:00", to: "09:00", playlist: [a.mp4]}
            """, timezone: "Asia/Kolkata")
        XCTAssertEqual(lines(kolkata, "2027-06-07T00:00:00+05:30", "2027-06-07T08:30:00+05:30"),
                       ["2027-06-07T08:00:00+05:30 a a.mp4"])
    }
}

extension ScheduleEvaluatorTests {
    /// An overnight window from three days back may close after a later day's short window.
    func testTheDefaultsEpochAfterALongOvernightWindow() throws {
        let schedule = try schedule("""
              - {name: long-night, days: [mon], from: "22:00", to: "05:00", playlist: [n.mp4]}
              - {name: small-hours, days: [tue], from: "00:30", to: "01:00", priority: 3, playlist: [s.mp4]}
            """)
        let thursday = ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-06-10T12:00:00Z"))
        XCTAssertEqual(thursday.current.name, "default")
        XCTAssertEqual(thursday.current.epoch, ScheduleFixture.instant("2027-06-08T05:00:00Z"))
    }

    func testWeekdaysOfDayNumbers() {
        XCTAssertEqual(ScheduleWeekday(dayNumber: 0), .thu, "1970-01-01")
        XCTAssertEqual(ScheduleWeekday(dayNumber: -1), .wed)
        XCTAssertEqual(ScheduleWeekday(dayNumber: ScheduleDate("2028-02-29")!.dayNumber), .tue)
        XCTAssertEqual(ScheduleDate(dayNumber: ScheduleDate("2028-02-29")!.dayNumber).description, "2028-02-29")
        XCTAssertEqual(ScheduleDate(dayNumber: -719_162).description, "0001-01-01")
    }
}
