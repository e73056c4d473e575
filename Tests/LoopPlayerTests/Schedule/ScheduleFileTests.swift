import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// The strict loader: a good file's values and defaults, and each kind of bad input as exactly one
/// `file:line: key: reason`.
final class ScheduleFileTests: XCTestCase {
    private let menu = """
        timezone: Europe/Berlin          # IANA name
        sync: true
        default:
          playlist: [idle.mp4]
        entries:
          - name: breakfast
            days: [mon, tue, wed, thu, fri]
            from: "07:00"
            to: "11:00:30"
            playlist: [menu-am.mp4, "https://cdn.example/promo.mp4", /srv/abs.mp4, lists/am.m3u]
          - name: christmas
            dates: ["2026-12-20", "2026-12-26"]
            from: 00:00
            to: "24:00"
            priority: 10
            loop: no
            switch: after-pass
            playlist:
              - xmas.mp4
        """

    func testAGoodFile() throws {
        let schedule = try ScheduleFixture.schedule(menu, file: "/srv/signage/menu.yaml")
        XCTAssertEqual(schedule.file, "/srv/signage/menu.yaml")
        XCTAssertEqual(schedule.timeZone.identifier, "Europe/Berlin")
        XCTAssertTrue(schedule.sync)
        XCTAssertEqual(schedule.defaultPlaylist.map(\.resolved), ["/srv/signage/idle.mp4"])
        XCTAssertEqual(schedule.entries.count, 2)

        let breakfast = schedule.entries[0]
        XCTAssertEqual(breakfast.name, "breakfast")
        XCTAssertEqual(breakfast.days, [.mon, .tue, .wed, .thu, .fri])
        XCTAssertNil(breakfast.dates)
        XCTAssertEqual(breakfast.from.seconds, 7 * 3600)
        XCTAssertEqual(breakfast.to.seconds, 11 * 3600 + 30)
        XCTAssertEqual(breakfast.to.description, "11:00:30")
        XCTAssertEqual(breakfast.playlist.map(\.written),
                       ["menu-am.mp4", "https://cdn.example/promo.mp4", "/srv/abs.mp4", "lists/am.m3u"])
        XCTAssertEqual(breakfast.playlist.map(\.resolved),
                       ["/srv/signage/menu-am.mp4", "https://cdn.example/promo.mp4", "/srv/abs.mp4", "/srv/signage/lists/am.m3u"])
        XCTAssertEqual(breakfast.priority, 0)
        XCTAssertTrue(breakfast.loop)
        XCTAssertEqual(breakfast.switchMode, .atTime)
        XCTAssertEqual(breakfast.line, 6)

        let christmas = schedule.entries[1]
        XCTAssertEqual(christmas.days.count, 7, "no days: every day")
        XCTAssertEqual(christmas.dates, ScheduleDate("2026-12-20")!...ScheduleDate("2026-12-26")!)
        XCTAssertEqual(christmas.from.seconds, 0, "an unquoted 00:00 is read as written, not as a sexagesimal number")
        XCTAssertEqual(christmas.to, .endOfDay)
        XCTAssertEqual(christmas.priority, 10)
        XCTAssertFalse(christmas.loop)
        XCTAssertEqual(christmas.switchMode, .afterPass)
    }

