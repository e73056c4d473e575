/// A loop on a shared timeline (`SyncTimeline`): the picture is shown when the system clock says,
/// so players on several machines whose clocks chrony or PTP keep in step show the same frame.
/// `TimelineFollower` (`sync`) decides; this feeds it what the engine sees (the item, the clocks,
/// the frame on screen) and performs what it returns. Engine thread only.
///
/// - The picture is not moved by the sound's clock: the sound is moved to the picture at a join,
///   then resampled slightly faster or slower to stay on the timeline (`SoundDriftCorrector`).
/// - `sync` events say when a frame was shown more than a frame interval off the timeline, and when
///   it is back in step; `--stats-json` has the offsets.
extension PlaybackEngine {
    /// The engine's state for following the timeline (its stored `sync`).
    typealias SyncFollowing = TimelineFollower

    /// The player follows a shared timeline.
    var isSynced: Bool { configuration.syncTimeline != nil && sync.isJoined }

    /// Joined a shared timeline whose epoch is still to come, the first picture decoded and waiting
    /// for it (the source opened and decodes: the player is up).
    package var isWaitingForEpoch: Bool {
        guard let timeline = configuration.syncTimeline, sync.isJoined, let item, !isFailed,
              item.pipeline.frames.peek() != nil else { return false }
        return systemClock.now < timeline.epoch
    }

    /// Follows `timeline` from now on (nil: the player's own clock again): playing, at speed 1.
    package func setSyncTimeline(_ timeline: SharedTimeline?) {
        configuration.syncTimeline = timeline
        sync = TimelineFollower()
        if timeline == nil {
            sound.rateCorrection = nil
            item?.presenter?.unpin()
        } else {
            setSpeed(1)
            setPaused(false)
        }
        waiter.wake()
    }

    /// Follows `schedule` (a playlist on the shared timeline) with `item` current; nil: a single loop.
    package func followSchedule(_ schedule: TimelineSchedule?, item index: Int) {
        syncSchedule = schedule.map { ($0, index) }
        sync.scheduleChanged()
        waiter.wake()
    }

    /// Keeps the current source on the shared timeline: joins it, or moves the pin with the
    /// system clock. Called before each presenting decision.
    func keepInStep() {
        guard let timeline = configuration.syncTimeline, !clock.isVirtual, let item, let presenter = item.presenter,
              let info = item.info, !isFailed else { return }
        let moment = TimelineFollower.Moment(
            item: ObjectIdentifier(item), location: item.location, systemNow: systemClock.now, monotonicNow: clock.now,
            length: duration, lengthIsExact: item.pipeline.status.loopDuration != nil, generation: presenter.generation,
            isPaused: presenter.isPaused, frameInterval: info.nominalFrameInterval, playerPass: pictureSpot?.pass ?? 0,
            onScreen: presenter.current.map { ($0.pass, $0.positionInPass) })
        switch sync.step(moment, on: timeline, schedule: syncSchedule) {
        case .hold: break
        case let .pin(pin): presenter.pin(media: pin.media, clock: pin.clock)
        case let .join(plan): join(plan, item: item, presenter: presenter)
        case let .refuse(reason): refuseSync(reason)
        case let .dropSchedule(refusal):
            syncSchedule = nil
            if let refusal { refuseSync(refusal) }
        case let .wantItem(index): report(.scheduleWantsItem(index))
        }
    }

    /// Seeks where the plan says (nil: the item is pinned where it is), pins the presenter, and has
    /// the sound moved to the picture once heard (the device's latency; more than 5 ms only),
    /// resampled from its first sample on.
    private func join(_ plan: TimelineFollower.JoinPlan, item: PlaybackItem, presenter: Presenter) {
        if let place = plan.seek, seek(to: place.position, inPass: place.pass, announce: false) == nil { return }
        let joined = sync.joined(plan, generation: presenter.generation)
        item.realignPending = true
        if sound.rateCorrection == nil { sound.rateCorrection = joined.soundRate }
        presenter.pin(media: joined.pin.media, clock: joined.pin.clock)
        if let wait = plan.epochIn {
            emit(.sync(.waitingForEpoch(seconds: wait)))
            logger.notice("waiting \(Int(wait.rounded())) s for the shared timeline's epoch")
        }
    }

    /// After a frame was shown: in step or out of step, said when it changes (`TimelineFollower.frameShown`).
    func noteSyncOffset(_ presenter: Presenter) {
        guard configuration.syncTimeline != nil, let offset = presenter.lastSyncOffset,
              let interval = item?.info?.nominalFrameInterval,
              let status = sync.frameShown(offset: offset, frameInterval: interval) else { return }
        if case let .outOfStep(offsetMs) = status, let frame = presenter.current {
            logger.debug("out of step by \(offsetMs) ms: pass \(frame.pass) at \(frame.positionInPass) s (time \(frame.time), generation \(frame.generation))")
        }
        emit(.sync(status))
    }

    /// Keeps the sound on the timeline, measured as each frame is shown (`TimelineFollower.soundHeard`).
    func keepSoundOnTimeline(_ presenter: Presenter) {
        let now = clock.now
        var offset: Double?
        if isSynced, let item, let timeline = presenter.mediaTimeNow(),
           let heard = item.pipeline.sound.audibleMediaTime(at: now) {
            offset = heard - timeline
        }
        switch sync.soundHeard(offset: offset, moveAfterJoin: item?.realignPending ?? false, at: now) {
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

    /// Commands that would take this player off the timeline are refused: it follows one (also while
    /// no item is loaded yet: a synced playlist reads its lengths first), and its source can.
    package var refusesLeavingTheTimeline: Bool {
        configuration.syncTimeline != nil && !clock.isVirtual && !sync.refused(item?.location)
    }

    /// A command that would take this player off the shared timeline (a seek, a playlist step; for a
    /// property, what its value leaves is the property table's to judge): refused with an error
    /// event while the player follows one. True when refused.
    func refusedWhileSynced(_ command: String) -> Bool {
        guard refusesLeavingTheTimeline else { return false }
        let error = PlayerError.invalidSetting(name: "SyncTimeline", value: command,
                                               reason: "the player follows a shared timeline: every screen would have to do it")
        record(error)
        emit(.error(error))
        return true
    }

    /// The source cannot follow the timeline (said once: the follower decides): it plays on its own clock.
    private func refuseSync(_ reason: String) {
        sound.rateCorrection = nil
        let error = PlayerError.invalidSetting(name: "SyncTimeline", value: String(configuration.syncTimeline?.epoch ?? 0),
                                               reason: reason)
        record(error)
        emit(.error(error))
    }
}
