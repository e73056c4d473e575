import Filters

/// One run of an `ExtVideoPlayer` on its thread: owns the engine and turns the player's queued
/// commands, live settings, events and time publishing into engine calls. Run thread only.
final class PlayerSession: EngineController {
    unowned let player: ExtVideoPlayer
    let engine: PlaybackEngine
    var applied: VideoSettings { didSet { content.ext = applied.ext } }
    /// What plays: the settings' source, playlist or schedule.
    private lazy var content = ContentPlayback(engine: engine, ext: applied.ext, record: { [unowned self] in record($0) },
                                               forgetOverrideSource: { [unowned self] in forgetOverrideSource() })
    private var appliedVersion: Int
    private var batcher: EventBatcher
    /// Proof of play: the plays of items, each a `played` event when it ends.
    private var plays = PlayTracker()
    private var publisher = TimePublisher(interval: nil)
    private var statisticsRefreshedAt = -Double.infinity
    /// The error counts in the statistics last published: a new error publishes them at once.
    private var publishedErrorCounts: [String: Int] = [:]
    /// The state before the current one: playing again after buffering is not a start.
    private var previousState: PlayerState = .idle
    /// Time passing, as the engine reads it (`EngineClocks.monotonic`: a test may drive it).
    private var realClock: PlaybackClock { engine.realClock }
    /// The `Playlist` setting's items being played (nil: one source).
    private var playlist: PlaylistPlayback? { content.playlist }
    /// Where the last seek went, while its picture is not shown: a relative seek goes on from there.
    private var lastSeekTarget: Double?
    /// After `loopTimes`: the passes still to play after the current one (nil: forever, or not looping).
    private var loopsLeft: Int?
    /// Events for `onEachEvent`, held until the status they lead to is published.
    private var eventsToTell: [PlayerEvent] = []

    /// Claims `player` for this run (one run at a time: another throws `alreadyRunning` and leaves the
    /// running one alone). `custom` is an output made by the caller (embedding, frames-only); otherwise
    /// the engine makes the one `output` names (a window opens now, before the source). A failure
    /// releases the player and reaches its events and state, as a failure during a run would.
    convenience init(player: ExtVideoPlayer, output: EngineConfiguration.Output, custom: PlayerOutput? = nil,
                     timing: ExtVideoPlayer.Timing, stop: StopCondition, clocks: EngineClocks = EngineClocks()) throws(PlayerError) {
        guard player.claimRun() else {
            logger.error("\(ExtVideoPlayer.alreadyRunning.description)")
            throw ExtVideoPlayer.alreadyRunning
        }
        let (settings, version, audio) = player.shared.withLock { ($0.settings, $0.settingsVersion, $0.audio) }
        let engine: PlaybackEngine
        do {
            engine = try Self.makeEngine(player: player, settings: settings, audio: audio, output: output, custom: custom,
                                         timing: timing, stop: stop, clocks: clocks)
        } catch {
            player.endRun()
            Self.report(error, to: player)
            throw error
        }
        self.init(player: player, engine: engine, settings: settings, version: version)
    }

    private static func makeEngine(player: ExtVideoPlayer, settings: VideoSettings, audio: AudioOptions,
                                   output: EngineConfiguration.Output, custom: PlayerOutput?,
                                   timing: ExtVideoPlayer.Timing, stop: StopCondition, clocks: EngineClocks) throws(PlayerError) -> PlaybackEngine {
        try settings.validate()
        var configuration = EngineConfiguration(output: output, looping: settings.loop, gravity: settings.gravity,
                                                untimed: timing == .untimed, stop: stop, audio: audio)
        configuration.audio.muted = settings.mute
        if let volume = settings.volume { configuration.audio.volume = volume }
        configuration.subtitles = player.shared.withLock { $0.subtitles } ?? settings.subtitles.map(SubtitleOptions.init(setting:))
            ?? SubtitleOptions()
        configuration.errorColor = settings.errorColor
        configuration.errorFontSize = settings.errorFontSize
        configuration.network = settings.networkOptions
        configuration.pictureInPicture = settings.pictureInPicture
        configuration.frameCacheBytes = settings.frameCacheMegabytes << 20
        configuration.pictureSizeLimit = settings.pictureSizeLimit
        configuration.syncTimeline = settings.syncEpoch.map(SharedTimeline.init(epoch:))
        configuration.clocks = clocks
        let engine = if let custom { PlaybackEngine(configuration: configuration, output: custom) }
            else { try PlaybackEngine(configuration: configuration) }
        try engine.screen.setVideoRotation(settings.videoRotation)  // validated above
        return engine
    }

