import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// A simulated week against an independent expectation: every minute judged from Foundation's
/// `Calendar` components alone (no `WallClock`, no runs), then the evaluator's transitions must be
/// exactly the minutes where that judgement changes. And the cost of a week of 20 entries.
final class ScheduleWeekTests: XCTestCase {
    private static let yaml = """
        timezone: Europe/Berlin
        default: {playlist: [idle.mp4]}
        entries:
          - {name: breakfast, days: [mon, tue, wed, thu, fri], from: "07:00", to: "11:00", playlist: [am.mp4]}
          - {name: lunch, days: [mon, tue, wed, thu, fri], from: "11:00", to: "15:00", playlist: [pm.mp4]}
          - {name: news, from: "12:00", to: "12:10", priority: 5, playlist: [news.mp4]}
          - {name: late, days: [fri, sat], from: "22:00", to: "02:00", playlist: [late.mp4]}
          - {name: weekend, days: [sat, sun], from: "00:00", to: "24:00", priority: -1, playlist: [we.mp4]}
          - {name: promo, from: "10:30", to: "13:30", playlist: [promo.mp4]}
          - {name: early, days: [sun], from: "02:30", to: "03:30", priority: 2, playlist: [early.mp4]}
          - {name: fair, dates: ["2027-03-24", "2027-03-25"], from: "09:00", to: "09:30", priority: 10, playlist: [fair.mp4]}
          - {name: market, dates: "2027-06-09", from: "16:00", to: "01:00", priority: 1, playlist: [m.mp4]}
        """

    /// Monday to Monday in June, and the week of the spring change (2027-03-28).
    func testAWeekMatchesAMinuteByMinuteJudgement() throws {
        let schedule = try ScheduleFixture.schedule(Self.yaml)
        for (from, to) in [("2027-06-07T00:00:00+02:00", "2027-06-14T00:00:00+02:00"),
                           ("2027-03-22T00:00:00+01:00", "2027-03-29T00:00:00+02:00")] {
            let start = ScheduleFixture.instant(from), end = ScheduleFixture.instant(to)
            let expected = MinuteJudge(schedule).changes(from: start, to: end)
            let actual = ScheduleEvaluator(schedule).transitions(from: start, to: end).map { Change(instant: $0.instant, name: $0.name) }
            XCTAssertEqual(actual, expected, "week from \(from)")
            XCTAssertGreaterThan(actual.count, 40)
        }
    }

    /// The player's view: the state every 5 minutes of a week on an injected clock agrees with the
    /// transitions, and each state's `next` is the transition that follows.
    func testStatesAlongAWeekAgreeWithTheTransitions() throws {
        let schedule = try ScheduleFixture.schedule(Self.yaml)
        let evaluator = ScheduleEvaluator(schedule)
        let start = ScheduleFixture.instant("2027-03-22T00:00:00+01:00"), end = ScheduleFixture.instant("2027-03-29T00:00:00+02:00")
        let changes = evaluator.transitions(from: start, to: end)
        let clock = ContinuousClock.now
        var time = start.addingTimeInterval(1)
        while time < end {
            let state = evaluator.state(at: time)
            let last = changes.last { $0.instant <= time }
            let following = changes.first { $0.instant > time }
            if let last { XCTAssertEqual(state.current, last.run, "at \(time)") }
            if let following { XCTAssertEqual(state.next, following, "at \(time)") }
            time.addTimeInterval(300)
        }
        XCTAssertLessThan(ContinuousClock.now - clock, .seconds(2), "a simulated week of 2016 evaluations")
    }

