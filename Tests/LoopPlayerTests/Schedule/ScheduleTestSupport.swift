import Foundation
import XCTest
@testable import LoopPlayerCore
@testable import LoopPlayerMedia

/// Schedules from YAML text and instants from RFC 3339 text with explicit offsets, so that no test
/// depends on the wall clock or the machine's zone.
enum ScheduleFixture {
    static func schedule(_ yaml: String, file: String = "test.yaml") throws(ScheduleError) -> Schedule {
        try ScheduleFile.parse(yaml: yaml, file: file, systemTimeZone: utc)
    }

    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!

    /// `2027-03-28T03:00:00+02:00`: parsed by Foundation, independently of the schedule's code.
    static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { preconditionFailure("not RFC 3339: \(text)") }
        return date
    }

    /// The `--print-schedule` lines of the changes in `from..<to`.
    static func lines(_ schedule: Schedule, from: String, to: String) -> [String] {
        ScheduleEvaluator(schedule).transitions(from: instant(from), to: instant(to))
            .map { $0.line(in: schedule.timeZone) }
    }

    /// The error `yaml` gives, as text; nil (and a failure) when it parses.
    static func error(_ yaml: String, file: String = "menu.yaml") -> String? {
        do {
            _ = try ScheduleFile.parse(yaml: yaml, file: file, systemTimeZone: utc)
            return nil
        } catch {
            return error.description
        }
    }
}
