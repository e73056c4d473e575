import Foundation

/// What the engine plays, from the settings: their source, their playlist (`PlaylistPlayback`
/// decides), or their schedule (`SchedulePlayback` decides: a run plays, the next one's first item
/// opens ahead of its change and takes over at it, a `loadfile` overrides it until the next change).
/// Carries out what the list and the schedule ask of the engine. The session hands it the engine's
/// events and its iterations. Run thread only.
final class ContentPlayback {
    let engine: PlaybackEngine
    /// The extension a bare name takes (the settings' `Ext`), as applied.
    var ext: String
    /// An event for the session's batches (a list's, a schedule's change).
    private let record: (PlayerEvent) -> Void
    /// The player's settings forget a source or a list given while a schedule plays (`loadfile`):
    /// the schedule's change ended it.
    private let forgetOverrideSource: () -> Void
    /// The `Playlist` setting's items being played (nil: one source).
    private(set) var playlist: PlaylistPlayback?
    /// The playlist as the status shows it: kept once the run has let the playlist go.
    private(set) var listed: PlaylistPlayback?
    /// The `Schedule` setting played on the wall clock (nil: a source or a playlist).
    private(set) var schedule: SchedulePlayback?

    init(engine: PlaybackEngine, ext: String, record: @escaping (PlayerEvent) -> Void,
         forgetOverrideSource: @escaping () -> Void) {
        self.engine = engine
        self.ext = ext
        self.record = record
        self.forgetOverrideSource = forgetOverrideSource
    }

    /// The list the status shows: the one playing, or the last one.
    var shownList: PlaylistPlayback? { playlist ?? listed }

    /// Plays the settings' schedule, their source (none: idle), or their playlist from its first item
    /// (`keepingCurrent`: the first is the source playing, which plays on).
    func play(_ settings: VideoSettings, keepingCurrent: Bool = false) {
        engine.setHoldsFirstFrame(settings.notAutoPlay)
        if let wanted = settings.schedule { return loadSchedule(wanted) }
        schedule = nil
        guard !settings.playlist.isEmpty else {
            if let playlist { perform(playlist.detach()) }
            playlist = nil
            guard let source = settings.sourceName else { return engine.unload() }  // idle (`idles`)
            try? engine.load(source, ext: settings.ext)
            return
        }
        startPlaylist(settings.playlist, loops: settings.loopPlaylist, passes: settings.loopPlaylistPasses,
                      keepingCurrent: keepingCurrent)
    }

    /// `retry()`: a schedule tries what failed (a failed default is loaded again); a failed list or
    /// source plays again.
    func retry(_ settings: VideoSettings) {
        if let schedule {
            perform(schedule.retryNow())
        } else if case .failed = engine.state {
            if let playlist { perform(playlist.retry()) } else { play(settings) }
        }
    }

    /// Every iteration: what the schedule's clock and the list's (a synced list's lengths) bring.
    func tick() {
        if schedule != nil { tickSchedule() }
        if let playlist { perform(playlist.tick(systemNow: engine.systemClock.now)) }
    }

    /// What the engine reported, for the schedule and then the list playing.
    func handle(_ event: EngineEvent) {
        if scheduleHandled(event) { return }
        if let playlist { perform(playlist.handle(event)) }
    }

    /// The run is over: nothing is queued after it, and the list is kept for the status.
    func finish() {
        playlist?.stopReadingLengths()
        (listed, playlist) = (playlist, nil)
    }

    /// A failure does not end the run while the list skips the failed item.
    var failureEndsRun: Bool { !(playlist?.skipPending ?? false) }

    /// A reread schedule file: what is on and unchanged plays on.
    func replaceSchedule(_ changed: Schedule) {
        guard let schedule else { return }
        lookForMissingFiles(in: changed)
        perform(schedule.replace(changed))
    }

    /// The timed override ends now.
    func clearScheduleOverride() {
        if let schedule { perform(schedule.clearOverride()) }
    }

    // MARK: Playlists

    /// Plays `items` as the current playlist (`keepingCurrent`: the first is the source playing).
    private func startPlaylist(_ items: [String], loops: Bool, passes: Int?, keepingCurrent: Bool, onTimeline: Bool = true) {
        if let playlist { perform(playlist.detach()) }
        let timeline = engine.clock.isVirtual || !onTimeline ? nil : engine.timelineSync.timeline
        let playlist = PlaylistPlayback(items: items, loops: loops, passes: passes, ext: ext, itemLoops: engine.isLooping,
                                        timeline: timeline, emit: record)
        self.playlist = playlist
        perform(playlist.attach())
        perform(keepingCurrent ? playlist.continueWithCurrent() : playlist.start(wake: engine.waiter.wake))
    }