    private init(player: ExtVideoPlayer, engine: PlaybackEngine, settings: VideoSettings, version: Int) {
        self.player = player
        self.engine = engine
        applied = settings
        appliedVersion = version
        batcher = EventBatcher(selection: settings.events)
        try? engine.filterControl.setFilters(settings.filterStack)  // validated above
        let wake = engine.waiter.wake
        player.shared.withLock {
            $0.wake = wake
            $0.retryRequested = false
        }
        ExclusivePlaybackRegistry.join(player, group: settings.exclusiveGroup)
        settings.vectorLayers.forEach { engine.screen.addVector($0) }
        engine.screen.watchPictures(settings.pictureAlerts.thresholds)
    }

    /// Loads the source and runs the engine's loop until it ends.
    func run() -> RunOutcome {
        batcher.start(at: engine.clock.now)
        content.play(applied)
        let outcome = engine.run(controller: self)
        finish()
        return outcome
    }

    /// One iteration, for a loop that drives several players (`PlayerGroup`) or a host's (`pump`).
    func runOnce() -> EngineIteration { engine.iterate(self) }

    /// Starts the source without running the loop (the host pumps: embedding).
    func start() {
        batcher.start(at: engine.clock.now)
        content.play(applied)
    }

    /// Delivers what is pending and publishes the final statistics.
    func finish() {
        engine.close()
        let last = engine.outbox.take()
        content.finish()
        handle(last)
        plays.interrupted(stopped: engine.quitRequested, playReading).forEach { record(.played($0)) }
        refreshStatus()
        deliver(batcher.drain())
        publisher.stop()
        let statistics = engine.statistics
        player.shared.withLock {
            $0.statistics = statistics
            $0.wake = nil
            $0.stopRequested = false  // a stop asked for before a run ends that run; this one is over
            $0.isRunning = false
        }
    }

    /// A failure before the engine exists (validation, no display) still reaches the user.
    private static func report(_ error: PlayerError, to player: ExtVideoPlayer) {
        let (admitted, handlers, continuations, stateHandlers, eachEventHandlers, statusHandlers, status) = player.shared.withLock {
            $0.state = .failed(error)
            $0.status.state = .failed(error)
            $0.statistics.errors[error.kind, default: 0] += 1
            return ($0.settings.events.admits(.error(error)), $0.eventHandlers, Array($0.eventContinuations.values),
                    $0.stateHandlers, $0.eachEventHandlers, $0.statusHandlers, $0.status)
        }
        stateHandlers.forEach { $0(.failed(error)) }
        statusHandlers.forEach { $0(status) }
        eachEventHandlers.forEach { $0(.error(error)) }
        guard admitted else { return }
        handlers.forEach { $0([.error(error)]) }
        continuations.forEach { $0.yield([.error(error)]) }
    }

    // MARK: Each loop iteration

    func prepareIteration() { tick() }

    var runContext: RunContext {
        RunContext(deadline: earliest(earliest(earliest(batcher.nextDeadline, publisher.nextDeadline), content.scheduleDeadline),
                                      engine.screen.pictureWatch.nextDeadline),
                   failureEndsRun: content.failureEndsRun, holdsVirtualClock: content.scheduleWaits)
    }

