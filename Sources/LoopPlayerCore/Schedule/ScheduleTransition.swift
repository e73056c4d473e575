import Foundation

/// What a schedule plays over a span: one entry, or the default, and where its timeline starts.
package struct ScheduledRun: Sendable, Equatable {
    /// The entry's index in `Schedule.entries`; nil for the default.
    package let entry: Int?
    /// The entry's name, or `default`.
    package let name: String
    package let playlist: [ScheduleItem]
    /// The sync epoch: the instant the entry's current window opened (for the default, the
    /// transition that put it on). Every node computes the same one from the file and the zone.
    package let epoch: Date
}

/// The schedule at one instant: what is on, and what comes next.
package struct ScheduleState: Sendable, Equatable {
    package let current: ScheduledRun
    /// Nil when nothing changes within `ScheduleEvaluator.lookaheadDays`.
    package let next: ScheduleTransition?
}

/// The instant the schedule switches, and to what.
package struct ScheduleTransition: Sendable, Equatable {
    package let instant: Date
    /// What plays from `instant` on.
    package let run: ScheduledRun

    package init(instant: Date, run: ScheduledRun) {
        self.instant = instant
        self.run = run
    }

    /// The entry's name, or `default`.
    package var name: String { run.name }
    package var playlist: [ScheduleItem] { run.playlist }

    /// One line of `--print-schedule`: the local time in RFC 3339 with its offset, the name and the
    /// items as the file writes them: `2027-03-28T03:00:00+02:00 breakfast menu-am.mp4 promo.mp4`.
    package func line(in timeZone: TimeZone) -> String {
        let second = Int(instant.timeIntervalSince1970.rounded(.down))
        return ([WallClock(timeZone: timeZone).rfc3339(second), name] + playlist.map(\.written)).joined(separator: " ")
    }
}