    /// Carries out what the playlist asks of the engine (what it answers to a load goes back to it).
    func perform(_ requests: [PlaylistRequest]) {
        for request in requests {
            switch request {
            case let .load(source, ext):
                let loading = (try? engine.load(source, ext: ext)) != nil
                engine.setHoldsFirstFrame(false)  // `NotAutoPlay` holds the first item only
                if loading, let playlist { perform(playlist.loaded()) }
            case let .queue(location, scheduleItem):
                engine.queueNext(location)
                if let scheduleItem { engine.itemSwitch.queueOnSchedule(scheduleItem) }
            case .dropQueued:
                engine.itemSwitch.dropQueued()
            case let .playQueuedNow(orElse):
                guard !engine.playQueuedNow(), let index = orElse, let playlist else { continue }
                perform(playlist.play(index, inOrder: true))
            case let .followSchedule(schedule, item):
                engine.timelineSync.follow(schedule: schedule, item: item)
            case let .endSoundWithPicture(ends):
                engine.endsSoundWithPicture = ends
            case .leaveTimeline:
                engine.setSyncTimeline(nil)
            case .unload:
                engine.unload()
            case .wake:
                engine.waiter.wake()
            case let .count(error):
                engine.outbox.record(error)
            }
        }
    }

    // MARK: Schedules

    /// Plays `wanted` from what the clock says is on; `retry()` after a failure keeps the same
    /// schedule (its changes counted) and plays its run again.
    private func loadSchedule(_ wanted: Schedule) {
        if let schedule, schedule.schedule == wanted, let run = schedule.run { return play(run, fromPreparedItem: false, announce: false) }
        let schedule = SchedulePlayback(wanted, wallClock: engine.systemClock)
        self.schedule = schedule
        lookForMissingFiles(in: wanted)
        perform(schedule.tick())
    }

    /// Looks, on a thread (a file system may block), for the local files `schedule` names that are
    /// not there: each is an error event when found, before its entry's time.
    private func lookForMissingFiles(in schedule: Schedule) {
        let paths = Set((schedule.defaultPlaylist + schedule.entries.flatMap(\.playlist)).map(\.resolved).filter { !$0.contains("://") })
        self.schedule?.missingFiles?.cancel()
        self.schedule?.missingFiles = BackgroundProbe(name: "lp-schedule-files", noThread: [], wake: engine.waiter.wake) { abort in
            paths.sorted().filter { !abort.isRaised && !FileManager.default.fileExists(atPath: $0) }
        }
    }

    /// Every iteration: a prepare deferred until the list's item lasts to the change, and what the
    /// clock brings.
    private func tickSchedule() {
        guard let schedule else { return }
        if let item = schedule.deferredPrepare, mayPrepareNow { perform([.prepare(item: item, holdCurrent: true)]) }
        if let missing = schedule.missingFiles?.result {
            schedule.missingFiles = nil
            missing.forEach { engine.outbox.note(.sourceNotFound(source: $0, searched: [])) }
        }
        if let outcome = schedule.retry?.outcome(now: engine.realClock.now) {
            schedule.retry = nil
            if case let .fails(error) = outcome { engine.outbox.note(error) }
            if case .opens = outcome { perform(schedule.retried(opened: true)) } else { perform(schedule.retried(opened: false)) }
        }
        perform(schedule.tick())
    }

    /// The schedule waits for something that takes real time: its files looked for, a retry's file
    /// being tried, or the next change's item decoding (a virtual clock stands still meanwhile).
    var scheduleWaits: Bool {
        guard let schedule else { return false }
        return schedule.missingFiles != nil || schedule.retry != nil || (schedule.hasPrepared && engine.queuedLocation != nil && !engine.itemSwitch.queuedIsReady)
    }

    /// When the loop must wake for the schedule (the engine's clock): its next step, or a retry's
    /// time to answer.
    var scheduleDeadline: Double? {
        guard let schedule else { return nil }
        let step = schedule.secondsToWake.map { engine.clock.now + $0 }
        guard let retry = schedule.retry?.deadline, !engine.clock.isVirtual else { return step }
        return min(step ?? .infinity, engine.clock.now + max(0, retry - engine.realClock.now))
    }

