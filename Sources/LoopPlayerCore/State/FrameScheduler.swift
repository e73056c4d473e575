/// Decides what to do with the frame at the head of the queue: show it now, drop it, or wait.
/// It maps media time to clock time through an anchor set when the first frame after an open or a
/// seek is *actually shown* (a slow first upload does not shorten later intervals), measures every
/// wrap (the interval at the seam and each pass's period), and counts what was shown and dropped.
/// Pure: time is handed in; the presenter performs the decisions.
///
/// - A frame later than its own duration is dropped only when a newer frame is already queued.
/// - After a stall longer than `stallThreshold` with nothing to drop, the clock re-anchors instead
///   of rushing through the backlog. When the stall was the source's (the queue ran dry: a network
///   outage), nothing is dropped at all: playback resumes where it stopped.
/// - A frame whose time goes backwards (a container whose timestamps ignore B-frame reordering, a
///   damaged stream) is never dropped for it: it is shown one frame after the previous one.
package struct FrameScheduler: Equatable {
    /// What the scheduler needs of a frame.
    package struct Frame: Equatable {
        package var time: Double
        package var duration: Double
        package var pass: Int
        package var positionInPass: Double
        package var generation: Int

        package init(time: Double, duration: Double, pass: Int, positionInPass: Double, generation: Int) {
            self.time = time
            self.duration = duration
            self.pass = pass
            self.positionInPass = positionInPass
            self.generation = generation
        }
    }

    package enum Head: Equatable {
        case frame(Frame)
        /// `resumable`: the end came because looping was off; with looping on since, more follows.
        case endOfStream(generation: Int, resumable: Bool = false)

        package var generation: Int {
            switch self {
            case let .frame(frame): frame.generation
            case let .endOfStream(generation, _): generation
            }
        }
    }

    package enum Decision: Equatable {
        /// The head belongs to an older generation: remove it and ask again.
        case discard
        /// Remove the head and show it now (then call `shown(_:at:)`).
        case show
        /// The head is late and a newer frame waits: remove it (counted) and ask again.
        case drop
        /// Nothing is due before this clock time.
        case waitUntil(Double)
        /// The queue is empty.
        case waitForFrames
        /// Paused, held, or the end is being held.
        case idle
        /// The media just ended (looping off): remove an end-of-stream head, report `ended`.
        case end
        /// A stop condition was met.
        case finished
        /// `loops` passes are complete: this wrap counts (call `countWrap(to:)`), its frame is not shown.
        case finishedAtWrap
    }

    /// Re-anchor rather than rush when this far behind with nothing to drop.
    package static let stallThreshold = 0.25

    package private(set) var statistics = PlaybackStatistics()
    /// The frame on screen.
    package private(set) var current: Frame?
    package private(set) var ended = false
    package private(set) var isPaused = false
    package private(set) var speed = 1.0
    package private(set) var looping = true
    /// Clock time of the first frame shown.
    package private(set) var startedAt: Double?
    /// Clock time the run began: the origin of `StopCondition.duration` (the first frame's when not
    /// set), so a new source or a slow open does not give the run more time.
    package var runStartedAt: Double?
    private var durationOrigin: Double? { runStartedAt ?? startedAt }
    package private(set) var lastShownAt: Double?
    package private(set) var generation = 0
    /// Media time ↔ clock time; nil until the first frame after an open or a seek.
    package private(set) var anchor: (media: Double, clock: Double)?
    /// The anchor was set for the frame about to be shown; it moves to when that frame really appears.
    private var anchorIsProvisional = false
    /// The anchor is set from outside (a shared timeline) and nothing here moves it: not a stall,
    /// not a pause, not the sound's clock.
    package private(set) var isPinned = false
    /// The last frame's time on screen minus its time on the pinned timeline, in seconds.
    package private(set) var lastSyncOffset: Double?
    private var pausedAt: Double?
    private var passStartedAt: Double?
    /// The queue was found empty since the last frame shown: lateness then is the source's, not ours.
    package private(set) var starved = false
    /// When the item before (a playlist's) showed its last frame: the first frame here is a seam.
    private var previousItemShownAt: Double?
    /// When this item's first frame is due (nil: as soon as it is decoded).
    private var firstFrameAt: Double?

    package init(nominalFrameInterval: Double = 0) {
        statistics.nominalFrameIntervalMs = nominalFrameInterval * 1000
    }

    // MARK: Deciding

    /// What to do with `head` (nil: the queue is empty); `following` is the item after it.
    /// A virtual clock neither drops nor re-anchors: every frame is shown, exactly on time.
    package mutating func decide(head: Head?, following: Head?, now: Double, stop: StopCondition, virtualClock: Bool) -> Decision {
        if limitReached(stop, now: now) { return .finished }
        guard let head else {
            if ended && stop.exitAtEnd { return .finished }
            starved = true
            return .waitForFrames
        }
        if head.generation < generation { return .discard }
        // Paused or held at speed 0, but the first frame after a seek is still shown (the new picture).
        if isPaused || speed == 0, let current, current.generation == generation { return .idle }
        switch head {
        case let .endOfStream(_, resumable):
            // Looping switched on after the demuxer had reached the end: it goes on with the next
            // pass, whose frames (or a real end, if it cannot) follow this one. It is no end any more.
            if looping && resumable { return following == nil ? .waitForFrames : .discard }
            if let wait = waitForEndOfCurrentFrame(now: now) { return wait }
            ended = true
            return .end
        case let .frame(frame):
            if !looping, let current, frame.pass > current.pass, frame.generation == current.generation {
                if ended { return stop.exitAtEnd ? .finished : .idle }
                if let wait = waitForEndOfCurrentFrame(now: now) { return wait }
                ended = true
                return .end
            }
            if anchor == nil {
                anchor = (frame.time, max(now, firstFrameAt ?? now))
                anchorIsProvisional = true
                firstFrameAt = nil
            }
            let due = dueTime(of: frame) ?? now
            if let stopAt = deadline(for: stop), due >= stopAt {
                return now >= stopAt ? .finished : .waitUntil(stopAt)
            }
            if now < due { return .waitUntil(due) }
            // `--loops N`: the first frame of pass N is not shown; the wrap still counts.
            if let current, frame.pass > current.pass, frame.generation == current.generation, let loops = stop.loops,
               statistics.loopsCompleted + frame.pass - current.pass >= loops {
                return .finishedAtWrap
            }
            guard !virtualClock else { return .show }
            let lateness = now - due
            let sourceStalled = starved && lateness > Self.stallThreshold
            if lateness > frame.duration / max(speed, PropertyLimits.slowestScheduledSpeed), !isBackwards(frame), !sourceStalled, case .frame? = following {
                statistics.framesDropped += 1
                return .drop
            }
            if lateness > Self.stallThreshold, !isPinned {
                anchor = (frame.time, now)
                anchorIsProvisional = true
            }
            return .show
        }
    }

    /// `frame` was shown at clock time `now`. Returns the number of passes completed when it wrapped.
    @discardableResult
    package mutating func shown(_ frame: Frame, at now: Double) -> Int? {
        let wrapped = countWrap(to: frame)
        if isPinned, let due = dueTime(of: frame) {
            lastSyncOffset = now - due
            statistics.recordSyncOffset(ms: (now - due) * 1000)
        }
        if startedAt == nil { startedAt = now }
        if isPaused { pausedAt = now }  // a picture shown while paused (after a seek) starts the pause anew
        if anchorIsProvisional {
            anchor = (frame.time, now)
            anchorIsProvisional = false
        }
        if current == nil, let previousItemShownAt {
            statistics.recordSeam(intervalMs: (now - previousItemShownAt) * 1000)
            self.previousItemShownAt = nil
            passStartedAt = now
        } else if let previous = current, frame.pass > previous.pass, frame.generation == previous.generation {
            if let lastShownAt { statistics.recordSeam(intervalMs: (now - lastShownAt) * 1000) }
            if let passStartedAt { statistics.recordLoopPeriod(ms: (now - passStartedAt) * 1000) }
            passStartedAt = now
        } else if current == nil || frame.generation != current?.generation {
            passStartedAt = frame.positionInPass < frame.duration ? now : nil
        }
        lastShownAt = now
        current = frame
        starved = false
        statistics.framesPresented += 1
        return wrapped
    }

    /// Counts the wraps between the frame on screen and `frame` (once: `current` moves on after).
    /// Returns the passes completed so far when there was one.
    @discardableResult
    package mutating func countWrap(to frame: Frame) -> Int? {
        guard let current, frame.pass > current.pass, frame.generation == current.generation else { return nil }
        statistics.loopsCompleted += frame.pass - current.pass
        return statistics.loopsCompleted
    }

    /// A switch that counts as a wrap (a replaced file's new content); returns the loops completed.
    package mutating func countSwitchAsWrap() -> Int {
        statistics.loopsCompleted += 1
        return statistics.loopsCompleted
    }

    /// A playlist's next item continues the run of `previous`: the counters, the run's start (for
    /// `StopCondition.duration`), and the switch is measured as a seam.
    /// The first frame is shown at `time`, not as soon as it is decoded.
    package mutating func showFirstFrame(at time: Double) { firstFrameAt = time }

    package mutating func continueRun(from previous: FrameScheduler, firstFrameAt: Double? = nil) {
        self.firstFrameAt = firstFrameAt
        let nominal = statistics.nominalFrameIntervalMs
        statistics = previous.statistics
        statistics.nominalFrameIntervalMs = nominal
        startedAt = previous.startedAt
        runStartedAt = previous.runStartedAt
        previousItemShownAt = previous.lastShownAt
    }

    // MARK: Controls

    package mutating func setPaused(_ paused: Bool, at now: Double) {
        guard paused != isPaused else { return }
        if paused {
            pausedAt = now
        } else if let pausedAt {
            if let anchor, !isPinned {
                // Only the paused time after the anchor was set counts (a speed change or the first
                // frame may have re-anchored during the pause).
                self.anchor = (anchor.media, anchor.clock + (now - max(pausedAt, anchor.clock)))
            }
            // A pause is not part of a seam or a pass: the measures skip it.
            lastShownAt = lastShownAt.map { $0 + (now - max(pausedAt, $0)) }
            passStartedAt = passStartedAt.map { $0 + (now - max(pausedAt, $0)) }
        }
        if !paused { pausedAt = nil }
        isPaused = paused
    }

    package mutating func setSpeed(_ newSpeed: Double, at now: Double) {
        if anchor != nil, !isPinned { anchor = (mediaTime(at: now), now) }
        speed = max(0, newSpeed)
    }

    package mutating func setLooping(_ looping: Bool) {
        self.looping = looping
        if looping && ended {
            // The next pass starts now, not when the held last frame was due; the hold is no seam.
            ended = false
            anchor = nil
            lastShownAt = nil
            passStartedAt = nil
        }
    }

    /// Forget the clock anchor (and a pin) and drop frames older than `generation` (after a seek).
    package mutating func restart(generation: Int) {
        self.generation = generation
        anchor = nil
        isPinned = false  // a pin was for the frames before the seek; a shared timeline pins again
        ended = false
    }

    package mutating func recordAVOffset(ms: Double) { statistics.recordAVOffset(ms: ms) }
    package mutating func recordSyncSoundOffset(ms: Double) { statistics.recordSyncSoundOffset(ms: ms) }

    /// Pins media time `media` to clock time `clock` (a shared timeline's): frames are due by it,
    /// and nothing else moves it until `unpin()`. Set it again as often as the mapping moves.
    package mutating func pin(media: Double, clock: Double) {
        anchor = (media, clock)
        anchorIsProvisional = false
        isPinned = true
    }

    /// Back to the player's own clock: the next frame anchors it.
    package mutating func unpin() {
        guard isPinned else { return }
        isPinned = false
        anchor = nil
    }

    /// Moves the anchor by `seconds` of clock time (following the sound's clock).
    package mutating func shiftAnchor(by seconds: Double) {
        guard let anchor, !isPinned else { return }
        self.anchor = (anchor.media, anchor.clock + seconds)
    }

    // MARK: Reading

    /// The media time the picture is at, at clock time `time`.
    package func mediaTime(at time: Double) -> Double {
        guard let anchor else { return current?.time ?? 0 }
        let end = pausedAt ?? time
        return anchor.media + (end - anchor.clock) * speed
    }

    /// The anchor is set and final (the first frame after an open or a seek has appeared).
    package var isAnchored: Bool { anchor != nil && !anchorIsProvisional }

    /// A frame of the current generation (after the last seek) is on screen.
    package var showsCurrentGeneration: Bool { current?.generation == generation }

    /// When `stop.duration` runs out.
    package func deadline(for stop: StopCondition) -> Double? {
        guard let duration = stop.duration, let durationOrigin else { return nil }
        return durationOrigin + duration
    }

    /// The clock time `frame` is due at; nil before the clock is anchored.
    package func dueTime(of frame: Frame) -> Double? {
        guard let anchor else { return nil }
        let due = anchor.clock + (frame.time - anchor.media) / max(speed, PropertyLimits.slowestScheduledSpeed)
        // A frame going backwards is due one frame after the one on screen.
        if let current, let lastShownAt, isBackwards(frame, after: current) {
            return max(due, lastShownAt + current.duration / max(speed, PropertyLimits.slowestScheduledSpeed))
        }
        return due
    }

    // MARK: Internals

    private func isBackwards(_ frame: Frame) -> Bool {
        current.map { isBackwards(frame, after: $0) } ?? false
    }

    private func isBackwards(_ frame: Frame, after current: Frame) -> Bool {
        frame.generation == current.generation && frame.pass == current.pass && frame.time <= current.time
    }

    /// The end is reported once the last frame has had its time on screen: on the clock's grid, like
    /// any next frame (what follows, a playlist's next item, then comes one frame interval after the
    /// last frame was due, not after it appeared: the wake-up's lateness does not add up), or its
    /// full duration from when it appeared if that was a frame or more late.
    private func waitForEndOfCurrentFrame(now: Double) -> Decision? {
        guard let current, let lastShownAt, let anchor else { return nil }
        let due = anchor.clock + (current.time - anchor.media) / max(speed, PropertyLimits.slowestScheduledSpeed)
        let shown = current.duration / max(speed, PropertyLimits.slowestScheduledSpeed)
        let end = (lastShownAt - due < shown ? due : lastShownAt) + shown
        return now < end ? .waitUntil(end) : nil
    }

    private func limitReached(_ stop: StopCondition, now: Double) -> Bool {
        if let frames = stop.frames, statistics.framesPresented >= frames { return true }
        if let duration = stop.duration, let durationOrigin, now - durationOrigin >= duration { return true }
        return false
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.statistics == b.statistics && a.current == b.current && a.ended == b.ended && a.isPaused == b.isPaused
            && a.speed == b.speed && a.looping == b.looping && a.startedAt == b.startedAt
            && a.lastShownAt == b.lastShownAt && a.generation == b.generation && a.anchor?.media == b.anchor?.media
            && a.anchor?.clock == b.anchor?.clock && a.anchorIsProvisional == b.anchorIsProvisional
            && a.starved == b.starved && a.previousItemShownAt == b.previousItemShownAt && a.isPinned == b.isPinned
            && a.firstFrameAt == b.firstFrameAt
    }
}
