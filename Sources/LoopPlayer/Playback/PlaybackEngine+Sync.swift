/// A loop on a shared timeline (`SyncTimeline`): the picture is shown when the system clock says,
/// so players on several machines whose clocks chrony or PTP keep in step show the same frame.
/// Engine thread only.
///
/// - Joining: before its first frame (and again when the loop's exact length becomes known, the
///   system clock was stepped, or a replaced file's new content takes over), the source seeks to where the timeline will be a moment later and
///   pins the presenter's clock: frame *f* of pass *k* is due at `epoch + k × length + f / fps`.
/// - Each iteration the pin follows the system clock's offset from the monotonic clock (both are
///   slewed alike by NTP; the offset moves when the system clock is stepped, or after a suspend);
///   the picture is not moved by the sound's clock: the sound is moved to the picture at a join,
///   then resampled slightly faster or slower to stay on the timeline (`SoundDriftCorrector`).
/// - `sync` events say when a frame was shown more than a frame interval off the timeline, and when
///   it is back in step; `--stats-json` has the offsets.
extension PlaybackEngine {
    /// Where the current source joined the timeline.
    struct SyncJoin {
        /// The item that joined: another one (a replaced file's new content) joins anew, its length
        /// deciding where it is on the timeline, the same on every screen.
        var item: ObjectIdentifier
        var timeline: SharedTimeline
        /// The loop's length the join used.
        var period: Double
        /// A playlist item's: the system time its slot on the schedule starts (pass 0's start).
        var slotStart: Double?
        /// The timeline's pass the player's pass `playerPass` is.
        var timelinePass: Int
        var playerPass: Int
        /// The system clock minus the monotonic clock at the join.
        var clockOffset: Double
        /// The seek the join made: another seek (an audio track's) joins again.
        var generation: Int
        /// The length was measured (not only announced by the container): offsets are meaningful.
        var lengthIsExact: Bool
    }

    /// The engine's state for following the timeline.
    struct SyncFollowing {
        /// Where the current source joined; nil: not joined (yet, or again).
        var join: SyncJoin?
        /// The last `sync` status said.
        var status: SyncStatus?
        /// The source that cannot follow the timeline (said once).
        var refusedFor: MediaLocation?
        /// How far ahead the next join seeks (longer after a late join).
        var lead = PlaybackEngine.joinLead
        /// Keeps the sound on the timeline; kept across joins and sources (it learns the clocks').
        var soundCorrector = SoundDriftCorrector()
        /// The item the schedule asked the playlist for (asked once).
        var wantedItem: Int?
        /// When (monotonic) the last join for a step of the system clock was made.
        var lastStepJoin: Double?
        /// A system clock running at another rate than the monotonic one was said.
        var saidRunawayClock = false
    }

    /// The system clock may move this much against the monotonic clock (NTP slewing) before a join
    /// is made again (a step: someone set the clock).
    static let clockStepLimit = 0.25
    /// How far ahead of the timeline a join seeks: time to decode from the keyframe before it. A
    /// join that still came late doubles it for the next (a long GOP), up to `longestJoinLead`.
    static let joinLead = 0.4
    static let longestJoinLead = 6.4
    /// Frames this late mean the player cannot catch up by dropping (a stalled network source, a
    /// decoder slower than real time for a while): it joins again.
    static let rejoinLateness = 1.0
    /// Out of step past one frame interval, back in step under half of one (no flapping).
    static let backInStep = 0.5

    /// The player follows a shared timeline.
    var isSynced: Bool { configuration.syncTimeline != nil && sync.join != nil }

    /// Joined a shared timeline whose epoch is still to come, the first picture decoded and waiting
    /// for it (the source opened and decodes: the player is up).
    package var isWaitingForEpoch: Bool {
        guard let timeline = configuration.syncTimeline, sync.join != nil, let item, !isFailed,
              item.pipeline.frames.peek() != nil else { return false }
        return SharedTimeline.systemNow < timeline.epoch
    }

    /// Follows `timeline` from now on (nil: the player's own clock again): playing, at speed 1.
    package func setSyncTimeline(_ timeline: SharedTimeline?) {
        configuration.syncTimeline = timeline
        sync = SyncFollowing()
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
        sync.wantedItem = nil
        waiter.wake()
    }