    func handle(_ events: [EngineEvent]) {
        for event in events {
            switch event {
            case let .player(event):
                record(event)
                if case .loopCompleted = event { countLoop() }
                // A seek publishes where it landed at once, not at the next tick.
                if case let .seek(true, time) = event, publisher.isRunning { publish(time) }
            case let .stateChanged(state):
                stateChanged(state)
            case .opened:
                applyQueuedCommands()
            case let .loopingChanged(looping):
                if !looping { loopsLeft = nil }  // the L key, the end of a count: no count is left
            case let .keyPressed(action):
                perform(action)
            case .advanced, .queuedItemFailed, .switchSettled, .queueDropped, .scheduleWantsItem:
                break
            }
            content.handle(event)
            plays.heard(event, reading: playReading).forEach { record(.played($0)) }
        }
        plays.settle(playing: engine.state == .playing, reading: playReading).forEach { record(.played($0)) }
        refreshStatus()
    }

    /// What a play's edge records (`PlayTracker`).
    private func playReading() -> PlayTracker.Reading {
        let totals = engine.statistics.sinceStart
        let opening = PlayLedger.Opening(source: engine.location?.description ?? applied.sourceName ?? "",
                                         scheduleEntry: content.schedule?.status?.entry,
                                         playlistIndex: content.shownList.flatMap { $0.currentItem == nil ? nil : $0.state.current })
        return PlayTracker.Reading(unixTime: engine.systemClock.now, shown: totals.framesPresented,
                                   dropped: totals.framesDropped, opening: opening)
    }

    /// An event for the batches and for `onEachEvent` (told with the next status).
    func record(_ event: PlayerEvent) {
        batcher.record(event, at: engine.clock.now)
        eventsToTell.append(event)
    }

    /// Publishes the player's `status` when it changed, then tells the events that led to it: a
    /// listener that hears `file-loaded` and asks for the duration finds it.
    private func refreshStatus() {
        defer {
            if !eventsToTell.isEmpty {
                let (events, handlers) = (eventsToTell, player.shared.withLock { $0.eachEventHandlers })
                eventsToTell.removeAll(keepingCapacity: true)
                for event in events { handlers.forEach { $0(event) } }
            }
        }
        var status = currentStatus
        // An error is in the statistics as soon as the status (a failed state) and its events tell
        // of it, not at the next once-a-second refresh (which a failed player idling never reached).
        let statistics = engine.outbox.errorCounts == publishedErrorCounts ? nil : engine.statistics
        if let statistics {
            publishedErrorCounts = statistics.errors
            statisticsRefreshedAt = realClock.now
        }
        let handlers = player.shared.withLock { shared -> [@Sendable (PlayerStatus) -> Void] in
            status.commandsApplied = shared.commandsApplied
            if let statistics { shared.statistics = statistics }
            shared.statusPublished = true
            guard shared.status != status else { return [] }
            shared.status = status
            return shared.statusHandlers
        }
        handlers.forEach { $0(status) }
    }

    /// The status as the engine and the playlist have it now.
    private var currentStatus: PlayerStatus {
        var status = PlayerStatus()
        status.state = engine.state
        status.position = engine.shownPosition
        status.duration = engine.duration
        let playlist = content.shownList
        status.source = engine.location?.description ?? playlist?.currentItem ?? applied.sourceName
        status.playlistIndex = playlist?.currentItem == nil ? nil : playlist?.state.current
        status.playlistCount = playlist?.state.items.count ?? (status.source == nil ? 0 : 1)
        status.looping = engine.isLooping
        // A single source says what its settings would do to a list it becomes (`loadfile … append`).
        status.loopingPlaylist = playlist?.state.loops ?? applied.loopPlaylist
        status.loopsLeft = status.looping ? loopsLeft : nil
        status.playlistPass = playlist?.state.passesBegun ?? 1
        status.playlistPasses = playlist == nil ? applied.loopPlaylistPasses : playlist?.state.passes
        status.playlistItems = playlist?.state.items ?? []
        status.videoSize = engine.videoSize
        status.paused = engine.isPaused
        status.muted = engine.soundControl.isMuted
        status.volume = engine.soundControl.volume
        status.speed = engine.speed
        status.brightness = engine.filters.adjustment.brightness
        status.contrast = engine.filters.adjustment.contrast
        status.audioTrack = engine.soundControl.audioTrack?.number
        status.audioTrackCount = engine.soundControl.audioTracks.count
        (status.subtitleTrack, status.subtitleTrackCount) = engine.screen.subtitleTrackPosition
        status.seeking = engine.isSeeking
        status.waitingForEpoch = engine.isWaitingForEpoch
        status.followsSharedTimeline = engine.timelineSync.refusesLeaving
        status.subtitlesVisible = engine.screen.subtitlesVisible
        status.videoRotation = engine.screen.videoRotation
        status.schedule = content.schedule?.status
        status.displayAlerts = engine.screen.pictureWatch.active.sorted()
        status.displayAlertsRaised = engine.screen.pictureWatch.raised
        return status
    }

