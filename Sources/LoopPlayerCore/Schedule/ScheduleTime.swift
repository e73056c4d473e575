/// A wall time of day, `00:00:00` to `24:00:00` (the latter only as an end), to the second.
package struct ScheduleTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since midnight, 0...86400.
    package let seconds: Int

    /// `24:00`, the end of a day: the next day's midnight.
    package static let endOfDay = ScheduleTime(uncheckedSeconds: 86_400)

    /// `00:00`.
    package static let midnight = ScheduleTime(uncheckedSeconds: 0)

    private init(uncheckedSeconds: Int) { seconds = uncheckedSeconds }

    /// Nil unless `text` is `HH:MM` or `HH:MM:SS` with two digits each and names a time that exists on a
    /// clock (`24:00` and `24:00:00` do: the end of the day).
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]) else { return nil }
        let secondsPart = parts.count == 3 ? Int(parts[2]) : 0
        guard let secs = secondsPart, minutes < 60, secs < 60,
              hours < 24 || (hours == 24 && minutes == 0 && secs == 0) else { return nil }
        seconds = hours * 3600 + minutes * 60 + secs
    }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    package var description: String {
        let hm = Self.twoDigits(seconds / 3600) + ":" + Self.twoDigits(seconds / 60 % 60)
        return seconds % 60 == 0 ? hm : hm + ":" + Self.twoDigits(seconds % 60)
    }

    package static func < (lhs: ScheduleTime, rhs: ScheduleTime) -> Bool { lhs.seconds < rhs.seconds }

    fileprivate static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A day of the week, as a schedule file names it.
package enum ScheduleWeekday: String, Sendable, Hashable, CaseIterable {
    case mon, tue, wed, thu, fri, sat, sun

    /// The weekday of a civil day counted from 1970-01-01 (a Thursday).
    package init(dayNumber: Int) { self = Self.allCases[Self.index(ofDay: dayNumber)] }

    /// The position in `allCases` (Monday 0 … Sunday 6) of a civil day's weekday.
    package static func index(ofDay dayNumber: Int) -> Int { ((dayNumber + 3) % 7 + 7) % 7 }
}

/// A date on the proleptic Gregorian calendar, without a time or a zone (`2026-12-24`).
package struct ScheduleDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let year: Int
    package let month: Int
    package let day: Int

    /// Nil unless `text` is `YYYY-MM-DD` and names a day that exists (`2028-02-29` does, `2026-02-30` not).
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              year >= 1, (1...12).contains(month), day >= 1, day <= Self.length(ofMonth: month, in: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01 (negative: before).
    package init(dayNumber: Int) {
        // Counted in 400-year eras from 0000-03-01, so that the leap day ends each year.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 (the inverse of `init(dayNumber:)`).
    package var dayNumber: Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let marchMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DD`.
    package var description: String {
        let year = String(self.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-"
            + ScheduleTime.twoDigits(month) + "-" + ScheduleTime.twoDigits(day)
    }

    package static func < (lhs: ScheduleDate, rhs: ScheduleDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
