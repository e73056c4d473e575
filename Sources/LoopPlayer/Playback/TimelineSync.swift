/// A loop on a shared timeline (`SyncTimeline`): the picture is shown when the system clock says,
/// so players on several machines whose clocks chrony or PTP keep in step show the same frame.
/// Owns the timeline followed, the follower's state (`TimelineFollower`, which decides) and a
/// playlist's schedule on it; is told the item playing (`item`), reads the clocks,
/// performs what the follower returns on them and the sound device, and says what it has to say
/// in the engine's outbox. Engine thread only.
///
/// - The picture is not moved by the sound's clock: the sound is moved to the picture at a join,
///   then resampled slightly faster or slower to stay on the timeline (`SoundDriftCorrector`).
/// - `sync` events say when a frame was shown more than a frame interval off the timeline, and when
///   it is back in step; `--stats-json` has the offsets.
package final class TimelineSync {
    /// The timeline followed (nil: the player's own clock).
    package private(set) var timeline: SharedTimeline?
    /// The item playing (the engine's current item).
    weak var item: PlaybackItem?
    /// A playlist on the timeline: its schedule and the current item's place in it (the playlist
    /// says which item is current).
    private var schedule: (schedule: TimelineSchedule, item: Int)?
    private var follower = TimelineFollower()
    private let sound: SoundOutput
    private let clock: PlaybackClock
    private let systemClock: any SystemClock
    private let outbox: EngineOutbox
    /// Wakes the engine's loop (a new schedule is acted on at once).
    private let wake: @Sendable () -> Void

    init(timeline: SharedTimeline?, sound: SoundOutput, clock: PlaybackClock, systemClock: any SystemClock,
         outbox: EngineOutbox, wake: @escaping @Sendable () -> Void) {
        self.timeline = timeline
        self.sound = sound
        self.clock = clock
        self.systemClock = systemClock
        self.outbox = outbox
        self.wake = wake
    }

    /// The player follows a shared timeline (it joined it).
    var isSynced: Bool { timeline != nil && follower.isJoined }

    /// The sound's correction against the timeline (`PlaybackStatistics.syncSoundCorrectionPpm`).
    var soundDrift: Double { follower.soundCorrector.drift }

    /// On a real clock the system clock is looked at twice a second even during a long wait (for
    /// the epoch): a step of it (a first NTP sync after boot) is seen at once.
    var nextClockCheck: Double? { timeline != nil && !clock.isVirtual ? clock.now + 0.5 : nil }

    /// Follows `timeline` from now on (nil: the player's own clock again), joining afresh.
    func follow(_ timeline: SharedTimeline?, presenter: Presenter?) {
        self.timeline = timeline
        follower = TimelineFollower()
        if timeline == nil {
            sound.rateCorrection = nil
            presenter?.unpin()
        }
    }

    /// Follows `schedule` (a playlist on the timeline) with `item` current; nil: a single loop.
    package func follow(schedule: TimelineSchedule?, item index: Int) {
        self.schedule = schedule.map { ($0, index) }
        follower.scheduleChanged()
        wake()
    }

    /// A queued item took over: it is the schedule's item `index` now.
    func scheduleAdvanced(to index: Int) { schedule?.item = index }

    /// A new source: it joins afresh.
    func forgetJoin() { follower.join = nil }

    /// The sound was moved to the picture now: readings against the timeline wait for the move.
    func soundMoved() { follower.soundCorrector.moved(at: clock.now) }

    /// Joined a timeline whose epoch is still to come, the first picture decoded and waiting for it
    /// (the source opened and decodes: the player is up).
    var isWaitingForEpoch: Bool {
        guard let timeline, follower.isJoined, item?.pipeline.frames.peek() != nil else { return false }
        return systemClock.now < timeline.epoch
    }

    /// Commands that would take this player off the timeline are refused: it follows one (also while
    /// no item is loaded yet: a synced playlist reads its lengths first), and its source can.
    package var refusesLeaving: Bool {
        timeline != nil && !clock.isVirtual && !follower.refused(item?.location)
    }

    /// A command that would take this player off the timeline (a seek, a playlist step; for a
    /// property, what its value leaves is the property table's to judge): refused with an error
    /// event while the player follows one. True when refused.
    package func refused(_ command: String) -> Bool {
        guard refusesLeaving else { return false }
        outbox.note(.invalidSetting(name: "SyncTimeline", value: command,
                                    reason: "the player follows a shared timeline: every screen would have to do it"))
        return true
    }

    /// Keeps `item` on the timeline: joins it (`seek` goes to the place; false when it cannot), or
    /// moves the pin with the system clock. Called before each presenting decision.
    func keepInStep(_ item: PlaybackItem, presenter: Presenter, length: Double?, playerPass: Int,
                    seek: (_ position: Double, _ pass: Int) -> Bool) {
        guard let timeline, !clock.isVirtual, let info = item.info else { return }
        let moment = TimelineFollower.Moment(
            item: ObjectIdentifier(item), location: item.location, systemNow: systemClock.now, monotonicNow: clock.now,
            length: length, lengthIsExact: item.pipeline.status.loopDuration != nil, generation: presenter.generation,
            isPaused: presenter.isPaused, frameInterval: info.nominalFrameInterval, playerPass: playerPass,
            onScreen: presenter.current.map { ($0.pass, $0.positionInPass) })
        switch follower.step(moment, on: timeline, schedule: schedule) {
        case .hold: break
        case let .pin(pin): presenter.pin(media: pin.media, clock: pin.clock)
        case let .join(plan):
            if let place = plan.seek, !seek(place.position, place.pass) { return }
            join(plan, item: item, presenter: presenter)
        case let .refuse(reason): refuse(reason)
        case let .dropSchedule(refusal):
            schedule = nil
            if let refusal { refuse(refusal) }
        case let .wantItem(index): outbox.report(.scheduleWantsItem(index))
        }
    }

    /// Pins the presenter where the plan says, and has the sound moved to the picture once heard
    /// (the device's latency; more than 5 ms only), resampled from its first sample on.
    private func join(_ plan: TimelineFollower.JoinPlan, item: PlaybackItem, presenter: Presenter) {
        let joined = follower.joined(plan, generation: presenter.generation)
        item.realignPending = true
        if sound.rateCorrection == nil { sound.rateCorrection = joined.soundRate }
        presenter.pin(media: joined.pin.media, clock: joined.pin.clock)
        if let wait = plan.epochIn {
            outbox.emit(.sync(.waitingForEpoch(seconds: wait)))
            logger.notice("waiting \(Int(wait.rounded())) s for the shared timeline's epoch")
        }
    }

    /// After a frame was shown: in step or out of step, said when it changes (`TimelineFollower.frameShown`).
    func frameShown(by presenter: Presenter, frameInterval: Double) {
        guard timeline != nil, let offset = presenter.lastSyncOffset,
              let status = follower.frameShown(offset: offset, frameInterval: frameInterval) else { return }
        if case let .outOfStep(offsetMs) = status, let frame = presenter.current {
            logger.debug("out of step by \(offsetMs) ms: pass \(frame.pass) at \(frame.positionInPass) s (time \(frame.time), generation \(frame.generation))")
        }
        outbox.emit(.sync(status))
    }

    /// Keeps `item`'s sound on the timeline, measured as each frame is shown (`TimelineFollower.soundHeard`).
    func keepSoundOnTimeline(_ item: PlaybackItem?, presenter: Presenter) {
        let now = clock.now
        var offset: Double?
        if isSynced, let item, let timeline = presenter.mediaTimeNow(),
           let heard = item.pipeline.sound.audibleMediaTime(at: now) {
            offset = heard - timeline
        }
        switch follower.soundHeard(offset: offset, moveAfterJoin: item?.realignPending ?? false, at: now) {
        case .hold:
            break
        case let .moveAfterJoin(seconds):
            item?.realignPending = false
            if let seconds { sound.realign(by: seconds) }
        case let .resample(rate, offsetMs):
            sound.rateCorrection = rate
            presenter.recordSyncSoundOffset(ms: offsetMs)
        case let .realign(seconds, offsetMs):
            presenter.recordSyncSoundOffset(ms: offsetMs)
            sound.realign(by: seconds)
        }
    }

    /// The source cannot follow the timeline (said once: the follower decides): it plays on its own clock.
    private func refuse(_ reason: String) {
        sound.rateCorrection = nil
        outbox.note(.invalidSetting(name: "SyncTimeline", value: String(timeline?.epoch ?? 0), reason: reason))
    }
}
