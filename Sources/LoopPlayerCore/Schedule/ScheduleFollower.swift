import Foundation

/// Plays a schedule on the wall clock, as a state machine: told the time, it answers what the
/// player must do — play a run now, open the next run's first item ahead of its instant, switch at
/// the instant. Pure: no clock of its own, no player; a week is simulated in a loop of `step`s.
///
/// - At the start, after a clock step (someone set the clock, a first NTP sync) and after a reload,
///   what the clock says is on plays at once (`play`), joined at the place the clock says when the
///   schedule is synced.
/// - `lead` seconds before a change the next run's first item is opened (`prepare`); at the change
///   the player switches to it (`switchNow`) — `switchAhead` early, so that the new picture is the
///   one due at the instant itself, on every screen.
/// - An entry that says `switch: after-pass` waits for the running pass to end (`passEnded()`).
package struct ScheduleFollower: Sendable {
    package enum Action: Sendable, Equatable {
        /// Play `run` now (from its start; on a synced schedule, where its timeline is).
        case play(ScheduledRun)
        /// Open `run`'s first item now: it takes over at `at` (or after the pass, `afterPass`).
        case prepare(ScheduledRun, at: Date, afterPass: Bool)
        /// Switch to the prepared run now, its first picture shown at `at` (the change's instant).
        case switchNow(ScheduledRun, at: Date)
        /// The prepared run is not next any more (a reload, a clock step): the run on plays on as
        /// before the prepare.
        case cancelPrepare
    }

    package private(set) var evaluator: ScheduleEvaluator
    /// What plays (nil before the first step).
    package private(set) var current: ScheduledRun?
    /// The next change the clock will bring (nil: none within the look-ahead).
    package private(set) var next: ScheduleTransition?
    /// Changes made since the start (a reload that keeps the run is none).
    package private(set) var transitions = 0
    /// How long before a change its first item opens.
    package let lead: Double
    /// How long before a change's instant the switch is made.
    package let switchAhead: Double
    /// The prepared run waits for the end of the running pass.
    private var waitsForPass = false
    private var prepared = false
    /// When the clock was last checked against the schedule (a step of the wall clock is found by
    /// the next check): a full evaluation is not done at every frame.
    private var checkedAt: Date?
    /// How often the clock is checked for a step when nothing is due (seconds).
    package let checkInterval: Double

    package init(_ schedule: Schedule, lead: Double = 3, switchAhead: Double = 0.002, checkInterval: Double = 5) {
        evaluator = ScheduleEvaluator(schedule)
        self.lead = lead
        self.switchAhead = switchAhead
        self.checkInterval = checkInterval
    }

    /// When `step` has something to do next (the loop sleeps until then at the latest).
    package var wakeAt: Date? {
        guard let checkedAt else { return nil }
        let check = checkedAt.addingTimeInterval(checkInterval)
        guard let next, !waitsForPass else { return check }
        let due = prepared ? next.instant.addingTimeInterval(-switchAhead) : prepareTime(of: next)
        return min(due, check)
    }

    /// `lead` before the change; for an after-pass switch, the change's instant: the item opened
    /// then takes over at the end of the pass running at that time, not of one before.
    private func prepareTime(of next: ScheduleTransition) -> Date {
        switchesAfterPass(next.run) ? next.instant : next.instant.addingTimeInterval(-lead)
    }

    private func switchesAfterPass(_ run: ScheduledRun) -> Bool {
        run.entry.map { evaluator.schedule.entries[$0].switchMode == .afterPass } ?? false
    }

    /// What to do at `now`.
    package mutating func step(at now: Date) -> [Action] {
        guard let current else { return [begin(at: now)] }
        if let next, prepared || !switchesAfterPass(next.run), !waitsForPass,
           now >= next.instant.addingTimeInterval(-switchAhead) {
            return arrive(at: now, next: next)
        }
        if let next, !prepared, now >= prepareTime(of: next) {
            prepared = true
            waitsForPass = switchesAfterPass(next.run)
            return [.prepare(next.run, at: next.instant, afterPass: waitsForPass)]
        }
        guard let checkedAt, now.timeIntervalSince(checkedAt) < checkInterval, now >= checkedAt else {
            return recheck(at: now, playing: current)
        }
        return []
    }

    /// The running pass ended: an after-pass switch waiting for it is made now.
    package mutating func passEnded(at now: Date) -> [Action] {
        guard waitsForPass, let next, now >= next.instant else { return [] }
        waitsForPass = false
        return arrive(at: now, next: next)
    }

    /// A new schedule (a reload): the run on stays untouched when it is the same entry with the same
    /// window (and a prepared change too, if it is unchanged); otherwise what the new schedule says
    /// plays at once.
    package mutating func replace(_ schedule: Schedule, at now: Date) -> [Action] {
        evaluator = ScheduleEvaluator(schedule)
        let state = evaluator.state(at: now)
        let same = current.map { Self.sameRun($0, state.current, in: schedule) } ?? false
        guard same else {
            resetNext(state.next, checkedAt: now)
            return [play(state.current)]
        }
        current = state.current
        if state.next == next {
            checkedAt = now
            return []
        }
        return resetNext(state.next, checkedAt: now)
    }

    /// Something else plays for a while (an override): a change already prepared is prepared again.
    package mutating func forgetPrepared() {
        prepared = false
        waitsForPass = false
    }

    private mutating func begin(at now: Date) -> Action {
        let state = evaluator.state(at: now)
        resetNext(state.next, checkedAt: now)
        return play(state.current)
    }

    /// The change's instant has come: switch to the prepared run, unless the clock says something
    /// else is on by now (the loop slept through a change, or the clock jumped).
    private mutating func arrive(at now: Date, next: ScheduleTransition) -> [Action] {
        let state = evaluator.state(at: max(now, next.instant))
        let wasPrepared = prepared
        resetNext(state.next, checkedAt: now)
        guard state.current == next.run else { return [play(state.current)] }
        transitions += 1
        current = next.run
        return [wasPrepared ? .switchNow(next.run, at: max(now, next.instant)) : .play(next.run)]
    }

    /// Nothing due: the clock is checked for a step; a run other than the one playing plays at once.
    private mutating func recheck(at now: Date, playing: ScheduledRun) -> [Action] {
        let state = evaluator.state(at: now)
        // Waiting for the pass to end, the run waited for is on by the clock.
        if waitsForPass, state.current == next?.run {
            checkedAt = now
            return []
        }
        guard state.current != playing || state.next != next else {
            checkedAt = now
            return []
        }
        // Only the next change moved (a later entry): the run on plays on.
        if state.current == playing { return resetNext(state.next, checkedAt: now) }
        resetNext(state.next, checkedAt: now)
        return [play(state.current)]
    }

    private mutating func play(_ run: ScheduledRun) -> Action {
        if current != nil, current != run { transitions += 1 }
        current = run
        return .play(run)
    }

    /// The next change is `transition` from now; one prepared before is cancelled.
    @discardableResult
    private mutating func resetNext(_ transition: ScheduleTransition?, checkedAt now: Date) -> [Action] {
        let cancelled = prepared
        next = transition
        prepared = false
        waitsForPass = false
        checkedAt = now
        return cancelled ? [.cancelPrepare] : []
    }

    /// The same entry (by name, with the same playlist) in the same window: a reload leaves it alone.
    private static func sameRun(_ old: ScheduledRun, _ new: ScheduledRun, in schedule: Schedule) -> Bool {
        old.name == new.name && old.playlist == new.playlist && old.epoch == new.epoch
    }
}