    private func tick() {
        let position = engine.position
        // The commands sent before these settings were read: one sent after a settings change
        // (an IPC `loadfile … append` onto the list the change made) waits for that change.
        let (settings, version, retry, stop, sentBefore) = player.shared.withLock { shared in
            defer { shared.retryRequested = false }
            shared.currentTime = position
            shared.loopPasses &+= 1
            return (shared.settings, shared.settingsVersion, shared.retryRequested, shared.stopRequested, shared.commandsSent)
        }
        if stop { engine.requestQuit() }
        if version != appliedVersion { apply(settings, version: version) }
        yieldIfAnotherStartedLater()
        content.tick()
        if retry { content.retry(applied) }
        checkPictures()
        plays.settle(playing: engine.state == .playing, reading: playReading).forEach { record(.played($0)) }
        // After `apply`: a new source is not ready yet. Playlist commands change the source: they
        // need no ready one (a failed item is skipped with `next`).
        applyQueuedCommands(withoutSourceOnly: !engine.isReady, sentUpTo: sentBefore)
        refreshStatus()
        let now = engine.clock.now
        for batch in batcher.flush(at: now) { deliver(batch) }
        if engine.state == .playing || engine.state == .paused, publisher.isDue(at: now) { publish(engine.position) }
        if realClock.now - statisticsRefreshedAt >= 1 {
            statisticsRefreshedAt = realClock.now
            let statistics = engine.statistics
            publishedErrorCounts = statistics.errors
            player.shared.withLock { $0.statistics = statistics }
        }
    }

    /// The picture alerts that began or ended (`PictureWatch`): events, and the status says them.
    private func checkPictures() {
        let watch = engine.screen.pictureWatch
        guard watch.isWatching || !watch.active.isEmpty else { return }
        let moving = (engine.state == .playing || engine.state == .buffering) && !engine.isPaused && engine.speed > 0
        for change in engine.screen.checkPictures(moving: moving, starved: engine.state == .buffering) {
            record(.displayAlert(change.alert, active: change.active))
        }
    }

    /// A player of this one's exclusive group started after it: this one pauses. Only a player that
    /// plays yields (one loading or held will start later, and then be the last to start).
    private func yieldIfAnotherStartedLater() {
        guard ExclusivePlaybackRegistry.mustPause(player) else { return }
        if engine.state == .playing || engine.state == .buffering { engine.setPaused(true) }
    }

    /// Carries out the queued commands numbered up to `sentUpTo` (all of them, or those that need
    /// no source); later ones wait for the next iteration.
    private func applyQueuedCommands(withoutSourceOnly: Bool = false, sentUpTo: Int = .max) {
        let commands = player.shared.withLock { shared in
            let due = { (entry: (number: Int, request: ControlRequest)) in
                entry.number <= sentUpTo && (!withoutSourceOnly || entry.request.appliesWithoutSource)
            }
            let taken = shared.commands.filter(due)
            shared.commands.removeAll(where: due)
            return taken
        }
        guard let highest = commands.last?.number else { return }
        commands.forEach { perform($0.request) }
        // Done up to the last one taken, but not past one still queued (taken out of order).
        player.shared.withLock { shared in
            let unapplied = (shared.commands.first?.number ?? .max) - 1
            shared.commandsApplied = max(shared.commandsApplied, min(highest, unapplied))
        }
    }