    func testDefaultsAndRelativeResolution() throws {
        let schedule = try ScheduleFile.parse(yaml: "default: {playlist: [idle.mp4, 'a b.mp4']}", file: "https://signs.example/wall/menu.yaml",
                                              systemTimeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo")))
        XCTAssertEqual(schedule.timeZone.identifier, "Asia/Tokyo", "no timezone: the system's")
        XCTAssertFalse(schedule.sync)
        XCTAssertEqual(schedule.entries, [])
        XCTAssertEqual(schedule.defaultPlaylist.map(\.resolved),
                       ["https://signs.example/wall/idle.mp4", "https://signs.example/wall/a%20b.mp4"])
        let local = try ScheduleFixture.schedule("default: {playlist: [idle.mp4, '10:00.mp4']}", file: "menu.yaml")
        XCTAssertEqual(local.defaultPlaylist.map(\.resolved), ["idle.mp4", "10:00.mp4"], "no directory: as written")
    }

    func testAOneDateRangeAndASingleDate() throws {
        let schedule = try ScheduleFixture.schedule("""
            default: {playlist: [i.mp4]}
            entries:
              - {name: a, dates: ["2028-02-29"], from: "10:00", to: "11:00", playlist: [a.mp4]}
              - {name: b, dates: 2028-03-01, from: "10:00", to: "11:00", playlist: [b.mp4]}
            """)
        XCTAssertEqual(schedule.entries[0].dates, ScheduleDate("2028-02-29")!...ScheduleDate("2028-02-29")!)
        XCTAssertEqual(schedule.entries[1].dates, ScheduleDate("2028-03-01")!...ScheduleDate("2028-03-01")!)
    }

    // MARK: - One error each

    private let entryHead = "timezone: UTC\ndefault: {playlist: [idle.mp4]}\nentries:\n"

    private func entryError(_ entry: String) -> String? {
        ScheduleFixture.error(entryHead + entry)
    }

    func testImpossibleTimes() {
        XCTAssertEqual(entryError("""
              - name: breakfast
                days: [mon]
                from: "25:00"
                to: "11:00"
                playlist: [a.mp4]
            """), #"menu.yaml:6: entries[0].from: "25:00" is not a time of day (HH:MM or HH:MM:SS)"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:61", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].from: "07:61" is not a time of day (HH:MM or HH:MM:SS)"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "24:30", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].to: "24:30" is not a time of day (HH:MM or HH:MM:SS)"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "7:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].from: "7:00" is not a time of day (HH:MM or HH:MM:SS)"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00:60", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].from: "07:00:60" is not a time of day (HH:MM or HH:MM:SS)"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "24:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].from: "24:00" is only an end time (to), not a start"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "07:00:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].to: "07:00" is the same as from: the window would be empty (for a whole day write from "00:00" to "24:00")"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: 700, to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].from: "700" is not a time of day (HH:MM or HH:MM:SS)"#)
    }

    func testBadDates() {
        XCTAssertEqual(entryError(#"  - {name: a, dates: ["2026-02-30"], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].dates[0]: "2026-02-30" is not a date (YYYY-MM-DD)"#)
        XCTAssertEqual(entryError(#"  - {name: a, dates: "2027-02-29", from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].dates: "2027-02-29" is not a date (YYYY-MM-DD)"#)
        XCTAssertEqual(entryError("""
              - name: a
                dates: ["2026-12-26",
                        "2026-12-20"]
                from: "07:00"
                to: "11:00"
                playlist: [a.mp4]
            """), #"menu.yaml:6: entries[0].dates: ends (2026-12-20) before it starts (2026-12-26)"#)
        XCTAssertEqual(entryError(#"  - {name: a, dates: ["2026-12-01", "2026-12-02", "2026-12-03"], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].dates: expected one date or two (an inclusive range), found 3"#)
    }

    func testPlaylists() {
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", playlist: []}"#),
                       #"menu.yaml:4: entries[0].playlist: is empty: a playlist needs at least one file or URL"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", playlist: a.mp4}"#),
                       #"menu.yaml:4: entries[0].playlist: expected a list, found "a.mp4""#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", playlist: [a.mp4, [b.mp4]]}"#),
                       #"menu.yaml:4: entries[0].playlist[1]: expected text, found a list"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", playlist: [a.mp4, ~]}"#),
                       #"menu.yaml:4: entries[0].playlist[1]: expected text, found nothing"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", playlist: ["a\nb.mp4"]}"#),
                       #"menu.yaml:4: entries[0].playlist[0]: contains a control character (a line break, a tab…)"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: []}"),
                       #"menu.yaml:1: default.playlist: is empty: a playlist needs at least one file or URL"#)
    }

    func testNames() {
        XCTAssertEqual(entryError("""
              - {name: lunch, from: "11:00", to: "15:00", playlist: [a.mp4]}
              - {name: lunch, from: "12:00", to: "13:00", playlist: [b.mp4]}
            """), #"menu.yaml:5: entries[1].name: "lunch" is already the name of entries[0]"#)
        XCTAssertEqual(entryError("""
              - {name: lunch, from: "11:00", to: "15:00", playlist: [a.mp4]}
              - from: "12:00"
                to: "13:00"
                name: lunch
                playlist: [b.mp4]
            """), #"menu.yaml:7: entries[1].name: "lunch" is already the name of entries[0]"#)
        XCTAssertEqual(entryError(#"  - {name: default, from: "11:00", to: "15:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].name: "default" cannot name an entry (one word of at most 100 characters, and not "default" or "override")"#)
        XCTAssertEqual(entryError(#"  - {name: "two words", from: "11:00", to: "15:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].name: "two words" cannot name an entry (one word of at most 100 characters, and not "default" or "override")"#)
        XCTAssertEqual(entryError(#"  - {name: "", from: "11:00", to: "15:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].name: is empty"#)
    }

    func testWeekdays() {
        XCTAssertEqual(entryError(#"  - {name: a, days: [mon, thurs], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].days[1]: "thurs" is not a day (mon, tue, wed, thu, fri, sat, sun)"#)
        XCTAssertEqual(entryError(#"  - {name: a, days: [mon, Mon], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].days[1]: "Mon" is not a day (mon, tue, wed, thu, fri, sat, sun)"#)
        XCTAssertEqual(entryError(#"  - {name: a, days: [mon, mon], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].days[1]: "mon" is listed twice"#)
        XCTAssertEqual(entryError(#"  - {name: a, days: [], from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].days: is empty: the entry would never play (leave days out for every day)"#)
        XCTAssertEqual(entryError(#"  - {name: a, days: mon, from: "07:00", to: "11:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].days: expected a list, found "mon""#)
    }

    func testUnknownAndMissingKeys() {
        XCTAssertEqual(entryError("""
              - name: a
                from: "07:00"
                to: "11:00"
                colour: red
                playlist: [a.mp4]
            """), #"menu.yaml:7: entries[0].colour: unknown key (expected one of: name, days, dates, from, to, playlist, priority, loop, switch)"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\ntimezones: UTC"),
                       #"menu.yaml:2: timezones: unknown key (expected one of: timezone, default, sync, entries)"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4], loop: no}"),
                       #"menu.yaml:1: default.loop: unknown key (expected one of: playlist)"#)
        XCTAssertEqual(ScheduleFixture.error("timezone: UTC\nentries: []"),
                       #"menu.yaml:1: default: required but missing (what plays when no entry is on)"#)
        XCTAssertEqual(ScheduleFixture.error(""), #"menu.yaml:1: default: required but missing (what plays when no entry is on)"#)
        XCTAssertEqual(ScheduleFixture.error("# only a comment\n"),
                       #"menu.yaml:1: default: required but missing (what plays when no entry is on)"#)
        XCTAssertEqual(entryError("""
              - name: a
                from: "07:00"
                playlist: [a.mp4]
            """), #"menu.yaml:4: entries[0].to: required but missing"#)
        XCTAssertEqual(entryError(#"  - {from: "07:00", to: "08:00", playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].name: required but missing"#)
        XCTAssertEqual(ScheduleFixture.error("default: {}"), #"menu.yaml:1: default.playlist: required but missing"#)
    }

    func testWrongTypes() {
        XCTAssertEqual(ScheduleFixture.error("- default"),
                       #"menu.yaml:1: expected a mapping of timezone, default, sync, entries, found a list"#)
        XCTAssertEqual(ScheduleFixture.error("just text"),
                       #"menu.yaml:1: expected a mapping of timezone, default, sync, entries, found "just text""#)
        XCTAssertEqual(ScheduleFixture.error("default: [idle.mp4]"),
                       #"menu.yaml:1: default: expected a mapping of playlist, found a list"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nsync: maybe"),
                       #"menu.yaml:2: sync: expected true or false, found "maybe""#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nsync: \"true\""),
                       #"menu.yaml:2: sync: expected true or false, found "true""#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nentries: {name: a}"),
                       #"menu.yaml:2: entries: expected a list, found a mapping"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\ntimezone: [UTC]"),
                       #"menu.yaml:2: timezone: expected text, found a list"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\n[a, b]: c"),
                       #"menu.yaml:2: a key must be text, found a list"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", priority: high, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].priority: expected a whole number, found "high""#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", priority: 1.5, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].priority: expected a whole number, found "1.5""#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", loop: 1, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].loop: expected true or false, found "1""#)
        XCTAssertEqual(entryError("  - just-a-name"),
                       #"menu.yaml:4: entries[0]: expected a mapping of name, days, dates, from, to, playlist, priority, loop, switch, found "just-a-name""#)
    }

    func testOtherValues() {
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", priority: 5000, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].priority: 5000 is outside -1000...1000"#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", priority: -99999999999999999999, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].priority: expected a whole number, found "-99999999999999999999""#)
        XCTAssertEqual(entryError(#"  - {name: a, from: "07:00", to: "11:00", switch: later, playlist: [a.mp4]}"#),
                       #"menu.yaml:4: entries[0].switch: "later" is not a way to switch (at-time or after-pass)"#)
        XCTAssertEqual(ScheduleFixture.error("timezone: Europe/Berln\ndefault: {playlist: [i.mp4]}"),
                       #"menu.yaml:1: timezone: "Europe/Berln" is not a known time zone (an IANA name such as Europe/Berlin)"#)
    }

    func testYAMLItselfAndWhatASchedulesDoesNotUse() {
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]\nentries: []"),
                       #"menu.yaml:2: not valid YAML: while parsing a flow mapping: did not find expected ',' or '}'"#)
        XCTAssertEqual(ScheduleFixture.error("default:\n  playlist: [i.mp4]\n bad: indent"),
                       #"menu.yaml:3: not valid YAML: while parsing a block mapping: did not find expected key"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nsync: yes\nsync: no"),
                       #"menu.yaml:2: not valid YAML: "sync" appears more than once in one mapping"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\n---\ndefault: {playlist: [j.mp4]}"),
                       #"menu.yaml:2: not valid YAML: expected a single document in the stream: but found another document"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nsync: \u{7}"),
                       #"menu.yaml:2: not valid YAML: control characters are not allowed"#)
        XCTAssertEqual(ScheduleFixture.error("default: &d {playlist: [i.mp4]}"),
                       #"menu.yaml:1: YAML anchors (&name) and aliases are not supported in a schedule (write each value out; quote text that starts with &)"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [*i]}"),
                       #"menu.yaml:1: not valid YAML: found undefined alias"#)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [!!binary aGk=]}"),
                       #"menu.yaml:1: default.playlist[0]: YAML tags (tag:yaml.org,2002:binary) are not used in a schedule"#)
        XCTAssertNil(ScheduleFixture.error("default: {playlist: [!!str i.mp4, 'fish & chips.mp4', R&D.mp4]}"),
                     "an explicit str tag and ampersands that start no anchor are fine")
    }

    func testTheBounds() {
        let big = String(repeating: "#", count: ScheduleLimits.maxBytes + 1)
        XCTAssertEqual(ScheduleFixture.error(big), "menu.yaml: more than 1048576 bytes, the most a schedule file may hold")
        let entries = String(repeating: "  - {}\n", count: ScheduleLimits.maxEntries + 1)
        XCTAssertEqual(ScheduleFixture.error("default: {playlist: [i.mp4]}\nentries:\n" + entries),
                       "menu.yaml:3: entries: 501 entries is more than a schedule may hold (500)")
        XCTAssertThrowsError(try ScheduleFile.parse(contents: Data([0x64, 0x3A, 0x20, 0xFF, 0xFE]), file: "menu.yaml")) {
            XCTAssertEqual(($0 as? ScheduleError)?.description, "menu.yaml:1: not UTF-8 text")
        }
    }

    func testThePlayerSeesAnInvalidSetting() {
        let error = ScheduleError(.invalidValue, file: "menu.yaml", line: 7, key: "entries[0].from", reason: "bad")
        XCTAssertEqual(error.playerError, .invalidSetting(name: "schedule", value: "menu.yaml", reason: "menu.yaml:7: entries[0].from: bad"))
    }
}
