/// Plays a `Playlist` on an engine: loads the current item and queues the next one (the engine
/// opens it at once and switches to it without a gap), follows the engine's switches and failures
/// (a failing item is skipped with its error event; a list whose every item fails stops), and
/// performs the playlist commands. Run thread only.
final class PlaylistPlayback {
    private(set) var state: PlaylistState

    /// The item playing or about to (nil once the last one was removed).
    var currentItem: String? { state.items.indices.contains(state.current) ? state.items[state.current] : nil }
    private let engine: PlaybackEngine
    private let ext: String
    /// Events for the player's batches.
    private let emit: (PlayerEvent) -> Void
    /// The item the engine has queued.
    private var queuedIndex: Int?
    /// The current item failed and the next one plays at the next iteration.
    private(set) var skipPending = false
    private var endAnnounced = false
    /// On a shared timeline: the items' lengths being read, then the schedule they make.
    private var probe: ScheduleProbe?
    private var schedule: TimelineSchedule?

    init(items: [String], loops: Bool, passes: Int? = nil, ext: String, engine: PlaybackEngine,
         emit: @escaping (PlayerEvent) -> Void) {
        state = PlaylistState(items: items, loops: loops, passes: passes)
        self.engine = engine
        self.ext = ext
        self.emit = emit
        engine.endsSoundWithPicture = true
    }

    /// Detaches from the engine (the settings no longer name a playlist).
    func detach() {
        stopReadingLengths()
        engine.followSchedule(nil, item: 0)
        engine.endsSoundWithPicture = false
        engine.dropQueued()
    }

    /// The run ends: the lengths are no longer read.
    func stopReadingLengths() {
        probe?.cancel()
        probe = nil
    }

    /// Plays the list: from its first item, or on a shared timeline from the item the timeline is
    /// in, once every item's length is read (on a thread; `tick` picks the schedule up).
    func start() {
        guard engine.configuration.syncTimeline != nil, !engine.clock.isVirtual else { return play(0) }
        state.loops = true  // the schedule repeats the list
        probe = ScheduleProbe(items: state.items, ext: ext, wake: engine.waiter.wake)
    }

    /// The lengths are read: the item the timeline is in (a moment ahead) plays.
    private func startOnSchedule(_ outcome: ScheduleProbe.Outcome) {
        probe = nil
        switch outcome {
        case let .schedule(schedule):
            self.schedule = schedule
            guard let timeline = engine.configuration.syncTimeline else { return play(0) }
            play(schedule.place(at: SharedTimeline.systemNow + PlaybackEngine.joinLead, epoch: timeline.epoch).item)
        case let .failed(error):
            // Said, and the list plays on its own clock (off the timeline).
            engine.record(error)
            emit(.error(error))
            engine.setSyncTimeline(nil)
            play(0)
        }
    }

    /// Plays item `index` now (the first at the start).
    func play(_ index: Int, inOrder: Bool = false) {
        guard state.move(to: index, inOrder: inOrder) else {
            emit(.error(.invalidSetting(name: "playItem", value: "\(index)",
                                        reason: "the playlist has \(state.items.count) items")))
            return
        }
        skipPending = false
        endAnnounced = false
        queuedIndex = nil
        if let schedule { engine.followSchedule(schedule, item: index) }
        emit(.playlistItemChanged(index: index))
        // A failure is shown and sent by the engine; its state change then skips to the next item.
        let loading = (try? engine.load(state.items[index], ext: ext)) != nil
        engine.setHoldsFirstFrame(false)  // `NotAutoPlay` holds the first item only
        if loading { queueFollowing() }
    }

    /// Starts the list on its first item, which is the source already playing (a single source became
    /// a list): it plays on, and the next item is queued.
    func continueWithCurrent() {
        state.move(to: 0)
        emit(.playlistItemChanged(index: 0))
        queueFollowing()
    }

    /// `retry()` after the list stopped on a failure: the item that failed plays again (not the
    /// first), and the failures before it no longer count.
    func retry() {
        state.forgetFailures()
        play(state.current)
    }

    /// The next item now (nothing after the last one unless the list loops): the queued one, which
    /// is past any item that already failed.
    func next() {
        if queuedIndex != nil, engine.playQueuedNow() { return }
        guard let next = state.nextIndex else { return }
        play(next, inOrder: true)
    }

