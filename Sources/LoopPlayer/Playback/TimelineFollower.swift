/// Follows a shared timeline (`SyncTimeline`) for the engine: values in, what to do out — where to
/// join, when to join again (the system clock stepped, frames far behind, a seek of its own), when
/// to say out of step and back in step, which item a playlist's schedule wants, how to keep the
/// sound on the timeline. The engine performs what it returns (`PlaybackEngine+Sync`). Pure: the
/// clocks are read by the engine and handed in.
///
/// - Joining: the source seeks to where the timeline will be `lead` seconds later, and the
///   presenter's clock is pinned: frame *f* of pass *k* is due at `epoch + k × length + f / fps`.
/// - Following: the pin moves with the system clock's offset from the monotonic clock (both slewed
///   alike by NTP; the offset moves when the system clock is stepped, or after a suspend).
struct TimelineFollower {
    /// Where the current source joined the timeline.
    struct Join: Equatable {
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

        /// The presenter's pin: the media time of the player's pass start at the monotonic time the
        /// timeline's pass (or the item's slot) starts.
        func pin(clockOffset: Double) -> Pin {
            if let slotStart { return Pin(media: 0, clock: slotStart - clockOffset) }
            return Pin(media: Double(playerPass) * period,
                       clock: timeline.start(ofPass: timelinePass, period: period) - clockOffset)
        }
    }

    /// Media time `media` is shown at monotonic time `clock`.
    struct Pin: Equatable {
        var media: Double
        var clock: Double
    }

    /// The source and the clocks as the engine sees them before a presenting decision.
    struct Moment {
        var item: ObjectIdentifier
        var location: MediaLocation
        /// `SystemClock.now` and the engine's monotonic `clock.now`, read together.
        var systemNow: Double
        var monotonicNow: Double
        /// The loop's length (measured, or announced by the container); nil: not known.
        var length: Double?
        var lengthIsExact: Bool
        /// The presenter's generation (the last seek's) and whether it is held.
        var generation: Int
        var isPaused: Bool
        var frameInterval: Double
        /// The pass the picture is in (the pass a join seeks in).
        var playerPass: Int
        /// The frame on screen: its pass and position (nil: none yet).
        var onScreen: (pass: Int, position: Double)?

        var clockOffset: Double { systemNow - monotonicNow }
    }

    /// A join to make: seek (when `seek` is set), then `joined(_:generation:)`.
    struct JoinPlan: Equatable {
        /// Where the source seeks to; nil: it is pinned where it is (an item at its slot's start).
        var seek: (position: Double, pass: Int)?
        var join: Join
        /// The epoch is still this far ahead.
        var epochIn: Double?
        /// The playlist item joining its slot (nil: a single loop).
        var scheduleItem: Int?
        /// The system time the join was decided at (said in the log: what a test checks against).
        var decidedAt: Double

        static func == (lhs: JoinPlan, rhs: JoinPlan) -> Bool {
            lhs.seek?.position == rhs.seek?.position && lhs.seek?.pass == rhs.seek?.pass && lhs.join == rhs.join
                && lhs.epochIn == rhs.epochIn && lhs.scheduleItem == rhs.scheduleItem && lhs.decidedAt == rhs.decidedAt
        }
    }

    /// What the engine does before presenting.
    enum Step: Equatable {
        /// Nothing (not joined while held; waiting for a schedule's item).
        case hold
        /// Joined: the presenter is pinned here.
        case pin(Pin)
        case join(JoinPlan)
        /// The source cannot follow the timeline: said once, it plays on its own clock.
        case refuse(reason: String)
        /// The playlist changed under its schedule: the schedule goes, and the source is refused
        /// (`refusal`, said once; nil: said before).
        case dropSchedule(refusal: String?)
        /// The timeline is in another playlist item: the playlist plays it (asked once).
        case wantItem(Int)
    }

