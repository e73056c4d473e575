import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// Daylight saving: a wall time the clocks skip is the instant they jump to; one they show twice is
/// its first occurrence, for a window's start and its end alike.
/// Europe/Berlin: 2027-03-28 02:00 CET → 03:00 CEST, 2027-10-31 03:00 CEST → 02:00 CET.
/// America/New_York: 2027-03-14 02:00 EST → 03:00 EDT, 2027-11-07 02:00 EDT → 01:00 EST.
final class ScheduleDaylightSavingTests: XCTestCase {
    private func lines(_ zone: String, _ entries: String, _ from: String, _ to: String) throws -> [String] {
        let schedule = try ScheduleFixture.schedule("timezone: \(zone)\ndefault: {playlist: [idle.mp4]}\nentries:\n" + entries)
        return ScheduleFixture.lines(schedule, from: from, to: to)
    }

    func testBerlinSpringAStartInTheGapIsTheJump() throws {
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: gap, dates: "2027-03-28", from: "02:30", to: "04:00", playlist: [a.mp4]}
            """, "2027-03-28T00:00:00+01:00", "2027-03-29T00:00:00+02:00"), [
            "2027-03-28T03:00:00+02:00 gap a.mp4",
            "2027-03-28T04:00:00+02:00 default idle.mp4",
        ])
    }

    func testBerlinSpringAnEndInTheGapIsTheJump() throws {
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: early, dates: "2027-03-28", from: "01:00", to: "02:30", playlist: [a.mp4]}
            """, "2027-03-28T00:00:00+01:00", "2027-03-29T00:00:00+02:00"), [
            "2027-03-28T01:00:00+01:00 early a.mp4",
            "2027-03-28T03:00:00+02:00 default idle.mp4",
        ])
    }

    func testBerlinSpringAWindowWhollyInTheGapDoesNotHappen() throws {
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: lost, days: [sat, sun], from: "02:10", to: "02:50", playlist: [a.mp4]}
            """, "2027-03-27T12:00:00+01:00", "2027-03-29T00:00:00+02:00"), [])
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: lost, days: [sat, sun], from: "02:10", to: "02:50", playlist: [a.mp4]}
            """, "2027-03-27T00:00:00+01:00", "2027-03-27T12:00:00+01:00"), [
            "2027-03-27T02:10:00+01:00 lost a.mp4",
            "2027-03-27T02:50:00+01:00 default idle.mp4",
        ])
    }

    func testBerlinSpringAnOvernightWindowAcrossTheChangeIsAnHourShorter() throws {
        let schedule = try ScheduleFixture.schedule("""
            timezone: Europe/Berlin
            default: {playlist: [idle.mp4]}
            entries:
              - {name: night, days: [sat], from: "22:00", to: "06:00", playlist: [n.mp4]}
            """)
        XCTAssertEqual(ScheduleFixture.lines(schedule, from: "2027-03-27T12:00:00+01:00", to: "2027-03-28T12:00:00+02:00"), [
            "2027-03-27T22:00:00+01:00 night n.mp4",
            "2027-03-28T06:00:00+02:00 default idle.mp4",
        ])
        let changes = ScheduleEvaluator(schedule).transitions(
            from: ScheduleFixture.instant("2027-03-27T12:00:00+01:00"), to: ScheduleFixture.instant("2027-03-28T12:00:00+02:00"))
        XCTAssertEqual(changes[1].instant.timeIntervalSince(changes[0].instant), 7 * 3600)
    }

    func testBerlinAutumnTheRepeatedHourCountsOnce() throws {
        // Start in the repeated hour: its first occurrence (CEST).
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: late, dates: "2027-10-31", from: "02:30", to: "05:00", playlist: [a.mp4]}
            """, "2027-10-31T00:00:00+02:00", "2027-11-01T00:00:00+01:00"), [
            "2027-10-31T02:30:00+02:00 late a.mp4",
            "2027-10-31T05:00:00+01:00 default idle.mp4",
        ])
        // End in the repeated hour: its first occurrence too, so the second 02:00–03:00 is the default's.
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: early, dates: "2027-10-31", from: "01:00", to: "02:30", playlist: [a.mp4]}
            """, "2027-10-31T00:00:00+02:00", "2027-11-01T00:00:00+01:00"), [
            "2027-10-31T01:00:00+02:00 early a.mp4",
            "2027-10-31T02:30:00+02:00 default idle.mp4",
        ])
        // Both in the repeated hour: once, in the first occurrence.
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: inside, days: [sun], from: "02:15", to: "02:45", playlist: [a.mp4]}
            """, "2027-10-31T00:00:00+02:00", "2027-11-01T00:00:00+01:00"), [
            "2027-10-31T02:15:00+02:00 inside a.mp4",
            "2027-10-31T02:45:00+02:00 default idle.mp4",
        ])
    }

    func testBerlinWholeDaysStayOneRunAcrossBothChanges() throws {
        let schedule = try ScheduleFixture.schedule("""
            timezone: Europe/Berlin
            default: {playlist: [idle.mp4]}
            entries:
              - {name: days, dates: ["2027-03-27", "2027-03-29"], from: "00:00", to: "24:00", playlist: [d.mp4]}
              - {name: autumn, dates: ["2027-10-30", "2027-11-01"], from: "00:00", to: "24:00", playlist: [d.mp4]}
            """)
        XCTAssertEqual(ScheduleFixture.lines(schedule, from: "2027-03-01T00:00:00+01:00", to: "2027-12-01T00:00:00+01:00"), [
            "2027-03-27T00:00:00+01:00 days d.mp4",
            "2027-03-30T00:00:00+02:00 default idle.mp4",
            "2027-10-30T00:00:00+02:00 autumn d.mp4",
            "2027-11-02T00:00:00+01:00 default idle.mp4",
        ])
        let state = ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-10-31T02:30:00+01:00"))
        XCTAssertEqual(state.current.name, "autumn")
        XCTAssertEqual(state.current.epoch, ScheduleFixture.instant("2027-10-30T00:00:00+02:00"))
    }

    func testNewYorkSpring() throws {
        XCTAssertEqual(try lines("America/New_York", """
              - {name: gap, dates: "2027-03-14", from: "02:30", to: "03:30", playlist: [a.mp4]}
              - {name: before, dates: "2027-03-14", from: "01:00", to: "02:15", playlist: [b.mp4]}
            """, "2027-03-14T00:00:00-05:00", "2027-03-15T00:00:00-04:00"), [
            "2027-03-14T01:00:00-05:00 before b.mp4",
            "2027-03-14T03:00:00-04:00 gap a.mp4",   // before's end and gap's start: both the jump
            "2027-03-14T03:30:00-04:00 default idle.mp4",
        ])
    }

    func testNewYorkAutumn() throws {
        XCTAssertEqual(try lines("America/New_York", """
              - {name: twice, dates: "2027-11-07", from: "01:30", to: "03:00", playlist: [a.mp4]}
            """, "2027-11-07T00:00:00-04:00", "2027-11-08T00:00:00-05:00"), [
            "2027-11-07T01:30:00-04:00 twice a.mp4",
            "2027-11-07T03:00:00-05:00 default idle.mp4",
        ])
        XCTAssertEqual(try lines("America/New_York", """
              - {name: inside, days: [sun], from: "01:15", to: "01:45", playlist: [a.mp4]}
              - {name: up-to, days: [sun], from: "00:30", to: "01:05", playlist: [b.mp4]}
            """, "2027-11-07T00:00:00-04:00", "2027-11-08T00:00:00-05:00"), [
            "2027-11-07T00:30:00-04:00 up-to b.mp4",
            "2027-11-07T01:05:00-04:00 default idle.mp4",
            "2027-11-07T01:15:00-04:00 inside a.mp4",
            "2027-11-07T01:45:00-04:00 default idle.mp4",
        ])
        // The second 01:00–02:00 (EST) is the default's.
        let schedule = try ScheduleFixture.schedule("""
            timezone: America/New_York
            default: {playlist: [idle.mp4]}
            entries:
              - {name: inside, days: [sun], from: "01:15", to: "01:45", playlist: [a.mp4]}
            """)
        XCTAssertEqual(ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-11-07T01:30:00-05:00")).current.name,
                       "default")
        XCTAssertEqual(ScheduleEvaluator(schedule).state(at: ScheduleFixture.instant("2027-11-07T01:30:00-04:00")).current.name,
                       "inside")
    }

    func testALeapDay() throws {
        XCTAssertEqual(try lines("Europe/Berlin", """
              - {name: leap, dates: "2028-02-29", from: "00:00", to: "24:00", playlist: [l.mp4]}
              - {name: tuesdays, days: [tue], dates: ["2028-02-28", "2028-03-01"], from: "09:00", to: "10:00", playlist: [t.mp4]}
            """, "2028-02-27T00:00:00+01:00", "2028-03-03T00:00:00+01:00"), [
            "2028-02-29T00:00:00+01:00 leap l.mp4",
            "2028-02-29T09:00:00+01:00 tuesdays t.mp4",
            "2028-02-29T10:00:00+01:00 leap l.mp4",
            "2028-03-01T00:00:00+01:00 default idle.mp4",
        ])
    }

    func testWallClockConversionsAgreeWithFoundationsCalendar() throws {
        // Every quarter hour across both Berlin changes: an existing wall time maps to the instant
        // Calendar's components name (first occurrence), and back to the same day.
        let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let clock = WallClock(timeZone: zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for date in ["2027-03-28", "2027-10-31"] {
            let day = try XCTUnwrap(ScheduleDate(date)).dayNumber
            for quarter in 0..<96 {
                let instant = clock.instant(day: day, second: quarter * 900)
                let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute],
                                                    from: Date(timeIntervalSince1970: TimeInterval(instant)))
                XCTAssertEqual(clock.day(of: instant), day)
                if date == "2027-03-28" && (8..<12).contains(quarter) {
                    XCTAssertEqual(shown.hour, 3, "the gap maps to 03:00")
                    XCTAssertEqual(shown.minute, 0)
                } else {
                    XCTAssertEqual(shown.hour, quarter / 4)
                    XCTAssertEqual(shown.minute, quarter % 4 * 15)
                }
                if date == "2027-10-31" && (8..<12).contains(quarter) {
                    XCTAssertEqual(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))), 7200,
                                   "the first occurrence is summer time")
                }
            }
        }
    }
}