    private func perform(_ request: ControlRequest) {
        switch request {
        case let .command(command): perform(command)
        case let .property(name, change): changeProperty(name, change)
        case let .action(action): perform(action)
        case let .capture(request): engine.screen.capture(request)
        }
    }

    /// A command: those that set a property do it through the table (`PlayerProperty`), clamped to
    /// its range as the commands promise.
    private func perform(_ command: PlaybackCommand) {
        if let name = command.leavesTheTimeline, engine.timelineSync.refused(name) { return }
        switch command {
        case .play: changeProperty("pause", .set(.flag(false)))
        case .pause: changeProperty("pause", .set(.flag(true)))
        case .togglePause: changeProperty("pause", .cycle(down: false))
        case let .seek(position, play):
            seek(to: position)
            if let play { engine.setPaused(!play) }
        case let .seekBy(seconds): seek(by: seconds)
        case .begin:
            seek(to: 0)
            engine.setPaused(true)
        case .end:
            seek(to: engine.duration ?? .infinity)
            engine.setPaused(true)
        case .loop: changeProperty("loop-file", .set(.forever))
        case .unloop: changeProperty("loop-file", .set(.off))
        case let .loopTimes(count): changeProperty("loop-file", .set(.integer(count)), clamping: true)
        case let .playbackSpeed(speed): changeProperty("speed", .set(.number(Double(speed))), clamping: true)
        case .mute: changeProperty("mute", .set(.flag(true)))
        case .unmute: changeProperty("mute", .set(.flag(false)))
        case let .volume(volume): changeProperty("volume", .set(.number(Double(volume))), clamping: true)
        case let .brightness(value): changeProperty("brightness", .set(.number(Double(value))), clamping: true)
        case let .contrast(value): changeProperty("contrast", .set(.number(Double(value))), clamping: true)
        case let .videoRotation(degrees): changeProperty("video-rotate", .set(.integer(degrees)))
        case let .audioTrack(code): try? engine.soundControl.selectAudioTrack(language: code)
        case let .audioTrackNumber(number): try? engine.soundControl.selectAudioTrack(number: number)
        case let .filter(filter, clear):
            changeFilters { stack in
                if clear { stack.removeAll() }
                stack.append(filter)
            }
        case let .customFilter(filter, clear):
            changeFilters { stack in
                if clear { stack.removeAll() }
                stack.append(custom: filter)
            }
        case .removeAllFilters: changeFilters { $0.removeAll() }
        case let .subtitles(language): try? engine.screen.setSubtitles(language.map(SubtitleChoice.language) ?? .off)
        case let .subtitleTrackNumber(number): try? engine.screen.setSubtitles(number.map(SubtitleChoice.number) ?? .off)
        case let .screenshot(path, content, done): engine.screen.writeSnapshotInBackground(to: path, content: content, done: done)
        case let .showText(text, duration, level): engine.screen.showMessage(text, duration: duration, level: level)
        case let .addVector(builder, clear): engine.screen.addVector(builder, clear: clear)
        case .removeAllVectors: engine.screen.removeAllVectors()
        case .next: if let playlist { content.perform(playlist.next()) }
        case .previous: if let playlist { content.perform(playlist.previous()) }
        case let .playItem(index): if let playlist = playlistOrError("playItem") { content.perform(playlist.play(index)) }
        case let .insert(source, index): if let playlist = playlistOrError("insert") { content.perform(playlist.insert(source, at: index)) }
        case let .remove(index): if let playlist = playlistOrError("remove") { content.perform(playlist.remove(at: index)) }
        case .clearPlaylist: if let playlist { content.perform(playlist.removeAllButCurrent()) }
        case .startPiP: try? engine.screen.startPictureInPicture()  // a refusal is an error event
        case .stopPiP: engine.screen.stopPictureInPicture()
        case let .addInset(inset): engine.screen.addInset(inset)
        case .removeAllInsets: engine.screen.removeAllInsets()
        case let .scheduleOverride(items, seconds, start): content.overrideSchedule(items, seconds: seconds, from: start)
        case .clearScheduleOverride: content.clearScheduleOverride()
        case .idle: break
        }
    }

