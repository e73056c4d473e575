/// What a playlist asks of the engine; `ContentPlayback` carries it out, and hands the playlist what
/// the engine reports. The playlist holds no engine: values in, requests out.
enum PlaylistRequest {
    /// Play `source` now (a failure is the engine's to show); once it loads, tell `loaded()`.
    case load(String, ext: String)
    /// Open `location` as the next item, for a gapless switch; on a schedule, into slot `scheduleItem`.
    case queue(MediaLocation, scheduleItem: Int?)
    case dropQueued
    /// Switch to the queued item now; if none can play, play item `orElse` (in order; nil: nothing).
    case playQueuedNow(orElse: Int?)
    /// Follow `schedule` (nil: none) with the current item in slot `item`.
    case followSchedule(TimelineSchedule?, item: Int)
    /// Sources from now on end their sound with their picture (a playlist's items) or not.
    case endSoundWithPicture(Bool)
    /// The lengths could not be read: off the shared timeline.
    case leaveTimeline
    /// Nothing is left to play.
    case unload
    /// Wake the loop (a failed player's loop sleeps until something happens).
    case wake
    /// Count this error (the playlist told it as an event when it happened).
    case count(PlayerError)
}

/// Plays a `Playlist`: loads the current item and queues the next one (the engine opens it at once
/// and switches to it without a gap), follows the engine's switches and failures (a failing item is
/// skipped with its error event; a list whose every item fails stops), and performs the playlist
/// commands. Each entry point returns what it asks of the engine. Run thread only.
final class PlaylistPlayback {
    private(set) var state: PlaylistState

    /// The item playing or about to (nil once the last one was removed).
    var currentItem: String? { state.items.indices.contains(state.current) ? state.items[state.current] : nil }
    private let ext: String
    /// Events for the player's batches.
    private let emit: (PlayerEvent) -> Void
    /// The current item loops (`Loop`, the L key): nothing is queued after it.
    private var itemLoops: Bool
    /// The shared timeline the list may be scheduled on (nil: its own clock; also on a virtual clock).
    private let timeline: SharedTimeline?
    /// The item the engine has queued.
    private var queuedIndex: Int?
    /// The current item failed and the next one plays at the next iteration.
    private(set) var skipPending = false
    private var endAnnounced = false
    /// On a shared timeline: the items' lengths being read, then the schedule they make.
    private var probe: ScheduleProbe?
    private var schedule: TimelineSchedule?
    /// What the entry point being run asks of the engine.
    private var requests: [PlaylistRequest] = []

    init(items: [String], loops: Bool, passes: Int? = nil, ext: String, itemLoops: Bool, timeline: SharedTimeline?,
         emit: @escaping (PlayerEvent) -> Void) {
        state = PlaylistState(items: items, loops: loops, passes: passes)
        self.ext = ext
        self.itemLoops = itemLoops
        self.timeline = timeline
        self.emit = emit
    }

    /// What was asked since the last call.
    private func taken() -> [PlaylistRequest] {
        defer { requests.removeAll() }
        return requests
    }

    /// Sources loaded from now on are the list's items.
    func attach() -> [PlaylistRequest] { [.endSoundWithPicture(true)] }

    /// Detaches from the engine (the settings no longer name a playlist).
    func detach() -> [PlaylistRequest] {
        stopReadingLengths()
        return [.followSchedule(nil, item: 0), .endSoundWithPicture(false), .dropQueued]
    }

    /// The run ends: the lengths are no longer read.
    func stopReadingLengths() {
        probe?.cancel()
        probe = nil
    }

    /// Plays the list: from its first item, or on a shared timeline from the item the timeline is
    /// in, once every item's length is read (on a thread that wakes the loop with `wake`; `tick`
    /// picks the schedule up).
    func start(wake: @escaping @Sendable () -> Void) -> [PlaylistRequest] {
        guard timeline != nil else { return play(0) }
        state.loops = true  // the schedule repeats the list
        probe = ScheduleProbe(items: state.items, ext: ext, wake: wake)
        return []
    }

    /// The lengths are read: the item the timeline is in (a moment ahead of `systemNow`) plays.
    private func startOnSchedule(_ outcome: ScheduleProbe.Outcome, systemNow: Double) {
        probe = nil
        switch outcome {
        case let .schedule(schedule):
            self.schedule = schedule
            guard let timeline else { return playing(0) }
            playing(schedule.place(at: systemNow + TimelineFollower.joinLead, epoch: timeline.epoch).item)
        case let .failed(error):
            // Said, and the list plays on its own clock (off the timeline).
            emit(.error(error))
            requests += [.count(error), .leaveTimeline]
            playing(0)
        }
    }

    /// Plays item `index` now (the first at the start).
    func play(_ index: Int, inOrder: Bool = false) -> [PlaylistRequest] {
        playing(index, inOrder: inOrder)
        return taken()
    }

    private func playing(_ index: Int, inOrder: Bool = false) {
        guard state.move(to: index, inOrder: inOrder) else {
            emit(.error(.invalidSetting(name: "playItem", value: "\(index)",
                                        reason: "the playlist has \(state.items.count) items")))
            return
        }
        skipPending = false
        endAnnounced = false
        queuedIndex = nil
        if let schedule { requests.append(.followSchedule(schedule, item: index)) }
        emit(.playlistItemChanged(index: index))
        requests.append(.load(state.items[index], ext: ext))
    }

