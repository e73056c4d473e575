import Foundation

/// The schedule as a pure function of the clock: which entry is on at an instant, since when, and
/// what comes next. Every node computes the same answers from the file and the zone alone.
///
/// ```swift
/// let evaluator = ScheduleEvaluator(schedule)
/// let state = evaluator.state(at: now)   // state.current.name, .epoch; state.next?.instant
/// for change in evaluator.transitions(from: now, to: now + 7 * 86_400) { print(change.line(in: zone)) }
/// ```
///
/// The rules (docs/schedule.md):
/// - An entry's window opens at `from` on each of its days and dates and closes at `to`, that day or,
///   when `to` is earlier than `from`, the next: an overnight window belongs to the day it opens
///   (`days: [fri]`, 22:00–02:00 runs Friday 22:00 to Saturday 02:00; `dates` likewise). `24:00` is
///   the next day's 00:00. Daylight saving: see `WallClock` (a skipped start or end is the instant the
///   clocks jump to; a repeated one is its first occurrence; a window wholly in the skipped hour is
///   not on that day).
/// - Windows of one entry that touch (one closes where the next opens: `00:00`–`24:00` on
///   consecutive days) are one run: no transition at midnight, and its epoch stays the first
///   window's open. A run with no first window (every day, all day, no `dates`) has the epoch
///   `origin`.
/// - Of the entries on, the highest priority wins; at equal priority the one whose run opened
///   latest (a later window interrupts an earlier one, which resumes at its own epoch when the
///   later one closes); then the one listed first.
/// - The default plays when no entry is on; its epoch is the instant the last entry's run closed
///   (`origin` if none ever did).
/// - Adjacent windows switch at the shared instant, with no default between. A change to the same
///   run (the same entry, the same epoch) is not a transition.
package struct ScheduleEvaluator: Sendable {
    package let schedule: Schedule
    private let clock: WallClock
    private let rules: [EntryRule]

    /// How far `state(at:).next` looks ahead.
    package static let lookaheadDays = 732
    /// The epoch of what has no beginning: 1970-01-01T00:00:00Z.
    package static let origin = Date(timeIntervalSince1970: 0)

    package init(_ schedule: Schedule) {
        self.schedule = schedule
        clock = WallClock(timeZone: schedule.timeZone)
        let clock = clock
        rules = schedule.entries.enumerated().map { EntryRule(index: $0.offset, entry: $0.element, clock: clock) }
    }

    /// What is on at `instant`, since when, and the next change. `skipping`: runs left out as if
    /// they were not on (one that could not play, one that played its list once), so that what is
    /// below them plays; the default cannot be.
    package func state(at instant: Date, skipping: Set<RunKey> = []) -> ScheduleState {
        let time = Self.seconds(instant)
        let day = clock.day(of: Int(time.rounded(.down)))
        // The default's epoch is the last close of a run not skipped: the window of one skipped closing
        // is no change to it.
        let all = runs(days: Self.searchedDays(from: day))
        let runs = skipping.isEmpty ? all : all.filter { !skipping.contains(key($0)) }
        let current = runs.filter { Double($0.open) <= time && time < Double($0.close) }.max(by: ranksBelow)
        let epoch = current.map { epochDate($0.open) } ?? defaultEpoch(at: time, day: day, near: runs)
        return ScheduleState(current: scheduledRun(current, epoch: epoch),
                             next: nextTransition(after: time, day: day, current: current, runs: runs, skipping: skipping))
    }

    /// A run as `state(at:skipping:)` names it: its entry and its epoch.
    package struct RunKey: Sendable, Hashable {
        package let entry: Int
        package let epoch: Date

        /// The key of `run`; nil for the default (which is never skipped).
        package init?(_ run: ScheduledRun) {
            guard let entry = run.entry else { return nil }
            (self.entry, epoch) = (entry, run.epoch)
        }

        package init(entry: Int, epoch: Date) { (self.entry, self.epoch) = (entry, epoch) }
    }

    private func key(_ run: Run) -> RunKey { RunKey(entry: run.entry, epoch: epochDate(run.open)) }

    /// When the run `key` names closes, found around `instant` (nil: never, or not found there).
    package func close(of key: RunKey, near instant: Date) -> Date? {
        let day = clock.day(of: Int(Self.seconds(instant).rounded(.down)))
        guard let run = runs(days: Self.searchedDays(from: day)).first(where: { self.key($0) == key }), run.close != .max else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(run.close))
    }

    /// Every change at or after `start` and before `end`, in order (the operator's dry run).
    package func transitions(from start: Date, to end: Date) -> [ScheduleTransition] {
        let lower = Self.seconds(start), upper = Self.seconds(end)
        guard upper > lower else { return [] }
        let days = clock.day(of: Int(lower.rounded(.down)))...clock.day(of: Int(upper.rounded(.up)))
        let runs = runs(days: (days.lowerBound - 2)...(days.upperBound + 1))
        let before = runs.filter { Double($0.open) < lower && lower <= Double($0.close) }.max(by: ranksBelow)
        return changes(in: runs, from: lower, before: upper, after: before).map { transition($0, runs: runs) }
    }

    // MARK: - Runs

    /// One entry's merged windows: open...close (Int.min: no first window; Int.max: no last).
    /// Two are the same run when they are the same entry's from the same open.
    private struct Run: Equatable {
        let entry: Int
        let open: Int
        var close: Int

        static func == (lhs: Run, rhs: Run) -> Bool { lhs.entry == rhs.entry && lhs.open == rhs.open }
    }

    /// The runs of every entry with a window opening on `days`, each merged with the windows it
    /// touches (looked for beyond `days` too).
    private func runs(days: ClosedRange<Int>) -> [Run] {
        var runs: [Run] = []
        for rule in rules {
            var current: Run?
            var lastDay = days.lowerBound
            var day = rule.nextActiveDay(onOrAfter: days.lowerBound)
            while let activeDay = day, activeDay <= days.upperBound {
                if let window = window(rule, day: activeDay) {
                    if current?.close == window.open {
                        current?.close = window.close
                    } else {
                        if let run = current { runs.append(run) }
                        let open = current == nil ? openOfChain(rule, window: window, day: activeDay) : window.open
                        current = Run(entry: rule.index, open: open, close: window.close)
                    }
                    lastDay = activeDay
                }
                day = rule.nextActiveDay(onOrAfter: activeDay + 1)
            }
            if var run = current {
                run.close = closeOfChain(rule, close: run.close, day: lastDay)
                runs.append(run)
            }
        }
        return runs
    }

    /// The open and close of `rule`'s window opening on `day`; nil when the entry is not on that day
    /// or the window is wholly in a skipped hour.
    private func window(_ rule: EntryRule, day: Int) -> (open: Int, close: Int)? {
        guard rule.isActive(onDay: day) else { return nil }
        if let fixed = rule.fixed { return fixed }  // on its one day
        let open = clock.instant(day: day, second: rule.from)
        let close = clock.instant(day: rule.to > rule.from ? day : day + 1, second: rule.to)
        return close > open ? (open, close) : nil
    }

    /// Chains of touching windows are short (a week of whole days at most) unless the entry is on all
    /// day every day: then the chain begins at its first date, or never.
    private static let longestChain = 8

    private func openOfChain(_ rule: EntryRule, window: (open: Int, close: Int), day: Int) -> Int {
        var open = window.open
        for back in 1...Self.longestChain {
            guard let previous = self.window(rule, day: day - back), previous.close == open else { return open }
            open = previous.open
        }
        return rule.firstDay.map { clock.instant(day: $0, second: rule.from) } ?? .min
    }

    private func closeOfChain(_ rule: EntryRule, close: Int, day: Int) -> Int {
        var close = close
        for ahead in 1...Self.longestChain {
            guard let next = window(rule, day: day + ahead), next.open == close else { return close }
            close = next.close
        }
        return rule.lastDay.map { clock.instant(day: $0, second: rule.to) } ?? .max
    }

    // MARK: - Choosing

    /// Whether `run` loses to `other`: lower priority, or equal and opened earlier, or equal and
    /// opened together and listed later.
    private func ranksBelow(_ run: Run, _ other: Run) -> Bool {
        let (mine, theirs) = (rules[run.entry].priority, rules[other.entry].priority)
        if mine != theirs { return mine < theirs }
        if run.open != other.open { return run.open < other.open }
        return run.entry > other.entry
    }

    /// The changes at the runs' opens and closes in `lower..<upper`, after `initial` was on.
    private func changes(in runs: [Run], from lower: Double, before upper: Double,
                         after initial: Run?) -> [(instant: Int, run: Run?)] {
        let byOpen = runs.sorted { $0.open < $1.open }
        var edges = Set<Int>()
        for run in runs {
            edges.insert(run.open)
            edges.insert(run.close)
        }
        let bounds = edges.filter { bound in
            bound != .min && bound != .max && Double(bound) >= lower && Double(bound) < upper
        }.sorted()
        var changes: [(instant: Int, run: Run?)] = []
        var previous = initial
        var active: [Run] = []
        var next = 0
        for bound in bounds {
            while next < byOpen.count, byOpen[next].open <= bound {
                active.append(byOpen[next])
                next += 1
            }
            active.removeAll { $0.close <= bound }
            let winner = active.max(by: ranksBelow)
            if winner != previous {
                changes.append((bound, winner))
                previous = winner
            }
        }
        return changes
    }

    /// The days whose windows a search from `day` on looks at: those that may still be open on `day`
    /// (a window closes by the second midnight after its day) and a week ahead.
    private static func searchedDays(from day: Int) -> ClosedRange<Int> { (day - 2)...(day + 9) }

    /// The first change after `time`: looked for a week at a time (`runs` are the first week's),
    /// skipping to the next day a window opens or a run closes when nothing happens.
    private func nextTransition(after time: Double, day: Int, current: Run?, runs: [Run],
                                skipping: Set<RunKey>) -> ScheduleTransition? {
        var lower = time.rounded(.down) + 1
        var day = day
        var runs = runs
        let lastDay = day + Self.lookaheadDays
        while day <= lastDay {
            let end = clock.instant(day: day + 8, second: 0)
            if let first = changes(in: runs, from: lower, before: Double(end), after: current).first {
                return transition(first, runs: runs)
            }
            var nextDay = Int.max
            for rule in rules {
                if let open = rule.nextActiveDay(onOrAfter: day + 8) { nextDay = min(nextDay, open) }
            }
            for run in runs where run.close >= end && run.close != .max {
                nextDay = min(nextDay, clock.day(of: run.close))
            }
            guard nextDay != .max else { return nil }
            day = max(day + 7, nextDay - 1)
            lower = Double(end)
            runs = self.runs(days: Self.searchedDays(from: day)).filter { !skipping.contains(key($0)) }
        }
        return nil
    }

    /// The last instant an entry's run closed, at or before `time`: among the runs looked at, and each
    /// entry's last window opening before them (an overnight one may close after a later day's).
    /// A timed override is no run of the file's: the default resumes where its timeline is after one.
    private func defaultEpoch(at time: Double, day: Int, near runs: [Run]) -> Date {
        var latest = runs.filter { rules[$0.entry].fixed == nil }.map(\.close).filter { $0 != .max && Double($0) <= time }.max()
        for rule in rules where rule.fixed == nil {
            // A few tries: a window may fall wholly into a skipped hour.
            var earlier = rule.previousActiveDay(onOrBefore: Self.searchedDays(from: day).lowerBound - 1)
            for _ in 0..<3 {
                guard let activeDay = earlier else { break }
                if let window = window(rule, day: activeDay) {
                    latest = max(latest ?? .min, window.close)
                    break
                }
                earlier = rule.previousActiveDay(onOrBefore: activeDay - 1)
            }
        }
        return latest.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Self.origin
    }

    // MARK: - Results

    /// The default's epoch is what `state(at:)` says at the instant: the close of the run that ends
    /// then, unless that is a timed override's.
    private func transition(_ change: (instant: Int, run: Run?), runs: [Run]) -> ScheduleTransition {
        let instant = Date(timeIntervalSince1970: TimeInterval(change.instant))
        let epoch = change.run.map { epochDate($0.open) }
            ?? defaultEpoch(at: Double(change.instant), day: clock.day(of: change.instant), near: runs)
        return ScheduleTransition(instant: instant, run: scheduledRun(change.run, epoch: epoch))
    }

    private func scheduledRun(_ run: Run?, epoch: Date) -> ScheduledRun {
        guard let run else {
            return ScheduledRun(entry: nil, name: "default", playlist: schedule.defaultPlaylist, epoch: epoch)
        }
        let entry = schedule.entries[run.entry]
        return ScheduledRun(entry: run.entry, name: entry.name, playlist: entry.playlist, epoch: epoch)
    }

    private func epochDate(_ open: Int) -> Date {
        open == .min ? Self.origin : Date(timeIntervalSince1970: TimeInterval(open))
    }

    /// Seconds since 1970, bounded to ±10,000 years (so that days and instants stay in range).
    private static func seconds(_ date: Date) -> Double {
        let seconds = date.timeIntervalSince1970
        return seconds.isFinite ? min(max(seconds, -3e11), 3e11) : 0
    }
}

