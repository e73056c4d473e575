import Foundation

/// Wall time in one zone, as whole seconds: which instant a wall time names and which day an
/// instant falls on. The zone's rules come from Foundation's `TimeZone` (its offset at an instant);
/// only the calendar arithmetic of days is done here.
///
/// Daylight saving, the schedule's rules (docs/schedule.md):
/// - a wall time the clocks skip (the spring-forward gap) names the first instant after it, the one
///   the clocks jump to: in Europe/Berlin on 2027-03-28, 02:30 is 03:00 CEST (01:00 UTC);
/// - a wall time the clocks show twice (the repeated autumn hour) names its first occurrence:
///   in Europe/Berlin on 2027-10-31, 02:30 is 02:30 CEST (00:30 UTC), not CET.
/// Both rules hold for a window's start and its end alike.
package struct WallClock: Sendable {
    package let timeZone: TimeZone

    package init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// Seconds in a day of wall time.
    static let day = 86_400
    /// Farther than any zone's offset from UTC, and shorter than the time between two transitions.
    private static let reach = 30 * 3600

    /// The instant (seconds since 1970 UTC) of `second` (0...86400) on civil day `day`.
    package func instant(day: Int, second: Int) -> Int {
        let wall = day * Self.day + second
        let before = offset(at: wall - Self.reach), after = offset(at: wall + Self.reach)
        // No transition near (the zone changes at most once within `reach` either side).
        if before == after { return wall - before }
        // Across a transition: a wall time exists under an offset when the instant it gives has that
        // offset; under both, the earlier instant is the first occurrence.
        var first: Int?
        for candidateOffset in [before, after] {
            let candidate = wall - candidateOffset
            if offset(at: candidate) == wall - candidate, candidate < first ?? .max { first = candidate }
        }
        if let first { return first }
        // Skipped: the first instant whose wall time is later is where the clocks jumped to.
        var low = wall - Self.reach, high = wall + Self.reach
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if middle + offset(at: middle) > wall { high = middle } else { low = middle }
        }
        return high
    }

    /// The civil day (days since 1970-01-01) whose wall time `instant` shows.
    func day(of instant: Int) -> Int {
        let wall = instant + offset(at: instant)
        return wall >= 0 ? wall / Self.day : (wall - Self.day + 1) / Self.day
    }

    func offset(at instant: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
    }

    /// RFC 3339 local time with its offset, never `Z`: `2027-03-28T03:00:00+02:00` (an offset with
    /// seconds, from before time zones were standard, keeps them: `+00:53:28`).
    package func rfc3339(_ instant: Int) -> String {
        let offset = offset(at: instant)
        let wall = instant + offset
        let day = self.day(of: instant)
        let second = wall - day * Self.day
        let date = ScheduleDate(dayNumber: day)
        let size = abs(offset)
        let zone = (offset < 0 ? "-" : "+") + Self.twoDigits(size / 3600) + ":" + Self.twoDigits(size / 60 % 60)
            + (size % 60 == 0 ? "" : ":" + Self.twoDigits(size % 60))
        return "\(date)T" + Self.twoDigits(second / 3600) + ":" + Self.twoDigits(second / 60 % 60) + ":"
            + Self.twoDigits(second % 60) + zone
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// An instant as an operator writes one (`--print-schedule --from`): RFC 3339 with its offset or `Z`
/// (`2027-03-28T01:00:00+01:00`; a fraction of a second is dropped), or a wall time in the schedule's
/// zone, read by its rules: a date (its midnight), `2027-03-28T06:00` or `2027-03-28T06:00:30` (a `t`
/// or a space may stand for the `T`).
package enum WrittenInstant {
    package static func parse(_ written: String, in timeZone: TimeZone) -> Date? {
        // The fraction of a second (`.123`, `,123`) goes; the offset stays.
        let text = written.replacing(/[.,][0-9]+(?=$|[zZ+-])/, with: "")
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "T" || $0 == "t" || $0 == " " }
        guard (1...2).contains(parts.count), let date = ScheduleDate(String(parts[0])) else { return nil }
        guard parts.count == 2 else { return instant(WallClock(timeZone: timeZone).instant(day: date.dayNumber, second: 0)) }
        var time = String(parts[1]), offset: Int?
        if time.hasSuffix("Z") || time.hasSuffix("z") {
            (time, offset) = (String(time.dropLast()), 0)
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let written = time[time.index(after: sign)...]
            guard written.count == 5, let zone = ScheduleTime(String(written)), zone.seconds < 86_400 else { return nil }
            offset = time[sign] == "-" ? -zone.seconds : zone.seconds
            time = String(time[..<sign])
        }
        guard let wall = ScheduleTime(time), wall.seconds < 86_400 else { return nil }
        guard let offset else { return instant(WallClock(timeZone: timeZone).instant(day: date.dayNumber, second: wall.seconds)) }
        return instant(date.dayNumber * WallClock.day + wall.seconds - offset)
    }

    private static func instant(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}