    /// Carries out a change of a table property (`PlayerProperty`): refused with an error event when
    /// the property takes no such value, or when it would take a synced player off the timeline.
    /// `clamping`: a number past the range is taken at its edge (the commands' promise). `shown`: a
    /// key did it, and the OSD says the new value.
    private func changeProperty(_ name: String, _ change: PropertyChange, clamping: Bool = false, shown: Bool = false) {
        guard let property = PlayerProperty.named(name) else { return refuse(name, change, because: "there is no such property") }
        let status = currentStatus
        if case let .add(delta) = change, let adjust = property.adjust {
            guard !leavesTheTimeline(property, .number(status.position + delta), status, shown: shown) else { return }
            adjust(delta, self)
        } else {
            switch property.resolve(clamping ? property.clamping(change) : change, in: status) {
            case .failure(.unavailable) where shown:
                break  // a key with nothing to change (`#` without audio tracks): the OSD says so
            case let .failure(refusal):
                return refuse(name, change, because: refusal.reason(for: property))
            case let .success(value):
                guard !leavesTheTimeline(property, value, status, shown: shown) else { return }
                property.write?(value, self)
            }
        }
        guard shown, let osd = property.osd else { return }
        var after = currentStatus
        if engine.isSeeking, let lastSeekTarget { after.position = lastSeekTarget }  // where it goes, as mpv says
        // The tracks' names only for the OSD: not built into every frame's status.
        (after.audioTrackLabel, after.subtitleTrackLabel) = (engine.soundControl.audioTrack?.label, engine.screen.subtitleTrack?.label)
        engine.screen.showMessage(osd(after))
    }

    /// Off the shared timeline only if every screen did it: refused (an error event), and said on
    /// screen when a key asked.
    private func leavesTheTimeline(_ property: PlayerProperty, _ value: PropertyValue, _ status: PlayerStatus, shown: Bool) -> Bool {
        guard property.leavesTimeline(value, status), engine.timelineSync.refused(property.name) else { return false }
        if shown { engine.screen.showMessage(Self.syncedRefusal) }
        return true
    }

    private static let syncedRefusal = "Synced: the shared timeline keeps playing"

    private func refuse(_ name: String, _ change: PropertyChange, because reason: String) {
        let error = PlayerError.invalidSetting(name: name, value: change.text, reason: reason)
        engine.outbox.record(error)
        record(.error(error))
    }

    /// What a key asked for: a property's change (the OSD says what it did), or the window's own.
    private func perform(_ action: PlayerAction) {
        if let (name, change) = action.propertyChange { return changeProperty(name, change, shown: true) }
        switch action {
        case .quit: engine.requestQuit()
        case .toggleFullscreen: engine.output.toggleFullscreen()
        case .snapshot:
            guard let path = engine.screen.keySnapshotPath else { return }
            engine.screen.writeSnapshotInBackground(to: path)
            engine.screen.showMessage("Snapshot: \(path)")
        case .clearFilters:
            changeFilters { $0.removeAll() }
            engine.screen.showMessage("Filters: none")
        case .nextItem, .previousItem:
            let next = action == .nextItem
            guard !engine.timelineSync.refused(next ? "next" : "previous") else { return engine.screen.showMessage(Self.syncedRefusal) }
            if let playlist { content.perform(next ? playlist.next() : playlist.previous()) }
        default:
            break
        }
    }

    /// Loops `more` passes after the current one (nil: forever; 0: ends at the end of this one).
    func loop(more: Int?) {
        loopsLeft = more == 0 ? nil : more
        engine.setLooping(more != 0)
    }

    /// A pass was completed: one fewer left to play; from the last one on, looping is off.
    private func countLoop() {
        guard let left = loopsLeft else { return }
        if left <= 1 {
            loop(more: 0)
        } else {
            loopsLeft = left - 1
        }
    }