/// One entry's days, dates and times in the form the evaluator checks them, day after day.
private struct EntryRule: Sendable {
    let index: Int
    let priority: Int
    let from: Int
    let to: Int
    /// Bit `n`: `ScheduleWeekday.allCases[n]` (Monday is bit 0).
    let weekdays: UInt8
    /// The first and last day numbers of `dates`.
    let firstDay: Int?
    let lastDay: Int?
    /// A window between two instants (a timed override): on the day it opens only.
    let fixed: (open: Int, close: Int)?

    init(index: Int, entry: ScheduleEntry, clock: WallClock) {
        self.index = index
        priority = entry.priority
        from = entry.from.seconds
        to = entry.to.seconds
        weekdays = ScheduleWeekday.allCases.enumerated().reduce(0) {
            entry.days.contains($1.element) ? $0 | UInt8(1 << $1.offset) : $0
        }
        if let window = entry.window {
            let open = Int(window.lowerBound.timeIntervalSince1970), close = Int(window.upperBound.timeIntervalSince1970)
            fixed = (open, close)
            firstDay = clock.day(of: open)
            lastDay = firstDay
        } else {
            fixed = nil
            firstDay = entry.dates?.lowerBound.dayNumber
            lastDay = entry.dates?.upperBound.dayNumber
        }
    }

    func isActive(onDay day: Int) -> Bool {
        if let firstDay, day < firstDay { return false }
        if let lastDay, day > lastDay { return false }
        return weekdays & UInt8(1 << ScheduleWeekday.index(ofDay: day)) != 0
    }

    func nextActiveDay(onOrAfter day: Int) -> Int? {
        if let lastDay, day > lastDay { return nil }
        let start = max(day, firstDay ?? day)
        return (start..<(start + 7)).first(where: isActive)
    }

    func previousActiveDay(onOrBefore day: Int) -> Int? {
        if let firstDay, day < firstDay { return nil }
        let start = min(day, lastDay ?? day)
        return stride(from: start, to: start - 7, by: -1).first(where: isActive)
    }
}
