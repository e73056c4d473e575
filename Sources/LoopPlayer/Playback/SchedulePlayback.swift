import Foundation

/// What a schedule asks of the session, in its terms: a run's items to play now, the next run's
/// first item to open ahead of its instant, the switch to it. `ContentPlayback` carries them
/// out.
enum ScheduleRequest: Equatable {
    /// Play `run` now, from its first item (on a synced schedule, where its timeline is).
    case play(ScheduleRun)
    /// Open `item` now to take over at the change (`holdCurrent`: the item playing plays on past its
    /// end until then; otherwise the change waits for the end of its pass).
    case prepare(item: String, holdCurrent: Bool)
    /// The prepared item takes over now, its first picture shown at `at` (Unix seconds), and `run`
    /// goes on from it; `taken`: the engine switched to it at the end of the pass already.
    case switchNow(ScheduleRun, at: Double, taken: Bool)
    /// The prepared change is not next any more, or a retry's item did not open: the item opened
    /// goes, the run on plays on as before.
    case cancelPrepare
    /// Try to open a skipped run's first `item` now, on a thread (the run on plays on untouched);
    /// tell `retried(opened:)` what came of it.
    case retry(item: String)
    /// The retry asked for is not wanted any more.
    case cancelRetry
    /// Load `run` again, the same as plays (it failed): no change, no event.
    case reload(ScheduleRun)
}

/// One run as the session plays it.
struct ScheduleRun: Equatable {
    let name: String
    /// Resolved against the schedule file's place.
    let items: [String]
    /// The playlist starts again at its end while the entry is on.
    let loops: Bool
    /// Where the run's timeline starts, Unix seconds, on a synced schedule.
    let epoch: Double?

    /// A loop of one file: the engine's own wrap (its frame cache), not a list reopening it.
    var isSingleLoop: Bool { items.count == 1 && loops }
}

/// A schedule played on the wall clock (`ScheduleFollower`), for the session: what to do now, when
/// the loop must wake next, and what the status says. Run thread only.
final class SchedulePlayback {
    private var follower: ScheduleFollower
    private let wallClock: any SystemClock
    /// Whether the run playing is waiting for its pass to end (an after-pass change).
    private(set) var waitsForPass = false
    /// Something else than the entry plays (a `loadfile`) until the next change.
    var overridden: Bool { follower.overridden }
    /// The next change's first item is opened (or asked to be).
    var hasPrepared: Bool { follower.isPrepared }
    /// The try of a failed run's item under way (the session starts it for `.retry`).
    var retry: RetryAttempt?
    /// The local files the schedule names that are not there, looked for on a thread when it is read.
    var missingFiles: BackgroundProbe<[String]>?
    /// The run playing (nil before the first `play`).
    var run: ScheduleRun?
    /// The next change's first item, opened once the list's item playing lasts until the change (its
    /// next items play meanwhile).
    var deferredPrepare: String?

    /// A timed override (`schedule-override`): an entry above all others for its window.
    private(set) var timedOverride: ScheduleEntry?
    /// The schedule as set (the file), without the override.
    private(set) var schedule: Schedule

    init(_ schedule: Schedule, wallClock: any SystemClock) {
        follower = ScheduleFollower(schedule)
        self.schedule = schedule
        self.wallClock = wallClock
    }

    /// The schedule followed: the file's, and the override above it.
    private var followed: Schedule {
        guard let timedOverride, timedOverride.window.map({ $0.upperBound > now }) ?? false else { return schedule }
        var followed = schedule
        followed.entries.append(timedOverride)
        return followed
    }
    private var now: Date { Date(timeIntervalSince1970: wallClock.now) }

    /// Every iteration (cheap unless something is due).
    func tick() -> [ScheduleRequest] { translate(follower.step(at: now)) }

    /// The running item ended its pass: an after-pass change waiting for it happens now. `taken`:
    /// the engine switched to the prepared item itself (otherwise it failed, or so did the item
    /// playing: the entry is loaded).
    func passEnded(taken: Bool) -> [ScheduleRequest] {
        translate(follower.passEnded(at: now), taken: taken)
    }

    /// Something else plays until the next change (a `loadfile`); a change prepared is prepared
    /// again, from what plays now.
    func override() -> [ScheduleRequest] {
        waitsForPass = false
        return translate(follower.override(at: now))
    }

    /// The entry on plays again (an override was taken back).
    func replay() -> [ScheduleRequest] { translate(follower.replay()) }

    /// The run playing cannot play: what is below it plays (it is retried later).
    func runFailed() -> [ScheduleRequest] { translate(follower.runFailed(at: now)) }