    /// The playlist, or an error event saying there is none.
    func playlistOrError(_ command: String) -> PlaylistPlayback? {
        if playlist == nil {
            record(.error(.invalidSetting(name: command, value: "", reason: "there is no Playlist")))
        }
        return playlist
    }

    /// Applies a changed copy of the current stack; an invalid one is reported by the engine
    /// (error event) and the previous stack stays.
    func changeFilters(_ change: (inout FilterStack) -> Void) {
        var stack = engine.filters
        change(&stack)
        try? engine.filterControl.setFilters(stack)
    }

    func seek(to position: Double) {
        lastSeekTarget = engine.seek(to: position)  // emits the `seek` event
        if engine.state == .playing { publisher.start(at: engine.clock.now, interval: applied.timePublishing) }
    }

    /// From the last seek's target while its picture is not shown yet: two `+5` make `+10`.
    func seek(by seconds: Double) {
        seek(to: (engine.isSeeking ? lastSeekTarget ?? engine.position : engine.position) + seconds)
    }

    /// `playlist-pos`: a single source is item 0 of a list of one, already playing.
    func setPlaylistPosition(_ index: Int) {
        guard playlist != nil || index != 0 else { return }
        if let playlist = playlistOrError("playItem") { content.perform(playlist.play(index)) }
    }

    /// `loop-playlist`: mpv's count is of the passes left, this one included; the setting's, of
    /// the list's passes in all. A change of the settings, as the `LoopPlaylist` setting is one.
    /// Applied at once (a command queued after it sees it), and kept in the settings, whose change
    /// then finds nothing more to do.
    func setPlaylistLoops(_ value: PropertyValue) {
        let pass = currentStatus.playlistPass
        let (loops, passes): (Bool, Int?) = switch value {
        case .forever: (true, nil)
        case let .integer(left) where left > 1: (true, pass - 1 + left)
        default: (false, nil)
        }
        (applied.loopPlaylist, applied.loopPlaylistPasses) = (loops, passes)
        if let playlist { content.perform(playlist.setLoops(loops, passes: passes)) }
        player.updateSettings { ($0.loopPlaylist, $0.loopPlaylistPasses) = (loops, passes) }
    }

