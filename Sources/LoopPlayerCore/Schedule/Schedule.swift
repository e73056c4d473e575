import Foundation

/// What plays when: a default and dated or weekly time windows, read from a schedule file
/// (`ScheduleFile.parse`) and evaluated by `ScheduleEvaluator`.
///
/// ```yaml
/// timezone: Europe/Berlin
/// default: { playlist: [idle.mp4] }
/// entries:
///   - { name: breakfast, days: [mon, tue, wed, thu, fri], from: "07:00", to: "11:00", playlist: [am.mp4] }
/// ```
package struct Schedule: Sendable, Equatable {
    /// The file (path or URL) the schedule was read from, for messages.
    package var file: String
    /// The zone the wall times are in (the file's `timezone`, or the system's).
    package var timeZone: TimeZone
    /// What plays whenever no entry is on.
    package var defaultPlaylist: [ScheduleItem]
    /// Whether each entry's timeline starts at the instant its window opens (`sync: true`).
    package var sync: Bool
    /// In the file's order, which breaks ties between equal priorities.
    package var entries: [ScheduleEntry]

    package init(file: String, timeZone: TimeZone, defaultPlaylist: [ScheduleItem], sync: Bool, entries: [ScheduleEntry]) {
        (self.file, self.timeZone, self.defaultPlaylist, self.sync, self.entries) = (file, timeZone, defaultPlaylist, sync, entries)
    }
}

/// One entry of a schedule: a playlist on some days, between two wall times.
package struct ScheduleEntry: Sendable, Equatable {
    /// Unique in its schedule; never `default`.
    package var name: String
    /// The days whose windows open (an overnight window belongs to the day it opens). All seven when omitted.
    package var days: Set<ScheduleWeekday>
    /// The dates whose windows open, inclusive; nil: every date.
    package var dates: ClosedRange<ScheduleDate>?
    /// When the window opens.
    package var from: ScheduleTime
    /// When it closes: before `from` means the next day; `24:00` is the next day's midnight.
    package var to: ScheduleTime
    /// Never empty.
    package var playlist: [ScheduleItem]
    /// Higher wins; in `ScheduleLimits.priorities`.
    package var priority: Int
    /// Whether the playlist starts again at its end while the window is open (`loop: no` plays it once).
    package var loop: Bool
    /// How the player switches to this entry.
    package var switchMode: ScheduleSwitch
    /// The line of the file the entry starts on, for messages.
    package var line: Int
    /// One window between two instants (whole seconds) in place of `days`, `dates`, `from` and
    /// `to`: a timed override (`ScheduleEntry.override`). At most a day long.
    package private(set) var window: Range<Date>?

    package init(name: String, days: Set<ScheduleWeekday>, dates: ClosedRange<ScheduleDate>?, from: ScheduleTime, to: ScheduleTime,
                 playlist: [ScheduleItem], priority: Int, loop: Bool, switchMode: ScheduleSwitch, line: Int) {
        (self.name, self.days, self.dates, self.from, self.to) = (name, days, dates, from, to)
        (self.playlist, self.priority, self.loop, self.switchMode, self.line) = (playlist, priority, loop, switchMode, line)
    }
}

extension ScheduleEntry {
    /// The name a timed override plays under (no file's entry may have it).
    package static let overrideName = "override"
    /// The longest timed override.
    package static let longestOverride: Double = 86_400

    /// A timed override: `playlist` from `start` until `end` (whole seconds, at most a day), above
    /// every entry; the entry it interrupts plays again at its end, where its timeline is.
    package static func override(_ playlist: [ScheduleItem], from start: Date, until end: Date) -> ScheduleEntry {
        let open = start.timeIntervalSince1970.rounded(.down)
        let close = min(max(end.timeIntervalSince1970.rounded(.down), open + 1), open + longestOverride)
        var entry = ScheduleEntry(name: overrideName, days: Set(ScheduleWeekday.allCases), dates: nil, from: .midnight,
                                  to: .midnight, playlist: playlist, priority: .max, loop: true,
                                  switchMode: .atTime, line: 0)
        entry.window = Date(timeIntervalSince1970: open)..<Date(timeIntervalSince1970: close)
        return entry
    }
}

/// A playlist item: as the file writes it, and resolved against the file's directory or URL.
package struct ScheduleItem: Sendable, Equatable {
    /// As written in the file (what `--print-schedule` shows).
    package var written: String
    /// What the player opens: a URL or an absolute path stays; a relative path is joined to the file's place.
    package var resolved: String

    package init(written: String, relativeTo file: String) {
        self.written = written
        resolved = Self.resolve(written, relativeTo: file)
    }

    private static func resolve(_ item: String, relativeTo file: String) -> String {
        if item.hasPrefix("/") || hasScheme(item) { return item }
        if hasScheme(file) {
            let base = URL(string: file)
            let relative = item.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? item
            return URL(string: relative, relativeTo: base)?.absoluteString ?? item
        }
        guard let slash = file.lastIndex(of: "/") else { return item }
        return String(file[...slash]) + item
    }

    /// `scheme://…`: only this form counts as a URL, so a file named `10:00.mp4` stays a file.
    private static func hasScheme(_ text: String) -> Bool {
        guard let range = text.range(of: "://"), let first = text.first, first.isLetter else { return false }
        return text[..<range.lowerBound].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }
}

/// How the player moves to an entry when its window opens.
package enum ScheduleSwitch: String, Sendable, Equatable, CaseIterable {
    /// At the window's instant, whatever was playing (the default).
    case atTime = "at-time"
    /// When the running pass of what was playing has finished.
    case afterPass = "after-pass"
}

/// The schedule file's bounds: what a hostile or broken file cannot make the player hold.
package enum ScheduleLimits {
    /// The largest file read (1 MiB).
    package static let maxBytes = 1 << 20
    /// The most entries in one schedule.
    package static let maxEntries = 500
    /// The priorities an entry may have.
    package static let priorities = -1000...1000
}