    /// What the engine reported, as the schedule sees it. True: it was the schedule's own (the list
    /// playing is not told, or was told already).
    private func scheduleHandled(_ event: EngineEvent) -> Bool {
        guard let schedule else { return false }
        switch event {
        case .stateChanged(.failed) where schedule.waitsForPass:
            // An after-pass change waits for a pass that a failed item never ends.
            perform(schedule.passEnded(taken: false))
            return false
        case .stateChanged(.failed) where !schedule.overridden:
            // The list skips a failed item itself; a run whose every item failed falls to the one below.
            if let playlist { perform(playlist.handle(event)) }
            if !(playlist?.skipPending ?? false) { perform(schedule.runFailed()) }
            return true
        case .stateChanged(.ended) where !schedule.waitsForPass && !schedule.overridden && schedule.run != nil:
            // A run that loops ends only when nothing of it can play (a list whose items all failed).
            if let playlist { perform(playlist.handle(event)) }
            perform(schedule.run?.loops == false ? schedule.runFinished() : schedule.runFailed())
            return true
        case .advanced where schedule.waitsForPass:
            perform(schedule.passEnded(taken: true))
            return true
        case .queuedItemFailed where schedule.waitsForPass:
            perform(schedule.passEnded(taken: false))
            return true
        case .stateChanged(.playing):
            schedule.runPlays()
            return false
        default:
            return false
        }
    }

    /// Carries out what the schedule asks: a run plays, the next one's first item opens ahead of its
    /// change, and takes over at it.
    private func perform(_ requests: [ScheduleRequest]) {
        guard let schedule else { return }
        for request in requests {
            switch request {
            case let .play(run):
                play(run, fromPreparedItem: false)
            case let .prepare(item, holdCurrent):
                schedule.deferredPrepare = holdCurrent && !mayPrepareNow ? item : nil
                if schedule.deferredPrepare == nil { prepare(item, holdCurrent: holdCurrent) }
            case let .switchNow(run, instant, taken):
                // Deferred still: opened now if the item playing lasts to the change, otherwise loaded.
                if let item = schedule.deferredPrepare { perform([.prepare(item: item, holdCurrent: true)]) }
                // A prepared item that failed (said when it did) is loaded again (failing, what is
                // below it plays). The switch is the schedule's own: the list it starts is not told of it.
                let firstFrameAt = engine.clock.now + (instant - engine.systemClock.now)
                let switched = !taken && engine.playQueuedNow(firstFrameAt: firstFrameAt, reporting: false)
                play(run, fromPreparedItem: switched || taken)
            case .cancelPrepare:
                cancelPrepare()
            case let .retry(item):
                schedule.retry?.cancel()
                schedule.retry = RetryAttempt(item, ext: ext, network: engine.configuration.network,
                                              now: engine.realClock.now, wake: engine.waiter.wake)
            case .cancelRetry:
                schedule.retry?.cancel()
                schedule.retry = nil
            case let .reload(run):
                play(run, fromPreparedItem: false, announce: false)
            }
        }
    }

    /// Opens the next change's first item (`holdCurrent`: the item playing loops until the change).
    private func prepare(_ item: String, holdCurrent: Bool) {
        schedule?.deferredPrepare = nil
        // The list playing is done: what the engine reports of the switch is not its business.
        if let playlist { perform(playlist.detach()) }
        (listed, playlist) = (playlist ?? listed, nil)
        // Off the timeline meanwhile: the item held would be joined again as a loop of its own.
        if engine.timelineSync.timeline != nil { engine.setSyncTimeline(nil) }
        // At the time: the item playing plays on past its end (one that ended holds its frame).
        let ended = engine.state == .ended || engine.isFailed
        engine.setLooping(holdCurrent && !ended)
        var queued = true
        do {
            engine.queueNext(try SourceResolver.standard().resolve(item, ext: ext))
        } catch {
            engine.outbox.note(error)
            queued = false
        }
        // After the pass: one that already ended (or failed), or an item that cannot be opened, has
        // nothing to wait for.
        if !holdCurrent, ended || !queued, let schedule { perform(schedule.passEnded(taken: false)) }
    }