    /// The queued item is item `index` of the schedule (it is current from its switch on).
    package func queueOnSchedule(_ index: Int?) { queuedScheduleItem = index }

    /// Keeps the current source on the shared timeline: joins it, or moves the pin with the
    /// system clock. Called before each presenting decision.
    func keepInStep() {
        guard let timeline = configuration.syncTimeline, !clock.isVirtual, let item, let presenter = item.presenter,
              let info = item.info, !isFailed else { return }
        if let scheduled = syncSchedule {
            return keepOnSchedule(timeline, scheduled.schedule, index: scheduled.item, item: item, presenter: presenter, info: info)
        }
        guard let period = duration, period.isFinite, period > 0 else {
            refuseSync(for: item, reason: "the source's length is not known (a live stream, or one that does not say it)")
            return
        }
        let systemNow = SharedTimeline.systemNow
        let clockOffset = systemNow - clock.now
        absorbRunawayClock(item, clockOffset: clockOffset)
        if let join = sync.join, join.item == ObjectIdentifier(item), join.timeline == timeline, abs(join.period - period) < 1e-6,
           abs(join.clockOffset - clockOffset) < Self.clockStepLimit, join.generation == presenter.generation,
           !presenter.isPaused {
            // The measured length came, equal to the announced one: the place was right all along.
            if !join.lengthIsExact, item.pipeline.status.loopDuration != nil { sync.join?.lengthIsExact = true }
            pin(presenter, join, clockOffset: clockOffset)
            return
        }
        if presenter.isPaused {  // held: joins afresh when it plays again
            sync.join = nil
            return
        }
        // Join: seek to where the timeline will be once the seek has decoded, then pin. The pass is
        // read once: the seek goes into the pass the pin says.
        let place = timeline.joinPlace(at: systemNow, period: period, lead: sync.lead, lastFrame: info.nominalFrameInterval)
        let playerPass = pictureSpot?.pass ?? 0
        guard seek(to: place.position, inPass: playerPass, announce: false) != nil else { return }
        moveSoundAtJoin(item)
        let join = SyncJoin(item: ObjectIdentifier(item), timeline: timeline, period: period, timelinePass: place.pass,
                            playerPass: playerPass, clockOffset: clockOffset, generation: presenter.generation,
                            lengthIsExact: item.pipeline.status.loopDuration != nil)
        sync.join = join
        sync.status = nil  // said again from this join on
        pin(presenter, join, clockOffset: clockOffset)
        logger.debug("joined the shared timeline: its pass \(place.pass) at \(place.position) s is the player's pass \(playerPass) (length \(period) s)")
        if systemNow < timeline.epoch {
            say(.waitingForEpoch(seconds: timeline.epoch - systemNow))
            logger.notice("waiting \(Int((timeline.epoch - systemNow).rounded())) s for the shared timeline's epoch")
        }
    }

    /// After a frame was shown: in step or out of step, said when it changes (only once the loop's
    /// length is measured: before, the offsets are against a place that may still move). Frames far
    /// behind make the player join again, with a longer lead.
    func noteSyncOffset(_ presenter: Presenter) {
        guard isSynced, let join = sync.join, let offset = presenter.lastSyncOffset,
              let interval = item?.info?.nominalFrameInterval else { return }
        if offset > Self.rejoinLateness {
            sync.lead = min(sync.lead * 2, Self.longestJoinLead)
            sync.join = nil
            logger.notice("\(Int(offset * 1000)) ms behind the shared timeline: joining it again (\(sync.lead) s ahead)")
        }
        guard join.lengthIsExact else { return }
        let offsetMs = (offset * 1000 * 10).rounded() / 10
        if abs(offset) > interval {
            if case .outOfStep? = sync.status { return }
            if let frame = presenter.current {
                logger.debug("out of step by \(offsetMs) ms: pass \(frame.pass) at \(frame.positionInPass) s (time \(frame.time), generation \(frame.generation))")
            }
            say(.outOfStep(offsetMs: offsetMs))
        } else if abs(offset) < interval * Self.backInStep {
            if case .inStep? = sync.status { return }
            sync.lead = Self.joinLead  // a join that came in step: the next may be quick again
            say(.inStep(offsetMs: offsetMs))
        }
    }