    /// What keeps the sound on the timeline after a frame was shown.
    enum SoundStep: Equatable {
        case hold
        /// The first reading after a join: moved to the timeline by this (nil: under 5 ms, left).
        case moveAfterJoin(by: Double?)
        case resample(rate: Double, offsetMs: Double)
        case realign(by: Double, offsetMs: Double)
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
    /// Steps of the system clock closer together than this are followed without joining again: a
    /// clock that runs at another rate (it stepped again before the join's first frame was due)
    /// would otherwise join again and again, and never show a frame.
    static let stepJoinInterval = 1.0
    /// An item at its start whose slot began more than this ago seeks into it (else it is pinned as
    /// it comes, and waits for its slot).
    static let switchLateness = 0.1

    /// Where the current source joined; nil: not joined (yet, or again).
    var join: Join?
    /// The last `sync` status said.
    private(set) var status: SyncStatus?
    /// The source that cannot follow the timeline (said once).
    private(set) var refusedFor: MediaLocation?
    /// How far ahead the next join seeks (longer after a late join).
    private(set) var lead = Self.joinLead
    /// Keeps the sound on the timeline; kept across joins and sources (it learns the clocks').
    var soundCorrector = SoundDriftCorrector()
    /// The item the schedule asked the playlist for (asked once).
    private(set) var wantedItem: Int?
    /// When (monotonic) the last join for a step of the system clock was made.
    private var lastStepJoin: Double?
    /// A system clock running at another rate than the monotonic one was said.
    private(set) var saidRunawayClock = false

    /// Joined, so following the timeline.
    var isJoined: Bool { join != nil }

    /// The schedule changed (another one, or another item current): its item is asked for anew.
    mutating func scheduleChanged() { wantedItem = nil }

    /// Keeps a single loop (`schedule` nil) or a playlist item of `schedule` (at `index`) on
    /// `timeline`: joins it, or follows the system clock's offset.
    mutating func step(_ moment: Moment, on timeline: SharedTimeline,
                       schedule: (schedule: TimelineSchedule, item: Int)?) -> Step {
        if let schedule { return stepOnSchedule(moment, on: timeline, schedule.schedule, index: schedule.item) }
        guard let period = moment.length, period.isFinite, period > 0 else {
            return refuse(moment, reason: "the source's length is not known (a live stream, or one that does not say it)")
        }
        absorbRunawayClock(moment)
        if let join, join.item == moment.item, join.timeline == timeline, abs(join.period - period) < 1e-6,
           isHolding(join, moment) {
            // The measured length came, equal to the announced one: the place was right all along.
            if !join.lengthIsExact, moment.lengthIsExact { self.join?.lengthIsExact = true }
            return .pin(join.pin(clockOffset: moment.clockOffset))
        }
        if moment.isPaused {  // held: joins afresh when it plays again
            join = nil
            return .hold
        }
        // At its start as the timeline's epoch comes (a schedule's change at its instant, the item
        // taken over there): it is where the timeline is, and joins without a seek.
        let atItsStart = (moment.onScreen?.pass ?? 0) == 0 && (moment.onScreen?.position ?? 0) < moment.frameInterval * 1.5
        let sinceEpoch = moment.systemNow - timeline.epoch
        if atItsStart, moment.playerPass == 0, sinceEpoch > -moment.frameInterval, sinceEpoch < Self.switchLateness {
            let join = Join(item: moment.item, timeline: timeline, period: period, timelinePass: 0, playerPass: 0,
                            clockOffset: moment.clockOffset, generation: moment.generation, lengthIsExact: moment.lengthIsExact)
            return .join(JoinPlan(seek: nil, join: join, epochIn: nil, decidedAt: moment.systemNow))
        }
        // Seek to where the timeline will be once the seek has decoded. The pass is read once: the
        // seek goes into the pass the pin says.
        let place = timeline.joinPlace(at: moment.systemNow, period: period, lead: lead, lastFrame: moment.frameInterval)
        let join = Join(item: moment.item, timeline: timeline, period: period, timelinePass: place.pass,
                        playerPass: moment.playerPass, clockOffset: moment.clockOffset, generation: moment.generation,
                        lengthIsExact: moment.lengthIsExact)
        return .join(JoinPlan(seek: (place.position, moment.playerPass), join: join, epochIn: epochIn(moment, timeline),
                              decidedAt: moment.systemNow))
    }

