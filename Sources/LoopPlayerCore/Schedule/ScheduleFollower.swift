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
/// - A run that cannot play (`runFailed`) is skipped: what is below it plays, and it is retried
///   (`retry`: its first item is tried in the background while the other plays on; if it opens, the
///   run plays again) after `retryAfter` seconds, twice as long after each failure, up to
///   `longestRetry`. A run that played its list once (`runFinished`, `loop: no`) is skipped until its
///   window closes. The default has nothing below it: it is played again after the same delays.
package struct ScheduleFollower: Sendable {
    package enum Action: Sendable, Equatable {
        /// Play `run` now (from its start; on a synced schedule, where its timeline is).
        case play(ScheduledRun)
        /// Open `run`'s first item now: it takes over at `at` (or after the pass, `afterPass`).
        case prepare(ScheduledRun, at: Date, afterPass: Bool)
        /// Switch to the prepared run now, its first picture shown at `at` (the change's instant).
        case switchNow(ScheduledRun, at: Date)
        /// The prepared run is not next any more (a reload, a clock step), or a retry's item did
        /// not open: the run on plays on as before the prepare.
        case cancelPrepare
        /// Try to open the skipped `run`'s first item now, in the background (the run on plays on
        /// untouched); say what came of it with `retried(opened:at:)`.
        case retry(ScheduledRun)
        /// The retry asked for is not wanted any more (a change, a reload, a failure of the run on).
        case cancelRetry
        /// Load `run` again, the same as plays (it failed): no change.
        case reload(ScheduledRun)
    }

    /// A run left out, and when it is tried again (nil: not before its window closes).
    private struct Skip {
        let key: ScheduleEvaluator.RunKey
        let run: ScheduledRun
        var retryAt: Date?
        var failures: Int
        /// When its window closes (then it is forgotten; nil: not known).
        let until: Date?
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
    /// The next change's first item was asked to be opened (`prepare`), and the change is to come.
    package var isPrepared: Bool { prepared }
    /// When the clock was last checked against the schedule (a step of the wall clock is found by
    /// the next check): a full evaluation is not done at every frame.
    private var checkedAt: Date?
    /// How often the clock is checked for a step when nothing is due (seconds).
    package let checkInterval: Double
    /// The first retry's delay after a failure, and the longest (seconds).
    package let retryAfter: Double
    package let longestRetry: Double
    /// Runs left out (at most one per entry).
    private var skipped: [Skip] = []
    /// The skipped run whose item is being opened in the background.
    package private(set) var retrying: ScheduledRun?
    /// The default failed: it is played again then (the failures so far).
    private var defaultRetry: (at: Date, failures: Int)?
    /// A run tried and played again after failing: its failures count on until it shows a picture.
    private var probation: (key: ScheduleEvaluator.RunKey, failures: Int)?
    /// Something else than the run plays (a `loadfile`) until the next change: nothing falls or
    /// is retried meanwhile.
    package private(set) var overridden = false

    package init(_ schedule: Schedule, lead: Double = 3, switchAhead: Double = 0.002, checkInterval: Double = 5,
                 retryAfter: Double = 30, longestRetry: Double = 300) {
        evaluator = ScheduleEvaluator(schedule)
        self.lead = lead
        self.switchAhead = switchAhead
        self.checkInterval = checkInterval
        self.retryAfter = retryAfter
        self.longestRetry = longestRetry
    }

    /// When `step` has something to do next (the loop sleeps until then at the latest).
    package var wakeAt: Date? {
        guard let checkedAt else { return nil }
        var due = checkedAt.addingTimeInterval(checkInterval)
        if let next, !waitsForPass {
            due = min(due, prepared ? next.instant.addingTimeInterval(-switchAhead) : prepareTime(of: next))
        }
        if mayRetry {
            for retryAt in skipped.compactMap(\.retryAt) { due = min(due, retryAt) }
            if let defaultRetry, current?.entry == nil { due = min(due, defaultRetry.at) }
        }
        for until in skipped.compactMap(\.until) { due = min(due, until) }
        return due
    }

    /// Retries wait while one is in flight, an override plays or a change is prepared.
    private var mayRetry: Bool { retrying == nil && !overridden && !prepared }

    private var skippedKeys: Set<ScheduleEvaluator.RunKey> { Set(skipped.map(\.key)) }

    private func state(at now: Date) -> ScheduleState { evaluator.state(at: now, skipping: skippedKeys) }

    /// `retryAfter`, doubled for each failure after the first, up to `longestRetry`.
    private func retryDelay(failures: Int) -> Double {
        min(longestRetry, retryAfter * pow(2, Double(min(max(failures - 1, 0), 30))))
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
        // A skipped run whose window closed is forgotten, and the clock checked now (the default's
        // epoch may have moved to its close).
        if skipped.contains(where: { $0.until.map { now >= $0 } ?? false }) {
            skipped.removeAll { $0.until.map { now >= $0 } ?? false }
            checkedAt = nil
        }
        if let next, prepared || !switchesAfterPass(next.run), !waitsForPass,
           now >= next.instant.addingTimeInterval(-switchAhead) {
            return arrive(at: now, next: next)
        }
        if let next, !prepared, now >= prepareTime(of: next) {
            let abandoned = abandonRetry(at: now)  // the change needs the item slot
            prepared = true
            waitsForPass = switchesAfterPass(next.run)
            return abandoned + [.prepare(next.run, at: next.instant, afterPass: waitsForPass)]
        }
        if let retry = retryIfDue(at: now) { return retry }
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

    /// The run playing cannot play (every item failed): what is below it plays, and it is retried
    /// later. The default is played again later.
    package mutating func runFailed(at now: Date) -> [Action] {
        guard let current, !overridden else { return [] }
        let abandoned = abandonRetry(at: now)
        guard let key = ScheduleEvaluator.RunKey(current) else {
            let failures = (defaultRetry?.failures ?? 0) + 1
            defaultRetry = (now.addingTimeInterval(retryDelay(failures: failures)), failures)
            return abandoned
        }
        let before = skipped.first { $0.key == key }?.failures ?? (probation?.key == key ? probation?.failures : nil) ?? 0
        let failures = before + 1
        skip(Skip(key: key, run: current, retryAt: now.addingTimeInterval(retryDelay(failures: failures)), failures: failures,
                  until: evaluator.close(of: key, near: now)))
        return abandoned + fall(at: now)
    }

    /// Every run that failed is due for a retry now (the operator fixed something); a failed default
    /// is loaded again at the next step.
    package mutating func retryNow(at now: Date) -> [Action] {
        for index in skipped.indices where skipped[index].retryAt != nil { skipped[index].retryAt = now }
        defaultRetry = defaultRetry.map { (now, $0.failures) }
        return []
    }

    /// The run playing shows its picture: its delays start over.
    package mutating func runPlays() {
        if current?.entry == nil, defaultRetry?.at == .distantFuture { defaultRetry = nil }
        if let current, probation?.key == ScheduleEvaluator.RunKey(current) { probation = nil }
    }

    /// The run playing played its list once (`loop: no`): what is below it plays until its window
    /// closes.
    package mutating func runFinished(at now: Date) -> [Action] {
        guard let current, !overridden, let key = ScheduleEvaluator.RunKey(current) else { return [] }
        // The change is near (prepared, or deferred until the last item lasts to it): the last frame
        // stays until then rather than showing what is below for a moment.
        if let next, prepared || now >= prepareTime(of: next) { return [] }
        let abandoned = abandonRetry(at: now)
        skip(Skip(key: key, run: current, retryAt: nil, failures: 0, until: evaluator.close(of: key, near: now)))
        return abandoned + fall(at: now)
    }

    /// What came of a `retry`: opened, the run plays now (a load, on its timeline when synced); not,
    /// it is skipped for longer and the run on plays on.
    package mutating func retried(opened: Bool, at now: Date) -> [Action] {
        guard let run = retrying else { return [] }
        retrying = nil
        guard let index = skipped.firstIndex(where: { $0.run == run }) else { return [] }
        guard opened else {
            skipped[index].failures += 1
            skipped[index].retryAt = now.addingTimeInterval(retryDelay(failures: skipped[index].failures))
            return []
        }
        let skip = skipped.remove(at: index)
        let state = state(at: now)
        guard state.current == run else {
            skipped.insert(skip, at: index)  // something else is on by now: it is not tried again yet
            return []
        }
        probation = (skip.key, skip.failures)
        let cancelled = resetNext(state.next, checkedAt: now)
        return cancelled + [play(run)]
    }

    /// A skipped run due for a retry that would be on if it played: its item is opened now, unless
    /// a change is near (it needs the item slot). The default that failed is played again.
    private mutating func retryIfDue(at now: Date) -> [Action]? {
        guard mayRetry else { return nil }
        if let defaultRetry, now >= defaultRetry.at, let current, current.entry == nil {
            self.defaultRetry?.at = .distantFuture  // until it fails again
            return [.reload(current)]
        }
        guard let index = skipped.firstIndex(where: { $0.retryAt.map { now >= $0 } ?? false }) else { return nil }
        if let next, prepareTime(of: next).timeIntervalSince(now) < 10 {
            skipped[index].retryAt = max(now, next.instant).addingTimeInterval(retryAfter)  // after the change
            return []
        }
        let skip = skipped[index]
        let others = Set(skipped.map(\.key)).subtracting([skip.key])
        guard evaluator.state(at: now, skipping: others).current == skip.run else {
            // Not on even if it played (its window closed, a higher run is on): looked at again later.
            skipped[index].retryAt = now.addingTimeInterval(retryDelay(failures: skip.failures))
            return []
        }
        retrying = skip.run
        return [.retry(skip.run)]
    }

    /// A retry in flight is dropped (a change is near, a reload, an override): tried again later.
    private mutating func abandonRetry(at now: Date) -> [Action] {
        guard let run = retrying else { return [] }
        retrying = nil
        if let index = skipped.firstIndex(where: { $0.run == run }) {
            skipped[index].retryAt = now.addingTimeInterval(retryDelay(failures: skipped[index].failures))
        }
        return [.cancelRetry]
    }

    private mutating func skip(_ skip: Skip) {
        skipped.removeAll { $0.key.entry == skip.key.entry }
        skipped.append(skip)
    }

    /// The run playing was skipped: what the clock says is on without it plays now.
    private mutating func fall(at now: Date) -> [Action] {
        let state = state(at: now)
        let cancelled = resetNext(state.next, checkedAt: now)
        return cancelled + [play(state.current)]
    }

    /// A new schedule (a reload): the run on stays untouched when it is the same entry with the same
    /// window (and a prepared change too, if it is unchanged); otherwise what the new schedule says
    /// plays at once. An entry that failed and is still in the file (the same name and items) is
    /// retried at once, in the background; one that played its list once stays skipped.
    package mutating func replace(_ schedule: Schedule, at now: Date) -> [Action] {
        let abandoned = abandonRetry(at: now)
        evaluator = ScheduleEvaluator(schedule)
        skipped = skipped.compactMap { skip in
            guard let index = schedule.entries.firstIndex(where: { $0.name == skip.run.name && $0.playlist == skip.run.playlist })
            else { return nil }
            let run = ScheduledRun(entry: index, name: skip.run.name, playlist: skip.run.playlist, epoch: skip.run.epoch)
            let key = ScheduleEvaluator.RunKey(entry: index, epoch: skip.key.epoch)
            return Skip(key: key, run: run, retryAt: skip.retryAt.map { _ in now }, failures: skip.failures,
                        until: evaluator.close(of: key, near: now))
        }
        probation = nil
        defaultRetry = defaultRetry.map { (now, $0.failures) }  // a failed default is loaded again at once
        let state = state(at: now)
        let same = current.map { Self.sameRun($0, state.current, in: schedule) } ?? false
        guard same else {
            resetNext(state.next, checkedAt: now)
            return abandoned + [play(state.current)]
        }
        current = state.current
        if state.next == next {
            checkedAt = now
            return abandoned
        }
        return abandoned + resetNext(state.next, checkedAt: now)
    }

    /// Something else plays until the next change (an override): a change already prepared is
    /// prepared again, and a retry waits.
    package mutating func override(at now: Date) -> [Action] {
        let abandoned = abandonRetry(at: now)
        overridden = true
        prepared = false
        waitsForPass = false
        return abandoned
    }

    /// The run on plays again (an override was taken back).
    package mutating func replay() -> [Action] {
        guard let current else { return [] }
        overridden = false
        return [.play(current)]
    }

    private mutating func begin(at now: Date) -> Action {
        let state = evaluator.state(at: now)
        resetNext(state.next, checkedAt: now)
        return play(state.current)
    }

    /// The change's instant has come: switch to the prepared run, unless the clock says something
    /// else is on by now (the loop slept through a change, or the clock jumped).
    private mutating func arrive(at now: Date, next: ScheduleTransition) -> [Action] {
        let abandoned = abandonRetry(at: now)
        let state = state(at: max(now, next.instant))
        let wasPrepared = prepared
        resetNext(state.next, checkedAt: now)  // the prepared item is the switch's: not cancelled
        guard state.current == next.run else { return abandoned + [play(state.current)] }
        transitions += 1
        (current, overridden) = (next.run, false)
        return abandoned + [wasPrepared ? .switchNow(next.run, at: max(now, next.instant)) : .play(next.run)]
    }

    /// Nothing due: the clock is checked for a step; a run other than the one playing plays at once.
    private mutating func recheck(at now: Date, playing: ScheduledRun) -> [Action] {
        let state = state(at: now)
        // Waiting for the pass to end, the run waited for is on by the clock.
        if waitsForPass, state.current == next?.run {
            checkedAt = now
            return []
        }
        guard state.current != playing || state.next != next else {
            checkedAt = now
            return []
        }
        // Only the next change moved (a later entry): the run on plays on. So it does when only the
        // default's epoch moved (a skipped run's window closed) and nothing is kept in step by it.
        if state.current == playing || (!evaluator.schedule.sync && state.current.entry == nil && playing.entry == nil) {
            current = state.current
            return resetNext(state.next, checkedAt: now)
        }
        let cancelled = resetNext(state.next, checkedAt: now)
        return cancelled + [play(state.current)]
    }

    private mutating func play(_ run: ScheduledRun) -> Action {
        if current != nil, current != run {
            transitions += 1
            defaultRetry = nil
        }
        (current, overridden) = (run, false)
        return .play(run)
    }

    /// The next change is `transition` from now; one prepared before (or a retry) is cancelled.
    @discardableResult
    private mutating func resetNext(_ transition: ScheduleTransition?, checkedAt now: Date) -> [Action] {
        if retrying != nil { return abandonRetry(at: now) + resetNext(transition, checkedAt: now) }
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