    /// Applies every changed setting; invalid settings are reported and the old ones kept.
    private func apply(_ settings: VideoSettings, version: Int) {
        appliedVersion = version
        do {
            try settings.validate()
        } catch {
            record(.error(error))
            return
        }
        let previous = applied
        applied = settings
        if settings.events != previous.events { batcher.selection = settings.events }
        if settings.gravity != previous.gravity { engine.screen.setGravity(settings.gravity) }
        // The properties the settings carry (looping, mute, volume, the turn): validated above.
        for property in PlayerProperty.all {
            guard let value = property.setting?(settings), value != property.setting?(previous),
                  !leavesTheTimeline(property, value, currentStatus, shown: false) else { continue }
            property.write?(value, self)
        }
        if settings.timePublishing != previous.timePublishing {
            if engine.state == .playing { publisher.start(at: engine.clock.now, interval: settings.timePublishing) }
        }
        if settings.exclusiveGroup != previous.exclusiveGroup {
            ExclusivePlaybackRegistry.join(player, group: settings.exclusiveGroup)
        }
        if settings.filters != previous.filters || settings.brightness != previous.brightness
            || settings.contrast != previous.contrast {
            // The settings describe the whole stack: filters added by commands are replaced.
            try? engine.filterControl.setFilters(settings.filterStack)
        }
        if settings.subtitles != previous.subtitles, let value = settings.subtitles,
           !SubtitleOptions.namesFile(value) {
            try? engine.screen.setSubtitles(.language(value))  // a new file is loaded with the next source
        }
        if settings.errorColor != previous.errorColor || settings.errorFontSize != previous.errorFontSize {
            engine.screen.setErrorStyle(color: settings.errorColor, fontSize: settings.errorFontSize, failure: engine.failure)
        }
        if settings.networkOptions != previous.networkOptions { engine.setNetworkOptions(settings.networkOptions) }
        if settings.pictureInPicture != previous.pictureInPicture { engine.screen.setPictureInPicture(settings.pictureInPicture) }
        if settings.syncEpoch != previous.syncEpoch {
            engine.setSyncTimeline(settings.syncEpoch.map(SharedTimeline.init(epoch:)))
            // A playlist goes on the timeline's schedule (its lengths read first), or off it.
            if playlist != nil { content.play(settings) }
        }
        if let changed = settings.schedule, changed != previous.schedule { content.replaceSchedule(changed) }
        engine.screen.watchPictures(settings.pictureAlerts.thresholds)
        if settings.frameCacheMegabytes != previous.frameCacheMegabytes {
            engine.setFrameCache(bytes: settings.frameCacheMegabytes << 20)
        }
        if !settings.sameVectorLayers(as: previous) {
            engine.screen.removeAllVectors()
            settings.vectorLayers.forEach { engine.screen.addVector($0) }
        }
        if (settings.schedule == nil) != (previous.schedule == nil) {
            content.play(settings)
        } else if settings.schedule != nil {
            // The schedule says what plays; a source or list given meanwhile plays until its next change.
            if settings.sourceName != previous.sourceName || settings.playlist != previous.playlist { content.playOverride(settings) }
        } else if playlist == nil, previous.playlist.isEmpty, settings.ext == previous.ext, settings.playlist.count > 1,
           settings.playlist.first == previous.sourceName, engine.location != nil, !engine.isFailed, settings.syncEpoch == nil {
            content.play(settings, keepingCurrent: true)  // one source became a list starting with it: it plays on
        } else if settings.playlist != previous.playlist || settings.ext != previous.ext
            || (settings.playlist.isEmpty && settings.sourceName != previous.sourceName) {
            content.play(settings)
        } else if settings.loopPlaylist != previous.loopPlaylist || settings.loopPlaylistPasses != previous.loopPlaylistPasses {
            if let playlist { content.perform(playlist.setLoops(settings.loopPlaylist, passes: settings.loopPlaylistPasses)) }
        }
    }

    /// A source or a list given while a schedule played (`loadfile`) went with the schedule's change:
    /// the same `loadfile` later plays it again.
    private func forgetOverrideSource() {
        guard applied.sourceName != nil || !applied.playlist.isEmpty else { return }
        (applied.sourceName, applied.playlist) = (nil, [])
        player.updateSettings { ($0.sourceName, $0.playlist) = (nil, []) }
    }

    private func stateChanged(_ state: PlayerState) {
        let resumedAfterBuffering = previousState == .buffering
        previousState = state
        let (handlers, continuations) = player.shared.withLock {
            $0.state = state
            return ($0.stateHandlers, Array($0.stateContinuations.values))
        }
        handlers.forEach { $0(state) }
        continuations.forEach { $0.yield(state) }
        switch state {
        case .playing:
            if !publisher.isRunning { publisher.start(at: engine.clock.now, interval: applied.timePublishing) }
            if !resumedAfterBuffering { ExclusivePlaybackRegistry.claim(by: player) }
        case .paused:
            // Published while paused too, as the model does: a host's progress bar stays alive.
            if !publisher.isRunning { publisher.start(at: engine.clock.now, interval: applied.timePublishing) }
        case .ended, .failed, .idle, .ready:
            publisher.stop()
        case .loading, .buffering:
            break
        }
    }

    // MARK: Delivery

    private func deliver(_ batch: [PlayerEvent]) {
        guard !batch.isEmpty else { return }
        let (handlers, continuations) = player.shared.withLock { ($0.eventHandlers, Array($0.eventContinuations.values)) }
        handlers.forEach { $0(batch) }
        continuations.forEach { $0.yield(batch) }
    }

    private func publish(_ time: Double) {
        let (handlers, continuations) = player.shared.withLock { ($0.timeHandlers, Array($0.timeContinuations.values)) }
        handlers.forEach { $0(time) }
        continuations.forEach { $0.yield(time) }
    }
}