    /// At a join the sound is moved to the picture once heard (the device's latency; more than 5 ms
    /// only), and resampled from its first sample on.
    private func moveSoundAtJoin(_ item: PlaybackItem) {
        item.realignPending = true
        if sound.rateCorrection == nil { sound.rateCorrection = sync.soundCorrector.rate }
        sync.soundCorrector.interrupt()
    }

    /// Keeps the sound on the timeline, resampling it slightly faster or slower (a sound card's clock
    /// is not the system clock): measured as each frame is shown, once the sound was moved to the
    /// timeline after the join.
    func keepSoundOnTimeline(_ presenter: Presenter) {
        let now = clock.now
        guard isSynced, let item, let timeline = presenter.mediaTimeNow(),
              let heard = item.pipeline.sound.audibleMediaTime(at: now) else {
            sync.soundCorrector.interrupt()
            return
        }
        let offset = heard - timeline
        if item.realignPending {
            // After a join the sound is moved to the timeline once heard — also when the device
            // already went on to the next item's sound (a playlist item joined near its end: what
            // follows in the ring moves with it).
            item.realignPending = false
            if abs(offset) > 0.005 { sound.realign(by: -offset) }
            sync.soundCorrector.moved(at: now)
            return
        }
        switch sync.soundCorrector.update(offset: offset, at: now) {
        case let .resample(rate):
            sound.rateCorrection = rate
            presenter.recordSyncSoundOffset(ms: offset * 1000)
        case let .realign(seconds):
            logger.debug("the sound is \(Int(offset * 1000)) ms off the shared timeline: moved to it")
            presenter.recordSyncSoundOffset(ms: offset * 1000)
            sound.realign(by: seconds)
        case .hold:
            break
        }
    }

    /// Commands that would take this player off the timeline are refused: it follows one (also while
    /// no item is loaded yet: a synced playlist reads its lengths first), and its source can.
    package var refusesLeavingTheTimeline: Bool {
        configuration.syncTimeline != nil && !clock.isVirtual && !(item != nil && sync.refusedFor == item?.location)
    }

    /// A command that would take this player off the shared timeline (pause, seek, speed, looping
    /// off): refused with an error event. True when refused. A toggle of a paused player plays it,
    /// back onto the timeline: allowed.
    func refusedWhileSynced(_ command: String) -> Bool {
        guard refusesLeavingTheTimeline, !(command == "togglePause" && isPaused) else { return false }
        let error = PlayerError.invalidSetting(name: "SyncTimeline", value: command,
                                               reason: "the player follows a shared timeline: every screen would have to do it")
        record(error)
        emit(.error(error))
        return true
    }