    /// The join was made (after its seek, if any): the presenter's generation is now `generation`.
    /// Returns the pin, and the rate the sound is resampled at from its first sample on (it is
    /// moved to the picture once heard: the engine marks it).
    mutating func joined(_ plan: JoinPlan, generation: Int) -> (pin: Pin, soundRate: Double) {
        var join = plan.join
        join.generation = generation
        self.join = join
        // Said again from this join on (in or out of step once the epoch has come).
        status = plan.epochIn.map { .waitingForEpoch(seconds: $0) }
        wantedItem = nil
        soundCorrector.interrupt()
        if let index = plan.scheduleItem, let slotStart = join.slotStart {
            logger.debug("item \(index) on the shared timeline from \(slotStart) (cycle of \(join.period) s) at \(plan.decidedAt)")
        } else if let seek = plan.seek {
            logger.debug("joined the shared timeline: its pass \(join.timelinePass) at \(seek.position) s is the player's pass \(join.playerPass) (length \(join.period) s)")
        }
        return (join.pin(clockOffset: join.clockOffset), soundCorrector.rate)
    }

    /// After a frame was shown `offset` seconds off the timeline: the status to say when it changes
    /// (only once the loop's length is measured: before, the offsets are against a place that may
    /// still move). Frames far behind make the player join again, with a longer lead.
    mutating func frameShown(offset: Double, frameInterval: Double) -> SyncStatus? {
        guard let join else { return nil }
        if offset > Self.rejoinLateness {
            lead = min(lead * 2, Self.longestJoinLead)
            self.join = nil
            logger.notice("\(Int(offset * 1000)) ms behind the shared timeline: joining it again (\(lead) s ahead)")
        }
        guard join.lengthIsExact else { return nil }
        let offsetMs = (offset * 1000 * 10).rounded() / 10
        if abs(offset) > frameInterval {
            if case .outOfStep? = status { return nil }
            status = .outOfStep(offsetMs: offsetMs)
        } else if abs(offset) < frameInterval * Self.backInStep {
            if case .inStep? = status { return nil }
            lead = Self.joinLead  // a join that came in step: the next may be quick again
            status = .inStep(offsetMs: offsetMs)
        } else {
            return nil
        }
        return status
    }

    /// The sound heard `offset` seconds off the timeline at monotonic `now` (nil: not heard, or
    /// not on the timeline): moved once after a join (`moveAfterJoin`: the device already went on
    /// to the next item's sound moves with it), then resampled slightly faster or slower (a sound
    /// card's clock is not the system clock).
    mutating func soundHeard(offset: Double?, moveAfterJoin: Bool, at now: Double) -> SoundStep {
        guard let offset else {
            soundCorrector.interrupt()
            return .hold
        }
        if moveAfterJoin {
            soundCorrector.moved(at: now)
            return .moveAfterJoin(by: abs(offset) > 0.005 ? -offset : nil)
        }
        switch soundCorrector.update(offset: offset, at: now) {
        case let .resample(rate): return .resample(rate: rate, offsetMs: offset * 1000)
        case let .realign(seconds):
            logger.debug("the sound is \(Int(offset * 1000)) ms off the shared timeline: moved to it")
            return .realign(by: seconds, offsetMs: offset * 1000)
        case .hold: return .hold
        }
    }

    /// Whether `location` is the source that could not follow the timeline.
    func refused(_ location: MediaLocation?) -> Bool { location != nil && refusedFor == location }