    /// The item `load` asked for is loading: the one after it is queued.
    func loaded() -> [PlaylistRequest] {
        queueFollowing()
        return taken()
    }

    /// Starts the list on its first item, which is the source already playing (a single source became
    /// a list): it plays on, and the next item is queued.
    func continueWithCurrent() -> [PlaylistRequest] {
        state.move(to: 0)
        emit(.playlistItemChanged(index: 0))
        queueFollowing()
        return taken()
    }

    /// `retry()` after the list stopped on a failure: the item that failed plays again (not the
    /// first), and the failures before it no longer count.
    func retry() -> [PlaylistRequest] {
        state.forgetFailures()
        return play(state.current)
    }

    /// The next item now (nothing after the last one unless the list loops): the queued one, which
    /// is past any item that already failed.
    func next() -> [PlaylistRequest] {
        stepForward()
        return taken()
    }

    private func stepForward() {
        let next = state.nextIndex
        guard queuedIndex == nil else { return requests.append(.playQueuedNow(orElse: next)) }
        if let next { playing(next, inOrder: true) }
    }

    /// `LoopPlaylist` changed while playing: the list goes on where it is.
    func setLoops(_ loops: Bool, passes: Int? = nil) -> [PlaylistRequest] {
        guard loops != state.loops || passes != state.passes else { return [] }
        state.loops = loops
        state.passes = passes
        queueFollowing()
        return taken()
    }

    func previous() -> [PlaylistRequest] { play(state.previousIndex) }

    /// Inserts `source`; the item playing stays (its index is announced again if it moved).
    func insert(_ source: String, at index: Int) -> [PlaylistRequest] {
        let before = state.current
        state.insert(source, at: index)
        if state.current != before { emit(.playlistItemChanged(index: state.current)) }
        queueFollowing()  // the item after the current one may be another now
        return taken()
    }

    func remove(at index: Int) -> [PlaylistRequest] {
        let before = state.current
        switch state.remove(at: index) {
        case .outside:
            emit(.error(.invalidSetting(name: "remove", value: "\(index)",
                                        reason: "the playlist has \(state.items.count) items")))
        case .other:
            if state.current != before { emit(.playlistItemChanged(index: state.current)) }
            queueFollowing()
        case let .current(next?):
            playing(next)
        case .current(next: nil):
            requests.append(.unload)
            announceEnd()
        }
        return taken()
    }

    /// Every item but the current one goes (mpv's `playlist-clear`); it plays on.
    func removeAllButCurrent() -> [PlaylistRequest] {
        let before = state.current
        state.removeAllButCurrent()
        if state.current != before { emit(.playlistItemChanged(index: state.current)) }
        queueFollowing()
        return taken()
    }

    // MARK: What the engine reports

    /// What the engine reported after an iteration.
    func handle(_ event: EngineEvent) -> [PlaylistRequest] {
        switch event {
        case .stateChanged(let state): stateChanged(state)
        case .advanced: advanced()
        case .queuedItemFailed: queuedItemFailed()
        case let .scheduleWantsItem(index): playing(index)
        // The item after the new one opens once the switch has settled: opening it competes with
        // the switch's first frame for the CPU.
        case .switchSettled, .queueDropped: queueFollowing()
        // Looping the current item (`Loop`, the L key) makes a queued next item pointless, and
        // stopping it queues one.
        case let .loopingChanged(looping):
            itemLoops = looping
            queueFollowing()
        case .player, .opened, .keyPressed: break
        }
        return taken()
    }

    /// Engine state changes: an item that plays ends a failure streak; one that fails is skipped
    /// (at the next iteration); the last one ending ends the list.
    private func stateChanged(_ playerState: PlayerState) {
        switch playerState {
        case .playing:
            state.played()
        case .failed:
            skipPending = state.failed() && (queuedIndex != nil || state.nextIndex != nil)
            if skipPending { requests.append(.wake) }  // nothing else may wake a failed player's loop
        case .ended:
            if queuedIndex == nil { announceEnd() }
        default:
            break
        }
    }

    /// Every iteration: the schedule once the lengths are read, and a skip decided when the item failed.
    func tick(systemNow: Double) -> [PlaylistRequest] {
        if let outcome = probe?.result { startOnSchedule(outcome, systemNow: systemNow) }
        if skipPending {
            skipPending = false
            stepForward()
        }
        return taken()
    }

    private func advanced() {
        if let queuedIndex { state.move(to: queuedIndex, inOrder: true) }
        queuedIndex = nil
        if let schedule { requests.append(.followSchedule(schedule, item: state.current)) }
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
        requests.append(.dropQueued)
        guard !itemLoops, let next = state.nextIndex else { return }
        queue(next)
    }

    private func queue(_ index: Int) {
        queuedIndex = index
        do {
            requests.append(.queue(try SourceResolver.standard().resolve(state.items[index], ext: ext),
                                   scheduleItem: schedule == nil ? nil : index))
        } catch {
            emit(.error(error))
            requests.append(.count(error))
            queuedItemFailed()
        }
    }

    private func announceEnd() {
        guard !endAnnounced else { return }
        endAnnounced = true
        emit(.playlistEnded)
    }
}