    /// A playlist item on the schedule: it plays in its slot, pass 0 from the slot's start. An item
    /// that comes at its start (the switch from the one before, or the first one waiting for the
    /// epoch) is pinned there as it is; one joined later seeks to where its slot is; one whose slot
    /// this is not makes the playlist play the item that is on now.
    private func keepOnSchedule(_ timeline: SharedTimeline, _ schedule: TimelineSchedule, index: Int, item: PlaybackItem,
                                presenter: Presenter, info: VideoStreamInfo) {
        let systemNow = SharedTimeline.systemNow
        let clockOffset = systemNow - clock.now
        absorbRunawayClock(item, clockOffset: clockOffset)
        if let join = sync.join, join.item == ObjectIdentifier(item), join.timeline == timeline, join.slotStart != nil,
           abs(join.clockOffset - clockOffset) < Self.clockStepLimit, join.generation == presenter.generation,
           !presenter.isPaused {
            pin(presenter, join, clockOffset: clockOffset)
            return
        }
        if presenter.isPaused {
            sync.join = nil
            return
        }
        guard schedule.lengths.indices.contains(index) else {  // the list changed under the schedule
            syncSchedule = nil
            refuseSync(for: item, reason: "the playlist changed after its lengths were read")
            return
        }
        let slot = schedule.currentOrNextStart(of: index, at: systemNow, epoch: timeline.epoch)
        let atItsStart = (presenter.current?.pass ?? 0) == 0 && (presenter.current?.positionInPass ?? 0) < info.nominalFrameInterval * 1.5
        let place = schedule.place(at: systemNow + sync.lead, epoch: timeline.epoch)
        let start: Double
        let dueIn = slot.start - systemNow
        if atItsStart && dueIn > -Self.switchLateness {
            // At its start and its slot to come (the switch from the item before, an item that came
            // early because the one before failed or was shorter, or the epoch ahead): it waits.
            start = slot.start
            // (A switch exactly at the slot's start leaves the sound as it is: under 5 ms.)
            moveSoundAtJoin(item)
        } else if place.item == index, place.position < schedule.lengths[index] - info.nominalFrameInterval {
            guard seek(to: place.position, inPass: 0, announce: false) != nil else { return }
            moveSoundAtJoin(item)
            start = schedule.start(of: index, inCycle: place.cycle, epoch: timeline.epoch)
        } else {
            sync.join = nil
            let wanted = place.item == index ? (index + 1) % schedule.lengths.count : place.item
            if sync.wantedItem != wanted {
                sync.wantedItem = wanted
                logger.debug("the shared timeline is in item \(wanted), not \(index): playing it")
                report(.scheduleWantsItem(wanted))
            }
            return
        }
        let join = SyncJoin(item: ObjectIdentifier(item), timeline: timeline, period: schedule.cycle, slotStart: start,
                            timelinePass: 0, playerPass: 0, clockOffset: clockOffset, generation: presenter.generation,
                            lengthIsExact: true)
        sync.join = join
        sync.status = nil
        sync.wantedItem = nil
        pin(presenter, join, clockOffset: clockOffset)
        logger.debug("item \(index) on the shared timeline from \(start) (cycle of \(schedule.cycle) s)")
        if systemNow < timeline.epoch {
            say(.waitingForEpoch(seconds: timeline.epoch - systemNow))
        }
    }

    /// Steps of the system clock closer together than this are followed without joining again: a
    /// clock that runs at another rate (it stepped again before the join's first frame was due)
    /// would otherwise join again and again, and never show a frame.
    static let stepJoinInterval = 1.0

    /// Before a join is decided: a step of the system clock soon after the last step's join is
    /// taken as the clock's new offset (the picture follows it), and said once.
    private func absorbRunawayClock(_ item: PlaybackItem, clockOffset: Double) {
        guard var join = sync.join, join.item == ObjectIdentifier(item), abs(join.clockOffset - clockOffset) >= Self.clockStepLimit
        else { return }
        guard let last = sync.lastStepJoin, clock.now - last < Self.stepJoinInterval else {
            sync.lastStepJoin = clock.now  // this step's join comes next
            return
        }
        join.clockOffset = clockOffset
        sync.join = join
        if !sync.saidRunawayClock {
            sync.saidRunawayClock = true
            logger.warning("the system clock keeps stepping against the monotonic clock (it runs at another rate): the picture follows it without joining the shared timeline again")
        }
    }

    /// An item at its start whose slot began more than this ago seeks into it (else it is pinned as
    /// it comes, and waits for its slot).
    static let switchLateness = 0.1

    private func pin(_ presenter: Presenter, _ join: SyncJoin, clockOffset: Double) {
        if let slotStart = join.slotStart {
            presenter.pin(media: 0, clock: slotStart - clockOffset)
            return
        }
        // Media time of the player's pass start ↔ the monotonic time the timeline's pass starts.
        presenter.pin(media: Double(join.playerPass) * join.period,
                      clock: join.timeline.start(ofPass: join.timelinePass, period: join.period) - clockOffset)
    }

    private func say(_ status: SyncStatus) {
        sync.status = status
        emit(.sync(status))
    }

    /// The source cannot follow the timeline: said once, and it plays on its own clock.
    private func refuseSync(for item: PlaybackItem, reason: String) {
        guard sync.refusedFor != item.location else { return }
        sync.refusedFor = item.location
        sound.rateCorrection = nil
        let error = PlayerError.invalidSetting(name: "SyncTimeline", value: String(configuration.syncTimeline?.epoch ?? 0),
                                               reason: reason)
        record(error)
        emit(.error(error))
    }
}