    /// A playlist item on the schedule: it plays in its slot, pass 0 from the slot's start. An item
    /// that comes at its start (the switch from the one before, or the first one waiting for the
    /// epoch) is pinned there as it is; one joined later seeks to where its slot is; one whose slot
    /// this is not makes the playlist play the item that is on now.
    private mutating func stepOnSchedule(_ moment: Moment, on timeline: SharedTimeline, _ schedule: TimelineSchedule,
                                         index: Int) -> Step {
        absorbRunawayClock(moment)
        if let join, join.item == moment.item, join.timeline == timeline, join.slotStart != nil, isHolding(join, moment) {
            return .pin(join.pin(clockOffset: moment.clockOffset))
        }
        if moment.isPaused {
            join = nil
            return .hold
        }
        guard schedule.lengths.indices.contains(index) else {
            let saidBefore = refusedFor == moment.location
            refusedFor = moment.location
            return .dropSchedule(refusal: saidBefore ? nil : "the playlist changed after its lengths were read")
        }
        let now = moment.systemNow
        let slot = schedule.currentOrNextStart(of: index, at: now, epoch: timeline.epoch)
        let atItsStart = (moment.onScreen?.pass ?? 0) == 0 && (moment.onScreen?.position ?? 0) < moment.frameInterval * 1.5
        let place = schedule.place(at: now + lead, epoch: timeline.epoch)
        var join = Join(item: moment.item, timeline: timeline, period: schedule.cycle, slotStart: nil, timelinePass: 0,
                        playerPass: 0, clockOffset: moment.clockOffset, generation: moment.generation, lengthIsExact: true)
        if atItsStart && slot.start - now > -Self.switchLateness {
            // At its start and its slot to come (the switch from the item before, an item that came
            // early because the one before failed or was shorter, or the epoch ahead): it waits.
            join.slotStart = slot.start
            return .join(JoinPlan(seek: nil, join: join, epochIn: epochIn(moment, timeline), scheduleItem: index, decidedAt: now))
        }
        if place.item == index, place.position < schedule.lengths[index] - moment.frameInterval {
            join.slotStart = schedule.start(of: index, inCycle: place.cycle, epoch: timeline.epoch)
            return .join(JoinPlan(seek: (place.position, 0), join: join, epochIn: epochIn(moment, timeline), scheduleItem: index,
                                  decidedAt: now))
        }
        self.join = nil
        let wanted = place.item == index ? (index + 1) % schedule.lengths.count : place.item
        guard wantedItem != wanted else { return .hold }
        wantedItem = wanted
        logger.debug("the shared timeline is in item \(wanted), not \(index): playing it")
        return .wantItem(wanted)
    }

    /// The join still holds: the clock did not step, no other seek was made, the player plays.
    private func isHolding(_ join: Join, _ moment: Moment) -> Bool {
        abs(join.clockOffset - moment.clockOffset) < Self.clockStepLimit && join.generation == moment.generation
            && !moment.isPaused
    }

    private func epochIn(_ moment: Moment, _ timeline: SharedTimeline) -> Double? {
        moment.systemNow < timeline.epoch ? timeline.epoch - moment.systemNow : nil
    }

    private mutating func refuse(_ moment: Moment, reason: String) -> Step {
        guard refusedFor != moment.location else { return .hold }
        refusedFor = moment.location
        return .refuse(reason: reason)
    }

    /// Before a join is decided: a step of the system clock soon after the last step's join is
    /// taken as the clock's new offset (the picture follows it), and said once.
    private mutating func absorbRunawayClock(_ moment: Moment) {
        guard var join, join.item == moment.item, abs(join.clockOffset - moment.clockOffset) >= Self.clockStepLimit
        else { return }
        guard let last = lastStepJoin, moment.monotonicNow - last < Self.stepJoinInterval else {
            lastStepJoin = moment.monotonicNow  // this step's join comes next
            return
        }
        join.clockOffset = moment.clockOffset
        self.join = join
        if !saidRunawayClock {
            saidRunawayClock = true
            logger.warning("the system clock keeps stepping against the monotonic clock (it runs at another rate): the picture follows it without joining the shared timeline again")
        }
    }
}