    func testAWeekOfTwentyEntriesIsCheap() throws {
        var entries = ""
        for index in 0..<20 {
            let from = 6 + index % 12, length = 1 + index % 4
            let days = ["[mon, tue, wed, thu, fri]", "[sat, sun]", "[mon, wed, fri]", "[tue, thu]"][index % 4]
            entries += "  - {name: e\(index), days: \(days), from: \"\(from < 10 ? "0" : "")\(from):15\","
                + " to: \"\((from + length) % 24 < 10 ? "0" : "")\((from + length) % 24):45\", priority: \(index % 3), playlist: [e.mp4]}\n"
        }
        entries += "  - {name: night, from: \"23:00\", to: \"05:00\", playlist: [n.mp4]}\n"
        let schedule = try ScheduleFixture.schedule("timezone: Europe/Berlin\ndefault: {playlist: [i.mp4]}\nentries:\n" + entries)
        let evaluator = ScheduleEvaluator(schedule)
        let start = ScheduleFixture.instant("2027-03-22T00:00:00+01:00")
        var best = Duration.seconds(1)
        var count = 0
        for _ in 0..<5 {
            let clock = ContinuousClock.now
            count = evaluator.transitions(from: start, to: start.addingTimeInterval(7 * 86_400)).count
            best = min(best, ContinuousClock.now - clock)
        }
        XCTAssertGreaterThan(count, 50)
        XCTAssertLessThan(best, .milliseconds(10), "a week of 21 entries")
    }
}

private struct Change: Equatable, CustomStringConvertible {
    let instant: Date
    let name: String
    var description: String { "\(instant) \(name)" }
}

/// The schedule's rules restated for one minute at a time, from `Calendar` components: which windows
/// hold the minute (today's, or yesterday's overnight one), the highest priority, then the latest
/// open, then the first listed. Whole days on consecutive days open on the first of them.
private struct MinuteJudge {
    let schedule: Schedule
    private var calendar = Calendar(identifier: .gregorian)

    init(_ schedule: Schedule) {
        self.schedule = schedule
        calendar.timeZone = schedule.timeZone
    }

    func changes(from start: Date, to end: Date) -> [Change] {
        var changes: [Change] = []
        var previous = name(at: start.addingTimeInterval(-60))
        var time = start
        while time < end {
            let current = name(at: time)
            if current != previous { changes.append(Change(instant: time, name: current)) }
            previous = current
            time.addTimeInterval(60)
        }
        return changes
    }

    private struct Day {
        let key: Int        // yyyymmdd
        let weekday: ScheduleWeekday
        let date: ScheduleDate
    }

    private func day(_ date: Date) -> Day {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let weekdays: [ScheduleWeekday] = [.sun, .mon, .tue, .wed, .thu, .fri, .sat]
        let key = (parts.year ?? 0) * 10_000 + (parts.month ?? 0) * 100 + (parts.day ?? 0)
        let text = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        return Day(key: key, weekday: weekdays[(parts.weekday ?? 1) - 1], date: ScheduleDate(text) ?? ScheduleDate(dayNumber: 0))
    }

    private func isOn(_ entry: ScheduleEntry, _ day: Day) -> Bool {
        entry.days.contains(day.weekday) && (entry.dates?.contains(day.date) ?? true)
    }

    private func name(at time: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: time)
        let second = (parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60
        let today = day(time)
        let yesterdayDate = calendar.date(byAdding: .hour, value: -24, to: time) ?? time
        let yesterday = day(yesterdayDate)
        var best: (priority: Int, open: (Int, Int), index: Int)?
        for (index, entry) in schedule.entries.enumerated() {
            var open: (Int, Int)?
            if entry.from < entry.to {
                if isOn(entry, today), entry.from.seconds <= second, second < entry.to.seconds {
                    open = (today.key, entry.from.seconds)
                    if entry.from.seconds == 0 && entry.to == .endOfDay {
                        var back = yesterdayDate, first = today
                        while isOn(entry, day(back)) {
                            first = day(back)
                            back = calendar.date(byAdding: .hour, value: -24, to: back) ?? back
                        }
                        open = (first.key, 0)
                    }
                }
            } else if isOn(entry, today), entry.from.seconds <= second {
                open = (today.key, entry.from.seconds)
            } else if isOn(entry, yesterday), second < entry.to.seconds {
                open = (yesterday.key, entry.from.seconds)
            }
            guard let open else { continue }
            if let current = best {
                if entry.priority < current.priority { continue }
                if entry.priority == current.priority && open <= current.open { continue }
            }
            best = (entry.priority, open, index)
        }
        return best.map { schedule.entries[$0.index].name } ?? "default"
    }
}