    /// The run playing played its list once (`loop: no`): what is below it plays.
    func runFinished() -> [ScheduleRequest] { translate(follower.runFinished(at: now)) }

    /// What came of a retry's item: opened, its run plays now.
    func retried(opened: Bool) -> [ScheduleRequest] { translate(follower.retried(opened: opened, at: now)) }

    /// `retry()` (a SIGHUP): every entry that failed is tried again now, in the background.
    func retryNow() -> [ScheduleRequest] { translate(follower.retryNow(at: now)) }

    /// The run playing shows its picture.
    func runPlays() { follower.runPlays() }

    /// A reread schedule: the run playing stays untouched if the new one has it too (an override
    /// stays too).
    func replace(_ schedule: Schedule) -> [ScheduleRequest] {
        self.schedule = schedule
        return translate(follower.replace(followed, at: now))
    }

    /// `items` play from `start` (nil: now) for `seconds`, above every entry; then what the clock says
    /// plays again. Given a start ahead (3 s or more), every screen switches at it seamlessly, as at a
    /// change. Replaces an override given before.
    func override(_ items: [String], from start: Date?, seconds: Double) -> [ScheduleRequest] {
        let start = start ?? now
        timedOverride = .override(items.map { ScheduleItem(written: $0, relativeTo: "") }, from: start,
                                  until: start.addingTimeInterval(seconds))
        return translate(follower.replace(followed, at: now))
    }

    /// The timed override ends now (nothing if there is none).
    func clearOverride() -> [ScheduleRequest] {
        guard timedOverride != nil else { return [] }
        timedOverride = nil
        return translate(follower.replace(followed, at: now))
    }

    /// Seconds until the next change (nil: none planned).
    var secondsToNextChange: Double? { follower.next.map { $0.instant.timeIntervalSince(now) } }

    /// Seconds until the loop must wake for the schedule (nil: nothing planned).
    var secondsToWake: Double? { follower.wakeAt.map { max(0, $0.timeIntervalSince(now)) } }

    /// The entry playing (`default` for the default), the next change and the changes so far.
    var status: ScheduleStatus? {
        guard let current = follower.current else { return nil }
        let next = follower.next?.instant.timeIntervalSince1970
        if next != nextChangeText.instant {
            nextChangeText = (next, next.map { WallClock(timeZone: schedule.timeZone).rfc3339(Int($0)) })
        }
        return ScheduleStatus(entry: overridden ? "override" : current.name, nextChange: next, nextChangeText: nextChangeText.text,
                              nextEntry: follower.next?.name, transitions: follower.transitions)
    }

    /// The next change's time as the status writes it, made once per change (the status is read
    /// every frame).
    private var nextChangeText: (instant: Double?, text: String?) = (nil, nil)

    private func translate(_ actions: [ScheduleFollower.Action], taken: Bool = false) -> [ScheduleRequest] {
        return actions.map { action -> ScheduleRequest in
            switch action {
            case let .play(run):
                waitsForPass = false
                return .play(scheduleRun(run))
            case let .prepare(run, _, afterPass):
                waitsForPass = afterPass
                return .prepare(item: scheduleRun(run).items[0], holdCurrent: !afterPass)
            case let .switchNow(run, instant):
                waitsForPass = false
                return .switchNow(scheduleRun(run), at: instant.timeIntervalSince1970, taken: taken)
            case .cancelPrepare:
                waitsForPass = false
                return .cancelPrepare
            case let .retry(run):
                return .retry(item: scheduleRun(run).items[0])
            case .cancelRetry:
                return .cancelRetry
            case let .reload(run):
                return .reload(scheduleRun(run))
            }
        }
    }

    private func scheduleRun(_ run: ScheduledRun) -> ScheduleRun {
        let loops = run.entry.map { follower.evaluator.schedule.entries[$0].loop } ?? true
        return ScheduleRun(name: run.name, items: run.playlist.map(\.resolved), loops: loops,
                           epoch: schedule.sync ? run.epoch.timeIntervalSince1970 : nil)
    }
}

/// What the status says of a schedule.
package struct ScheduleStatus: Sendable, Equatable {
    /// The entry playing, `default` for the default.
    package var entry: String
    /// When the next change comes, Unix seconds (nil: none planned).
    package var nextChange: Double?
    /// The same in RFC 3339, local to the schedule's zone: `2027-03-28T03:00:00+02:00`.
    package var nextChangeText: String?
    /// What plays from then.
    package var nextEntry: String?
    /// Changes since the start.
    package var transitions: Int
}