    /// The prepared change is off: the item opened goes and the run plays on as it did.
    private func cancelPrepare() {
        guard let schedule else { return }
        if schedule.deferredPrepare != nil {
            schedule.deferredPrepare = nil
            return
        }
        engine.itemSwitch.dropQueued()
        guard let run = schedule.run else { return }
        engine.setLooping(run.isSingleLoop)
        // The prepare took a synced run off its timeline: a loop joins it again where it is; a list
        // (whose place on it its held list no longer knows) plays again on it.
        if let epoch = run.epoch, run.loops {
            guard run.isSingleLoop else { return play(run, fromPreparedItem: false, announce: false) }
            engine.setSyncTimeline(SharedTimeline(epoch: epoch))
        }
        if let held = listed, !run.isSingleLoop, playlist == nil {
            playlist = held
            perform(held.attach())
            perform(held.loaded())  // its next item, queued again
        }
    }

    /// A source or a playlist given while a schedule plays: it plays now, until the schedule's next
    /// change (`loadfile` on a scheduled player); none given: the schedule's entry again.
    func playOverride(_ settings: VideoSettings) {
        guard let schedule else { return }
        guard settings.sourceName != nil || !settings.playlist.isEmpty else { return perform(schedule.replay()) }
        perform(schedule.override())
        engine.setSyncTimeline(nil)
        if !settings.playlist.isEmpty {
            startPlaylist(settings.playlist, loops: settings.loopPlaylist, passes: settings.loopPlaylistPasses, keepingCurrent: false)
        } else if let source = settings.sourceName {
            if let playlist { perform(playlist.detach()) }
            (listed, playlist) = (nil, nil)
            try? engine.load(source, ext: settings.ext)
        }
    }

    /// A timed override (`PlaybackCommand.scheduleOverride`), its numbers checked
    /// (`scheduleOverrideRefusal`).
    func overrideSchedule(_ items: [String], seconds: Double, from start: Date?) {
        let refusal = schedule == nil ? "no schedule plays"
            : PlaybackCommand.scheduleOverrideRefusal(items: items, seconds: seconds, from: start, now: engine.systemClock.now)
        guard let schedule, refusal == nil else {
            return engine.outbox.note(.invalidSetting(name: "schedule-override", value: "\(items.count) items, \(seconds) s",
                                                      reason: refusal ?? ""))
        }
        perform(schedule.override(items, from: start, seconds: seconds))
    }

    /// Whether the next change's first item may be opened now: the item playing is held until the
    /// change (looped) only when it lasts until then, or the change is half a second away; a list's
    /// items that end before play on.
    private var mayPrepareNow: Bool {
        guard playlist != nil, let toChange = schedule?.secondsToNextChange, toChange > 0.5,
              let duration = engine.duration else { return true }
        return duration - engine.position >= toChange - 0.05
    }

    /// Plays `run`: a loop of one file on the engine's own wrap, or a playlist; on a synced
    /// schedule on the run's timeline. `fromPreparedItem`: its first item already took over.
    /// `announce`: false for the run playing loaded again (it failed, it left its timeline): no change.
    private func play(_ run: ScheduleRun, fromPreparedItem: Bool, announce: Bool = true) {
        if announce { record(.scheduleChanged(entry: run.name)) }
        schedule?.run = run
        schedule?.deferredPrepare = nil
        // An override's source goes with it: the same `loadfile` later plays it again.
        forgetOverrideSource()
        // A list taken over at its first item plays off the timeline, in step on every screen by
        // construction (each starts it at the instant); one joined later finds its item on the
        // timeline (its lengths read first). A loop of one file is joined where the timeline is. A
        // list played once (`loop: no`) has no place on a timeline, which loops: it plays from its start.
        let followsTimeline = run.isSingleLoop || (!fromPreparedItem && run.loops)
        engine.setSyncTimeline(followsTimeline ? run.epoch.map(SharedTimeline.init(epoch:)) : nil)
        if run.isSingleLoop {
            if let playlist { perform(playlist.detach()) }
            (listed, playlist) = (nil, nil)
            engine.setLooping(true)
            if !fromPreparedItem { try? engine.load(run.items[0], ext: ext) }
        } else {
            engine.setLooping(false)
            startPlaylist(run.items, loops: run.loops, passes: nil, keepingCurrent: fromPreparedItem, onTimeline: followsTimeline)
        }
    }
}
