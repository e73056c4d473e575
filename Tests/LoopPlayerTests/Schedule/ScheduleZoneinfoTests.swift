import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// `--print-schedule` lines for weeks across each daylight-saving change, against an independent
/// computation: Python's `zoneinfo` (the system's tz database, not ICU's), with the same rules
/// written out in Python (a skipped wall time is the first minute that exists after it; a repeated
/// one is `fold=0`, its first occurrence). Skipped where python3 with zoneinfo is not installed.
final class ScheduleZoneinfoTests: XCTestCase {
    /// Non-overlapping windows, so that the Python side needs no priorities: adjacent ones, an
    /// overnight one, one starting in the spring gap, one ending in New York's repeated hour.
    private static let entries: [(name: String, days: [String], from: String, to: String)] = [
        ("morning", ["mon", "tue", "wed", "thu", "fri"], "07:00", "09:00"),
        ("early", ["sun"], "02:30", "04:00"),
        ("dawn", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "05:00", "05:30"),
        ("evening", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], "18:00", "22:00"),
        ("late", ["fri", "sat"], "22:00", "01:30"),
    ]

    private static let oracle = #"""
        import sys
        from datetime import datetime, date, timedelta, timezone
        from zoneinfo import ZoneInfo

        zone, first, last = ZoneInfo(sys.argv[1]), date.fromisoformat(sys.argv[2]), date.fromisoformat(sys.argv[3])
        entries = [line.split(" ") for line in sys.stdin.read().splitlines()]   # name days from to
        names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

        def instant(day, hhmm):
            hours, minutes = map(int, hhmm.split(":"))
            wall = datetime(day.year, day.month, day.day) + timedelta(hours=hours, minutes=minutes)
            while True:
                local = wall.replace(tzinfo=zone, fold=0)
                if local.astimezone(timezone.utc).astimezone(zone).replace(tzinfo=None) == wall:
                    return local.astimezone(timezone.utc)
                wall += timedelta(minutes=1)

        windows = []
        day = first - timedelta(days=1)
        while day <= last:
            for name, days, start, end in entries:
                if names[day.weekday()] in days.split(","):
                    close_day = day if end > start else day + timedelta(days=1)
                    opened, closed = instant(day, start), instant(close_day, end)
                    if closed > opened:
                        windows.append((opened, closed, name))
            day += timedelta(days=1)
        windows.sort()
        changes = []
        for index, (opened, closed, name) in enumerate(windows):
            changes.append((opened, name))
            if not (index + 1 < len(windows) and windows[index + 1][0] == closed):
                changes.append((closed, "default"))
        lower = instant(first, "00:00")
        upper = instant(last, "00:00")
        for when, name in changes:
            if lower <= when < upper:
                items = "idle.mp4" if name == "default" else name + ".mp4"
                print(when.astimezone(zone).isoformat(), name, items)
        """#

    private func zoneinfoLines(zone: String, from: String, to: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.oracle, zone, from, to]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw XCTSkip("python3 is not available: \(error)") }
        let text = Self.entries.map { "\($0.name) \($0.days.joined(separator: ",")) \($0.from) \($0.to)" }.joined(separator: "\n")
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if complaint.contains("ModuleNotFoundError") || complaint.contains("ZoneInfoNotFoundError") {
            throw XCTSkip("python3 without zoneinfo or its data: \(complaint)")
        }
        XCTAssertEqual(process.terminationStatus, 0, complaint)
        return String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    private static func yaml(zone: String) -> String {
        let entries = Self.entries.map {
            "  - {name: \($0.name), days: [\($0.days.joined(separator: ", "))], from: \"\($0.from)\", to: \"\($0.to)\","
                + " playlist: [\($0.name).mp4]}"
        }.joined(separator: "\n")
        return "timezone: \(zone)\ndefault: {playlist: [idle.mp4]}\nentries:\n" + entries
    }

    private func scheduleLines(zone: String, from: String, to: String) throws -> [String] {
        let schedule = try ScheduleFixture.schedule(Self.yaml(zone: zone))
        let evaluator = ScheduleEvaluator(schedule)
        let clock = WallClock(timeZone: schedule.timeZone)
        let start = try XCTUnwrap(ScheduleDate(from)).dayNumber, end = try XCTUnwrap(ScheduleDate(to)).dayNumber
        let lower = Date(timeIntervalSince1970: TimeInterval(clock.instant(day: start, second: 0)))
        let upper = Date(timeIntervalSince1970: TimeInterval(clock.instant(day: end, second: 0)))
        return evaluator.transitions(from: lower, to: upper).map { $0.line(in: schedule.timeZone) }
    }

    /// The same weeks through `loopplay --schedule FILE --print-schedule --from DATE --days 8`, as an
    /// operator runs it: its first line is what is on at the start, then each change.
    func testPrintScheduleMatchesZoneinfo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("print-schedule-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (zone, from, to) in [("Europe/Berlin", "2027-03-22", "2027-03-30"), ("America/New_York", "2027-11-01", "2027-11-09")] {
            let expected = try zoneinfoLines(zone: zone, from: from, to: to)
            let file = folder.appendingPathComponent("\(zone.replacingOccurrences(of: "/", with: "-")).yaml")
            try Data(Self.yaml(zone: zone).utf8).write(to: file)
            let run = try LoopplayTool.run(["--schedule", file.path, "--print-schedule", "--from", from, "--days", "8"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first?.hasPrefix(from + "T00:00:00"), true, "the start: \(lines.first ?? "nothing")")
            XCTAssertEqual(Array(lines.dropFirst()), expected, "\(zone) \(from)")
        }
    }

    func testWeeksAcrossEachChangeMatchZoneinfo() throws {
        for (zone, from, to) in [("Europe/Berlin", "2027-03-22", "2027-03-30"), ("Europe/Berlin", "2027-10-25", "2027-11-02"),
                                 ("America/New_York", "2027-03-08", "2027-03-16"), ("America/New_York", "2027-11-01", "2027-11-09")] {
            let expected = try zoneinfoLines(zone: zone, from: from, to: to)
            XCTAssertGreaterThan(expected.count, 30, "\(zone) \(from)")
            XCTAssertEqual(try scheduleLines(zone: zone, from: from, to: to), expected, "\(zone) \(from)")
        }
    }
}