    /// `LoopPlaylist` changed while playing: the list goes on where it is.
    func setLoops(_ loops: Bool, passes: Int? = nil) {
        guard loops != state.loops || passes != state.passes else { return }
        state.loops = loops
        state.passes = passes
        queueFollowing()
    }

    func previous() { play(state.previousIndex) }

    /// Inserts `source`; the item playing stays (its index is announced again if it moved).
    func insert(_ source: String, at index: Int) {
        let before = state.current
        state.insert(source, at: index)
        if state.current != before { emit(.playlistItemChanged(index: state.current)) }
        queueFollowing()  // the item after the current one may be another now
    }

    func remove(at index: Int) {
        let before = state.current
        switch state.remove(at: index) {
        case .outside:
            emit(.error(.invalidSetting(name: "remove", value: "\(index)",
                                        reason: "the playlist has \(state.items.count) items")))
        case .other:
            if state.current != before { emit(.playlistItemChanged(index: state.current)) }
            queueFollowing()
        case let .current(next?):
            play(next)
        case .current(next: nil):
            engine.unload()
            announceEnd()
        }
    }

    /// Every item but the current one goes (mpv's `playlist-clear`); it plays on.
    func removeAllButCurrent() {
        let before = state.current
        state.removeAllButCurrent()
        if state.current != before { emit(.playlistItemChanged(index: state.current)) }
        queueFollowing()
    }

    // MARK: What the engine reports

    /// What the engine reported after an iteration.
    func handle(_ event: EngineEvent) {
        switch event {
        case .stateChanged(let state): stateChanged(state)
        case .advanced: advanced()
        case .queuedItemFailed: queuedItemFailed()
        case let .stepRequested(step): step > 0 ? next() : previous()
        case let .scheduleWantsItem(index): play(index)
        // The item after the new one opens once the switch has settled: opening it competes with
        // the switch's first frame for the CPU.
        case .switchSettled, .queueDropped: queueFollowing()
        // Looping the current item (`Loop`, the L key) makes a queued next item pointless, and
        // stopping it queues one.
        case .loopingChanged: queueFollowing()
        case .player, .opened: break
        }
    }

    /// Engine state changes: an item that plays ends a failure streak; one that fails is skipped
    /// (at the next iteration); the last one ending ends the list.
    private func stateChanged(_ playerState: PlayerState) {
        switch playerState {
        case .playing:
            state.played()
        case .failed:
            skipPending = state.failed() && (queuedIndex != nil || state.nextIndex != nil)
            if skipPending { engine.waiter.wake() }  // nothing else may wake a failed player's loop
        case .ended:
            if queuedIndex == nil { announceEnd() }
        default:
            break
        }
    }

    /// Every iteration: performs a skip decided when the item failed.
    func tick() {
        if let outcome = probe?.result { startOnSchedule(outcome) }
        guard skipPending else { return }
        skipPending = false
        next()
    }

    private func advanced() {
        if let queuedIndex { state.move(to: queuedIndex, inOrder: true) }
        queuedIndex = nil
        if let schedule { engine.followSchedule(schedule, item: state.current) }
        state.played()
        emit(.playlistItemChanged(index: state.current))
    }

    private func queuedItemFailed() {
        let failed = queuedIndex
        queuedIndex = nil
        guard state.failed(), let failed, let following = state.index(after: failed) else { return }
        queue(following)
    }

    // MARK: Queueing

    private func queueFollowing() {
        queuedIndex = nil
        engine.dropQueued()
        guard !engine.configuration.looping, let next = state.nextIndex else { return }
        queue(next)
    }

    private func queue(_ index: Int) {
        queuedIndex = index
        do {
            engine.queueNext(try SourceResolver.standard().resolve(state.items[index], ext: ext))
            if schedule != nil { engine.queueOnSchedule(index) }
        } catch {
            engine.record(error)
            emit(.error(error))
            queuedItemFailed()
        }
    }

    private func announceEnd() {
        guard !endAnnounced else { return }
        endAnnounced = true
        emit(.playlistEnded)
    }
}
